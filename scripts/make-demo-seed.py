#!/usr/bin/env python3
"""Writes the repository's demo seed set, seed/, in the original app's JSON format.

    python3 -m venv /tmp/chidian-seed-venv && /tmp/chidian-seed-venv/bin/pip install bcrypt
    /tmp/chidian-seed-venv/bin/python scripts/make-demo-seed.py          # from the repository root

It rewrites seed/userInfo.json, seed/store.json, seed/comment.json and seed/images/, then checks the result
(unique ids, references, ratings, notices, image files, lengths). Everything but the password hashes is the same
on every run (a fixed random seed); a hash already in seed/userInfo.json that still matches its password is kept,
so re-running does not churn the file. Passwords are listed in seed/README.md.

Python 3 standard library plus `bcrypt` (cost 10), which only this script needs; the output is committed, so
nobody else does. Load the result with `chidian seed seed`.
"""

import json
import math
import os
import random
import shutil
import struct
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "seed")
IMAGES = os.path.join(OUT, "images")
BCRYPT_COST = 10
IMAGE_BUDGET = 200 * 1024

# ---------------------------------------------------------------------------------------------- accounts

# (id, name, type, password). User1 and Manager4 are the original app's demo accounts.
PLAIN_USERS = [
    "User1", "User2", "User3", "吃货小王", "爱吃辣的猫", "zhangwei88", "Lily_Chen", "深夜觅食者", "胖虎不胖", "成都老饕",
    "减肥失败的兔子", "Kevin Zhao", "小鱼干", "干饭人阿杰", "甜食控", "北漂小林", "周末探店", "不吃香菜", "Amy_Liu",
    "米线爱好者", "重庆崽儿", "一只土豆", "杭州小美", "老饕张叔", "陈同学", "无辣不欢", "夜宵小分队", "Tony林", "橘子汽水",
    "晓燕", "西安肉夹馍",
]
MANAGERS = ["Manager1", "Manager2", "Manager3", "Manager4", "Manager5", "阿芳", "阿强", "陈师傅"]
DEMO_PASSWORD = "111"
ADMIN_PASSWORD = "chidian-admin"


def accounts():
    rows = []
    for name in PLAIN_USERS:
        rows.append({"name": name, "type": "user", "password": DEMO_PASSWORD})
    for name in MANAGERS:
        rows.append({"name": name, "type": "manager", "password": DEMO_PASSWORD})
    rows.append({"name": "Admin", "type": "admin", "password": ADMIN_PASSWORD})
    for index, row in enumerate(rows, 1):
        row["id"] = "u%03d" % index
    return rows


# ---------------------------------------------------------------------------------------------- stores

# (name, category, manager, address, description, signature dishes, image count, ad spend)
STORES = [
    ("蜀香火锅·春熙路店", "火锅", "Manager4", "成都市锦江区春熙路北段88号3层",
     "成都老牌火锅，牛油锅底每天现炒，毛肚和鸭肠是招牌。营业到凌晨一点，夜宵党的据点。",
     ["毛肚", "鸭肠", "黄喉", "虾滑", "鸳鸯锅", "冰粉"], 3, 8800),
    ("蜀香川菜馆", "川菜", "Manager4", "成都市锦江区红星路三段16号",
     "家常川菜，口味地道，辣度可调。主厨在成都掌勺二十年，豆瓣酱是自己做的。",
     ["回锅肉", "麻婆豆腐", "宫保鸡丁", "鱼香肉丝", "水煮牛肉"], 2, 3000),
    ("老码头串串香", "火锅", "Manager4", "成都市武侯区玉林西路23号",
     "玉林路上的老串串，一签一毛，锅底麻辣鲜香。",
     ["串串香", "鹅肠", "牛油火锅", "冰粉"], 2, 0),
    ("巴山酸菜鱼", "川菜", "Manager4", "成都市青羊区宽窄巷子东广场12号",
     "坛子里泡满一年的老酸菜，鱼是当天现杀的黑鱼。",
     ["酸菜鱼", "水煮鱼", "口水鸡", "干煸四季豆"], 2, 1800),
    ("锦里小吃", "小吃快餐", "Manager4", "成都市武侯区武侯祠大街231号",
     "成都各色小吃一站吃齐，一人食也很方便。",
     ["钵钵鸡", "红油抄手", "甜皮鸭", "豆花饭"], 1, 0),
    ("蓉城担担面", "面馆", "Manager4", "成都市锦江区总府路2号",
     "一碗面的讲究：现擀的碱水面，臊子每天早上现炒。",
     ["担担面", "宜宾燃面", "肥肠粉", "红油抄手"], 1, 0),
    ("粤港茶餐厅", "粤菜", "Manager1", "广州市天河区体育西路103号维多利广场B1层",
     "港式茶餐厅，奶茶用的是丝袜拉法，菠萝油现烤。",
     ["丝袜奶茶", "菠萝包", "干炒牛河", "叉烧", "冻柠茶"], 3, 5200),
    ("西关早茶楼", "粤菜", "Manager1", "广州市荔湾区上下九路58号",
     "老西关风味早茶，点心师傅每天凌晨四点开工。",
     ["虾饺", "烧卖", "肠粉", "叉烧包", "豉汁凤爪", "马拉糕"], 3, 4500),
    ("渔港海鲜酒楼", "海鲜", "Manager1", "广州市海珠区滨江东路88号",
     "海鲜现捞现做，按斤称重，明码标价。",
     ["清蒸石斑鱼", "白灼虾", "椒盐皮皮虾", "避风塘炒蟹", "蒜蓉粉丝扇贝"], 2, 6600),
    ("湘里人家", "湘菜", "Manager2", "长沙市芙蓉区解放西路168号",
     "湖南家常味道，剁椒是老板娘自己腌的。",
     ["剁椒鱼头", "辣椒炒肉", "小炒黄牛肉", "擂辣椒皮蛋", "外婆菜"], 2, 2600),
    ("辣府小炒", "湘菜", "Manager2", "长沙市天心区坡子街45号",
     "锅气十足的湘式小炒，米饭免费续。",
     ["农家小炒肉", "口味虾", "手撕包菜", "香干炒肉", "啤酒鸭"], 1, 0),
    ("老铁东北菜馆", "东北菜", "Manager2", "沈阳市和平区太原北街19号",
     "正宗东北菜，锅包肉是老式酸甜口，分量大，适合聚餐。",
     ["锅包肉", "地三鲜", "猪肉炖粉条", "小鸡炖蘑菇", "拔丝地瓜"], 2, 1200),
    ("雪乡饺子馆", "东北菜", "Manager2", "沈阳市沈河区中街路120号",
     "手工现包的饺子，酸菜是自家腌的。",
     ["酸菜饺子", "溜肉段", "东北大拉皮", "酱骨架"], 1, 0),
    ("长安泡馍馆", "西北菜", "Manager3", "西安市莲湖区北院门回民街76号",
     "回民街上的老字号，羊肉泡馍的汤每天凌晨开始熬。",
     ["羊肉泡馍", "肉夹馍", "凉皮", "粉汤羊血"], 2, 0),
    ("老碗油泼面", "面馆", "Manager3", "西安市碑林区东木头市52号",
     "关中面食，辣子现泼，面是现扯的宽面。",
     ["油泼面", "biangbiang面", "岐山臊子面", "肉夹馍"], 1, 800),
    ("丝路大盘鸡", "西北菜", "Manager3", "西安市雁塔区小寨东路66号",
     "新疆风味，大盘鸡配皮带面，羊肉串现烤。",
     ["大盘鸡", "手抓饭", "烤包子", "羊肉串", "新疆拌面"], 2, 0),
    ("金城牛肉面", "面馆", "Manager3", "西安市新城区东五路31号",
     "兰州师傅现拉现煮，一清二白三红四绿。",
     ["兰州拉面", "红烧牛肉面", "刀削面"], 1, 0),
    ("江南小馆", "江浙菜", "Manager5", "杭州市上城区河坊街102号",
     "杭帮家常菜，口味清淡偏甜，环境雅致。",
     ["东坡肉", "西湖醋鱼", "龙井虾仁", "叫花鸡", "腌笃鲜"], 3, 3800),
    ("湖畔杭帮菜", "江浙菜", "Manager5", "杭州市西湖区北山街28号",
     "湖景位需要提前预订，适合带长辈。",
     ["西湖醋鱼", "宋嫂鱼羹", "干炸响铃", "油爆虾", "桂花糖藕"], 2, 1500),
    ("姑苏汤包馆", "江浙菜", "Manager5", "南京市秦淮区夫子庙贡院街9号",
     "现包现蒸的汤包，皮薄汤多，早上七点开门。",
     ["蟹黄汤包", "小笼包", "生煎包", "鸭血粉丝汤", "盐水鸭"], 1, 0),
    ("糖心甜品屋", "甜品饮品", "阿芳", "广州市越秀区北京路步行街203号",
     "港式糖水和手作甜品，甜度可调，每天限量。",
     ["杨枝甘露", "双皮奶", "芒果班戟", "姜撞奶", "榴莲千层"], 2, 500),
    ("半糖茶饮", "甜品饮品", "阿芳", "深圳市南山区海岸城购物中心1层",
     "现萃茶底加新鲜水果，少糖也好喝。",
     ["珍珠奶茶", "手打柠檬茶", "生椰拿铁", "芋圆"], 1, 0),
    ("椰岛糖水铺", "甜品饮品", "阿芳", "深圳市福田区华强北路1008号",
     "椰子现开现做，糖水老火慢熬。",
     ["椰子冻", "烧仙草", "绿豆沙", "龟苓膏", "水果捞"], 1, 0),
    ("阿强烧烤", "烧烤", "阿强", "重庆市渝中区解放碑八一路177号",
     "炭火烧烤，肉串当天现穿，营业到凌晨三点。",
     ["羊肉串", "烤鸡翅", "烤脑花", "烤苕皮", "烤茄子"], 2, 0),
    ("夜猫子烤串", "烧烤", "阿强", "重庆市江北区观音桥步行街36号",
     "夜宵首选，冰啤酒管够。",
     ["烤串", "烤五花肉", "烤韭菜", "烤馒头片", "烤生蚝"], 1, 0),
    ("炭火万州烤鱼", "烧烤", "阿强", "重庆市南岸区南滨路99号",
     "炭火现烤，江景露台，配菜丰富。",
     ["万州烤鱼", "烤鱼", "烤玉米"], 2, 0),
    ("一番寿司", "日料", "陈师傅", "上海市静安区南京西路1266号恒隆广场5层",
     "吧台板前寿司，刺身食材每日空运。",
     ["寿司", "三文鱼刺身", "海胆", "甜虾", "玉子烧"], 3, 0),
    ("浅草居酒屋", "日料", "陈师傅", "上海市徐汇区永康路66号",
     "深夜居酒屋，烧鸟和清酒是强项。",
     ["烧鸟", "天妇罗", "关东煮", "日式炸猪排"], 2, 0),
    ("青木拉面", "日料", "陈师傅", "上海市黄浦区云南南路18号",
     "豚骨汤熬足十二小时，面的软硬可选。",
     ["豚骨拉面", "乌冬面", "章鱼小丸子", "味噌汤"], 1, 0),
    ("晴空西餐厅", "西餐", "Manager1", "广州市天河区珠江新城花城大道85号",
     "法式小馆，适合约会，面包是自己烤的。",
     ["西冷牛排", "奶油蘑菇汤", "焗蜗牛", "法式鹅肝", "提拉米苏"], 2, 0),
    ("托斯卡纳牛排馆", "西餐", "Manager5", "杭州市拱墅区湖墅南路318号",
     "意式家庭餐厅，手工意面和炭烤牛排。",
     ["菲力牛排", "肉酱意面", "玛格丽特披萨", "凯撒沙拉"], 2, 0),
    ("街角煎饼果子", "小吃快餐", "Manager2", "沈阳市皇姑区黄河南大街52号",
     "早餐摊起家，现摊现卖，加蛋加薄脆。",
     ["煎饼果子", "豆腐脑", "油条", "豆浆"], 1, 0),
    ("深海小龙虾", "海鲜", "Manager4", "成都市成华区建设路168号",
     "小龙虾季限定，麻辣和十三香两种口味。",
     ["麻辣小龙虾", "十三香小龙虾", "炒花甲", "香辣蟹"], 2, 0),
    ("胡同炸酱面", "面馆", "Manager3", "北京市东城区南锣鼓巷81号",
     "老北京炸酱面，八大碗菜码配手擀面。",
     ["炸酱面", "卤煮火烧", "炒肝", "焦圈"], 1, 0),
    ("京味烤鸭店", "北京菜", "Manager5", "北京市东城区前门大街32号",
     "挂炉烤鸭现片现吃，厨师推车到桌边片鸭。",
     ["北京烤鸭", "京酱肉丝", "干炸丸子", "豌豆黄", "驴打滚"], 3, 0),
    ("滇味过桥米线", "云贵菜", "Manager1", "深圳市罗湖区东门中路2016号",
     "云南菜，米线汤底每天熬足六小时，野生菌季节限定。",
     ["过桥米线", "汽锅鸡", "鲜花饼", "炒见手青", "菠萝饭"], 2, 0),
]

# Ratings lean on how good a place is: 0 excellent … 3 poor.
STORE_QUALITY = [0, 1, 1, 0, 2, 1, 1, 0, 1, 1, 2, 1, 2, 0, 1, 1, 2, 0, 1, 3, 0, 2, 1, 1, 2, 1, 0, 1, 2, 1, 2, 3, 1, 2, 1, 1]
RATING_WEIGHTS = [
    [1, 1, 4, 24, 70],
    [2, 4, 12, 42, 40],
    [5, 10, 28, 37, 20],
    [22, 22, 26, 18, 12],
]

ENGLISH_DISHES = {
    "火锅": ["hot pot"], "川菜": ["mapo tofu", "kung pao chicken"], "粤菜": ["dim sum", "char siu"],
    "小吃快餐": ["dumplings", "spring rolls"], "面馆": ["noodles"], "海鲜": ["crayfish"], "甜品饮品": ["milk tea", "egg tart"],
    "烧烤": ["skewers"], "日料": ["sushi", "ramen"], "西餐": ["steak", "pasta", "pizza"], "北京菜": ["Peking duck"],
}

# ---------------------------------------------------------------------------------------------- review text

OPENINGS = [
    "周末和朋友来吃，", "第二次来了，", "下班路过进来吃了一顿，", "带爸妈来的，", "朋友推荐的，", "公司聚餐选的这家，",
    "排了快一个小时的队，", "和对象约会来的，", "一个人来吃的，", "生日那天订了包间，", "刷到好多推荐终于来了，",
    "就在公司楼下，经常来，", "出差顺路来尝尝，", "下雨天人不多，", "大学室友聚会，", "带外地朋友来打卡，",
]

# {d} is a dish; one or two per sentence.
GOOD_DISH = [
    "{d}很好吃，", "{d}做得很地道，", "{d}真的绝了，", "强烈推荐{d}，", "{d}必点，", "最喜欢他们家的{d}，",
    "{d}比想象中好吃太多，", "{d}味道很正，", "点了{d}，一上桌就被抢光了，", "{d}分量很足，",
]
GOOD_MORE = ["{d}也不错，", "{d}也很推荐，", "还有{d}，每次必点，", "{d}是惊喜，", "{d}也值得一试，"]
MIXED_DISH = [
    "{d}还可以，", "{d}中规中矩，", "{d}稍微有点咸，", "{d}味道一般，分量倒是挺足，", "{d}没有网上说的那么惊艳，",
    "{d}和上次比退步了一点，",
]
MIXED_MORE = ["{d}就比较普通了，", "{d}还行，", "{d}偏油了一点，"]
BAD_DISH = [
    "{d}没什么味道，", "{d}太咸了，", "{d}端上来是温的，", "{d}分量少得可怜，", "{d}感觉不太新鲜，", "{d}和图片差太多，",
]
BAD_MORE = ["{d}也很一般，", "{d}更让人失望，", "{d}吃了两口就放下了，"]

# Desserts and drinks are drunk and sweet, not salty or 入味.
SWEET_DISH = [
    ["{d}甜得发齁，", "{d}料给得很少，", "{d}的水果不新鲜，", "{d}喝起来像兑了水，"],
    ["{d}还可以，", "{d}中规中矩，", "{d}甜度有点高，", "{d}没有网上说的那么惊艳，"],
    ["{d}很好喝，", "{d}做得很地道，", "{d}真的绝了，", "强烈推荐{d}，", "{d}必点，", "最喜欢他们家的{d}，", "{d}料很足，"],
]
SWEET_MORE = [["{d}也很一般，", "{d}更让人失望，"], ["{d}还行，", "{d}就比较普通了，"], ["{d}也不错，", "{d}是惊喜，", "{d}也很推荐，"]]

FLAVOR = {
    "火锅": ["锅底是现炒的牛油，香得很。", "毛肚七上八下刚刚好，脆嫩。", "小料台有二十多种，香油碟必备。", "吃完衣服上全是火锅味，但值得。"],
    "川菜": ["麻辣味很正，花椒是真的麻。", "米饭都多添了两碗。", "辣度可以选，微辣也够味。", "每道菜都很下饭。"],
    "小吃快餐": ["出餐很快，五分钟就上了。", "价格很亲民，二十块吃得饱饱的。", "老板手脚麻利，排队也不久。"],
    "面馆": ["面条很劲道，汤头浓郁。", "辣子是现泼的，一屋子香味。", "可以免费加面，吃得很饱。"],
    "粤菜": ["点心都是现蒸的，热乎乎的。", "早茶氛围很好，周围都是喝茶聊天的老街坊。", "烧味皮脆肉嫩，不腻。"],
    "海鲜": ["海鲜都是现捞的，很新鲜。", "按斤称重，明码标价，不坑人。", "蘸料调得很好，突出鲜味。"],
    "湘菜": ["辣得很过瘾，一定要配米饭。", "锅气十足，小炒就要这个味。", "剁椒是自家腌的，香辣不呛。"],
    "东北菜": ["分量巨大，两个人点三个菜就吃不完。", "老板是东北人，说话特别逗。", "酸甜口的锅包肉是老做法，外酥里嫩。"],
    "西北菜": ["馍要自己掰，掰得越小越入味。", "羊肉一点都不膻。", "最后加的皮带面吸满了汤汁。"],
    "江浙菜": ["口味偏甜，很有江南的味道。", "环境雅致，适合带长辈。", "浓油赤酱，下饭神器。"],
    "甜品饮品": ["甜度刚好，不会腻。", "水果很新鲜，料给得很足。", "小店布置得很温馨，适合拍照。"],
    "烧烤": ["炭火烤的就是香。", "肉串很大串，不是那种小签子。", "配冰啤酒绝了，夏天夜宵首选。"],
    "日料": ["刺身很新鲜，入口即化。", "师傅很专业，会介绍每道菜的吃法。", "坐吧台能看师傅捏寿司，很有仪式感。"],
    "西餐": ["牛排五分熟刚刚好，肉汁很足。", "环境很有情调，适合约会。", "面包是自己烤的，还能续。"],
    "北京菜": ["烤鸭现片，皮脆肉嫩。", "很有老北京的味道。", "服务员会教你怎么卷饼。"],
    "云贵菜": ["汤底很鲜，米线很滑。", "配料摆了一桌子，仪式感满满。", "野生菌炒得很香，一定要炒熟再吃。"],
}

GOOD_REMARKS = [
    "服务员很热情，一直帮忙加水。", "环境干净整洁。", "上菜速度很快。", "性价比很高。", "老板人很好，还送了饮料。",
    "装修很有特色。", "停车也方便。", "价格实惠，学生党友好。",
]
MIXED_REMARKS = ["环境一般，有点吵。", "上菜有点慢。", "价格稍微贵了点。", "人多要等位。", "服务还行，就是忙不过来。"]
BAD_REMARKS = [
    "服务员态度很差，叫了好几次都没人理。", "等了四十分钟才上菜。", "桌子油腻腻的。", "价格偏贵，不值这个价。",
    "结账的时候还多算了一道菜。",
]
GOOD_CLOSINGS = ["下次还来！", "推荐！", "五星好评。", "会回购的。", "值得专门跑一趟。", "已经推荐给同事了。", "爱了爱了。"]
MIXED_CLOSINGS = ["总体还行吧。", "可以试试，但不会专门来。", "中规中矩。"]
BAD_CLOSINGS = ["不会再来了。", "踩雷了。", "有点失望。", "不推荐。"]

# Whole reviews, for variety; {d} and {e} are two different dishes of the store.
FULL_GOOD = [
    "第一次吃到这么正宗的{d}，和老家的味道一模一样，感动到想哭。",
    "工作日中午来的，{d}和{e}两个人吃刚刚好，还不到一百块，划算！",
    "为了{d}专门坐了四十分钟地铁，值了。{e}也很好吃。",
    "{d}是这家的灵魂，{e}也不错。服务员小姐姐很热情，会主动介绍菜品。",
    "带外地来的朋友吃，她说{d}是这次旅行吃过最好吃的东西。",
    "每个月都要来一次，{d}从来没失望过。",
    "吃了三年了，老板从小店开到现在，{d}的味道一直没变。",
    "{d}一口下去好满足，{e}也香。下次带家人一起来。",
]
FULL_MIXED = [
    "{d}还不错，{e}就有点普通了。排队四十分钟，感觉不太值得。",
    "网红店，{d}拍照好看，味道一般般。",
    "价格涨了，{d}分量好像变少了，味道倒是没变。",
]
FULL_BAD = [
    "慕名而来，{d}却让人失望，完全没有传说中那么好吃。",
    "{d}上来是凉的，叫服务员热一下等了二十分钟，体验很差。",
]

ENGLISH_GOOD = ["Highly recommended!", "Totally worth it.", "Will definitely come back.", "Best {x} I've had in China!"]
ENGLISH_MIXED = ["Just okay.", "Decent {x}, nothing special."]
ENGLISH_BAD = ["Not worth the wait.", "Disappointing {x}."]

NOTICES = {
    "蜀香火锅·春熙路店": "【周年店庆】春熙路店开业一周年，本周到店消费满200元送毛肚一份，欢迎大家来涮！",
    "蜀香川菜馆": "本店新推出麻婆豆腐套餐，工作日午市38元一位，含米饭和例汤。",
    "老码头串串香": "周末晚市排队较多，可以提前在门口取号，等位送冰粉一碗。",
    "巴山酸菜鱼": "酸菜都是自家坛子泡的，最近供不应求，每天限量80份酸菜鱼，卖完即止。",
    "粤港茶餐厅": "即日起下午茶时段（14:00–17:00）丝袜奶茶配菠萝包套餐只要22元。",
    "西关早茶楼": "早茶时段调整为7:00–14:30，周末虾饺和叉烧包加量供应。",
    "渔港海鲜酒楼": "今日到店：石斑鱼、皮皮虾、花甲，数量有限，先到先得。",
    "湘里人家": "感谢大家一直以来的支持！今年新腌的剁椒已经上桌，剁椒鱼头欢迎来尝。",
    "老铁东北菜馆": "冬季上新铁锅炖大鹅，需提前一小时电话预订。",
    "长安泡馍馆": "本店每天早上六点半开门，羊肉泡馍的汤是凌晨三点开始熬的。",
    "江南小馆": "清明前后推出腌笃鲜，春笋是当天从山里运来的，限时供应。",
    "糖心甜品屋": "芒果季来啦！芒果班戟和杨枝甘露全部换成了新鲜台芒。",
    "阿强烧烤": "夏季营业时间延长到凌晨三点，啤酒买五送一。",
    "一番寿司": "本周北海道海胆到货，数量有限，建议提前预订吧台位。",
    "晴空西餐厅": "情人节双人套餐开放预订，含西冷牛排、奶油蘑菇汤和提拉米苏。",
    "深海小龙虾": "小龙虾季开始了，麻辣和十三香两种口味，外卖满99元免配送费。",
}

REVIEW_COUNT = 300


def review_text(rng, store, rating, english):
    name, category, _, _, _, dishes, _, _ = store
    mood = 2 if rating >= 4 else 1 if rating == 3 else 0
    picked = rng.sample(dishes, min(len(dishes), rng.choice([1, 1, 2, 2, 3])))
    if rng.random() < 0.2 and len(dishes) >= 2:
        template = rng.choice([FULL_BAD, FULL_MIXED, FULL_GOOD][mood])
        text = template.format(d=picked[0], e=(picked + [d for d in dishes if d not in picked])[1])
    else:
        first = [BAD_DISH, MIXED_DISH, GOOD_DISH][mood]
        more = [BAD_MORE, MIXED_MORE, GOOD_MORE][mood]
        if category == "甜品饮品":
            first, more = SWEET_DISH[mood], SWEET_MORE[mood]
        text = rng.choice(OPENINGS) if rng.random() < 0.4 else ""
        text += rng.choice(first).format(d=picked[0])
        for dish, template in zip(picked[1:], rng.sample(more, len(picked) - 1)):
            text += template.format(d=dish)
        text = text[:-1] + "。"
        if mood > 0 and rng.random() < 0.6:
            text += rng.choice(FLAVOR[category])
        remarks = [BAD_REMARKS, MIXED_REMARKS, GOOD_REMARKS][mood]
        for remark in rng.sample(remarks, rng.choice([0, 1, 1, 2])):
            text += remark
        # Too short to read like a review: say something about the visit.
        for remark in rng.sample(remarks, len(remarks)):
            if len(text) >= 18:
                break
            if remark not in text:
                text += remark
        closing = rng.choice([BAD_CLOSINGS, MIXED_CLOSINGS, GOOD_CLOSINGS][mood])
        if rng.random() < 0.7 and closing[:-1] not in text:
            text += closing
    if english:
        x = rng.choice(ENGLISH_DISHES.get(category, ["food"]))
        text += " " + rng.choice([ENGLISH_BAD, ENGLISH_MIXED, ENGLISH_GOOD][mood]).format(x=x)
    return text


# ---------------------------------------------------------------------------------------------- images

CATEGORY_COLORS = {
    "火锅": ((196, 48, 36), (224, 120, 40)), "川菜": ((178, 34, 34), (230, 90, 50)), "粤菜": ((200, 140, 60), (240, 200, 120)),
    "湘菜": ((190, 40, 30), (250, 160, 60)), "东北菜": ((150, 90, 50), (210, 150, 90)), "西北菜": ((160, 110, 60), (220, 180, 120)),
    "江浙菜": ((120, 60, 40), (200, 120, 80)), "小吃快餐": ((230, 160, 40), (250, 210, 110)), "烧烤": ((90, 50, 30), (200, 100, 40)),
    "日料": ((240, 120, 100), (250, 230, 220)), "西餐": ((110, 50, 40), (190, 120, 90)), "甜品饮品": ((250, 200, 80), (255, 240, 200)),
    "面馆": ((220, 170, 90), (245, 225, 170)), "海鲜": ((230, 100, 60), (250, 180, 140)), "北京菜": ((150, 60, 30), (220, 130, 70)),
    "云贵菜": ((200, 170, 60), (130, 170, 80)),
}
BACKGROUNDS = [((60, 70, 90), (30, 35, 50)), ((120, 90, 70), (70, 50, 40)), ((200, 190, 170), (150, 140, 120)), ((40, 90, 80), (20, 50, 45))]


def png(width, height, pixel):
    """A truecolour PNG, each row with the Sub filter (smooth pictures compress to a few hundred bytes)."""
    raw = bytearray()
    for y in range(height):
        raw.append(1)
        previous = (0, 0, 0)
        for x in range(width):
            p = pixel(x, y)
            raw.extend((p[i] - previous[i]) & 255 for i in range(3))
            previous = p

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")


def mix(a, b, t):
    return tuple(int(a[i] * (1 - t) + b[i] * t) for i in range(3))


def dish_picture(rng, category):
    """A plate seen from above on a table: the food in the category's colours, a few garnish dots."""
    food, garnish = CATEGORY_COLORS[category]
    top, bottom = rng.choice(BACKGROUNDS)
    cx, cy = rng.randint(26, 38), rng.randint(20, 28)
    dots = [(cx + rng.randint(-7, 7), cy + rng.randint(-6, 6)) for _ in range(3)]

    def pixel(x, y):
        d = math.hypot(x - cx, y - cy)
        if any(math.hypot(x - dx, y - dy) < 2 for dx, dy in dots) and d < 12:
            return garnish
        if d < 12:
            return mix(food, garnish, d / 24)
        if d < 18:
            return (244, 243, 238)
        return mix(top, bottom, y / 47)

    return png(64, 48, pixel)


def storefront_picture(rng, category):
    """A shop front: sky, a wall, a sign in the category's colour and a lit door."""
    sign, light = CATEGORY_COLORS[category]
    wall = rng.choice([(180, 170, 150), (150, 150, 160), (200, 190, 175)])

    def pixel(x, y):
        if y < 10:
            return mix((120, 170, 220), (190, 215, 235), y / 10)
        if 12 <= y < 20 and 6 <= x < 58:
            return sign
        if 26 <= y < 46 and 24 <= x < 40:
            return light
        if 26 <= y < 40 and (6 <= x < 18 or 46 <= x < 58):
            return (90, 110, 130)
        return wall

    return png(64, 48, pixel)


# ---------------------------------------------------------------------------------------------- output


def hash_passwords(users):
    import bcrypt  # only needed here; see the docstring

    previous = {}
    path = os.path.join(OUT, "userInfo.json")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            previous = {u["id"]: u["keyword"] for u in json.load(f)}
    for user in users:
        old = previous.get(user["id"], "")
        password = user.pop("password").encode()
        if old.startswith("$2") and bcrypt.checkpw(password, old.encode()):
            user["keyword"] = old
        else:
            user["keyword"] = bcrypt.hashpw(password, bcrypt.gensalt(BCRYPT_COST)).decode()


def build():
    rng = random.Random(20221120)
    users = accounts()
    by_name = {u["name"]: u for u in users}
    reviewers = [u["id"] for u in users if u["type"] == "user"]
    stores, comments, images = [], [], {}

    for index, store in enumerate(STORES, 1):
        name, category, manager, address, description, dishes, picture_count, ad_spend = store
        sid = "s%03d" % index
        names = []
        for n in range(1, picture_count + 1):
            image = "%s_%d" % (sid, n)
            images[image] = storefront_picture(rng, category) if n == 1 else dish_picture(rng, category)
            names.append(image)
        # Busy places have more fans; User1 has a handful of favourites.
        fans = rng.sample(reviewers[1:], rng.randint(0, 7))
        if index in (1, 7, 8, 18, 27, 35):
            fans.insert(0, by_name["User1"]["id"])
        stores.append({
            "id": sid, "name": name, "imageName": names, "category": category, "manager": by_name[manager]["id"],
            "sumCost": ad_spend, "staredUserId": fans, "description": description, "address": address,
        })

    # Reviews: popular stores get more; no one reviews a store twice; User1 is an active reviewer.
    weights = [rng.choice([3, 5, 8, 12, 16]) for _ in STORES]
    pairs, texts, count = set(), set(), 0
    english_left = 16
    while count < REVIEW_COUNT:
        s = rng.choices(range(len(STORES)), weights)[0]
        author = by_name["User1"]["id"] if rng.random() < 0.05 else rng.choice(reviewers)
        if (author, s) in pairs:
            continue
        rating = rng.choices([1, 2, 3, 4, 5], RATING_WEIGHTS[STORE_QUALITY[s]])[0]
        english = english_left > 0 and rng.random() < 0.06
        text = review_text(rng, STORES[s], rating, english)
        if text in texts:
            continue
        pairs.add((author, s))
        texts.add(text)
        english_left -= english
        count += 1
        comments.append({"store": s, "user_id": author, "rating": rating, "context": text, "commentImageName": []})

    # Managers' notices on their own stores, spread through the timeline.
    for s, store in enumerate(STORES):
        if store[0] in NOTICES:
            position = rng.randint(0, len(comments))
            comments.insert(position, {
                "store": s, "user_id": by_name[store[2]]["id"], "rating": 0, "context": NOTICES[store[0]],
                "commentImageName": [],
            })

    for index, comment in enumerate(comments, 1):
        comment["id"] = "c%03d" % index
        comment["store_id"] = "s%03d" % (comment.pop("store") + 1)
    # Photos on some reviews (not notices): one or two dish pictures.
    category_of = {s["id"]: s["category"] for s in stores}
    manager_of = {s["id"]: s["manager"] for s in stores}
    for comment in rng.sample([c for c in comments if c["user_id"] != manager_of[c["store_id"]]], 36):
        for n in range(1, rng.choice([1, 1, 2]) + 1):
            image = "%s_%d" % (comment["id"], n)
            images[image] = dish_picture(rng, category_of[comment["store_id"]])
            comment["commentImageName"].append(image)

    ordered = [{k: c[k] for k in ("id", "store_id", "user_id", "rating", "context", "commentImageName")} for c in comments]
    # Times, from their own random stream so the rest stays as it was: stores opened over the year before
    # 2026-07-01, comments spread in id order over the four months after it, so "newest first" reads right.
    clock = random.Random(11)
    start = 1782864000  # 2026-07-01T00:00:00Z
    for index, store in enumerate(stores):
        store["createdAt"] = iso(start - 365 * 86400 + index * 9 * 86400 + clock.randint(0, 86399))
    step = 120 * 86400 // max(1, len(ordered))
    for index, comment in enumerate(ordered):
        comment["createdAt"] = iso(start + index * step + clock.randint(0, step - 1))
    return users, stores, ordered, images


def iso(seconds):
    import datetime
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def check(users, stores, comments, images):
    problems = []
    for rows, label in ((users, "user"), (stores, "store"), (comments, "comment")):
        ids = [r["id"] for r in rows]
        if len(set(ids)) != len(ids):
            problems.append("duplicate %s ids" % label)
    names = [u["name"].lower() for u in users]
    if len(set(names)) != len(names):
        problems.append("user names clash ignoring case")
    if any(len(u["name"]) > 32 for u in users):
        problems.append("a user name is over 32 characters")
    types = {u["id"]: u["type"] for u in users}
    if [u["name"] for u in users if u["type"] == "admin"] != ["Admin"]:
        problems.append("there must be exactly one admin, Admin")
    store_by_id = {s["id"]: s for s in stores}
    for s in stores:
        if types.get(s["manager"]) != "manager":
            problems.append("%s: manager %s is not a manager" % (s["id"], s["manager"]))
        for fan in s["staredUserId"]:
            if fan not in types:
                problems.append("%s: unknown fan %s" % (s["id"], fan))
        if not 1 <= len(s["imageName"]) <= 3:
            problems.append("%s: %d images" % (s["id"], len(s["imageName"])))
    spends = [s["sumCost"] for s in stores if s["sumCost"] > 0]
    if len(set(spends)) != len(spends):
        problems.append("ad spends are not distinct")
    reviews = notices = 0
    for c in comments:
        store = store_by_id.get(c["store_id"])
        if store is None or c["user_id"] not in types:
            problems.append("%s: dangling reference" % c["id"])
            continue
        if c["user_id"] == store["manager"]:
            notices += 1
        else:
            reviews += 1
            if types[c["user_id"]] != "user":
                problems.append("%s: a review by a %s" % (c["id"], types[c["user_id"]]))
            if not 1 <= c["rating"] <= 5:
                problems.append("%s: rating %d" % (c["id"], c["rating"]))
        if not 10 <= len(c["context"]) <= 5000:
            problems.append("%s: body length %d" % (c["id"], len(c["context"])))
    for s in stores:
        for name in s["imageName"]:
            if name not in images:
                problems.append("%s: missing image %s" % (s["id"], name))
    for c in comments:
        for name in c["commentImageName"]:
            if name not in images:
                problems.append("%s: missing image %s" % (c["id"], name))
    total = sum(len(b) for b in images.values())
    if total > IMAGE_BUDGET:
        problems.append("images take %d bytes, over %d" % (total, IMAGE_BUDGET))
    if reviews != REVIEW_COUNT:
        problems.append("%d reviews, not %d" % (reviews, REVIEW_COUNT))
    return problems, reviews, notices, total


def main():
    users, stores, comments, images = build()
    problems, reviews, notices, total = check(users, stores, comments, images)
    if problems:
        for problem in problems:
            print("error:", problem, file=sys.stderr)
        sys.exit(1)
    os.makedirs(OUT, exist_ok=True)
    hash_passwords(users)
    users = [{k: u[k] for k in ("id", "name", "keyword", "type")} for u in users]
    for name, rows in (("userInfo.json", users), ("store.json", stores), ("comment.json", comments)):
        # One row per line: readable, and a change to one row is a one-line diff.
        with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
            f.write("[\n")
            f.write(",\n".join("  " + json.dumps(row, ensure_ascii=False) for row in rows))
            f.write("\n]\n")
    shutil.rmtree(IMAGES, ignore_errors=True)
    os.makedirs(IMAGES)
    for name, data in sorted(images.items()):
        with open(os.path.join(IMAGES, name + ".png"), "wb") as f:
            f.write(data)
    print("seed/: %d users, %d stores over %d categories, %d reviews, %d notices, %d images (%d bytes)" % (
        len(users), len(stores), len({s["category"] for s in stores}), reviews, notices, len(images), total))


if __name__ == "__main__":
    main()
