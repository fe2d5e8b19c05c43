import Foundation
import HummingbirdTesting
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct SeedImportTests {
    func importer(_ app: TestApp) -> SeedImporter { SeedImporter(database: app.database, config: app.services.config) }

    /// Everything a re-import must leave alone, as text.
    func snapshot(_ database: Database) async throws -> [String] {
        var lines: [String] = []
        for table in [
            "users", "stores", "categories", "comments", "favorites", "promotions", "images", "image_blobs",
            "store_images", "comment_images",
        ] {
            let rows = try await database.query(PostgresQuery(unsafeSQL: "SELECT t::text FROM \(table) t ORDER BY 1"))
            lines += try rows.map { "\(table): " + (try $0.decode(String.self)) }
        }
        return lines
    }

    @Test func loadsTheOriginalFormatAndDemoAccountsSignIn() async throws {
        try await TestApp.run { client, app in
            let directory = try SeedFixture().write()
            // MUT
            let report = try await importer(app).run(directory: directory)
            // validate
            #expect(report.users == 4 && report.stores == 3 && report.comments == 4 && report.images == 4)
            #expect(
                report.warnings.map(\.description) == ["store.json[0].staredUserId[2] = \"u999\": unknown user skipped"]
            )
            let login = try await client.send(.post, "/v1/auth/login", body: ["name": "user1", "password": "111"])
            #expect(login.status == .ok)
            let stores = try await app.database.query(
                "SELECT id, rating_count, rating_sum::int, favorite_count, ad_spend::int FROM stores ORDER BY id")
            let totals = try stores.map { try $0.decode((String, Int, Int, Int, Int).self) }
            #expect(totals.map(\.0) == ["s001", "s002", "s003"])
            #expect(totals[0] == ("s001", 2, 8, 2, 300))
            #expect(totals[2] == ("s003", 1, 4, 1, 50))
            let kinds = try await app.database.query("SELECT id, kind, rating::int FROM comments ORDER BY id")
                .map { try $0.decode((String, String, Int?).self) }
            #expect(kinds[2] == ("c003", "notice", nil))
            #expect(kinds[0].1 == "review")
            let categories = try await app.database.query("SELECT name FROM categories ORDER BY name").map {
                try $0.decode(String.self)
            }
            #expect(Set(categories) == ["火锅", "面馆", "粤菜"])
            let owner = try await app.database.query("SELECT uploader_id FROM images WHERE id = 'c001_1'")
            #expect(try owner[0].decode(String?.self) == "u001")
            let image = try await client.send(.get, "/v1/images/s001_2")
            #expect(image.status == .ok)
            #expect(Data(image.body.readableBytesView) == SeedFixture.png(width: 11, height: 8))
        }
    }

    @Test func reimportingChangesNothing() async throws {
        try await TestApp.run { _, app in
            let directory = try SeedFixture().write()
            _ = try await importer(app).run(directory: directory)
            let before = try await snapshot(app.database)
            // MUT
            let again = try await importer(app).run(directory: directory)
            // validate
            #expect(try await snapshot(app.database) == before)
            #expect(again.changed.values.allSatisfy { $0 == 0 }, "\(again.changed)")
        }
    }

    @Test func changesAreUpsertedById() async throws {
        try await TestApp.run { _, app in
            var fixture = SeedFixture()
            _ = try await importer(app).run(directory: try fixture.write())
            fixture.comments[1]["rating"] = 1
            fixture.stores[1]["name"] = "老北京炸酱面·二店"
            fixture.stores[1]["sumCost"] = 70
            // MUT
            let report = try await importer(app).run(directory: try fixture.write())
            // validate
            #expect(report.changed["comments"] == 1)
            #expect(report.changed["stores"] == 1)
            let store = try await app.database.query(
                "SELECT name, version, ad_spend::int FROM stores WHERE id = 's002'")
            #expect(try store[0].decode((String, Int, Int).self) == ("老北京炸酱面·二店", 2, 70))
            let rating = try await app.database.query("SELECT rating_sum::int FROM stores WHERE id = 's001'")
            #expect(try rating[0].decode(Int.self) == 6)
        }
    }

    static func applyDefect(_ name: String, to f: inout SeedFixture) {
        switch name {
        case "duplicate user id": f.users[1]["id"] = "u001"
        case "dangling manager": f.stores[0]["manager"] = "u404"
        case "manager not a manager": f.stores[0]["manager"] = "u001"
        case "rating out of range": f.comments[0]["rating"] = 7
        case "rating as text": f.comments[1]["rating"] = "5"
        case "dangling store": f.comments[3]["store_id"] = "s404"
        case "duplicate comment id": f.comments[3]["id"] = "c001"
        case "image escaping": f.stores[0]["imageName"] = ["../../etc/passwd"]
        case "missing image": f.comments[0]["commentImageName"] = ["nothing"]
        case "not an image": f.extraFiles["images/s001_1.png"] = Data("hello".utf8)
        case "rating as fraction": f.comments[0]["rating"] = 4.5
        case "bad type": f.users[0]["type"] = "chef"
        default: Issue.record("unknown defect \(name)")
        }
    }

    @Test(arguments: [
        ("duplicate user id", "userInfo.json[1].id = \"u001\": is a duplicate id"),
        ("dangling manager", "store.json[0].manager = \"u404\": is not a user id in userInfo.json or the database"),
        ("manager not a manager", "store.json[0].manager = \"u001\": is a user, not a manager"),
        ("rating out of range", "comment.json[0].rating = 7: must be 1–5 for a review"),
        ("rating as text", "comment.json[1].rating = \"5\": must be a number"),
        ("dangling store", "comment.json[3].store_id = \"s404\": is not a store id in store.json or the database"),
        ("duplicate comment id", "comment.json[3].id = \"c001\": is a duplicate id"),
        (
            "image escaping",
            "store.json[0].imageName[0] = \"../../etc/passwd\": image names must stay inside images/ (no /, \\ or ..)"
        ),
        (
            "not an image",
            "store.json[0].imageName[0] = \"s001_1\": images/s001_1.png is not a JPEG, PNG, WebP or GIF image"
        ),
        ("bad type", "userInfo.json[0].type = \"chef\": must be user, manager or admin"),
        // JSON integers are integers in seeds as in request bodies.
        ("rating as fraction", "comment.json[0].rating = 4.5: must be a whole number"),
    ])
    func rejectsDefectsWhole(_ name: String, _ expected: String) async throws {
        try await TestApp.run { _, app in
            var fixture = SeedFixture()
            Self.applyDefect(name, to: &fixture)
            let directory = try fixture.write()
            // MUT
            var caught: SeedError?
            do { _ = try await importer(app).run(directory: directory) } catch let error as SeedError { caught = error }
            // validate: the issue is named exactly and nothing was written
            let error = try #require(caught, "\(name) was accepted")
            #expect(error.issues.map(\.description).contains(expected), "\(error.issues)")
            #expect(try await snapshot(app.database).isEmpty)
        }
    }

    @Test func reportsEveryErrorNotJustTheFirst() async throws {
        try await TestApp.run { _, app in
            var fixture = SeedFixture()
            fixture.users[0]["type"] = "chef"
            fixture.comments[0]["rating"] = 9
            fixture.comments[2]["context"] = "   "
            var caught: SeedError?
            do { _ = try await importer(app).run(directory: try fixture.write()) } catch let error as SeedError {
                caught = error
            }
            let files = Set(try #require(caught).issues.map(\.file))
            #expect(files == ["userInfo.json", "comment.json"])
            #expect(try #require(caught).issues.count >= 3)
        }
    }

    @Test func malformedJSONNamesLineAndColumn() async throws {
        try await TestApp.run { _, app in
            var fixture = SeedFixture()
            fixture.extraFiles["comment.json"] = Data("[\n  {\"id\": \"c1\",\n   \"store_id\" \"s001\"}\n]".utf8)
            var caught: SeedError?
            do { _ = try await importer(app).run(directory: try fixture.write()) } catch let error as SeedError {
                caught = error
            }
            let issue = try #require(caught?.issues.first)
            #expect(issue.description == "comment.json: malformed JSON at line 3, column 15: expected ':'")
        }
    }

    @Test func dryRunValidatesAndWritesNothing() async throws {
        try await TestApp.run { _, app in
            let report = try await importer(app).run(directory: try SeedFixture().write(), dryRun: true)
            #expect(report.dryRun && report.comments == 4)
            #expect(try await snapshot(app.database).isEmpty)
        }
    }

    @Test func exportThenSeedReproducesTheData() async throws {
        try await TestApp.run { client, app in
            // setup: a seed plus API-made changes the original format cannot express
            _ = try await importer(app).run(directory: try SeedFixture().write())
            try await app.database.query("UPDATE stores SET description = '川味老店', address = '成都市武侯区' WHERE id = 's001'")
            try await app.database.query("UPDATE comments SET hidden_at = now() WHERE id = 'c004'")
            let exporter = SeedExporter(database: app.database)
            let first = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
                "export-\(UUID().uuidString)")
            // MUT
            let exported = try await exporter.run(directory: first)
            #expect(exported.users == 4 && exported.comments == 4 && exported.images == 4)
            await #expect(throws: AdminError.self) { try await exporter.run(directory: first) }
            // validate: seeding the export into an empty database and exporting again gives the same files
            try await TestDatabase.withFresh { database, url in
                let config = TestApp.testConfig(url: url)
                _ = try await SeedImporter(database: database, config: config).run(directory: first)
                let second = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
                    "export-\(UUID().uuidString)")
                _ = try await SeedExporter(database: database).run(directory: second)
                for file in ["userInfo.json", "categories.json", "store.json", "comment.json"] {
                    let a = try String(contentsOf: first.appendingPathComponent(file), encoding: .utf8)
                    let b = try String(contentsOf: second.appendingPathComponent(file), encoding: .utf8)
                    #expect(a == b, "\(file) differs")
                }
                let images = try FileManager.default.contentsOfDirectory(
                    atPath: second.appendingPathComponent("images").path)
                #expect(images.sorted() == ["c001_1.png", "s001_1.png", "s001_2.png", "s003_1.png"])
            }
            _ = client
        }
    }
}
