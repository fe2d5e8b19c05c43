import Foundation
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Order and pagination across the three groups, with ties broken by id, and the largest of several dish
/// counts deciding a store's place.
@Suite struct SearchPagingTests {
    /// Stores in three groups for 饺: names with 饺, the category 饺子馆, and reviews with 饺.
    struct World {
        var stores: [String: String] = [:]

        func name(_ id: String) -> String { stores.first { $0.value == id }?.key ?? id }
    }

    static func make(_ client: any TestClientProtocol, _ app: TestApp) async throws -> World {
        let manager = try await client.register("饺子老板", role: "manager")
        let eater = try await client.register("吃货")
        let fast = try await StoreAdmin(database: app.database).addCategory(name: "快餐").id
        let dumplings = try await StoreAdmin(database: app.database).addCategory(name: "饺子馆").id
        var world = World()
        let plan: [(String, String, [(Int, String)])] = [
            ("饺子王", fast, [(5, "饺子皮薄"), (2, "一般")]),
            ("鲜饺坊", fast, []),
            ("东北饺子", fast, [(4, "酸菜饺子好吃")]),
            ("老街小馆", dumplings, [(3, "饺子不错")]),
            ("阿姨家", dumplings, []),
            ("胖哥", dumplings, [(5, "面条好吃")]),
            ("面面俱到", fast, [(5, "蒸饺好吃"), (3, "炸鸡一般"), (4, "炸鸡还行"), (4, "蒸饺蒸饺蒸饺")]),
            ("粥铺", fast, [(4, "蒸饺"), (2, "饺子"), (5, "炸鸡")]),
            ("汤包店", fast, [(3, "煎饺"), (3, "饺子")]),
            ("小吃街", fast, [(5, "炸鸡炸鸡"), (5, "炸鸡"), (5, "炸鸡好"), (1, "水饺")]),
            ("夜宵", fast, [(5, "饺子")]),
            ("咖啡", fast, [(5, "拿铁")]),
        ]
        for (name, category, reviews) in plan {
            let store = try await StoreFixture.store(client, manager, name: name, categoryID: category)
            let id = store.id
            world.stores[name] = id
            for (n, (rating, body)) in reviews.enumerated() {
                // One author per review, as a store's rating counts each author once.
                let author = n == 0 ? eater : try await client.register("吃货\(name)\(n)")
                let posted = try await client.send(
                    .post, "/v1/stores/\(id)/comments", body: ["rating": rating, "body": body], token: author.token)
                guard posted.status == .created else { throw TestFailure("review: \(posted.status) \(posted.text)") }
            }
        }
        return world
    }

    @Test func groupsCountsScoresAndIdsDecideTheOrder() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await Self.make(client, app)
            // Scores: 东北饺子 3.583, 饺子王 = 鲜饺坊 = 3.5 (tie: higher id first); 胖哥 3.75, 阿姨家 3.5, 老街小馆 3.417;
            // count 2: 面面俱到 3.722, 粥铺 3.5625, 汤包店 3.357; count 1: 夜宵 3.75, 小吃街 3.722.
            let tied = [world.stores["饺子王"]!, world.stores["鲜饺坊"]!].sorted(by: >).map(world.name)
            let expected = ["东北饺子"] + tied + ["胖哥", "阿姨家", "老街小馆", "面面俱到", "粥铺", "汤包店", "夜宵", "小吃街"]
            // MUT
            let page = try await SearchClient.page(client, "饺")
            // validate
            #expect(page.items.map { world.name($0.id) } == expected)
            #expect(
                page.items.map { $0.matches.first!.field } == [
                    "name", "name", "name", "category", "category", "category", "dish", "dish", "dish", "dish", "dish",
                ])
            #expect(page.items[6].matches == [.dish("饺", 2)])
            #expect(page.items[10].matches == [.dish("饺", 1)])
            #expect(page.items[3].matches == [.category("饺子馆")])
            #expect(page.items[7].matches == [.dish("饺", 2)])
        }
    }

    @Test func everyPageSizeWalksTheSameOrderWithoutRepeatsOrGaps() async throws {
        try await TestApp.run { client, app in
            // setup
            _ = try await Self.make(client, app)
            for q in ["饺", "zj", "jiaozi", "好吃"] {
                let whole = try await SearchClient.page(client, q, limit: 100)
                for limit in [1, 2, 3, 5] {
                    // MUT
                    let walked = try await SearchClient.walk(client, q, limit: limit)
                    // validate
                    #expect(walked.map(\.id) == whole.items.map(\.id), "q=\(q) limit=\(limit)")
                    #expect(walked.map(\.matches) == whole.items.map(\.matches), "q=\(q) limit=\(limit)")
                }
            }
        }
    }

    @Test func aPinyinQuerySpellingSeveralDishesRanksByTheLargestCount() async throws {
        try await TestApp.run { client, app in
            // setup: "zj" spells 醉鸡, 蒸饺 and 炸鸡.
            let world = try await Self.make(client, app)
            // MUT
            let page = try await SearchClient.page(client, "zj")
            // validate
            #expect(page.items.map { world.name($0.id) } == ["小吃街", "面面俱到", "粥铺"])
            #expect(
                page.items.map(\.matches) == [
                    [.dish("炸鸡", 3)], [.dish("蒸饺", 2), .dish("炸鸡", 2)], [.dish("蒸饺", 1), .dish("炸鸡", 1)],
                ])
        }
    }

    @Test func theLastPageHasANullCursorAndPagesKeepTheirSize() async throws {
        try await TestApp.run { client, app in
            // setup
            _ = try await Self.make(client, app)
            // MUT
            let first = try await SearchClient.page(client, "饺", limit: 4)
            let second = try await SearchClient.page(client, "饺", limit: 4, cursor: first.next)
            let third = try await SearchClient.page(client, "饺", limit: 4, cursor: second.next)
            // validate
            #expect(first.items.count == 4)
            #expect(second.items.count == 4)
            #expect(third.items.count == 3)
            #expect(first.next != nil && second.next != nil)
            #expect(third.raw["nextCursor"] is NSNull)
        }
    }
}
