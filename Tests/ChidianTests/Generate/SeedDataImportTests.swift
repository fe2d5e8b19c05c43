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
}
