import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresNIO

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// A running application on a fresh database, for tests that go through HTTP.
struct TestApp: Sendable {
    let services: AppServices
    let url: DatabaseURL
    var database: Database { services.database }

    /// Rate limits are off (every test client is one address); `RateLimitTests` turns them on. The pool's wait is
    /// `TestDatabase.withFresh`'s.
    static func testConfig(url: DatabaseURL) -> AppConfiguration {
        var config = AppConfiguration(
            databaseURL: url.description, bcryptCost: 4, poolSize: 6, databaseTimeout: .seconds(120),
            bcryptQueue: 10_000)
        config.rateLimits.enabled = false
        config.idleInTransactionTimeout = .seconds(60)
        // The production deadlines (reads 1 s, writes 2 s) are for a loaded server, not for a test machine running
        // ten suites at once: a store's creation once took over 2 s there. StatementDeadlineTests sets its own.
        config.readStatementTimeout = .seconds(10)
        config.statementTimeout = .seconds(20)
        // `make test` runs the suite twice: with the cache (the default) and with CACHE=off.
        config.cacheEnabled = ProcessInfo.processInfo.environment["CACHE"]?.lowercased() != "off"
        return config
    }

    /// Runs `body` while the caches' listener runs, once it has heard its first heartbeat (as `serve` does); nothing
    /// without caches. Awaited as that event, with no deadline of its own: a listener that never starts is a hang,
    /// which the suite's watchdog names.
    static func listening<T: Sendable>(_ caching: Caching?, _ body: () async throws -> T) async throws -> T {
        guard let caching else { return try await body() }
        let listener = Task<Void, Never> { try? await caching.listener.run() }
        await caching.listener.started()
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        listener.cancel()
        // timing: a grace that checks nothing: the pool closing after us ends a listener that missed the cancel
        _ = await finished(listener, within: .seconds(10))
        return try result.get()
    }

    /// A second router on the same database without the cache: what each read answers straight from PostgreSQL.
    func uncached() -> Application<RouterResponder<AppRequestContext>> {
        var config = services.config
        config.cacheEnabled = false
        return buildApplication(
            AppServices(config: config, database: database, logger: TestDatabase.logger), runDatabase: false)
    }

    /// After a write made beside the server (SQL, a CLI call), waits until the server has applied its cache
    /// invalidations, as it does after its own writes; another server is only bound to within a second.
    /// A fence unheard within its second (a loaded test machine) empties the caches, while the invalidations before
    /// it may still be on their way and would drop what the test reads next; so the fences go on until one is heard,
    /// which orders every invalidation before it (one channel, in order). At most 30: a listener without its
    /// connection (a test that cut it) answers every fence unheard at once.
    func settle() async {
        guard let listener = services.caching?.listener else { return }
        for _ in 0..<30 {
            if await listener.fence() { return }
        }
    }

    /// Writes the signals this server holds, as `serve` does every second (interests, "also viewed" and 猜你喜欢 may
    /// lag by that interval), then waits until the caches have heard of the write.
    func flushSignals() async throws {
        try await services.signalFlusher.flush()
        await settle()
    }

    /// Runs `body` against the router (no sockets) with the pool running.
    static func run(
        configure: @Sendable (inout AppConfiguration) -> Void = { _ in },
        clock: @escaping @Sendable () -> Date = { Date() },
        _ body: @Sendable (any TestClientProtocol, TestApp) async throws -> Void
    ) async throws {
        try await TestDatabase.withFresh { database, url in
            var config = testConfig(url: url)
            configure(&config)
            let services = AppServices(config: config, database: database, logger: TestDatabase.logger, clock: clock)
            let app = buildApplication(services, runDatabase: false)
            let testApp = TestApp(services: services, url: url)
            // The notification streams' listener, as `serve` runs it.
            let streams = Task<Void, Never> { try? await services.notifications.run() }
            let result: Result<Void, any Error>
            do {
                try await listening(services.caching) {
                    try await app.test(.router) { client in try await body(client, testApp) }
                }
                result = .success(())
            } catch {
                result = .failure(error)
            }
            // Stopped before the database goes, as `serve` stops it before the pool.
            streams.cancel()
            // timing: a grace that checks nothing, as the listener's above
            _ = await finished(streams, within: .seconds(10))
            try result.get()
        }
    }
}

extension TestResponse {
    /// The body as a JSON object.
    func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView))
        guard let dictionary = object as? [String: Any] else { throw TestFailure("body is not a JSON object") }
        return dictionary
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: Data(body.readableBytesView))
    }

    /// The problem `code`, or nil when the body is not a problem.
    var problemCode: String? {
        guard headers[.contentType] == "application/problem+json" else { return nil }
        return (try? json())?["code"] as? String
    }

    var text: String { String(buffer: body) }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension TestClientProtocol {
    /// Sends `body` (a JSON object built from literals) with an optional bearer token.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, body: [String: Any]? = nil, token: String? = nil,
        headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = headers
        if let token { headers[.authorization] = "Bearer \(token)" }
        var buffer: ByteBuffer?
        if let body {
            headers[.contentType] = "application/json"
            buffer = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body))
        }
        return try await execute(uri: uri, method: method, headers: headers, body: buffer)
    }

    /// Sends raw text as the body.
    func sendRaw(
        _ method: HTTPRequest.Method, _ uri: String, body: String, token: String? = nil, headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = headers
        if let token { headers[.authorization] = "Bearer \(token)" }
        if headers[.contentType] == nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: body))
    }
}
