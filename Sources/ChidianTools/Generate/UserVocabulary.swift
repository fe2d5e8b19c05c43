import ChidianCore

/// Parts of the nicknames people pick on review sites: Chinese ones, pinyin ones and English ones.
enum UserVocabulary {
    /// Common surnames with their pinyin.
    static let surnames: [(hanzi: String, pinyin: String)] = [
        ("王", "wang"), ("李", "li"), ("张", "zhang"), ("刘", "liu"), ("陈", "chen"), ("杨", "yang"), ("赵", "zhao"),
        ("黄", "huang"), ("周", "zhou"), ("吴", "wu"), ("徐", "xu"), ("孙", "sun"), ("胡", "hu"), ("朱", "zhu"),
        ("高", "gao"), ("林", "lin"), ("何", "he"), ("郭", "guo"), ("马", "ma"), ("罗", "luo"), ("梁", "liang"),
        ("宋", "song"), ("郑", "zheng"), ("谢", "xie"), ("韩", "han"), ("唐", "tang"), ("冯", "feng"), ("许", "xu"),
        ("邓", "deng"), ("曹", "cao"), ("彭", "peng"), ("曾", "zeng"), ("肖", "xiao"), ("田", "tian"), ("董", "dong"),
    ]

    /// Given names with their pinyin.
    static let givenNames: [(hanzi: String, pinyin: String)] = [
        ("伟", "wei"), ("芳", "fang"), ("娜", "na"), ("敏", "min"), ("静", "jing"), ("磊", "lei"), ("洋", "yang"),
        ("婷", "ting"), ("杰", "jie"), ("涛", "tao"), ("明", "ming"), ("超", "chao"), ("丽", "li"), ("强", "qiang"),
        ("晨", "chen"), ("宇", "yu"), ("欣怡", "xinyi"), ("子涵", "zihan"), ("浩然", "haoran"), ("梓萱", "zixuan"),
        ("一鸣", "yiming"), ("思远", "siyuan"), ("佳琪", "jiaqi"), ("雨桐", "yutong"), ("俊杰", "junjie"),
        ("晓峰", "xiaofeng"), ("嘉怡", "jiayi"), ("文博", "wenbo"), ("诗涵", "shihan"), ("志强", "zhiqiang"),
        ("小雨", "xiaoyu"), ("晓燕", "xiaoyan"), ("天宇", "tianyu"), ("美琳", "meilin"), ("建国", "jianguo"),
    ]

    static let englishNames = [
        "Kevin", "Amy", "Lily", "Tony", "Jack", "Cathy", "Leo", "Vivian", "Eric", "Grace", "Jason", "Coco", "Ivy",
        "Max", "Sunny", "Ben", "Nina", "Oscar", "Wendy", "Alan", "Joy", "Ryan", "Cindy", "Daniel", "Emma",
    ]

    static let nouns = [
        "小猫", "猫咪", "兔子", "小熊", "胖虎", "小鱼", "小可爱", "吃货", "少年", "姑娘", "大叔", "小猪", "汪汪",
        "小怪兽", "团子", "土豆", "橘子", "豆豆",
    ]

    static let moods = [
        "快乐", "不吃香菜", "减肥失败", "吃不胖", "深夜觅食", "认真干饭", "爱笑", "挑食", "路过", "饿了", "干饭",
        "无辣不欢", "嗜甜", "佛系", "想吃肉", "周末探店",
    ]

    static let places = [
        "北京", "上海", "成都", "重庆", "广州", "深圳", "杭州", "长沙", "西安", "武汉", "南京", "沈阳", "魔都", "帝都",
        "蓉城", "山城", "羊城",
    ]

    static let foodies = ["吃货", "干饭人", "美食家", "小胖", "探店达人", "觅食者", "老饕", "馋猫"]

    static let tails = ["同学", "爱吃肉", "今天吃啥", "不加班", "在路上", "要减肥", "吃饱了"]

    static let englishTails = ["eats", "foodie", "chihuo", "yummy", "hungry", "daily"]
}
