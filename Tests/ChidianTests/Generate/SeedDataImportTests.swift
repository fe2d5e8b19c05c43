import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The generated and demo sets go through the real importer and can be signed into.
@Suite struct SeedDataImportTests {
    @Test func theDemoSetImportsAndItsAccountsSignIn() async throws {
        try await TestApp.run { client, app in
            // MUT
            let report = try await SeedImporter(database: app.database, config: app.services.config)
                .run(directory: DemoSeed.directory)
            // validate
            #expect(report.users == 40 && report.stores == 36 && report.comments == 316)
            #expect(report.warnings.isEmpty, "\(report.warnings)")
            for (name, password) in [("User1", "111"), ("Manager4", "111"), ("Admin", "chidian-admin")] {
                let login = try await client.send(.post, "/v1/auth/login", body: ["name": name, "password": password])
                #expect(login.status == .ok, "\(name)")
            }
            let categories = try await app.database.query("SELECT count(*)::int FROM categories")
            #expect(try categories.first!.decode(Int.self) == 16)
        }
    }

    @Test func aGeneratedSetImportsAndItsAccountsSignIn() async throws {
        let seed = try GeneratedSeed.make(stores: 40, users: 120, comments: 600, seed: 99)
        defer { seed.remove() }
        try await TestApp.run { client, app in
            let report = try await SeedImporter(database: app.database, config: app.services.config)
                .run(directory: seed.directory)
            #expect(report.users == 120 && report.stores == 40 && report.comments == 600)
            let notices = try await app.database.query("SELECT count(*)::int FROM comments WHERE kind = 'notice'")
            #expect(try notices.first!.decode(Int.self) == seed.summary.notices)
            let reviewer = try #require(seed.users.first { $0.type == "user" })
            let login = try await client.send(
                .post, "/v1/auth/login", body: ["name": reviewer.name, "password": Generator.password])
            #expect(login.status == .ok)
        }
    }

    /// Right after an import the planner knows the tables: before, a fresh import was planned as if empty (the
    /// viewer state, on every first feed page and pick, scanned every review) until something ran ANALYZE.
    @Test func anImportLeavesStatisticsForThePlanner() async throws {
        let seed = try GeneratedSeed.make(stores: 40, users: 120, comments: 1_500, seed: 7)
        defer { seed.remove() }
        try await TestApp.run { client, app in
            // MUT
            _ = try await SeedImporter(database: app.database, config: app.services.config).run(
                directory: seed.directory)
            // validate: analyzed by the import itself (autovacuum's would be `last_autoanalyze`), and the planner's
            // count of comments is about the real one (never analyzed, it is -1). About: a VACUUM by autovacuum after
            // the import may re-estimate it from the pages it visited (1,625 for 1,500 in one CI run)
            let analyzed = try await app.database.query(
                """
                SELECT count(*)::int FROM pg_stat_user_tables
                WHERE relname IN ('comments', 'categories', 'stores', 'users', 'search_review_grams')
                    AND last_analyze IS NOT NULL
                """)
            #expect(try analyzed.first?.decode(Int.self) == 5)
            let counts = try await app.database.query(
                """
                SELECT (SELECT reltuples FROM pg_class WHERE relname = 'comments')::int8, (SELECT count(*) FROM comments)
                """)
            let (estimated, real) = try #require(try counts.first?.decode((Int64, Int64).self))
            #expect(real > 0 && abs(estimated - real) * 4 <= real, "estimated \(estimated), real \(real)")
        }
    }
}
