import Foundation
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The query table: each query against one small world (see `SearchWorld`), with the exact stores, their order
/// and their matches. 江湖菜馆 is archived; its review of 水煮鱼 and 鱼 must never show.
@Suite struct SearchQueryTableTests {
    typealias Expected = [(String, [Hit])]

    static let table: [(q: String, expected: Expected)] = [
        // One character: the name match first, then review matches by count (ties by score: 3.6875 > 3.643).
        // The notice of 鱼你在一起 also says 水煮鱼 and is not counted (2 reviews, not 3).
        ("鱼", [("鱼你在一起", [.name("鱼你在一起"), .dish("鱼", 2)]), ("小龙坎火锅", [.dish("鱼", 1)]), ("老王烧烤", [.dish("鱼", 1)])]),
        // Two characters: name + category, then category only.
        (
            "火锅",
            [
                ("小龙坎火锅", [.name("小龙坎火锅"), .category("火锅"), .dish("火锅", 2)]),
                ("蜀大侠", [.category("火锅"), .dish("火锅", 1)]),
            ]
        ),
        ("烧烤", [("老王烧烤", [.name("老王烧烤"), .category("烧烤")])]),
        // Three characters, a vocabulary dish; the notice and the archived store do not count.
        ("水煮鱼", [("小龙坎火锅", [.dish("水煮鱼", 1)]), ("鱼你在一起", [.dish("水煮鱼", 1)])]),
        // Longer than a dish: candidates by character pairs, then the reviews are checked.
        ("酸菜鱼好", [("鱼你在一起", [.dish("酸菜鱼好", 1)])]),
        ("底料香", [("小龙坎火锅", [.dish("底料香", 1)])]),
        // English in any case; the match text is the query as typed.
        ("BEEF", [("蜀大侠", [.dish("BEEF", 1)])]),
        ("beef", [("蜀大侠", [.dish("beef", 1)])]),
        ("Hot Pot", [("蜀大侠", [.dish("Hot Pot", 1)])]),
        ("pizza", [("Pizza Hut", [.name("Pizza Hut"), .dish("pizza", 1)])]),
        ("PIZZA HUT", [("Pizza Hut", [.name("Pizza Hut")])]),
        // Wildcards are literal: "100元" does not match 100%, "axb" does not match a_b.
        ("100%", [("100%果汁", [.name("100%果汁")]), ("老王烧烤", [.dish("100%", 1)])]),
        ("%", [("100%果汁", [.name("100%果汁")]), ("老王烧烤", [.dish("%", 1)])]),
        ("a_b", [("老王烧烤", [.dish("a_b", 1)])]),
        ("_", [("老王烧烤", [.dish("_", 1)])]),
        ("\\", [("Pizza Hut", [.dish("\\", 1)])]),
        ("k\\s", [("Pizza Hut", [.dish("k\\s", 1)])]),
        // Pinyin, full, spaced, and initials: names, categories and the dish vocabulary.
        (
            "huoguo",
            [
                ("小龙坎火锅", [.name("小龙坎火锅"), .category("火锅"), .dish("火锅", 2)]),
                ("蜀大侠", [.category("火锅"), .dish("火锅", 1)]),
            ]
        ),
        (
            "huo guo",
            [
                ("小龙坎火锅", [.name("小龙坎火锅"), .category("火锅"), .dish("火锅", 2)]),
                ("蜀大侠", [.category("火锅"), .dish("火锅", 1)]),
            ]
        ),
        (
            "HG",
            [
                ("小龙坎火锅", [.name("小龙坎火锅"), .category("火锅"), .dish("火锅", 2)]),
                ("蜀大侠", [.category("火锅"), .dish("火锅", 1)]),
            ]
        ),
        ("xiaolongkan", [("小龙坎火锅", [.name("小龙坎火锅")])]),
        ("longk", [("小龙坎火锅", [.name("小龙坎火锅")])]),
        ("ynz", [("鱼你在一起", [.name("鱼你在一起")])]),
        ("shuizhuyu", [("小龙坎火锅", [.dish("水煮鱼", 1)]), ("鱼你在一起", [.dish("水煮鱼", 1)])]),
        ("szy", [("小龙坎火锅", [.dish("水煮鱼", 1)]), ("鱼你在一起", [.dish("水煮鱼", 1)])]),
        ("maodu", [("小龙坎火锅", [.dish("毛肚", 1)])]),
        ("chuancai", [("鱼你在一起", [.category("川菜")])]),
        // Syllables are not cut: "uoguo" is no pinyin of 火锅.
        ("uoguo", []),
        // Nothing, and an archived store.
        ("不存在的菜", []),
        ("江湖", []),
        ("买一送一", []),
    ]

    @Test func everyQueryFindsExactlyTheseStoresInThisOrder() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await SearchWorld.make(client, app)
            for (q, expected) in Self.table {
                // MUT
                let page = try await SearchClient.page(client, q)
                // validate
                let want = expected.map { "\($0.0) \($0.1)" }
                #expect(world.named(page) == want, "q=\(q)")
                #expect(page.next == nil, "q=\(q)")
            }
        }
    }

    @Test func nameAndCategoryMatchesCarryANullCount() async throws {
        try await TestApp.run { client, app in
            // setup
            _ = try await SearchWorld.make(client, app)
            // MUT
            let response = try await client.send(.get, SearchClient.uri("火锅"))
            // validate
            let text = response.text
            #expect(text.contains(#""field":"name""#))
            #expect(text.contains(#""count":null"#))
            let items = try response.json()["items"] as! [[String: Any]]
            let first = items[0]["matches"] as! [[String: Any]]
            #expect(first[0]["count"] is NSNull)
            #expect(first[1]["count"] is NSNull)
            #expect(first[2]["count"] as? Int == 2)
            // The store is the full Store object.
            let store = items[0]["store"] as! [String: Any]
            #expect(store["name"] as? String == "小龙坎火锅")
            #expect((store["rating"] as? [String: Any])?["count"] as? Int == 3)
            #expect(store["favorited"] as? Bool == false)
            #expect(store["adSpend"] == nil)
        }
    }

    @Test func theStoreIsShownAsTheViewerSeesIt() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await SearchWorld.make(client, app)
            let id = world.stores["小龙坎火锅"]!
            _ = try await client.send(.put, "/v1/stores/\(id)/favorite", token: world.eater.token)
            // MUT
            let asEater = try await client.send(.get, SearchClient.uri("小龙坎"), token: world.eater.token)
            let asManager = try await client.send(.get, SearchClient.uri("小龙坎"), token: world.manager.token)
            // validate
            let eaterStore = (try asEater.json()["items"] as! [[String: Any]])[0]["store"] as! [String: Any]
            let managerStore = (try asManager.json()["items"] as! [[String: Any]])[0]["store"] as! [String: Any]
            #expect(eaterStore["favorited"] as? Bool == true)
            #expect(eaterStore["adSpend"] == nil)
            #expect(managerStore["adSpend"] as? Int == 0)
        }
    }

    @Test func aFormEncodedPlusIsASpace() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await SearchWorld.make(client, app)
            // MUT
            let plus = try await SearchClient.page(client, uri: "/v1/search?q=huo+guo")
            let escaped = try await SearchClient.page(client, uri: "/v1/search?q=Hot%20Pot")
            let literalPlus = try await SearchClient.page(client, uri: "/v1/search?q=huo%2Bguo")
            // validate
            #expect(world.names(plus) == ["小龙坎火锅", "蜀大侠"])
            #expect(world.names(escaped) == ["蜀大侠"])
            #expect(literalPlus.items.isEmpty)
        }
    }
}
