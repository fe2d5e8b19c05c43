import Foundation
import HummingbirdTesting
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// `export` → `seed` into an empty database reproduces every API view, including what the original format cannot
/// express: categories without stores, the purchase history, when favorites were made, hidden comments, edits and
/// microsecond timestamps.
@Suite struct ExportRoundTripTests {
    /// Builds data through the API on top of the seed fixture.
    static func populate(_ client: any TestClientProtocol, _ app: TestApp) async throws {
        _ = try await SeedImporter(database: app.database, config: app.services.config).run(
            directory: try SeedFixture().write())
        try await app.database.query("INSERT INTO categories (name) VALUES ('西餐')")  // no store yet
        let manager = try await login(client, "Manager4")
        let user1 = try await login(client, "User1")
        let user2 = try await login(client, "User2")
        for amount in [120, 35] {
            let bought = try await client.send(
                .post, "/v1/stores/s001/promotions", body: ["amount": amount], token: manager)
            #expect(bought.status == .created)
        }
        #expect(try await client.send(.put, "/v1/stores/s002/favorite", token: user2).status == .noContent)
        // A position, round-the-clock hours (so `openNow` cannot change between the two reads) and a zone.
        let placed = try await client.send(
            .patch, "/v1/stores/s001",
            body: [
                "location": ["lat": 30.630012345678, "lng": 104.054098765432],
                "hours": (1...7).map { ["day": $0, "open": "00:00", "close": "00:00"] }, "timeZone": "America/New_York",
            ], token: manager)
        #expect(placed.status == .ok)
        #expect(try await client.send(.put, "/v1/stores/s003/favorite", token: user2).status == .noContent)
        let edit = try await client.send(
            .patch, "/v1/comments/c001", body: ["body": "毛肚很新鲜，第二次来也一样", "pricePerPerson": 120], token: user1)
        #expect(edit.status == .ok)
        let image = try await client.execute(
            uri: "/v1/images", method: .post, headers: [.contentType: "image/png", .authorization: "Bearer \(user2)"],
            body: ByteBuffer(bytes: TestImages.png(width: 5, height: 6)))
        let imageID = try #require(try image.json()["id"] as? String)
        let review = try await client.send(
            .post, "/v1/stores/s002/comments",
            body: [
                "rating": 2, "body": "炸酱面偏咸", "imageIds": [imageID], "scores": ["taste": 2, "service": 4],
                "pricePerPerson": 45,
            ], token: user2
        )
        #expect(review.status == .created)
        let reviewID = try #require(try review.json()["id"] as? String)
        #expect(try await client.send(.put, "/v1/comments/\(reviewID)/like", token: user1).status == .noContent)
        #expect(try await client.send(.put, "/v1/comments/c001/like", token: user2).status == .noContent)
        let replied = try await client.send(
            .put, "/v1/comments/c001/reply", body: ["body": "谢谢光临，毛肚每天现切"], token: manager)
        #expect(replied.status == .ok, "\(replied.text)")
        let reported = try await client.send(
            .post, "/v1/comments/\(reviewID)/reports", body: ["reason": "off_topic", "note": "和店无关"], token: user1)
        #expect(reported.status == .created, "\(reported.text)")
        try await app.database.query("UPDATE comments SET hidden_at = now() WHERE id = 'c004'")
        let described = try await client.send(
            .patch, "/v1/stores/s001", body: ["description": "毛肚每天现切"], token: manager)
        #expect(described.status == .ok, "\(described.text)")
    }

    static func login(_ client: any TestClientProtocol, _ name: String) async throws -> String {
        let response = try await client.send(
            .post, "/v1/auth/login", body: ["name": name, "password": name == "User2" ? "222" : "111"])
        return try #require(try response.json()["token"] as? String)
    }

    /// Every view, anonymous and signed in, as status + parsed body.
    static func views(_ client: any TestClientProtocol, _ app: TestApp) async throws -> [String: String] {
        var paths = [
            "/v1/categories", "/v1/promotions/daily", "/v1/feed/featured?limit=100", "/v1/search?q=%E9%9D%A2",
            "/v1/search?q=huoguo",
        ]
        for sort in ["rating", "newest", "name", "popular", "price"] { paths.append("/v1/stores?sort=\(sort)") }
        paths.append("/v1/stores?near=30.63,104.054&sort=distance")
        let stores = try await app.database.query("SELECT id FROM stores ORDER BY id").map {
            try $0.decode(String.self)
        }
        for store in stores {
            paths += [
                "/v1/stores/\(store)", "/v1/stores/\(store)/comments", "/v1/stores/\(store)/comments?sort=rating",
                "/v1/stores/\(store)/comments?sort=helpful",
            ]
        }
        let comments = try await app.database.query("SELECT id FROM comments ORDER BY id").map {
            try $0.decode(String.self)
        }
        paths += comments.map { "/v1/comments/\($0)?track=false" }
        let users = try await app.database.query("SELECT id FROM users ORDER BY id").map { try $0.decode(String.self) }
        for user in users { paths += ["/v1/users/\(user)", "/v1/users/\(user)/comments"] }
        let images = try await app.database.query("SELECT id FROM images ORDER BY id").map {
            try $0.decode(String.self)
        }
        paths += images.map { "/v1/images/\($0)" }
        var result: [String: String] = [:]
        for path in paths { result["anonymous " + path] = try await view(client, path, token: nil) }
        for name in ["User1", "User2", "Manager4"] {
            let token = try await login(client, name)
            for path in [
                "/v1/me", "/v1/me/favorites", "/v1/me/comments", "/v1/me/stores", "/v1/stores/s001/promotions",
                "/v1/stores?sort=popular", "/v1/stores/s002",
            ] {
                result["\(name) \(path)"] = try await view(client, path, token: token)
            }
        }
        return result
    }

    static func view(_ client: any TestClientProtocol, _ path: String, token: String?) async throws -> String {
        let response = try await client.send(.get, path, token: token)
        if response.headers[.contentType]?.hasPrefix("image/") == true {
            return "\(response.status.code) \(response.headers[.eTag] ?? "") \(Array(response.body.readableBytesView))"
        }
        // Parsed and printed with sorted keys: the same JSON whatever the writer's key order.
        var object = try JSONSerialization.jsonObject(
            with: Data(response.body.readableBytesView), options: [.fragmentsAllowed])
        if var problem = object as? [String: Any] {
            problem["requestId"] = nil  // per request, not data
            object = problem
        }
        // Cold start samples its order (issue 30): the feed's reviews are compared as a set.
        if path.hasPrefix("/v1/feed/featured"), var page = object as? [String: Any],
            let items = page["items"] as? [[String: Any]]
        {
            page["items"] = items.sorted { ($0["id"] as? String ?? "") < ($1["id"] as? String ?? "") }
            object = page
        }
        let text = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        return "\(response.status.code) " + String(decoding: text, as: UTF8.self)
    }

    @Test func everyAPIViewSurvivesExportThenSeed() async throws {
        try await TestApp.run { client, app in
            // setup
            try await Self.populate(client, app)
            let before = try await Self.views(client, app)
            let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
                "export-\(UUID().uuidString)")
            _ = try await SeedExporter(database: app.database).run(directory: directory)
            // MUT: seed the export into an empty database
            try await TestApp.run { otherClient, other in
                _ = try await SeedImporter(database: other.database, config: other.services.config).run(
                    directory: directory)
                // validate
                let after = try await Self.views(otherClient, other)
                #expect(before.count == after.count)
                for (key, value) in before where after[key] != value {
                    Issue.record(
                        "\(key) differs:\n before \(value.prefix(600))\n after  \(after[key]?.prefix(600) ?? "missing")"
                    )
                }
                // the purchase history with its ids and times, and favorites with theirs, and the hidden comment
                for sql in [
                    "SELECT id || amount || coalesce(buyer_id, '-') || created_at FROM promotions ORDER BY 1",
                    "SELECT user_id || store_id || created_at FROM favorites ORDER BY 1",
                    "SELECT id || coalesce(hidden_at::text, '-') || created_at || updated_at || version FROM comments ORDER BY 1",
                    "SELECT id || name FROM categories ORDER BY 1",
                    "SELECT id || comment_id || reporter_id || reason || coalesce(note, '-') || created_at || coalesce(closed_at::text, '-') FROM reports ORDER BY 1",
                    "SELECT comment_id || author_id || body || created_at || updated_at FROM comment_replies ORDER BY 1",
                    "SELECT comment_id || user_id FROM comment_likes ORDER BY 1",
                ] {
                    let a = try await app.database.query(PostgresQuery(unsafeSQL: sql)).map {
                        try $0.decode(String.self)
                    }
                    let b = try await other.database.query(PostgresQuery(unsafeSQL: sql)).map {
                        try $0.decode(String.self)
                    }
                    #expect(a == b, "\(sql)")
                }
                // and a second import of the same export changes nothing
                let again = try await SeedImporter(database: other.database, config: other.services.config).run(
                    directory: directory)
                #expect(again.changed.values.allSatisfy { $0 == 0 }, "\(again.changed)")
            }
        }
    }
}
