import Foundation
import PostgresNIO
import Testing

@testable import ChidianApp
@testable import ChidianCore

/// The store reads behind every cache miss keep one generic plan per connection (issue #45): a read re-planned on
/// every call spent 0.3–0.9 ms planning for 0.1–0.2 ms of work. PostgreSQL says which plans a connection's
/// prepared statements used in `pg_prepared_statements`.
@Suite struct StoreReadPlanTests {
    @Test func idListReadsSwitchToTheirGenericPlan() async throws {
        try await TestApp.run { client, app in
            // setup: 20,000 stores, analyzed (the plans' costs follow the table's size), and a viewer
            let manager = try await client.register("店长", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            try await NearWalkTests.crowd(app, managerID: manager.id, categories: [category, category], count: 20_000)
            try await app.database.query("ANALYZE stores")
            let ids = try await app.database.query("SELECT id FROM stores ORDER BY id LIMIT 20").map {
                try $0.decode(String.self)
            }
            let viewer = AuthUser(id: manager.id, name: "店长", role: .manager, tokenHash: [])
            let logger = app.database.logger
            // MUT: twelve reads of one to three ids each, as a pick's misses, shared and as a viewer, on one connection
            let plans = try await app.database.withConnection { connection in
                for call in 0..<12 {
                    let wanted = Array(ids[call..<(call + 1 + call % 3)])
                    _ = try await connection.run(StoreStatements.SharedByIDs(ids: wanted), logger: logger)
                    _ = try await connection.run(StoreStatements.ByIDs(ids: wanted, viewer: viewer), logger: logger)
                }
                return try await connection.query(
                    """
                    SELECT name, generic_plans, custom_plans FROM pg_prepared_statements
                    WHERE name IN ('stores_shared_by_ids', 'stores_by_ids') ORDER BY name
                    """, logger: logger
                ).collect().map { try $0.decode((String, Int, Int).self) }
            }
            // validate: after PostgreSQL's five custom plans, the generic one serves the rest
            #expect(plans.map(\.0) == ["stores_by_ids", "stores_shared_by_ids"])
            for (name, generic, custom) in plans {
                #expect(generic >= 6, "\(name): \(generic) generic, \(custom) custom")
                #expect(custom <= 6, "\(name): \(generic) generic, \(custom) custom")
            }
        }
    }
}
