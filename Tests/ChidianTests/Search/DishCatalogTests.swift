import Foundation
import Testing

@testable import Chidian

@Suite struct DishCatalogTests {
    @Test func holdsAtLeastThreeHundredUniqueCleanNames() {
        let names = DishCatalog.names
        #expect(names.count >= 300)
        #expect(Set(names.map { $0.lowercased() }).count == names.count, "a dish name repeats")
        for name in names {
            #expect(name == name.trimmingCharacters(in: .whitespacesAndNewlines) && !name.isEmpty, "\(name)")
            #expect(!name.contains("%") && !name.contains("，"))
        }
        // The search examples: 火锅 is a dish of its own.
        #expect(names.contains("火锅"))
        for dish in ["水煮鱼", "宫保鸡丁", "小笼包", "麻婆豆腐", "北京烤鸭", "酸菜鱼", "兰州拉面", "肠粉", "煲仔饭", "臭豆腐", "烤串", "螺蛳粉"] {
            #expect(names.contains(dish), "\(dish) missing")
        }
        let english = DishCatalog.dishes.filter(\.isEnglish).map(\.name)
        #expect(english.count >= 5)
        #expect(english.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
        #expect(["dumplings", "noodles", "hot pot", "fried rice", "milk tea"].allSatisfy(english.contains))
    }

    @Test func everyDishIsFiledUnderAListedCategoryAndEveryCategoryHasAStoreStyle() {
        let categories = DishCatalog.categories
        #expect(categories.count >= 12)
        #expect(Set(categories).count == categories.count)
        for required in ["火锅", "川菜", "粤菜", "湘菜", "东北菜", "西北菜", "江浙菜", "小吃快餐", "烧烤", "日料", "西餐", "甜品饮品", "面馆", "海鲜"] {
            #expect(categories.contains(required), "\(required) missing")
        }
        #expect(DishCatalog.dishes.allSatisfy { categories.contains($0.category) })
        for category in categories {
            #expect(DishCatalog.dishes(in: category).filter { !$0.isEnglish }.count >= 10, "\(category) is thin")
        }
        // The generator's per-category vocabulary lines up with the catalogue, index for index.
        #expect(StoreVocabulary.styles.map(\.category) == categories)
        #expect(DishCatalog.dishes(in: "不存在").isEmpty)
    }
}
