import Foundation
import HummingbirdTesting
import PostgresNIO
import Testing

@testable import Chidian

/// Every statement a request runs has a deadline that PostgreSQL itself enforces: past it the statement is
/// cancelled (not left running) and the client is answered 503 `query_timeout` with `Retry-After`.
@Suite struct StatementDeadlineTests {
    @Test func aStatementPastItsDeadlineIsCancelledAndAnswered503() async throws {
        let url = try await TestDatabase.fresh()
        defer { Task { try? await TestDatabase.drop(url) } }
        var config = TestApp.testConfig(url: url)
        config.statementTimeout = .milliseconds(300)
        let database = Database(
            url: url, poolSize: 2, timeout: .seconds(30), statementTimeout: config.statementTimeout,
            logger: TestDatabase.logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await database.client.run() }
            defer { group.cancelAll() }
            let app = buildApplication(
                AppServices(config: config, database: database, logger: TestDatabase.logger), runDatabase: false)
            try await app.test(.router) { client in
                // setup: another session holds the categories table, so reading it waits
                let blockerConfig = AppConfiguration(databaseURL: url.description, databaseTimeout: .seconds(30))
                try await withDatabase(blockerConfig, logger: TestDatabase.logger, poolSize: 1) { blocker in
                    try await blocker.withConnection { connection in
                        try await connection.query("BEGIN", logger: TestDatabase.logger)
                        try await connection.query(
                            "LOCK TABLE categories IN ACCESS EXCLUSIVE MODE", logger: TestDatabase.logger)
                        // MUT
                        let started = ContinuousClock.now
                        let response = try await client.send(.get, "/v1/categories")
                        let waited = ContinuousClock.now - started
                        // validate: answered at the deadline, not when the lock goes
                        #expect(response.status == .serviceUnavailable)
                        #expect(response.problemCode == "query_timeout")
                        #expect(response.headers[.retryAfter].flatMap { Int($0) } != nil)
                        #expect(waited < .seconds(5), "\(waited)")
                        // and nothing of the request still runs or waits in PostgreSQL
                        let waiting = try await connection.query(
                            "SELECT count(*)::int FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
                            logger: TestDatabase.logger
                        ).collect()
                        #expect(try waiting.first?.decode(Int.self) == 0)
                        try await connection.query("ROLLBACK", logger: TestDatabase.logger)
                    }
                }
                // the same request within its deadline is served
                #expect(try await client.send(.get, "/v1/categories").status == .ok)
            }
        }
    }
}
