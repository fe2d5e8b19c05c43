import Foundation
import HTTPTypes
import HummingbirdTesting
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// 25 stores, 22 of them made in one statement (so they share created_at), with few distinct names, ratings and favorite
/// counts: every sort order has ties that only the id breaks, the case where careless cursors repeat or skip.
func seedTwentyFive(_ app: TestApp, managerID: String, categories: [String]) async throws {
    try await app.database.query(
        """
        INSERT INTO stores (name, category_id, manager_id)
        SELECT (ARRAY['b', 'B', 'a', 'Z', '火锅', 'ä'])[1 + n % 6], (\(categories)::text[])[1 + n % 2], \(managerID)
        FROM generate_series(0, 21) AS n
        """)
    // Totals set directly (the CHECK keeps them plausible); the score follows in the generated column.
    try await app.database.query(
        """
        UPDATE stores SET rating_count = x.count, rating_sum = x.sum, favorite_count = x.favorites,
                          price_count = x.prices, price_sum = 50 * x.prices * x.count
        FROM (SELECT id, (row_number() OVER (ORDER BY id)) % 4 AS count, 3 * ((row_number() OVER (ORDER BY id)) % 4) AS sum,
                     (row_number() OVER (ORDER BY id DESC)) % 3 AS favorites,
                     (row_number() OVER (ORDER BY id)) % 2 AS prices
              FROM stores) AS x
        WHERE stores.id = x.id
        """)
    // A few more with their own created_at, so `newest` orders by time as well as by id.
    for n in 0..<3 {
        try await app.database.query(
            """
            INSERT INTO stores (name, category_id, manager_id, created_at)
            VALUES (\("late \(n)"), \(categories[0]), \(managerID), now() + make_interval(secs => \(Double(n + 1))))
            """)
    }
}

struct Listed {
    let id: String
    let name: String
    let score: Double
    let favorites: Int
    let price: Int?

    init(_ store: StoreView) {
        id = store.id
        name = store.name
        score = store.rating.score
        favorites = store.favoriteCount
        price = store.pricePerPerson
    }
}

/// The contract's orders, computed here from what the API returned.
func expectedOrder(_ stores: [Listed], _ sort: StoreSort, createdAt: [String: Date]) -> [String] {
    func codePoints(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }
    return stores.sorted { a, b in
        switch sort {
        case .rating: return a.score != b.score ? a.score > b.score : a.id > b.id
        case .popular: return a.favorites != b.favorites ? a.favorites > b.favorites : a.id > b.id
        case .newest:
            let (x, y) = (createdAt[a.id]!, createdAt[b.id]!)
            return x != y ? x > y : a.id > b.id
        case .name:
            let (x, y) = (codePoints(a.name), codePoints(b.name))
            return x != y ? x.lexicographicallyPrecedes(y) : a.id < b.id
        case .price:
            let (x, y) = (a.price ?? .max, b.price ?? .max)
            return x != y ? x < y : a.id > b.id
        case .distance:
            // Needs `near`; StorePlaceTests checks it against the great-circle formula.
            return a.id > b.id
        }
    }.map(\.id)
}

@Suite struct StoreListTests {
    @Test func everySortOrderWalksWithoutRepeatsOrGaps() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let first = try await StoreFixture.category(app, "火锅")
            let second = try await StoreFixture.category(app, "烧烤")
            try await seedTwentyFive(app, managerID: manager.id, categories: [first, second])
            // Exact timestamps (the API rounds to the second or millisecond).
            let createdAt = Dictionary(
                uniqueKeysWithValues: try await app.database.query("SELECT id, created_at FROM stores")
                    .map { try $0.decode((String, Date).self) })
            let all = try StoreFixture.stores(try await client.send(.get, "/v1/stores?limit=100")).map(Listed.init)
            #expect(all.count == 25)
            for sort in StoreSort.allCases where sort != .distance {
                let expected = expectedOrder(all, sort, createdAt: createdAt)
                // MUT
                let full = try StoreFixture.ids(
                    try await client.send(.get, "/v1/stores?sort=\(sort.rawValue)&limit=100"))
                let walked = try await StoreFixture.walk(client, "/v1/stores?sort=\(sort.rawValue)", limit: 7)
                let inFirst = try await StoreFixture.walk(
                    client, "/v1/stores?sort=\(sort.rawValue)&category=\(first)", limit: 7)
                // validate
                #expect(full == expected, "\(sort)")
                #expect(walked.ids == expected, "\(sort)")
                #expect(walked.pages == 4)
                let firstIDs = Set(
                    try await app.database.query("SELECT id FROM stores WHERE category_id = \(first)").map {
                        try $0.decode(String.self)
                    })
                #expect(inFirst.ids == expected.filter(firstIDs.contains), "\(sort) in a category")
            }
            // The default is `rating`.
            #expect(
                try StoreFixture.ids(try await client.send(.get, "/v1/stores?limit=100"))
                    == expectedOrder(all, .rating, createdAt: createdAt))
        }
    }

    @Test func nameOrderIsCodePointOrder() async throws {
        try await TestApp.run { client, app in
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            for name in ["烧烤", "b", "Z", "ä", "火锅", "a", "B"] {
                _ = try await StoreFixture.store(client, manager, name: name, categoryID: category)
            }
            let names = try StoreFixture.stores(try await client.send(.get, "/v1/stores?sort=name")).map(\.name)
            #expect(names == ["B", "Z", "a", "b", "ä", "火锅", "烧烤"])
        }
    }

    @Test func popularAndNewestFollowTheData() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let fans = [try await client.register("Fan1"), try await client.register("Fan2")]
            let category = try await StoreFixture.category(app, "火锅")
            var ids: [String] = []
            for name in ["Old", "Middle", "New"] {
                ids.append(
                    try await StoreFixture.store(client, manager, name: name, categoryID: category).id)
            }
            for fan in fans { _ = try await client.send(.put, "/v1/stores/\(ids[0])/favorite", token: fan.token) }
            _ = try await client.send(.put, "/v1/stores/\(ids[1])/favorite", token: fans[0].token)
            // MUT
            let popular = try StoreFixture.ids(try await client.send(.get, "/v1/stores?sort=popular"))
            let newest = try StoreFixture.ids(try await client.send(.get, "/v1/stores?sort=newest"))
            // validate
            #expect(popular == [ids[0], ids[1], ids[2]])
            #expect(newest == [ids[2], ids[1], ids[0]])
        }
    }

    @Test func badListParametersAre400() async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            for n in 0..<3 { _ = try await StoreFixture.store(client, manager, name: "S\(n)", categoryID: category) }
            let page = try await client.send(.get, "/v1/stores?sort=newest&limit=1")
            let newestCursor = try #require(try StoreFixture.nextCursor(page))
            let forged = [
                Cursor(list: "stores.newest", keys: ["not a time", "s_x"]).token,
                Cursor(list: "stores.rating", keys: ["NaNa", "s_x"]).token,
                Cursor(list: "stores.popular", keys: ["99999999999999", "s_x"]).token,
                Cursor(list: "stores.name", keys: ["a\u{0}b", "s_x"]).token,
            ]
            let cases: [(String, String)] =
                [
                    ("/v1/stores?sort=stars", "invalid_sort"),
                    ("/v1/stores?sort=RATING", "invalid_sort"),
                    ("/v1/stores?category=c_nope", "unknown_category"),
                    ("/v1/stores?category=%00", "unknown_category"),
                    ("/v1/stores?limit=0", "invalid_limit"),
                    ("/v1/stores?limit=101", "invalid_limit"),
                    ("/v1/stores?cursor=garbage", "invalid_cursor"),
                    ("/v1/stores?sort=rating&cursor=\(newestCursor)", "invalid_cursor"),
                ]
                + zip(["newest", "rating", "popular", "name"], forged).map {
                    ("/v1/stores?sort=\($0)&cursor=\($1)", "invalid_cursor")
                }
            for (path, code) in cases {
                // MUT
                let response = try await client.send(.get, path)
                // validate
                #expect(response.status == .badRequest, "\(path): \(response.text)")
                #expect(response.problemCode == code, "\(path)")
            }
            // An empty filter or sort means none.
            #expect(try StoreFixture.ids(try await client.send(.get, "/v1/stores?category=&sort=")).count == 3)
        }
    }

    @Test func favoritedIsPerViewer() async throws {
        try await TestApp.run { client, app in
            let manager = try await client.register("Boss", role: "manager")
            let fan = try await client.register("Fan")
            let other = try await client.register("Other")
            let category = try await StoreFixture.category(app, "火锅")
            let id = try await StoreFixture.store(client, manager, name: "Hot", categoryID: category).id
            _ = try await client.send(.put, "/v1/stores/\(id)/favorite", token: fan.token)
            for (token, headers, expected) in [
                (fan.token, HTTPFields(), true), (other.token, HTTPFields(), false), (nil, HTTPFields(), false),
                (nil, StoreFixture.visitor(), false),
            ] as [(String?, HTTPFields, Bool)] {
                let one = try await client.send(.get, "/v1/stores/\(id)", token: token, headers: headers).json()
                let listed = try StoreFixture.items(
                    try await client.send(.get, "/v1/stores", token: token, headers: headers))
                #expect(one["favorited"] as? Bool == expected)
                #expect(listed.first?["favorited"] as? Bool == expected)
                #expect(one["favoriteCount"] as? Int == 1)
            }
        }
    }
}
