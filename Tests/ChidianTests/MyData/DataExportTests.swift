import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct DataExportTests {
    /// Fails when a table comes to name users (a foreign key to users, a `viewer` column, a `…_id` column named for
    /// a person) that the export's section map does not cover, or when the map names a column that is gone.
    @Test func everyColumnNamingAUserIsCovered() async throws {
        try await TestApp.run { _, app in
            let found = Set(try await UserColumns.find(app.database).keys)
            let covered = Set(UserColumns.sections.keys)
            #expect(found.subtracting(covered).sorted() == [], "columns naming users that the export does not cover")
            #expect(covered.subtracting(found).sorted() == [], "covered columns the schema no longer has")
        }
    }

    /// `data.json` holds, in the section each table maps to, every row that names the user; the archive holds
    /// every photo they uploaded, byte for byte; no password or token hash is in it.
    @Test func exportHoldsEveryRowThatNamesTheUser() async throws {
        try await TestApp.run { client, app in
            let world = try await MyDataWorld.make(client, app)
            let response = try await client.send(.get, "/v1/me/export", token: world.me.token)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/zip")
            #expect(response.headers[.contentDisposition]?.hasPrefix("attachment;") == true)
            let archive = Array(response.body.readableBytesView)
            let entries = try ZipReading.entries(archive)
            #expect(try ZipReading.python(archive) == entries.map(\.name))
            if let unzip = try ZipReading.unzipTest(archive) { #expect(unzip) }

            let data = try #require(entries.first { $0.name == "data.json" }?.bytes)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any])
            let sections = try #require(json["sections"] as? [String: [[String: Any]]])
            #expect(json["userId"] as? String == world.me.id)
            #expect(json["truncated"] as? [String] == [])
            for (column, how) in try await UserColumns.find(app.database).sorted(by: { $0.key < $1.key }) {
                let rows = try await UserColumns.count(app.database, column, how, userID: world.me.id, name: nil)
                #expect(rows > 0, "the fixture has no row of \(column) for the user")
                let section = try #require(UserColumns.sections[column], "\(column) has no section")
                #expect((sections[section]?.count ?? 0) >= rows, "\(column): \(rows) rows, section \(section)")
            }
            // The reviews carry their photo ids; replies received include the manager's.
            let reviews = try #require(sections["reviews"])
            #expect(reviews.contains { ($0["image_ids"] as? [String])?.isEmpty == false })
            #expect(sections["replies_received"]?.first?["body"] as? String == "谢谢")
            // Throttle keys by name record whoever typed it, with their address: never exported.
            #expect(sections["rate_limits"]?.contains { ($0["key"] as? String)?.hasPrefix("login:") == true } == false)
            let text = String(decoding: data, as: UTF8.self)
            #expect(!text.contains("password_hash") && !text.contains("token_hash") && !text.contains("$2"))

            // Every upload, byte for byte, named in imageFiles.
            let files = json["imageFiles"] as? [String] ?? []
            #expect(files.count == world.myImages.count)
            for id in world.myImages {
                let entry = try #require(entries.first { $0.name.hasPrefix("images/\(id).") }, "no file for \(id)")
                let stored = try await app.database.query(
                    "SELECT b.bytes FROM images i JOIN image_blobs b ON b.sha256 = i.sha256 WHERE i.id = \(id)"
                ).first!.decode(Data.self)
                #expect(entry.bytes == Array(stored))
                #expect(files.contains(entry.name))
            }

            let anonymous = try await client.send(.get, "/v1/me/export")
            #expect(anonymous.problemCode == "login_required")
        }
    }

    /// The bounds leave rows out and say so, rather than reading without end.
    @Test func boundsAreNamedInTruncated() async throws {
        try await TestApp.run { client, app in
            let world = try await MyDataWorld.make(client, app)
            var limits = DataExport.Limits()
            limits.maxRows = 1
            limits.maxImages = 1
            let prepared = try #require(
                try await DataExport(database: app.database, limits: limits).prepare(userID: world.me.id))
            let json = try #require(try JSONSerialization.jsonObject(with: Data(prepared.json)) as? [String: Any])
            let truncated = json["truncated"] as? [String] ?? []
            #expect(truncated.contains("reviews") && truncated.contains("images") && truncated.contains("image_files"))
            #expect(!truncated.contains("profile"))
            #expect(((json["sections"] as? [String: [Any]])?["reviews"])?.count == 1)
            #expect(prepared.images.count == 1)
        }
    }
}
