import Foundation
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The near-me list's two steps (a KNN scan finds how far a page reaches, an exact scan sorts that disc) give
/// the order a plain sort of every store in the radius gives, page by page, with stores sharing an address.
@Suite struct NearPagingTests {
    /// 60 stores within about 3.3 km of a centre in Chengdu, in groups of three at one address (exact ties), every
    /// fourth never open, every fifth in a second category, a few archived or without a position.
    static func crowd(_ app: TestApp, managerID: String, categories: [String]) async throws {
        let never = "[]"
        let always =
            #"[{"day":1,"open":"00:00","close":"00:00"},{"day":2,"open":"00:00","close":"00:00"},"#
            + #"{"day":3,"open":"00:00","close":"00:00"},{"day":4,"open":"00:00","close":"00:00"},"#
            + #"{"day":5,"open":"00:00","close":"00:00"},{"day":6,"open":"00:00","close":"00:00"},"#
            + #"{"day":7,"open":"00:00","close":"00:00"}]"#
        try await app.database.query(
            """
            INSERT INTO stores (name, category_id, manager_id, location, hours, archived_at)
            SELECT 'n' || n, (\(categories)::text[])[1 + (n % 5 = 0)::int],  \(managerID),
                CASE WHEN n % 17 = 16 THEN NULL ELSE ST_SetSRID(ST_MakePoint(
                    104.081 + 0.03 * sin(n / 3) * (n / 3 + 1) / 20.0,
                    30.659 + 0.03 * cos(n / 3) * (n / 3 + 1) / 20.0), 4326)::geography END,
                (CASE WHEN n % 4 = 3 THEN \(never) ELSE \(always) END)::jsonb,
                CASE WHEN n % 13 = 12 THEN now() END
            FROM generate_series(0, 59) AS n
            """)
    }

    /// What the list must answer: every qualifying store in the radius, by exact distance then id descending.
    static func oracle(_ app: TestApp, radius: Double, openNow: Bool, categoryID: String?) async throws -> [String] {
        try await app.database.query(
            """
            SELECT s.id FROM stores s
            WHERE s.archived_at IS NULL AND s.location IS NOT NULL
                AND ST_Distance(s.location, ST_SetSRID(ST_MakePoint(104.081, 30.659), 4326)::geography, false)
                    <= \(radius)::float8
                AND (NOT \(openNow) OR jsonb_array_length(s.hours) > 0)
                AND (\(categoryID)::text IS NULL OR s.category_id = \(categoryID)::text)
            ORDER BY ST_Distance(s.location, ST_SetSRID(ST_MakePoint(104.081, 30.659), 4326)::geography, false),
                s.id DESC
            """
        ).map { try $0.decode(String.self) }
    }

    @Test(arguments: [1, 2, 3, 4, 7, 100])
    func everyPageSizeWalksTheExactOrder(limit: Int) async throws {
        try await TestApp.run { client, app in
            // setup
            let manager = try await client.register("Boss", role: "manager")
            let main = try await StoreFixture.category(app, "火锅")
            let second = try await StoreFixture.category(app, "面馆")
            try await Self.crowd(app, managerID: manager.id, categories: [main, second])
            let base = "/v1/stores?near=30.659,104.081&sort=distance"
            let cases: [(query: String, radius: Double, openNow: Bool, category: String?)] = [
                ("&radius=3000", 3000, false, nil), ("&radius=50000", 50000, false, nil),
                ("&radius=3000&open=now", 3000, true, nil), ("&radius=50000&category=\(second)", 50000, false, second),
                ("&radius=800", 800, false, nil),
            ]
            for (query, radius, openNow, category) in cases {
                let expected = try await Self.oracle(app, radius: radius, openNow: openNow, categoryID: category)
                // MUT
                let walked = try await StoreFixture.walk(client, base + query, limit: limit)
                // validate
                #expect(!expected.isEmpty, "\(query)")
                #expect(walked.ids == expected, "\(query) limit \(limit)")
                #expect(walked.pages == max(1, (expected.count + limit - 1) / limit), "\(query) limit \(limit)")
            }
        }
    }

    @Test func aTieAtThePagesEdgeIsSplitByID() async throws {
        try await TestApp.run { client, app in
            // setup: five stores at one address, one nearer, one farther
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            try await app.database.query(
                """
                INSERT INTO stores (name, category_id, manager_id, location)
                SELECT 't' || n, \(category), \(manager.id), ST_SetSRID(ST_MakePoint(
                    104.081 + CASE n WHEN 0 THEN 0.001 WHEN 6 THEN 0.003 ELSE 0.002 END, 30.659), 4326)::geography
                FROM generate_series(0, 6) AS n
                """)
            let expected = try await Self.oracle(app, radius: 3000, openNow: false, categoryID: nil)
            // MUT
            let walked = try await StoreFixture.walk(client, "/v1/stores?near=30.659,104.081&sort=distance", limit: 3)
            // validate
            #expect(expected.count == 7)
            #expect(walked.ids == expected)
            let tied = Array(expected[1...5])
            #expect(tied == tied.sorted(by: >), "stores at one address come by id descending")
        }
    }

    @Test func everyonesPageIsTheSignedInPageByteForByte() async throws {
        try await TestApp.run { client, app in
            // setup: the anonymous page is written from cached store JSON (with the cache on), the signed-in one
            // store by store; a viewer who manages nothing and favorited nothing sees the same stores.
            let manager = try await client.register("Boss", role: "manager")
            let main = try await StoreFixture.category(app, "火锅")
            let second = try await StoreFixture.category(app, "面馆")
            try await Self.crowd(app, managerID: manager.id, categories: [main, second])
            let reader = try await client.register("Reader")
            let paths = [
                "/v1/stores?near=30.659,104.081&sort=distance&limit=7", "/v1/stores?near=30.659,104.081&open=now",
                "/v1/stores?sort=name&limit=5", "/v1/stores?category=\(second)&sort=newest",
            ]
            for path in paths {
                // MUT: twice, so the second anonymous page is built from cache hits
                _ = try await client.send(.get, path)
                let anonymous = try await client.send(.get, path)
                let signedIn = try await client.send(.get, path, token: reader.token)
                // validate
                #expect(anonymous.status == .ok, "\(path)")
                #expect(!(try StoreFixture.items(anonymous)).isEmpty, "\(path)")
                #expect(anonymous.text == signedIn.text, "\(path)")
            }
        }
    }
}
