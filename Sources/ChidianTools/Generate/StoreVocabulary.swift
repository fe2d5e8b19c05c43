import ChidianCore

/// What generated stores are made of: per-category name parts, blurbs and prices, and Chinese street addresses.
enum StoreVocabulary {
    struct CategoryStyle: Sendable {
        let category: String
        /// Flavour words that open a name ("蜀香", "江南").
        let prefixes: [String]
        /// What the place is, suffix included ("火锅", "川菜馆", "茶餐厅").
        let stems: [String]
        /// Opening sentences of the description.
        let blurbs: [String]
        /// Spend per person in yuan.
        let price: ClosedRange<Int>
        let hours: [String]
    }

    static let dayHours = [
        "10:00–21:30", "10:30–22:00", "11:00–21:00", "11:00–22:30", "10:30–14:00, 17:00–21:30",
    ]
    static let earlyHours = ["07:00–20:00", "06:30–14:00", "07:30–21:00", "08:00–22:00"]
    static let lateHours = ["17:00–次日02:00", "16:30–次日01:00", "18:00–次日03:00", "11:00–次日02:00"]

    /// One style for every `DishCatalog.categories` entry, in the same order.
    static let styles: [CategoryStyle] = [
        CategoryStyle(
            category: "火锅", prefixes: ["蜀香", "渝味", "巴蜀", "山城", "老码头", "川江", "锦里", "围炉"],
            stems: ["火锅", "老火锅", "火锅馆", "串串香", "毛肚火锅", "鲜牛肉火锅", "涮肉坊", "铜锅涮肉"],
            blurbs: ["重庆老火锅，牛油锅底每天现炒", "鲜切牛肉现切现涮，锅底可选清汤、番茄和麻辣", "开了十几年的老店，麻辣鲜香，越吃越上头"],
            price: 80...150, hours: dayHours + lateHours),
        CategoryStyle(
            category: "川菜", prefixes: ["蜀味", "川府", "巴山", "天府", "锦城", "蓉城", "麻辣", "川江"],
            stems: ["川菜馆", "川菜", "私房菜", "小馆", "家常菜", "鱼庄", "食府", "酒楼"],
            blurbs: ["地道川味家常菜，麻辣鲜香很下饭", "主厨来自成都，豆瓣和花椒都从四川运来", "川菜馆子，口味偏重，不吃辣可以提前说"],
            price: 50...100, hours: dayHours),
        CategoryStyle(
            category: "粤菜", prefixes: ["粤港", "岭南", "广府", "港式", "珠江", "南粤", "羊城", "西关"],
            stems: ["茶餐厅", "酒家", "烧腊", "早茶", "点心", "粥铺", "茶楼", "烧味"],
            blurbs: ["广式茶点每日现做，早茶一直供应到下午", "正宗广式烧腊，每天限量出炉", "清淡鲜甜的粤式家常味道"],
            price: 60...150, hours: earlyHours + dayHours),
        CategoryStyle(
            category: "湘菜", prefixes: ["湘味", "湘江", "潇湘", "湘里", "长沙", "湘西", "岳麓", "辣府"],
            stems: ["湘菜馆", "湘菜", "小炒", "土菜馆", "农家菜", "饭庄"],
            blurbs: ["湘菜小炒，锅气十足", "湖南土菜，辣得过瘾", "地道长沙味道，剁椒都是自家腌的"],
            price: 50...90, hours: dayHours),
        CategoryStyle(
            category: "东北菜", prefixes: ["东北", "黑土地", "老铁", "关东", "林海", "雪乡", "哈尔滨", "长白山"],
            stems: ["菜馆", "饺子馆", "家常菜", "大院", "铁锅炖", "饭庄"],
            blurbs: ["东北家常菜，量大实惠", "铁锅炖现点现炖，适合一大家子聚餐", "老式东北菜馆，锅包肉是老式酸甜口"],
            price: 40...80, hours: dayHours),
        CategoryStyle(
            category: "西北菜", prefixes: ["西北", "长安", "陕味", "丝路", "西域", "大漠", "天山", "秦川"],
            stems: ["泡馍馆", "肉夹馍", "羊肉馆", "大盘鸡", "风味馆", "手抓饭"],
            blurbs: ["西北风味，羊肉来自宁夏盐池", "陕西老味道，馍是每天现烤的", "新疆菜，大盘鸡和手抓饭都很地道"],
            price: 30...70, hours: earlyHours + dayHours),
        CategoryStyle(
            category: "江浙菜", prefixes: ["江南", "杭帮", "西湖", "姑苏", "金陵", "本帮", "小桥", "烟雨"],
            stems: ["菜馆", "小馆", "酒楼", "食府", "汤包馆", "私房菜"],
            blurbs: ["杭帮菜，口味清淡偏甜", "本帮家常菜，浓油赤酱", "江南小馆，环境雅致"],
            price: 70...150, hours: dayHours),
        CategoryStyle(
            category: "北京菜", prefixes: ["京味", "老北京", "胡同", "四九城", "京城", "皇城根", "南锣", "什刹海"],
            stems: ["烤鸭店", "烤鸭", "小吃", "菜馆", "卤煮", "饭庄"],
            blurbs: ["老北京味道，烤鸭现片现吃", "胡同里的京味小馆", "京菜老字号风格，菜量适中"],
            price: 70...200, hours: dayHours),
        CategoryStyle(
            category: "云贵菜", prefixes: ["云南", "彩云", "滇味", "黔味", "苗家", "大理", "丽江", "傣家"],
            stems: ["米线", "过桥米线", "菌子火锅", "酸汤鱼", "菜馆", "风味馆"],
            blurbs: ["云南菜，野生菌季节限定", "贵州酸汤，用的是自然发酵的红酸汤", "滇味小馆，米线汤底每天熬足六小时"],
            price: 50...100, hours: dayHours),
        CategoryStyle(
            category: "小吃快餐", prefixes: ["街角", "巷子", "老街", "好味", "吃货", "阿婆", "夜市", "一口香"],
            stems: ["小吃", "快餐", "煎饼", "饺子馆", "馄饨铺", "猪脚饭", "黄焖鸡", "螺蛳粉"],
            blurbs: ["出餐快，适合工作日午餐", "街边小吃，十几年的老味道", "各地小吃，一人食也很方便"],
            price: 15...40, hours: earlyHours + dayHours),
        CategoryStyle(
            category: "烧烤", prefixes: ["撸串", "夜猫子", "老街", "炭火", "串吧", "东北", "新疆", "深夜"],
            stems: ["烧烤", "烤串", "烤肉", "烤鱼", "串店", "炭烤"],
            blurbs: ["炭火烧烤，营业到深夜", "肉串都是当天现穿的", "烤串配啤酒，适合朋友小聚"],
            price: 60...120, hours: lateHours),
        CategoryStyle(
            category: "日料", prefixes: ["和风", "樱花", "一番", "浅草", "北海道", "京都", "禅意", "青木"],
            stems: ["日料", "寿司", "居酒屋", "料理", "拉面", "烧鸟"],
            blurbs: ["日式料理，刺身食材每日空运", "居酒屋风格，清酒种类多", "寿司师傅现场制作，吧台位很有氛围"],
            price: 100...400, hours: dayHours + lateHours),
        CategoryStyle(
            category: "韩餐", prefixes: ["首尔", "明洞", "釜山", "阿里郎", "弘大", "清潭", "济州", "汉江"],
            stems: ["韩式烤肉", "韩国料理", "炸鸡", "部队锅", "拌饭"],
            blurbs: ["韩式烤肉，有专人帮烤", "韩国家常料理，小菜免费续", "炸鸡配啤酒，适合追剧"],
            price: 60...120, hours: dayHours),
        CategoryStyle(
            category: "东南亚菜", prefixes: ["曼谷", "清迈", "西贡", "南洋", "椰林", "暹罗", "芭提雅", "槟城"],
            stems: ["泰餐", "泰国菜", "越南粉", "南洋菜", "咖喱屋", "小厨"],
            blurbs: ["泰式风味，酸辣开胃", "越南粉汤底清甜，香草给得很足", "南洋风味，咖喱是自己炒的"],
            price: 70...140, hours: dayHours),
        CategoryStyle(
            category: "西餐", prefixes: ["蓝调", "橡树", "塞纳", "托斯卡纳", "小巴黎", "壹号", "转角", "晴空"],
            stems: ["西餐厅", "牛排馆", "意餐厅", "小酒馆", "餐厅", "Bistro"],
            blurbs: ["法式小馆，适合约会", "牛排现煎，可选熟度", "意式家庭餐厅，意面是手工做的"],
            price: 100...300, hours: dayHours),
        CategoryStyle(
            category: "甜品饮品", prefixes: ["甜蜜", "糖心", "小确幸", "半糖", "青柠", "芒芒", "椰岛", "暖暖"],
            stems: ["甜品", "糖水铺", "奶茶", "茶饮", "甜品屋", "咖啡", "冰室"],
            blurbs: ["港式糖水，甜度可调", "手作甜品，每天限量", "新鲜水果茶饮，少糖也很好喝"],
            price: 15...40, hours: dayHours),
        CategoryStyle(
            category: "面馆", prefixes: ["老碗", "一碗", "兰州", "重庆", "老街", "巷口", "秦岭", "汉口"],
            stems: ["面馆", "拉面", "牛肉面", "小面", "面庄", "粉面馆", "米粉"],
            blurbs: ["手工现拉，汤头每天熬", "一碗好面，浇头丰富", "面条劲道，加面不加价"],
            price: 18...40, hours: earlyHours + dayHours),
        CategoryStyle(
            category: "海鲜", prefixes: ["渔港", "海韵", "渔家", "深海", "海湾", "蓝海", "渔人码头", "潮汕"],
            stems: ["海鲜酒楼", "海鲜", "海鲜大排档", "蟹宴", "小龙虾", "海鲜排档"],
            blurbs: ["海鲜现捞现做，按斤称重", "潮汕风味海鲜，讲究原汁原味", "海鲜大排档，适合夜宵"],
            price: 120...300, hours: dayHours + lateHours),
    ]

    /// Owner-style name openings; `%` is a surname: 老王, 张记, 李家…
    static let ownerPatterns = ["老%", "%记", "%家", "小%", "%姐", "%师傅"]

    static let features = [
        "有包间，适合聚餐", "环境安静，适合约会", "支持外卖和自取", "地铁站出口步行五分钟", "商场内可免费停车两小时",
        "可以带宠物", "周末需要提前订位", "一人食也有小份菜", "有儿童座椅", "工作日午市有套餐",
    ]

    struct City: Sendable {
        let name: String
        /// Full district names with the short form used in branch names (朝阳区 → 朝阳店).
        let districts: [(full: String, short: String)]
    }

    static let cities: [City] = [
        City(name: "北京", districts: [("朝阳区", "朝阳"), ("海淀区", "海淀"), ("东城区", "东城"), ("西城区", "西城"), ("丰台区", "丰台")]),
        City(name: "上海", districts: [("徐汇区", "徐汇"), ("静安区", "静安"), ("黄浦区", "黄浦"), ("浦东新区", "浦东"), ("长宁区", "长宁")]),
        City(name: "广州", districts: [("天河区", "天河"), ("越秀区", "越秀"), ("海珠区", "海珠"), ("荔湾区", "荔湾")]),
        City(name: "深圳", districts: [("南山区", "南山"), ("福田区", "福田"), ("罗湖区", "罗湖"), ("宝安区", "宝安")]),
        City(name: "成都", districts: [("锦江区", "锦江"), ("武侯区", "武侯"), ("青羊区", "青羊"), ("成华区", "成华")]),
        City(name: "重庆", districts: [("渝中区", "渝中"), ("江北区", "江北"), ("南岸区", "南岸"), ("沙坪坝区", "沙坪坝")]),
        City(name: "杭州", districts: [("西湖区", "西湖"), ("上城区", "上城"), ("拱墅区", "拱墅"), ("滨江区", "滨江")]),
        City(name: "西安", districts: [("雁塔区", "雁塔"), ("碑林区", "碑林"), ("莲湖区", "莲湖"), ("新城区", "新城")]),
        City(name: "长沙", districts: [("岳麓区", "岳麓"), ("芙蓉区", "芙蓉"), ("天心区", "天心"), ("开福区", "开福")]),
        City(name: "武汉", districts: [("江汉区", "江汉"), ("武昌区", "武昌"), ("洪山区", "洪山"), ("江岸区", "江岸")]),
        City(name: "南京", districts: [("鼓楼区", "鼓楼"), ("玄武区", "玄武"), ("秦淮区", "秦淮"), ("建邺区", "建邺")]),
        City(name: "沈阳", districts: [("和平区", "和平"), ("沈河区", "沈河"), ("皇姑区", "皇姑"), ("铁西区", "铁西")]),
    ]

    static let roads = [
        "人民路", "解放路", "中山路", "建设路", "文化路", "学府路", "长江路", "和平街", "光明街", "新华路", "青年路",
        "胜利街", "滨江路", "科技路", "东风路", "黄河路", "幸福大街", "花园路", "公园路", "友谊路", "振兴路", "复兴路",
        "育才路", "健康路", "商业街", "西大街", "东大街", "南大街", "北大街", "步行街",
    ]

    static let malls = ["万达广场", "大悦城", "万象城", "龙湖天街", "印象城", "银泰城", "吾悦广场", "来福士"]
}
