import Foundation
import HummingbirdTesting
import Logging
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Every statement a request runs has a deadline that PostgreSQL itself enforces: past it the statement is
/// cancelled (not left running) and the client is answered 503 `query_timeout` with `Retry-After`.
@Suite struct StatementDeadlineTests {
    /// Another session holds the categories table, so reading it waits. Its open transaction must outlive a slow
    /// request: the pool's 5 s idle-in-transaction timeout ended it on a loaded machine, and a statement then sent on
    /// the closed connection through PostgresNIO's `query` never answered (the suite hung). `rows` fails at once there.
    static func lockCategories(_ connection: PostgresConnection) async throws {
        try await connection.rows("SET idle_in_transaction_session_timeout = 0", logger: TestDatabase.logger)
        try await connection.rows("BEGIN", logger: TestDatabase.logger)
        try await connection.rows("LOCK TABLE categories IN ACCESS EXCLUSIVE MODE", logger: TestDatabase.logger)
    }

    @Test func aStatementPastItsDeadlineIsCancelledAndAnswered503() async throws {
        let url = try await TestDatabase.fresh()
        defer { Task { try? await TestDatabase.drop(url) } }
        var config = TestApp.testConfig(url: url)
        // Writes' deadline far off: a connection's first statement (setting the read deadline, on a cold backend)
        // once ran past a 300 ms one on a loaded CI machine.
        config.statementTimeout = .seconds(20)
        config.readStatementTimeout = .seconds(1)
        // One connection: the request after the cancelled one runs on the same connection.
        let database = Database(
            url: url, poolSize: 1, timeout: .seconds(30), statementTimeout: config.statementTimeout,
            logger: TestDatabase.logger)
        let capture = ResponseHygieneTests.LogCapture()
        let logger = Logger(label: "deadline") { _ in capture.handler(label: "deadline") }
        try await withRunning(database.client, logger: TestDatabase.logger) {
            let app = buildApplication(
                AppServices(config: config, database: database, logger: logger), runDatabase: false)
            try await app.test(.router) { client in
                // setup
                let blockerConfig = AppConfiguration(databaseURL: url.description, databaseTimeout: .seconds(30))
                try await withDatabase(blockerConfig, logger: TestDatabase.logger, poolSize: 1) { blocker in
                    try await blocker.withConnection { connection in
                        try await Self.lockCategories(connection)
                        // MUT
                        let response = try await client.send(.get, "/v1/categories")
                        // validate: answered while the lock is still held, so by the deadline (without one it would
                        // wait for ever, and the suite's watchdog would name this test)
                        #expect(response.status == .serviceUnavailable)
                        #expect(response.problemCode == "query_timeout")
                        #expect(response.headers[.retryAfter].flatMap { Int($0) } != nil)
                        // the warning names the route, so a soak's errors can be traced to what ran out of time
                        let warnings = capture.lines.withLock { $0 }
                            .filter { $0.message == "statement past its deadline" }
                        #expect(warnings.map { $0.metadata["route"] } == ["GET /v1/categories"])
                        // and nothing of the request still runs or waits in PostgreSQL
                        let waiting = try await connection.rows(
                            "SELECT count(*)::int FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
                            logger: TestDatabase.logger)
                        #expect(try waiting.first?.decode(Int.self) == 0)
                        try await connection.rows("ROLLBACK", logger: TestDatabase.logger)
                    }
                }
            }
            try await Self.expectServed(config: config, database: database)
        }
    }

    /// The pool's connection that had a statement cancelled serves the next request. Asked through a server with a
    /// patient read deadline: whether a trivial read beats 1 s on a machine running ten suites at once is a question
    /// about the machine (CI once answered 503 here), not about the deadlines.
    static func expectServed(config: AppConfiguration, database: Database) async throws {
        var patient = config
        patient.readStatementTimeout = .seconds(60)
        let app = buildApplication(
            AppServices(config: patient, database: database, logger: TestDatabase.logger), runDatabase: false)
        try await app.test(.router) { client in
            let response = try await client.send(.get, "/v1/categories")
            #expect(response.status == .ok, "\(response.problemCode ?? "no problem code")")
        }
    }

    /// `GET` requests run under `READ_STATEMENT_TIMEOUT_MS`, writes under `STATEMENT_TIMEOUT_MS`, on one connection
    /// that switches between them. Judged by outcomes, never by a stopwatch: the writes' deadline is ten minutes, so
    /// a read that ran under it would still be waiting (a hang the watchdog names) instead of answering 503; and the
    /// write is released only once PostgreSQL's own clock says it has waited past the read's deadline.
    @Test func readsHaveTheirLowerDeadlineAndWritesKeepTheirs() async throws {
        let url = try await TestDatabase.fresh()
        defer { Task { try? await TestDatabase.drop(url) } }
        var config = TestApp.testConfig(url: url)
        config.statementTimeout = .seconds(600)
        config.readStatementTimeout = .seconds(1)
        let database = Database(
            url: url, poolSize: 1, timeout: .seconds(30), statementTimeout: config.statementTimeout,
            logger: TestDatabase.logger)
        try await withRunning(database.client, logger: TestDatabase.logger) {
            let app = buildApplication(
                AppServices(config: config, database: database, logger: TestDatabase.logger), runDatabase: false)
            try await app.test(.router) { client in
                let manager = try await client.register("限时店长", role: "manager")
                let category = try await StoreAdmin(database: database).addCategory(name: "限时").id
                let blockerConfig = AppConfiguration(databaseURL: url.description, databaseTimeout: .seconds(30))
                try await withDatabase(blockerConfig, logger: TestDatabase.logger, poolSize: 1) { blocker in
                    try await blocker.withConnection { connection in
                        try await Self.lockCategories(connection)
                        // MUT: a read waits for the lock
                        let read = try await client.send(.get, "/v1/categories")
                        // validate: stopped at its own deadline while the lock is held
                        #expect(read.problemCode == "query_timeout")
                        // MUT: a write waits for the same lock, released once it has waited past the read's deadline
                        let write = Task {
                            try await client.send(
                                .post, "/v1/stores", body: ["name": "限时小馆", "categoryId": category],
                                token: manager.token)
                        }
                        try await TestDatabase.waitForLockWait(
                            in: url.database, longerThan: .milliseconds(1500), or: write)
                        try await connection.rows("ROLLBACK", logger: TestDatabase.logger)
                        // validate: the write outlived the read's deadline and succeeded
                        #expect(try await write.value.status == .created)
                    }
                }
            }
            try await Self.expectServed(config: config, database: database)
        }
    }
}
