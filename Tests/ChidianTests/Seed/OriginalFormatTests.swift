import Foundation
import HummingbirdTesting
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The original app's own files, as its users have them: plain-text passwords, photos that lived in the app
/// bundle (so no images/ folder), no timestamps, and keys we do not know.
@Suite struct OriginalFormatTests {
    static func originalFiles() throws -> URL {
        var fixture = SeedFixture()
        fixture.images = []  // the photos are in the app bundle, not beside the JSON
        fixture.stores[0]["rating"] = 4.5  // a key the format does not name
        fixture.users[0]["favouriteFood"] = "火锅"
        fixture.comments.append(
            [
                "id": "c005", "store_id": "s001", "user_id": "u002", "rating": 4, "context": "第二次来，还是好吃",
                "commentImageName": ["c001_1"],
            ])
        return try fixture.write()
    }

    @Test func importsWithWarningsAndTheDemoAccountsSignIn() async throws {
        try await TestApp.run { client, app in
            let directory = try Self.originalFiles()
            // MUT
            let report = try await SeedImporter(database: app.database, config: app.services.config).run(
                directory: directory)
            // validate: one warning per missing name (c001_1 is named twice), one for the unknown fan
            let warnings = report.warnings.map(\.description)
            #expect(warnings.filter { $0.contains("image skipped") }.count == 4, "\(warnings)")
            #expect(warnings.filter { $0.contains("\"c001_1\"") }.count == 1, "\(warnings)")
            #expect(warnings.contains("store.json[0].staredUserId[2] = \"u999\": unknown user skipped"))
            #expect(report.comments == 5 && report.images == 0)
            for (name, password) in [("User1", "111"), ("Manager4", "111")] {
                let login = try await client.send(.post, "/v1/auth/login", body: ["name": name, "password": password])
                #expect(login.status == .ok, "\(name)")
            }
            let store = try await client.send(.get, "/v1/stores/s001").json()
            #expect((store["imageUrls"] as? [String]) == [])
        }
    }

    @Test func arrayOrderIsTimeOrderNewestLast() async throws {
        try await TestApp.run { client, app in
            _ = try await SeedImporter(database: app.database, config: app.services.config).run(
                directory: try Self.originalFiles())
            // comments of s001 in the file: c001, c002, c003, c005 → newest first is the reverse
            let page = try await client.send(.get, "/v1/stores/s001/comments").json()
            let ids = (page["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(ids == ["c005", "c003", "c002", "c001"])
            let stores = try await client.send(.get, "/v1/stores?sort=newest").json()
            #expect(
                (stores["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["s003", "s002", "s001"])
            // every element has its own time, a second apart
            let times = try await app.database.query("SELECT count(DISTINCT created_at)::int FROM comments")
            #expect(try times[0].decode(Int.self) == 5)
        }
    }

    @Test func aSecondImportChangesNothing() async throws {
        try await TestApp.run { _, app in
            let directory = try Self.originalFiles()
            let importer = SeedImporter(database: app.database, config: app.services.config)
            _ = try await importer.run(directory: directory)
            let before = try await SeedImportTests().snapshot(app.database)
            // MUT
            let again = try await importer.run(directory: directory)
            // validate
            #expect(again.changed.values.allSatisfy { $0 == 0 }, "\(again.changed)")
            #expect(try await SeedImportTests().snapshot(app.database) == before)
        }
    }
}
