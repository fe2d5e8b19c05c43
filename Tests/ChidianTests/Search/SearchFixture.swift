import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// One match as the API returns it; `count` nil stands for JSON null.
struct Hit: Equatable, CustomStringConvertible {
    var field: String
    var text: String
    var count: Int?

    static func name(_ text: String) -> Hit { Hit(field: "name", text: text, count: nil) }
    static func category(_ text: String) -> Hit { Hit(field: "category", text: text, count: nil) }
    static func dish(_ text: String, _ count: Int) -> Hit { Hit(field: "dish", text: text, count: count) }

    var description: String { "\(field):\(text):\(count.map(String.init) ?? "null")" }
}

/// One page of `GET /v1/search`, as (store id, matches) pairs.
struct FetchedSearchPage {
    var items: [(id: String, matches: [Hit])]
    var next: String?
    var raw: [String: Any]
}

/// Test data for the search suites: categories straight into the database (no route makes them), everything
/// else through the API: a manager creates the stores, users post reviews, the manager posts a notice.
struct SearchWorld {
    let client: any TestClientProtocol
    let app: TestApp
    let manager: Session
    let eater: Session
    let other: Session
    /// Store ids by name.
    var stores: [String: String] = [:]
    /// Review ids by label, and who wrote them.
    var reviews: [String: String] = [:]
    var authors: [String: Session] = [:]

    static func make(_ client: any TestClientProtocol, _ app: TestApp) async throws -> SearchWorld {
        var world = SearchWorld(
            client: client, app: app, manager: try await client.register("店长", role: "manager"),
            eater: try await client.register("食客甲"), other: try await client.register("食客乙"))
        var categories: [String: String] = [:]
        for name in ["火锅", "川菜", "烧烤", "西餐", "甜品"] {
            categories[name] = try await StoreAdmin(database: app.database).addCategory(name: name).id
        }
        for (name, category) in [
            ("小龙坎火锅", "火锅"), ("蜀大侠", "火锅"), ("鱼你在一起", "川菜"), ("老王烧烤", "烧烤"), ("Pizza Hut", "西餐"),
            ("100%果汁", "甜品"), ("江湖菜馆", "川菜"),
        ] {
            world.stores[name] = try await world.createStore(name, categoryID: categories[category]!)
        }
        // Scores (Bayesian, prior 3.5 over 5): 小龙坎火锅 3.6875, 蜀大侠 3.929, 鱼你在一起 3.357, 老王烧烤 3.643,
        // Pizza Hut 3.786, 100%果汁 3.5, 江湖菜馆 3.75.
        let reviews: [(String, String, Int, String)] = [
            ("毛肚", "小龙坎火锅", 5, "毛肚很新鲜，火锅底料香"),
            ("鸭肠", "小龙坎火锅", 3, "鸭肠一般，火锅还行"),
            ("水煮鱼1", "小龙坎火锅", 4, "水煮鱼也不错"),
            ("比较", "蜀大侠", 5, "这家火锅比小龙坎好吃"),
            ("english", "蜀大侠", 5, "Hot pot is great, BEEF tender"),
            ("酸菜鱼", "鱼你在一起", 4, "酸菜鱼好吃，100元两个人"),
            ("水煮鱼2", "鱼你在一起", 2, "水煮鱼太辣了"),
            ("羊肉串", "老王烧烤", 5, "羊肉串好吃，100%推荐"),
            ("烤鱼", "老王烧烤", 3, "烤鱼 a_b 还行"),
            ("pizza", "Pizza Hut", 4, "pizza so good axb"),
            ("slash", "Pizza Hut", 5, "back\\slash test"),
            ("江湖", "江湖菜馆", 5, "水煮鱼很好，鱼很新鲜"),
        ]
        for (index, (label, store, rating, body)) in reviews.enumerated() {
            // One author per review, as a store's rating counts each author once.
            let author = index < 2 ? (index == 0 ? world.eater : world.other) : try await client.register("食客\(index)")
            world.reviews[label] = try await world.post(
                store: store, body: ["rating": rating, "body": body], as: author)
            world.authors[label] = author
        }
        // A notice mentions dishes too; notices never count.
        _ = try await world.post(store: "鱼你在一起", body: ["body": "本店水煮鱼买一送一"], as: world.manager)
        let archived = try await client.send(.delete, "/v1/stores/\(world.stores["江湖菜馆"]!)", token: world.manager.token)
        guard archived.status == .noContent else { throw TestFailure("archive: \(archived.status)") }
        return world
    }

    func author(_ label: String) -> Session { authors[label]! }

    func createStore(_ name: String, categoryID: String) async throws -> String {
        let response = try await client.send(
            .post, "/v1/stores", body: ["name": name, "categoryId": categoryID], token: manager.token)
        guard response.status == .created else {
            throw TestFailure("create store \(name): \(response.status) \(response.text)")
        }
        return try #require(response.json()["id"] as? String)
    }

    func post(store: String, body: [String: Any], as session: Session) async throws -> String {
        let response = try await client.send(
            .post, "/v1/stores/\(stores[store]!)/comments", body: body, token: session.token)
        guard response.status == .created else {
            throw TestFailure("post comment: \(response.status) \(response.text)")
        }
        return try #require(response.json()["id"] as? String)
    }

    /// The store names of a page, in order.
    func names(_ page: FetchedSearchPage) -> [String] {
        let byID = Dictionary(uniqueKeysWithValues: stores.map { ($1, $0) })
        return page.items.map { byID[$0.id] ?? $0.id }
    }

    /// (store name, matches) of a page, in order.
    func named(_ page: FetchedSearchPage) -> [String] {
        let byID = Dictionary(uniqueKeysWithValues: stores.map { ($1, $0) })
        return page.items.map { "\(byID[$0.id] ?? $0.id) \($0.matches)" }
    }
}

enum SearchClient {
    /// `GET /v1/search?q=` with `q` percent-encoded as a client library would.
    static func uri(_ q: String?, limit: Int? = nil, cursor: String? = nil) -> String {
        var parts: [String] = []
        if let q { parts.append("q=" + q.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!) }
        if let limit { parts.append("limit=\(limit)") }
        if let cursor { parts.append("cursor=\(cursor)") }
        return "/v1/search" + (parts.isEmpty ? "" : "?" + parts.joined(separator: "&"))
    }

    static func page(
        _ client: any TestClientProtocol, _ q: String, limit: Int? = 100, cursor: String? = nil, token: String? = nil
    ) async throws -> FetchedSearchPage {
        try await page(client, uri: uri(q, limit: limit, cursor: cursor), token: token)
    }

    static func page(_ client: any TestClientProtocol, uri: String, token: String? = nil) async throws
        -> FetchedSearchPage
    {
        let response = try await client.send(.get, uri, token: token)
        guard response.status == .ok else { throw TestFailure("\(uri): \(response.status) \(response.text)") }
        let body = try response.json()
        guard let items = body["items"] as? [[String: Any]] else { throw TestFailure("no items: \(response.text)") }
        return FetchedSearchPage(
            items: try items.map { item in
                guard let store = item["store"] as? [String: Any], let id = store["id"] as? String,
                    let matches = item["matches"] as? [[String: Any]]
                else { throw TestFailure("bad item: \(item)") }
                return (id, try matches.map(hit))
            },
            next: body["nextCursor"] as? String, raw: body)
    }

    /// A match; `count` must be present, as a number or as null.
    static func hit(_ match: [String: Any]) throws -> Hit {
        guard let field = match["field"] as? String, let text = match["text"] as? String, let count = match["count"]
        else {
            throw TestFailure("bad match: \(match)")
        }
        return Hit(field: field, text: text, count: count is NSNull ? nil : (count as! Int))
    }

    /// Every page of `q`, `limit` at a time; fails on a repeated store.
    static func walk(_ client: any TestClientProtocol, _ q: String, limit: Int) async throws -> [(
        id: String, matches: [Hit]
    )] {
        var items: [(id: String, matches: [Hit])] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try await page(client, q, limit: limit, cursor: cursor)
            #expect(page.items.count <= limit)
            items += page.items
            cursor = page.next
            pages += 1
            if pages > 200 { throw TestFailure("endless paging") }
        } while cursor != nil
        #expect(Set(items.map(\.id)).count == items.count, "a page repeated a store")
        return items
    }
}
