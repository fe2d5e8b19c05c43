import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// What every response carries whatever it answers: security headers, a request id that is also in the logs
/// and in any problem body, and no internals (SQL, stack traces, Swift types) in error bodies.
@Suite struct ResponseHygieneTests {
    /// Log lines with their metadata merged, for checking what the server logged per request.
    final class LogCapture: Sendable {
        struct Line: Sendable {
            let level: Logger.Level
            let message: String
            let metadata: [String: String]
        }

        let lines = Mutex<[Line]>([])

        func handler(label: String) -> some LogHandler { Handler(capture: self) }

        struct Handler: LogHandler {
            let capture: LogCapture
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .info

            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }

            func log(event: LogEvent) {
                let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
                let line = Line(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" })
                capture.lines.withLock { $0.append(line) }
            }
        }
    }

    /// Like `TestApp.run`, with the application logging into `capture`.
    static func run(
        capture: LogCapture, _ body: @Sendable (any TestClientProtocol, TestApp) async throws -> Void
    ) async throws {
        try await TestDatabase.withFresh { database, url in
            let config = TestApp.testConfig(url: url)
            let logger = Logger(label: "hygiene") { _ in capture.handler(label: "hygiene") }
            let services = AppServices(config: config, database: database, logger: logger)
            let app = buildApplication(services, runDatabase: false)
            let testApp = TestApp(services: services, url: url)
            try await app.test(.router) { client in try await body(client, testApp) }
        }
    }

    /// A spread of answers: 200, 201, 204, 304, 400, 401, 403, 404 (route and resource), 412, 413, 415, 500.
    static func spread(_ client: any TestClientProtocol, _ app: TestApp) async throws -> [(String, TestResponse)] {
        let manager = try await client.register("Boss", role: "manager")
        let user = try await client.register("Eater")
        let category = try await StoreFixture.category(app, "火锅")
        let storeID = try await StoreFixture.store(client, manager, name: "Hot", categoryID: category).id
        let image = try await client.execute(
            uri: "/v1/images", method: .post,
            headers: [.contentType: "image/gif", .authorization: "Bearer \(user.token)"],
            body: ByteBuffer(bytes: TestImages.gif(width: 3, height: 3)))
        let imageID = try #require(image.json()["id"] as? String)
        let etag = try await client.send(.get, "/v1/images/\(imageID)").headers[.eTag] ?? ""
        return [
            ("200 health", try await client.send(.get, "/health")),
            ("200 metrics", try await client.send(.get, "/metrics")),
            ("200 openapi", try await client.send(.get, "/openapi.json")),
            ("200 store", try await client.send(.get, "/v1/stores/\(storeID)")),
            ("201 image", image),
            ("200 image", try await client.send(.get, "/v1/images/\(imageID)")),
            ("304 image", try await client.send(.get, "/v1/images/\(imageID)", headers: [.ifNoneMatch: etag])),
            ("204 favorite", try await client.send(.put, "/v1/stores/\(storeID)/favorite", token: user.token)),
            ("400 invalid_body", try await client.sendRaw(.post, "/v1/auth/login", body: "{not json")),
            (
                "400 invalid_visitor_id",
                try await client.send(.get, "/v1/feed/featured", headers: [HTTPField.Name("X-Visitor-Id")!: "<script>"])
            ),
            ("401 invalid_token", try await client.send(.get, "/v1/me", token: "forged")),
            ("401 login_required", try await client.send(.get, "/v1/me")),
            (
                "403 manager_required",
                try await client.send(
                    .post, "/v1/stores", body: ["name": "x", "categoryId": category], token: user.token)
            ),
            ("404 not_found", try await client.send(.get, "/v1/nothing/here")),
            ("404 not_found method", try await client.send(.post, "/health")),
            ("404 store_not_found", try await client.send(.get, "/v1/stores/none")),
            (
                "412 version_conflict",
                try await client.send(
                    .patch, "/v1/stores/\(storeID)", body: ["name": "y"], token: manager.token,
                    headers: [.ifMatch: "\"9\""])
            ),
            (
                "413 body_too_large",
                try await client.sendRaw(
                    .post, "/v1/auth/register", body: String(repeating: " ", count: (1 << 20) + 10))
            ),
            (
                "415 unsupported_media_type",
                try await client.sendRaw(
                    .post, "/v1/images", body: "<svg onload=alert(1)>", token: user.token,
                    headers: [.contentType: "image/svg+xml"])
            ),
            // A statement that fails inside the server (its table gone): a 500, answered without internals.
            (
                "500 internal_error",
                try await { () async throws -> TestResponse in
                    try await app.database.query("ALTER TABLE image_blobs RENAME TO image_blobs_gone")
                    return try await client.send(.get, "/v1/images/\(imageID)")
                }()
            ),
        ]
    }

    @Test func everyResponseCarriesSecurityHeadersAndARequestId() async throws {
        let capture = LogCapture()
        try await Self.run(capture: capture) { client, app in
            // MUT
            let responses = try await Self.spread(client, app)
            // validate
            #expect(responses.first { $0.0 == "500 internal_error" }?.1.status == .internalServerError)
            var ids: Set<String> = []
            for (name, response) in responses {
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(name)")
                let id = try #require(response.headers[HTTPField.Name("X-Request-Id")!], "\(name)")
                #expect(!id.isEmpty && !ids.contains(id), "\(name): request ids are unique")
                ids.insert(id)
                if response.status.code >= 400 {
                    #expect(response.headers[.contentType] == "application/problem+json", "\(name)")
                    let body = try response.json()
                    #expect(body["requestId"] as? String == id, "\(name)")
                    #expect(body["status"] as? Int == Int(response.status.code), "\(name)")
                    #expect(
                        name.hasPrefix("\(response.status.code) \(body["code"] as? String ?? "?")"),
                        "\(name): \(response.text)")
                    #expect(Set(body.keys) == ["type", "title", "status", "detail", "code", "requestId"], "\(name)")
                }
            }
            // Each request id also appears in the server's log lines for that request.
            let logged = Set(capture.lines.withLock { $0.compactMap { $0.metadata["hb.request.id"] } })
            #expect(ids.isSubset(of: logged), "ids missing from the log: \(ids.subtracting(logged).sorted())")
            let failure = capture.lines.withLock { $0.first { $0.level >= .error } }
            #expect(failure?.metadata["hb.request.id"] == responses.last?.1.headers[HTTPField.Name("X-Request-Id")!])
        }
    }

    @Test func imagesForbidScriptsEvenWhenNotModified() async throws {
        try await TestApp.run { client, app in
            let user = try await client.register("Eater")
            let upload = try await client.execute(
                uri: "/v1/images", method: .post,
                headers: [.contentType: "image/png", .authorization: "Bearer \(user.token)"],
                body: ByteBuffer(bytes: TestImages.png(width: 2, height: 2)))
            let id = try #require(upload.json()["id"] as? String)
            // MUT
            let served = try await client.send(.get, "/v1/images/\(id)")
            let notModified = try await client.send(
                .get, "/v1/images/\(id)", headers: [.ifNoneMatch: served.headers[.eTag] ?? ""])
            // validate
            #expect(notModified.status == .notModified)
            for response in [served, notModified] {
                let policy = try #require(response.headers[.contentSecurityPolicy])
                #expect(policy.contains("default-src 'none'"))
                #expect(!policy.contains("script-src"), "no script source is ever allowed")
                #expect(policy.contains("sandbox"))
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
            }
            #expect(served.headers[.contentType] == "image/png")
        }
    }

    /// Error bodies are for clients: no SQL, no PostgreSQL or Swift error text, no file paths or stack frames.
    @Test func errorBodiesHoldNoInternals() async throws {
        try await TestApp.run { client, app in
            var bodies: [(String, String)] = try await Self.spread(client, app).filter { $0.1.status.code >= 400 }.map {
                ($0.0, $0.1.text)
            }
            // Inputs that reach the database in odd shapes.
            let user = try await client.register("Prober")
            for uri in [
                "/v1/stores?cursor=eyJsaXN0Ijoic3RvcmVzLnJhdGluZyIsImtleXMiOlsieCIsInkiXX0", "/v1/stores/%27",
                "/v1/users/%00",
                "/v1/feed/featured?cursor=eyJsaXN0IjoiZmVlZCIsImtleXMiOlsiLTEiXX0", "/v1/me/favorites?limit=0",
            ] {
                bodies.append((uri, try await client.send(.get, uri, token: user.token).text))
            }
            bodies.append(
                (
                    "avatar NUL",
                    try await client.send(.put, "/v1/me/avatar", body: ["imageId": "\u{0}"], token: user.token).text
                ))
            bodies.append(
                (
                    "login NUL",
                    try await client.send(.post, "/v1/auth/login", body: ["name": "\u{0}", "password": "x"]).text
                ))
            // validate
            let leaks = [
                "SELECT", "INSERT", "UPDATE ", "PSQLError", "sqlState", "PostgresNIO", ".swift", "Fatal",
                "DecodingError", "Swift.", "0x",
            ]
            for (name, body) in bodies {
                for leak in leaks {
                    #expect(!body.contains(leak), "\(name) leaks \(leak): \(body)")
                }
            }
        }
    }
}
