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

@Suite struct DailyPromotionTests {
    @Test func highestSpendFirstTiesByEarlierCreationThenID() async throws {
        try await TestApp.run { client, app in
            // setup: made directly so creation times and ad spend tie exactly where wanted.
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            let rows = try await app.database.query(
                """
                INSERT INTO stores (id, name, category_id, manager_id, created_at, ad_spend) VALUES
                    ('s_a_late',  'A', \(category), \(manager.id), '2024-01-02T00:00:00Z', 500),
                    ('s_b_early', 'B', \(category), \(manager.id), '2024-01-01T00:00:00Z', 500),
                    ('s_c_same2', 'C', \(category), \(manager.id), '2024-01-01T00:00:00Z', 500),
                    ('s_c_same1', 'D', \(category), \(manager.id), '2024-01-01T00:00:00Z', 500),
                    ('s_d_top',   'E', \(category), \(manager.id), '2024-01-03T00:00:00Z', 900),
                    ('s_e_low',   'F', \(category), \(manager.id), '2023-01-01T00:00:00Z', 1),
                    ('s_f_zero',  'G', \(category), \(manager.id), '2023-01-01T00:00:00Z', 0)
                RETURNING id
                """)
            #expect(rows.count == 7)
            // MUT
            let response = try await client.send(.get, "/v1/promotions/daily")
            // validate
            #expect(response.status == .ok)
            #expect(try response.json()["nextCursor"] == nil, "a ranking, not a page")
            let items = try StoreFixture.items(response)
            #expect(
                items.map { $0["id"] as! String } == [
                    "s_d_top", "s_b_early", "s_c_same1", "s_c_same2", "s_a_late", "s_e_low",
                ])
            #expect(items.allSatisfy { $0["promoted"] as? Bool == true })
            #expect(items.allSatisfy { $0["adSpend"] == nil }, "nobody sees ad spend")
            #expect(
                try StoreFixture.ids(try await client.send(.get, "/v1/promotions/daily?limit=2")) == [
                    "s_d_top", "s_b_early",
                ])
        }
    }

    @Test func limitDefaultsToTenAndIsChecked() async throws {
        try await TestApp.run { client, app in
            let manager = try await client.register("Boss", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            try await app.database.query(
                """
                INSERT INTO stores (name, category_id, manager_id, ad_spend)
                SELECT 'S' || n, \(category), \(manager.id), n FROM generate_series(1, 12) AS n
                """)
            #expect(try StoreFixture.ids(try await client.send(.get, "/v1/promotions/daily")).count == 10)
            #expect(try StoreFixture.ids(try await client.send(.get, "/v1/promotions/daily?limit=100")).count == 12)
            for limit in ["0", "101", "abc", "-1", "1.5", ""] {
                let response = try await client.send(.get, "/v1/promotions/daily?limit=\(limit)")
                #expect(response.status == .badRequest, "\(limit)")
                #expect(response.problemCode == "invalid_limit", "\(limit)")
            }
        }
    }

    @Test func eachViewerSeesOnlyTheAdSpendTheyMay() async throws {
        try await TestApp.run { client, app in
            // setup
            let boss = try await client.register("Boss", role: "manager")
            let rival = try await client.register("Rival", role: "manager")
            let admin = try await app.admin(client)
            let category = try await StoreFixture.category(app, "火锅")
            let bossStore =
                try await StoreFixture.store(client, boss, name: "Boss's", categoryID: category).id
            let rivalStore =
                try await StoreFixture.store(client, rival, name: "Rival's", categoryID: category).id
            _ = try await client.send(
                .post, "/v1/stores/\(bossStore)/promotions", body: ["amount": 200], token: boss.token)
            _ = try await client.send(
                .post, "/v1/stores/\(rivalStore)/promotions", body: ["amount": 100], token: rival.token)
            func adSpends(_ token: String) async throws -> [Int?] {
                try StoreFixture.items(try await client.send(.get, "/v1/promotions/daily", token: token)).map {
                    $0["adSpend"] as? Int
                }
            }
            // MUT + validate
            #expect(try await adSpends(boss.token) == [200, nil])
            #expect(try await adSpends(rival.token) == [nil, 100])
            #expect(try await adSpends(admin.token) == [200, 100])
        }
    }
}
