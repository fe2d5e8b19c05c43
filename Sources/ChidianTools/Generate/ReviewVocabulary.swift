import ChidianCore

/// Sentences reviews and notices are built from. `%` marks where a dish name goes.
/// Dish sentences carry no end punctuation (the builder joins them with "，" and ends with "。");
/// every other sentence carries its own.
enum ReviewVocabulary {
    enum Mood: Int, CaseIterable {
        case good, mixed, bad

        init(rating: Int) {
            self = rating >= 4 ? .good : rating == 3 ? .mixed : .bad
        }
    }

    static let openings = [
        "周末和朋友来吃，", "第二次来了，", "下班路过进来吃了一顿，", "带爸妈来的，", "朋友推荐来的，", "公司聚餐选的这家，",
        "排了快一个小时的队，", "中午点的外卖，", "和对象约会来的，", "一个人来吃的，", "生日聚会订的包间，",
        "刷到好多推荐终于来了，", "就在公司楼下，", "老顾客了，", "出差顺便来尝尝，", "晚上十点多还在营业，",
        "团购的双人套餐，", "雨天人不多，",
    ]

    /// The first dish sentence, by mood: the first list fits any dish, the second only savoury ones
    /// (nobody calls milk tea 入味).
    static let firstDish: [(any: [String], savoury: [String])] = [
        (
            any: [
                "%做得很地道", "%分量很足", "强烈推荐%", "%必点", "%超级好吃", "最喜欢他家的%", "%比想象中好吃",
                "%味道很正", "%是我吃过最好吃的之一", "点了%，一上桌就被抢光了",
            ],
            savoury: ["%很入味", "%火候刚刚好", "%很下饭", "%锅气很足"]
        ),
        (
            any: ["%还可以", "%中规中矩", "%偏甜了一点", "%和以前比退步了一点", "点了%，没有网上说的那么惊艳", "%分量有点少"],
            savoury: ["%稍微有点咸", "%味道一般，但分量挺足", "%有点油"]
        ),
        (
            any: ["%分量少得可怜", "%感觉不新鲜", "%和图片差太多", "%吃出了头发", "点了%，等了四十分钟", "%难吃得要命"],
            savoury: ["%完全不入味", "%太咸了", "%端上来是凉的"]
        ),
    ]

    /// Further dish sentences, by mood, split the same way.
    static let moreDish: [(any: [String], savoury: [String])] = [
        (any: ["%也不错", "%也很好吃", "还有%，必点", "%也值得一试"], savoury: ["%外酥里嫩", "%香而不腻"]),
        (any: ["%就一般了", "%中规中矩", "%还行"], savoury: ["%有点咸"]),
        (any: ["%也很一般", "%更是难吃", "%也没什么味道"], savoury: ["%又干又硬"]),
    ]

    static let middles: [[String]] = [
        [
            "服务员很热情。", "环境干净整洁。", "上菜很快。", "性价比很高。", "老板人很好，还送了饮料。", "装修很有特色。",
            "小料台选择很多。", "分量足，三个人都吃撑了。", "价格实惠，学生党友好。", "停车也方便。",
        ],
        ["环境一般。", "上菜有点慢。", "价格稍贵。", "人多要等位。", "服务还行。", "就是位置有点难找。", "口味偏重。"],
        ["服务员态度很差。", "等了很久才上菜。", "桌子油腻腻的。", "价格偏贵，不值。", "卫生堪忧。", "催了三次菜都没上齐。"],
    ]

    /// Longer remarks about the visit, by mood.
    static let stories: [[String]] = [
        [
            "我们四个人点了六个菜，人均不到一百，很划算。", "服务员会主动帮忙换骨碟，细节做得很好。", "窗边的位置可以看到江景，拍照很出片。",
            "这家开了好多年了，味道一直没变。", "老板会根据人数推荐菜量，不会让你点多。", "饭后还送了水果和小甜点，很贴心。",
        ],
        [
            "菜的口味没问题，就是环境有点吵，聊天得喊着说。", "总体来说中规中矩，没有特别惊艳的菜。", "排队的人很多，其实没有传说中那么夸张。",
            "价格比之前涨了一点，分量倒是没变。",
        ],
        [
            "结账的时候还多算了一道菜，跟服务员核对了半天。", "菜单上一半的菜都说卖完了。", "隔壁桌点得比我们晚，却先上了菜。",
            "空调坏了，吃得满头大汗。",
        ],
    ]

    static let closings: [[String]] = [
        ["下次还来！", "推荐！", "五星好评。", "会回购的。", "值得一试。", "已经推荐给同事了。", "爱了爱了。"],
        ["总体还行。", "一般般吧。", "可以试试。", "不会专门来。", "凑合。"],
        ["不会再来了。", "踩雷了。", "失望。", "不推荐。", "差评。"],
    ]

    /// English sentences for the reviews that mix some in.
    static let english: [[String]] = [
        ["Highly recommended!", "Totally worth it.", "Will come back again.", "Love it!", "So good."],
        ["Just okay.", "Not bad, not great.", "A bit pricey though."],
        ["Not worth it.", "Would not come back.", "Disappointing."],
    ]

    /// English sentences naming an English dish; `%` is the dish.
    static let englishDish: [[String]] = [
        ["Best % in town!", "The % here is amazing.", "Come for the %."],
        ["The % was fine.", "Decent % but nothing special."],
        ["Skip the %.", "The % was cold."],
    ]

    /// Notices a manager posts on their store; `%` is a dish of the store's category.
    static let notices = [
        "【新品上市】本店新推出%，欢迎大家到店品尝！", "即日起工作日午市套餐八折，%限量供应，先到先得。",
        "感谢大家的支持！到店出示收藏截图即可免费获赠%一份。", "本店将于下周一进行设备检修，暂停营业一天，给大家带来不便敬请谅解。",
        "春节期间正常营业，除夕当晚需提前电话预订包间。", "外卖满60元免配送费，%也可以外送啦。", "应大家要求，%恢复供应啦，每天限量50份。",
        "店庆活动：本周全场菜品八八折，%第二份半价。", "温馨提示：周末晚市人多，建议提前取号，等位期间提供免费小吃。",
        "近期%的食材涨价，但我们坚持不涨价，品质不变。",
    ]

    static let noticeTail = "欢迎新老顾客光临！"
}
