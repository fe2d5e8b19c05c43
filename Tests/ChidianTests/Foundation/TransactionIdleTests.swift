import Foundation
import PostgresNIO
import Testing

@testable import Chidian

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
                        try await Task.sleep(for: .seconds(1))
                        try await connection.rows("SELECT 2", logger: Self.logger)
                    }
                }
            }
        }
    }
}
