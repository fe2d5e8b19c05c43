import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Input an attacker or a broken client sends: every one gets a 4xx problem (or is stored and returned
/// verbatim), never a 5xx.
@Suite struct HostileInputTests {
    /// A manager with a store, a user with a review, and their ids.
    struct Scene: Sendable {
        let manager: Session
        let user: Session
        let storeID: String
        let reviewID: String
        let categoryID: String

        static func make(_ client: any TestClientProtocol, _ app: TestApp) async throws -> Scene {
            let manager = try await client.register("Boss", role: "manager")
            let user = try await client.register("Eater")
            let categoryID = try await StoreFixture.category(app, "火锅")
            let storeID =
                try await StoreFixture.store(client, manager, name: "Hot", categoryID: categoryID).id
            let review = try await client.send(
                .post, "/v1/stores/\(storeID)/comments", body: ["rating": 4, "body": "ok"], token: user.token)
            return Scene(
                manager: manager, user: user, storeID: storeID, reviewID: try #require(review.json()["id"] as? String),
                categoryID: categoryID)
        }
    }

    static func raw(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, bytes: [UInt8],
        token: String? = nil,
        contentType: String = "application/json"
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: contentType]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(bytes: bytes))
    }

    @Test func bodiesOverTheLimitAre413() async throws {
        try await TestApp.run { client, app in
            let scene = try await Scene.make(client, app)
            // 1.2 MB of UTF-8
            let big = "{\"body\": \"" + String(repeating: "好", count: 400_000) + "\", \"rating\": 5}"
            // MUT
            let comment = try await client.sendRaw(
                .post, "/v1/stores/\(scene.storeID)/comments", body: big, token: scene.user.token)
            let register = try await client.sendRaw(
                .post, "/v1/auth/register",
                body: "{\"name\": \"x\", \"password\": \"" + String(repeating: "a", count: (1 << 20) + 1) + "\"}")
            let patch = try await client.sendRaw(
                .patch, "/v1/stores/\(scene.storeID)", body: big, token: scene.manager.token)
            // validate
            for response in [comment, register, patch] {
                #expect(response.status == .contentTooLarge)
                #expect(response.problemCode == "body_too_large")
            }
            let count = try await app.database.query("SELECT count(*)::int FROM comments")
            #expect(try count[0].decode(Int.self) == 1)
        }
    }

    @Test func deeplyNestedJSONIsABadRequest() async throws {
        try await TestApp.run { client, app in
            let scene = try await Scene.make(client, app)
            let depth = 100_000
            let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let objects = String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
            // MUT: as the whole body and inside fields that keep raw JSON (amount, rating).
            let responses = [
                try await client.sendRaw(.post, "/v1/auth/register", body: arrays),
                try await client.sendRaw(.post, "/v1/auth/login", body: objects),
                try await client.sendRaw(
                    .post, "/v1/stores/\(scene.storeID)/promotions", body: "{\"amount\": \(arrays)}",
                    token: scene.manager.token),
                try await client.sendRaw(
                    .post, "/v1/stores/\(scene.storeID)/comments", body: "{\"body\": \"x\", \"rating\": \(objects)}",
                    token: scene.user.token),
                try await client.sendRaw(
                    .patch, "/v1/comments/\(scene.reviewID)", body: "{\"rating\": \(arrays)}", token: scene.user.token),
            ]
            // validate
            for response in responses {
                #expect(response.status == .badRequest, "\(response.status) \(response.text.prefix(200))")
                #expect(
                    ["invalid_body", "invalid_amount", "invalid_rating"].contains(response.problemCode ?? ""),
                    "\(response.text.prefix(200))")
            }
        }
    }

    @Test func invalidUTF8IsABadRequest() async throws {
        try await TestApp.run { client, app in
            let scene = try await Scene.make(client, app)
            let broken: [UInt8] =
                Array("{\"name\": \"".utf8) + [0xC3, 0x28, 0xFF, 0xFE]
                + Array("\", \"password\": \"long enough\"}".utf8)
            let brokenBody: [UInt8] =
                Array("{\"rating\": 5, \"body\": \"".utf8) + [0xED, 0xA0, 0x80] + Array("\"}".utf8)  // a lone surrogate
            // MUT
            let register = try await Self.raw(client, .post, "/v1/auth/register", bytes: broken)
            let comment = try await Self.raw(
                client, .post, "/v1/stores/\(scene.storeID)/comments", bytes: brokenBody, token: scene.user.token)
            let store = try await Self.raw(
                client, .post, "/v1/stores", bytes: [0xFF, 0xFF, 0xFF], token: scene.manager.token)
            // validate
            for response in [register, comment, store] {
                #expect(response.status == .badRequest)
                #expect(response.problemCode == "invalid_body")
            }
        }
    }

    @Test func hugeQueryStringsAreBadRequests() async throws {
        try await TestApp.run { client, app in
            let scene = try await Scene.make(client, app)
            let huge = String(repeating: "x", count: 200_000)
            let cases: [(String, String)] = [
                ("/v1/stores?sort=\(huge)", "invalid_sort"),
                ("/v1/stores?limit=\(String(repeating: "9", count: 5000))", "invalid_limit"),
                ("/v1/stores?cursor=\(huge)", "invalid_cursor"),
                ("/v1/stores?category=\(huge)", "unknown_category"),
                ("/v1/stores/\(scene.storeID)/comments?kind=\(huge)", "invalid_kind"),
                ("/v1/feed/featured?cursor=\(huge)", "invalid_cursor"),
                ("/v1/promotions/daily?limit=-\(huge)", "invalid_limit"),
                ("/v1/search?q=\(huge)", "query_too_long"),
            ]
            for (uri, code) in cases {
                // MUT
                let response = try await client.send(.get, uri)
                // validate
                #expect(response.status == .badRequest, "\(uri.prefix(60)): \(response.status)")
                #expect(response.problemCode == code, "\(uri.prefix(60)): \(response.text.prefix(200))")
            }
            let many = (0..<5000).map { "p\($0)=\($0)" }.joined(separator: "&")
            let ignored = try await client.send(.get, "/v1/stores?\(many)")
            #expect(ignored.status == .ok)
        }
    }

    @Test func imageHeadersClaimingAbsurdSizesAreRefusedByEveryRoute() async throws {
        try await TestApp.run { client, app in
            let scene = try await Scene.make(client, app)
            let png = TestImages.png(width: 100_000, height: 100_000)
            var webp = TestImages.webpExtended
            webp.replaceSubrange(24..<30, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])  // 16,777,216 × 16,777,216
            let boundary = "chidian-boundary"
            let multipart =
                Array(
                    "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n"
                        .utf8)
                + png + Array("\r\n--\(boundary)--\r\n".utf8)
            // MUT
            let responses = [
                try await Self.raw(
                    client, .post, "/v1/images", bytes: png, token: scene.user.token, contentType: "image/png"),
                try await Self.raw(
                    client, .post, "/v1/images", bytes: png, token: scene.user.token, contentType: "image/jpeg"),
                try await Self.raw(
                    client, .post, "/v1/images", bytes: multipart, token: scene.user.token,
                    contentType: "multipart/form-data; boundary=\(boundary)"),
                try await Self.raw(
                    client, .post, "/v1/images", bytes: TestImages.jpeg(claimingWidth: 65535, height: 65535),
                    token: scene.user.token, contentType: "image/jpeg"),
                try await Self.raw(
                    client, .post, "/v1/images", bytes: webp, token: scene.user.token, contentType: "image/webp"),
            ]
            // validate
            for response in responses {
                #expect(response.status == .badRequest, "\(response.text)")
                #expect(response.problemCode == "invalid_image")
            }
            let stored = try await app.database.query("SELECT count(*)::int FROM images")
            #expect(try stored[0].decode(Int.self) == 0)
        }
    }

    /// SQL (and LIKE) metacharacters are data: stored and answered byte for byte, and they match only themselves.
    @Test func sqlMetacharactersInEveryTextFieldAreStoredVerbatim() async throws {
        try await TestApp.run { client, app in
            let name = "O'Brien\"; DROP TABLE users;--"
            let password = "pw'); DELETE FROM sessions; --"
            let text = "'; DROP TABLE stores; -- \" \\ % _ $1 ? :name /* */ E'\\x27' \u{2028}"
            // MUT
            let session = try await client.send(
                .post, "/v1/auth/register", body: ["name": name, "password": password, "role": "manager"])
            #expect(session.status == .created)
            let token = try #require(session.json()["token"] as? String)
            let login = try await client.send(
                .post, "/v1/auth/login", body: ["name": name.uppercased(), "password": password])
            let categoryID = try await StoreFixture.category(app, "' OR 1=1 --")
            let created = try await client.send(
                .post, "/v1/stores",
                body: ["name": "店 '\";--", "categoryId": categoryID, "description": text, "address": text], token: token
            )
            let storeID = try #require(created.json()["id"] as? String)
            let eater = try await client.register("Eater")
            let review = try await client.send(
                .post, "/v1/stores/\(storeID)/comments", body: ["rating": 5, "body": text], token: eater.token)
            let renamed = try await client.send(.patch, "/v1/me", body: ["name": "x' OR 'a'='a"], token: eater.token)
            // validate
            #expect(login.status == .ok)
            #expect(try login.json()["user"].flatMap { $0 as? [String: Any] }?["name"] as? String == name)
            #expect(created.status == .created)
            let store = try await client.send(.get, "/v1/stores/\(storeID)").json()
            #expect(store["name"] as? String == "店 '\";--")
            #expect(store["description"] as? String == text.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(store["address"] as? String == text.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect((store["category"] as? [String: Any])?["name"] as? String == "' OR 1=1 --")
            #expect(review.status == .created)
            let reviewID = try #require(review.json()["id"] as? String)
            #expect(
                try await client.send(.get, "/v1/comments/\(reviewID)").json()["body"] as? String
                    == text.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(renamed.status == .ok)
            #expect(try renamed.json()["name"] as? String == "x' OR 'a'='a")
            // A search for a metacharacter matches it literally: only this store's text holds "%" and "'".
            for q in ["%25", "_", "%27%22%3B--"] {
                let found = try await client.send(.get, "/v1/search?q=\(q)")
                #expect(found.status == .ok, "\(q): \(found.text)")
                let ids = try StoreFixture.items(found).map { ($0["store"] as? [String: Any])?["id"] as? String }
                #expect(ids == [storeID], "\(q): \(found.text.prefix(300))")
            }
            let nothing = try await client.send(.get, "/v1/search?q=%25%25")
            #expect(try StoreFixture.items(nothing).isEmpty)
            let tables = try await app.database.query("SELECT count(*)::int FROM users")
            #expect(try tables[0].decode(Int.self) == 2)
            for uri in [
                "/v1/stores/%27%20OR%20%271%27%3D%271", "/v1/users/1;DROP%20TABLE%20users", "/v1/comments/%27%3B--",
                "/v1/images/..%2F..%2Fetc%2Fpasswd",
                "/v1/stores?category=%27%20OR%201%3D1",
            ] {
                let response = try await client.send(.get, uri)
                #expect((400..<500).contains(response.status.code), "\(uri): \(response.status)")
            }
        }
    }

    /// NUL is the one character PostgreSQL text cannot hold; it must be refused as input, not fail in the database.
    @Test(arguments: [
        "POST /v1/auth/register name", "POST /v1/auth/register password", "POST /v1/auth/login name",
        "PATCH /v1/me name", "PUT /v1/me/avatar imageId", "POST /v1/stores name", "POST /v1/stores categoryId",
        "POST /v1/stores description", "POST /v1/stores imageIds", "PATCH /v1/stores/{id} address",
        "POST /v1/stores/{id}/comments body", "POST /v1/stores/{id}/comments imageIds", "PATCH /v1/comments/{id} body",
        "GET /v1/users/{id}", "GET /v1/users/{id}/comments", "GET /v1/stores/{id}", "GET /v1/stores/{id}/comments",
        "GET /v1/comments/{id}", "GET /v1/images/{id}", "PUT /v1/stores/{id}/favorite", "GET /v1/stores?category",
        "GET /v1/stores?cursor", "GET /v1/search?q",
    ])
    func nulInAnyFieldIsRefusedWithA4xx(_ target: String) async throws {
        try await TestApp.run { client, app in
            let scene = try await Scene.make(client, app)
            let nul = "a\u{0}b"
            let response: TestResponse
            // MUT
            switch target {
            case "POST /v1/auth/register name":
                response = try await client.send(
                    .post, "/v1/auth/register", body: ["name": nul, "password": "long enough"])
            case "POST /v1/auth/register password":
                response = try await client.send(
                    .post, "/v1/auth/register", body: ["name": "Nul", "password": "long\u{0}enough"])
            case "POST /v1/auth/login name":
                response = try await client.send(
                    .post, "/v1/auth/login", body: ["name": nul, "password": "long enough"])
            case "PATCH /v1/me name":
                response = try await client.send(.patch, "/v1/me", body: ["name": nul], token: scene.user.token)
            case "PUT /v1/me/avatar imageId":
                response = try await client.send(.put, "/v1/me/avatar", body: ["imageId": nul], token: scene.user.token)
            case "POST /v1/stores name":
                response = try await client.send(
                    .post, "/v1/stores", body: ["name": nul, "categoryId": scene.categoryID], token: scene.manager.token
                )
            case "POST /v1/stores categoryId":
                response = try await client.send(
                    .post, "/v1/stores", body: ["name": "n", "categoryId": nul], token: scene.manager.token)
            case "POST /v1/stores description":
                response = try await client.send(
                    .post, "/v1/stores", body: ["name": "n", "categoryId": scene.categoryID, "description": nul],
                    token: scene.manager.token)
            case "POST /v1/stores imageIds":
                response = try await client.send(
                    .post, "/v1/stores", body: ["name": "n", "categoryId": scene.categoryID, "imageIds": [nul]],
                    token: scene.manager.token)
            case "PATCH /v1/stores/{id} address":
                response = try await client.send(
                    .patch, "/v1/stores/\(scene.storeID)", body: ["address": nul], token: scene.manager.token)
            case "POST /v1/stores/{id}/comments body":
                response = try await client.send(
                    .post, "/v1/stores/\(scene.storeID)/comments", body: ["rating": 3, "body": nul],
                    token: scene.user.token)
            case "POST /v1/stores/{id}/comments imageIds":
                response = try await client.send(
                    .post, "/v1/stores/\(scene.storeID)/comments", body: ["rating": 3, "body": "b", "imageIds": [nul]],
                    token: scene.user.token)
            case "PATCH /v1/comments/{id} body":
                response = try await client.send(
                    .patch, "/v1/comments/\(scene.reviewID)", body: ["body": nul], token: scene.user.token)
            case "GET /v1/users/{id}": response = try await client.send(.get, "/v1/users/a%00b")
            case "GET /v1/users/{id}/comments": response = try await client.send(.get, "/v1/users/a%00b/comments")
            case "GET /v1/stores/{id}": response = try await client.send(.get, "/v1/stores/a%00b")
            case "GET /v1/stores/{id}/comments": response = try await client.send(.get, "/v1/stores/a%00b/comments")
            case "GET /v1/comments/{id}":
                response = try await client.send(.get, "/v1/comments/a%00b", token: scene.user.token)
            case "GET /v1/images/{id}": response = try await client.send(.get, "/v1/images/a%00b")
            case "PUT /v1/stores/{id}/favorite":
                response = try await client.send(.put, "/v1/stores/a%00b/favorite", token: scene.user.token)
            case "GET /v1/stores?category": response = try await client.send(.get, "/v1/stores?category=a%00b")
            case "GET /v1/search?q": response = try await client.send(.get, "/v1/search?q=a%00b")
            case "GET /v1/stores?cursor":
                response = try await client.send(
                    .get, "/v1/stores?cursor=" + Cursor(list: "stores.rating", keys: ["3.5", nul]).token)
            default: throw TestFailure("unknown target \(target)")
            }
            // validate: a 4xx problem. A password is opaque bytes, so it may be accepted; a search for text
            // nothing can contain may simply find nothing.
            if target.hasSuffix("password"), response.status == .created { return }
            if target.hasSuffix("?q"), response.status == .ok {
                #expect(try StoreFixture.items(response).isEmpty)
                return
            }
            #expect((400..<500).contains(response.status.code), "\(target): \(response.status) \(response.text)")
            #expect(response.problemCode != nil, "\(target): \(response.text)")
        }
    }

    /// Image names in a seed must stay inside images/: comment images too, and every spelling of "elsewhere".
    @Test(arguments: ["../../etc/passwd", "/etc/passwd", "..", "a/../../b", "..\\..\\windows", "images/../x", "c:\\x"])
    func seedImageNamesCannotLeaveTheImagesFolder(_ name: String) async throws {
        try await TestApp.run { _, app in
            var fixture = SeedFixture()
            fixture.comments[0]["commentImageName"] = [name]
            let directory = try fixture.write()
            // MUT
            var caught: SeedError?
            do {
                _ = try await SeedImporter(database: app.database, config: app.services.config).run(
                    directory: directory)
            } catch let error as SeedError {
                caught = error
            }
            // validate: refused, naming the field, and nothing written.
            let error = try #require(caught, "\(name) was accepted")
            #expect(
                error.issues.contains { $0.description.hasPrefix("comment.json[0].commentImageName[0]") },
                "\(error.issues)")
            let users = try await app.database.query("SELECT count(*)::int FROM users")
            #expect(try users[0].decode(Int.self) == 0)
        }
    }
}
