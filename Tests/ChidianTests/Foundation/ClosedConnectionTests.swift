import Foundation
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// A connection the server ends between two statements must fail the next statement at once, not hang it
/// (PostgresNIO 1.33 loses a statement written to a closed channel; `PostgresConnection.rows` guards it).
@Suite struct ClosedConnectionTests {
    @Test func aStatementAfterTheServerEndedTheSessionFailsAndThePoolRecovers() async throws {
        try await TestDatabase.withFresh { database, _ in
            // MUT
            let outcome: Result<Void, any Error> = await Result(catching: {
                try await database.transaction { connection in
                    try await connection.rows(
                        "SET LOCAL idle_in_transaction_session_timeout = 200", logger: database.logger)
                    // the event: this client has seen the server close the session
                    try await connection.closeFuture.get()
                    try await connection.rows("SELECT 1", logger: database.logger)
                }
            })
            // validate: an error, not a hang (a hang stops the suite's watchdog, which names the test; a wall-clock
            // bound here measured the loaded machine: 38 s once beside a CI run and a CPU hog)
            #expect(throws: DatabaseUnavailable.self) { try outcome.get() }
            let next = try await database.query("SELECT 2")
            #expect(try next[0].decode(Int.self) == 2)
        }
    }

    @Test func aSessionTerminatedMidTransactionFailsItsNextStatement() async throws {
        try await TestDatabase.withFresh { database, _ in
            // MUT
            let outcome: Result<Void, any Error> = await Result(catching: {
                try await database.transaction { connection in
                    let pid = try await connection.rows("SELECT pg_backend_pid()", logger: database.logger)[0]
                        .decode(Int32.self)
                    _ = try await TestDatabase.withAdmin { admin in
                        try await admin.query("SELECT pg_terminate_backend(\(pid))")
                    }
                    // the event: this client has seen the server close the session
                    try await connection.closeFuture.get()
                    try await connection.rows("SELECT 1", logger: database.logger)
                }
            })
            // validate
            #expect(throws: DatabaseUnavailable.self) { try outcome.get() }
            let next = try await database.query("SELECT 3")
            #expect(try next[0].decode(Int.self) == 3)
        }
    }
}
