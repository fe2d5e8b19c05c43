import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

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

/// The catalogue is the vocabulary's one source: `migrate` writes the names the table lacks.
@Suite struct DishCatalogSyncTests {
    static func names(_ database: Database) async throws -> [String] {
        try await database.query("SELECT name FROM search_dishes ORDER BY id").map { try $0.decode(String.self) }
    }

    @Test func aMigratedDatabaseHoldsExactlyTheCatalogue() async throws {
        try await TestDatabase.withFresh { database, _ in
            let names = try await Self.names(database)
            #expect(names.count == DishCatalog.names.count)
            #expect(Set(names) == Set(DishCatalog.names))
        }
    }

    @Test func migrateBringsBackAMissingCatalogueNameCountedAndKeepsAddedOnes() async throws {
        try await TestApp.run { client, app in
            // setup: a review naming 宫保鸡丁, the name gone from the table, an admin's own dish
            let world = try await SearchWorld.make(client, app)
            _ = try await world.post(store: "鱼你在一起", body: ["rating": 5, "body": "宫保鸡丁很好吃"], as: world.eater)
            try await app.database.query("DELETE FROM search_dishes WHERE name = '宫保鸡丁'")
            _ = try await DishVocabulary(database: app.database).add(name: "招牌烤鱼")
            // MUT
            _ = try await app.database.withConnection {
                try await Migrator(logger: TestDatabase.logger).migrate(on: $0)
            }
            // validate
            let entries = try await DishVocabulary(database: app.database).list()
            let kungPao = try #require(entries.first { $0.name == "宫保鸡丁" })
            #expect(kungPao.stores == 1 && kungPao.reviews == 1)
            #expect(kungPao.syllables == "gongbaojiding")
            #expect(entries.contains { $0.name == "招牌烤鱼" })
            #expect(entries.count == DishCatalog.names.count + 1)
        }
    }
}
