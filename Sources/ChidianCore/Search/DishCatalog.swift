/// Real dish names, each filed under the one category it is most at home in.
///
/// Two users: the data generator picks the dishes its reviews mention from here, and search uses the names as
/// its dish vocabulary. So the list stays clean: every name unique, every name something people order.
public enum DishCatalog {
    public struct Dish: Sendable, Hashable {
        public let name: String
        /// One of `DishCatalog.categories`.
        public let category: String
        /// The handful of English names; everything else is Chinese.
        public let isEnglish: Bool
    }

    /// Restaurant categories, in display order (names as the seed files and the API spell them).
    public static let categories: [String] = sections.map(\.category)

    /// Every dish: the Chinese ones by category, then the English ones.
    public static let dishes: [Dish] =
        sections.flatMap { section in section.names.map { Dish(name: $0, category: section.category, isEnglish: false) }
        }
        + english.map { Dish(name: $0.name, category: $0.category, isEnglish: true) }

    /// Every dish name, in the order of `dishes`.
    public static let names: [String] = dishes.map(\.name)

    /// The dishes of one category (empty for a category not in the list).
    public static func dishes(in category: String) -> [Dish] {
        dishes.filter { $0.category == category }
    }

    private struct Section: Sendable {
        let category: String
        let names: [String]
    }

    private static let sections: [Section] = [
        Section(
            category: "火锅",
            names: [
                "火锅", "重庆火锅", "鸳鸯锅", "九宫格火锅", "牛油火锅", "毛肚", "鸭肠", "鹅肠", "黄喉", "肥牛卷",
                "手切羊肉", "虾滑", "番茄锅底", "菌汤锅底", "铜锅涮肉", "涮羊肉", "潮汕牛肉火锅", "椰子鸡", "猪肚鸡",
                "串串香", "冒菜", "麻辣烫", "鱼火锅", "羊蝎子",
            ]),
        Section(
            category: "川菜",
            names: [
                "水煮鱼", "宫保鸡丁", "麻婆豆腐", "回锅肉", "鱼香肉丝", "鱼香茄子", "辣子鸡", "口水鸡", "夫妻肺片",
                "水煮牛肉", "酸菜鱼", "毛血旺", "干煸四季豆", "蒜泥白肉", "钵钵鸡", "红油抄手", "棒棒鸡", "东坡肘子",
                "樟茶鸭", "开水白菜", "泡椒凤爪", "冷吃兔", "蚂蚁上树", "甜皮鸭", "豆花饭",
            ]),
        Section(
            category: "粤菜",
            names: [
                "白切鸡", "烧鹅", "叉烧", "烧乳鸽", "盐焗鸡", "豉油鸡", "虾饺", "烧卖", "肠粉", "豉汁凤爪", "豉汁排骨",
                "叉烧包", "流沙包", "糯米鸡", "萝卜糕", "马拉糕", "煲仔饭", "干炒牛河", "艇仔粥", "皮蛋瘦肉粥", "老火靓汤",
                "咕噜肉", "菠萝包", "咖喱牛腩", "猪脚姜",
            ]),
        Section(
            category: "湘菜",
            names: [
                "剁椒鱼头", "小炒黄牛肉", "农家小炒肉", "辣椒炒肉", "毛氏红烧肉", "口味虾", "腊味合蒸", "永州血鸭",
                "酸豆角炒肉末", "擂辣椒皮蛋", "外婆菜", "东安子鸡", "手撕包菜", "香干炒肉", "干锅肥肠", "干锅花菜",
                "湘西腊肉", "火焙鱼", "啤酒鸭", "紫苏桃子姜",
            ]),
        Section(
            category: "东北菜",
            names: [
                "锅包肉", "地三鲜", "小鸡炖蘑菇", "猪肉炖粉条", "酸菜汆白肉", "杀猪菜", "溜肉段", "拔丝地瓜", "东北大拉皮",
                "东北乱炖", "铁锅炖大鹅", "尖椒干豆腐", "熏肉大饼", "酸菜饺子", "哈尔滨红肠", "得莫利炖鱼", "雪衣豆沙",
                "酱骨架", "蘸酱菜",
            ]),
        Section(
            category: "西北菜",
            names: [
                "羊肉泡馍", "葫芦头泡馍", "肉夹馍", "凉皮", "甑糕", "手抓羊肉", "大盘鸡", "烤包子", "手抓饭", "烤全羊",
                "黄焖羊肉", "清炖羊肉", "酿皮", "粉汤羊血", "馕", "馕包肉", "丁丁炒面", "新疆炒米粉", "羊杂汤",
            ]),
        Section(
            category: "江浙菜",
            names: [
                "东坡肉", "西湖醋鱼", "龙井虾仁", "叫花鸡", "松鼠鳜鱼", "响油鳝糊", "腌笃鲜", "油爆虾", "本帮红烧肉",
                "糖醋小排", "蟹粉豆腐", "狮子头", "盐水鸭", "鸭血粉丝汤", "小笼包", "生煎包", "蟹黄汤包", "醉鸡",
                "八宝鸭", "干炸响铃", "宋嫂鱼羹", "熏鱼", "桂花糖藕",
            ]),
        Section(
            category: "北京菜",
            names: [
                "北京烤鸭", "京酱肉丝", "爆肚", "卤煮火烧", "炒肝", "豆汁", "焦圈", "驴打滚", "艾窝窝", "豌豆黄",
                "干炸丸子", "糖醋里脊", "九转大肠", "葱烧海参", "油焖大虾", "锅塌豆腐", "门钉肉饼", "褡裢火烧", "芥末墩",
                "麻豆腐",
            ]),
        Section(
            category: "云贵菜",
            names: [
                "过桥米线", "小锅米线", "汽锅鸡", "酸汤鱼", "野生菌火锅", "炒见手青", "鲜花饼", "香茅草烤鱼", "破酥包",
                "丝娃娃", "花溪牛肉粉", "遵义羊肉粉", "折耳根炒腊肉", "烧饵块", "菠萝饭", "牛干巴", "黑三剁", "乳扇",
                "恋爱豆腐果", "肠旺面",
            ]),
        Section(
            category: "小吃快餐",
            names: [
                "煎饼果子", "臭豆腐", "黄焖鸡米饭", "锅贴", "蒸饺", "饺子", "馄饨", "手抓饼", "鸡蛋灌饼", "烤冷面",
                "螺蛳粉", "酸辣粉", "胡辣汤", "豆腐脑", "油条", "豆浆", "粢饭团", "糖油粑粑", "烧饼", "卤肉饭",
                "隆江猪脚饭", "烧腊饭", "扬州炒饭", "蛋炒饭", "麻辣香锅", "卤鸭脖", "炸串", "狼牙土豆", "春卷",
                "韭菜盒子", "驴肉火烧", "鸡公煲", "炸鸡",
            ]),
        Section(
            category: "烧烤",
            names: [
                "烤串", "羊肉串", "烤羊排", "烤羊腿", "烤鸡翅", "烤鸡胗", "烤五花肉", "烤腰子", "烤板筋", "掌中宝",
                "烤生蚝", "烤鱿鱼", "烤茄子", "烤韭菜", "烤玉米", "烤馒头片", "烤面筋", "烤苕皮", "烤脑花", "烤猪蹄",
                "烤鱼", "万州烤鱼",
            ]),
        Section(
            category: "日料",
            names: [
                "寿司", "三文鱼刺身", "刺身拼盘", "天妇罗", "鳗鱼饭", "寿喜烧", "照烧鸡腿饭", "乌冬面", "豚骨拉面",
                "味噌汤", "章鱼小丸子", "关东煮", "玉子烧", "日式炸猪排", "亲子丼", "牛丼", "手卷", "茶碗蒸", "海胆",
                "甜虾", "军舰卷", "烧鸟",
            ]),
        Section(
            category: "韩餐",
            names: [
                "石锅拌饭", "韩式炸鸡", "部队锅", "韩式烤肉", "泡菜汤", "大酱汤", "朝鲜冷面", "辣炒年糕", "参鸡汤",
                "紫菜包饭", "海鲜饼", "猪肉汤饭", "泡菜炒饭",
            ]),
        Section(
            category: "东南亚菜",
            names: [
                "冬阴功汤", "咖喱蟹", "菠萝炒饭", "越南河粉", "越南春卷", "海南鸡饭", "叻沙", "肉骨茶", "绿咖喱鸡",
                "芒果糯米饭", "青木瓜沙拉", "打抛猪肉饭", "沙爹串", "椰浆饭", "泰式柠檬鱼",
            ]),
        Section(
            category: "西餐",
            names: [
                "西冷牛排", "菲力牛排", "惠灵顿牛排", "肉酱意面", "奶油培根意面", "奶油蘑菇汤", "罗宋汤", "凯撒沙拉",
                "玛格丽特披萨", "牛肉汉堡", "炸鱼薯条", "烤春鸡", "焗蜗牛", "法式鹅肝", "总汇三明治", "西班牙海鲜饭",
                "芝士焗饭", "意式烩饭",
            ]),
        Section(
            category: "甜品饮品",
            names: [
                "奶茶", "珍珠奶茶", "杨枝甘露", "双皮奶", "姜撞奶", "芋圆", "烧仙草", "冰粉", "龟苓膏", "芒果班戟",
                "榴莲千层", "提拉米苏", "巴斯克芝士蛋糕", "葡式蛋挞", "丝袜奶茶", "冻柠茶", "鸳鸯奶茶", "椰子冻",
                "绿豆沙", "酒酿圆子", "生椰拿铁", "手打柠檬茶", "水果捞", "甜豆花",
            ]),
        Section(
            category: "面馆",
            names: [
                "兰州拉面", "红烧牛肉面", "重庆小面", "担担面", "热干面", "炸酱面", "油泼面", "biangbiang面", "岐山臊子面",
                "刀削面", "新疆拌面", "葱油拌面", "片儿川", "云吞面", "阳春面", "豌杂面", "宜宾燃面", "桂林米粉",
                "常德米粉", "肥肠粉", "河南烩面", "虾爆鳝面", "蟹黄拌面",
            ]),
        Section(
            category: "海鲜",
            names: [
                "清蒸石斑鱼", "清蒸鲈鱼", "白灼虾", "香辣蟹", "避风塘炒蟹", "大闸蟹", "蒜蓉粉丝扇贝", "椒盐皮皮虾",
                "麻辣小龙虾", "十三香小龙虾", "炒花甲", "砂锅海鲜粥", "红烧鲍鱼", "酱爆鱿鱼", "蒜蓉蛏子", "红烧带鱼",
                "海鲜大咖", "葱姜炒蟹",
            ]),
    ]

    /// English names people use for Chinese (and a few other) dishes, each with its category.
    private static let english: [(name: String, category: String)] = [
        ("dumplings", "小吃快餐"), ("fried rice", "小吃快餐"), ("spring rolls", "小吃快餐"), ("noodles", "面馆"),
        ("wonton soup", "面馆"), ("hot pot", "火锅"), ("milk tea", "甜品饮品"), ("bubble tea", "甜品饮品"),
        ("egg tart", "甜品饮品"), ("cheesecake", "甜品饮品"), ("dim sum", "粤菜"), ("char siu", "粤菜"),
        ("Peking duck", "北京菜"), ("kung pao chicken", "川菜"), ("mapo tofu", "川菜"), ("skewers", "烧烤"),
        ("sushi", "日料"), ("ramen", "日料"), ("bibimbap", "韩餐"), ("Korean fried chicken", "韩餐"),
        ("pad thai", "东南亚菜"), ("tom yum", "东南亚菜"), ("steak", "西餐"), ("pasta", "西餐"), ("pizza", "西餐"),
        ("burger", "西餐"), ("crayfish", "海鲜"),
    ]
}
