import Foundation
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// A transaction that runs Swift between its statements gets its own idle limit, set before BEGIN and reset after.
@Suite struct TransactionIdleTests {
    static let logger = TestDatabase.logger

    @Test func aLongTransactionOutlastsTheSessionsIdleLimit() async throws {
        try await TestDatabase.withFresh { database, _ in
            try await database.withConnection { connection in
                // setup: a session that ends idle transactions after 200 ms
                let startup = try await connection.rows("SHOW idle_in_transaction_session_timeout", logger: Self.logger)
                    .first!.decode(String.self)
                try await connection.rows("SET idle_in_transaction_session_timeout = 200", logger: Self.logger)
                // MUT: a second of client work between statements
                let value = try await connection.transaction(idle: .seconds(60), logger: Self.logger) {
                    try await connection.rows("SELECT 1", logger: Self.logger)
                    // timing: a lower bound (past the 200 ms); a slow machine only lengthens it, far from 60 s
                    try await Task.sleep(for: .seconds(1))
                    return try await connection.rows("SELECT 2", logger: Self.logger).first!.decode(Int.self)
                }
                // validate: it committed, and the session is back at its reset value
                #expect(value == 2)
                let after = try await connection.rows("SHOW idle_in_transaction_session_timeout", logger: Self.logger)
                    .first!.decode(String.self)
                #expect(after == startup)
            }
        }
    }

    @Test func withoutItTheSessionsLimitEndsTheTransaction() async throws {
        try await TestDatabase.withFresh { database, _ in
            try await database.withConnection { connection in
                // setup
                try await connection.rows("SET idle_in_transaction_session_timeout = 200", logger: Self.logger)
                // MUT
                await #expect(throws: (any Error).self) {
                    try await connection.transaction(logger: Self.logger) {
                        try await connection.rows("SELECT 1", logger: Self.logger)
                        // the event, not a guess at how long 200 ms takes here: the server has ended the session
                        try await connection.closeFuture.get()
                        try await connection.rows("SELECT 2", logger: Self.logger)
                    }
                }
            }
        }
    }
}

@Suite struct IdleInTransactionConfigurationTests {
    @Test func theLimitIsFiveSecondsUnlessConfigured() async throws {
        #expect(try AppConfiguration.fromEnvironment([:]).idleInTransactionTimeout == .seconds(5))
        #expect(
            try AppConfiguration.fromEnvironment(["DB_IDLE_IN_TRANSACTION_MS": "60000"]).idleInTransactionTimeout
                == .seconds(60))
        #expect(throws: ConfigurationError.self) {
            try AppConfiguration.fromEnvironment(["DB_IDLE_IN_TRANSACTION_MS": "10"])
        }
        // A pool's sessions start with it.
        let url = try await TestDatabase.fresh()
        defer { Task { try? await TestDatabase.drop(url) } }
        var config = AppConfiguration(databaseURL: url.description)
        config.idleInTransactionTimeout = .milliseconds(7500)
        // The production wait for a connection (3 s) is for a loaded server, not for a machine running every suite
        // at once beside builds: it once ran out here.
        config.databaseTimeout = .seconds(60)
        let shown = try await withDatabase(config, logger: TestDatabase.logger, poolSize: 1) { database in
            try await database.query("SHOW idle_in_transaction_session_timeout").first!.decode(String.self)
        }
        #expect(shown == "7500ms")
    }
}
