import Foundation
import PostgresNIO
import Testing

@testable import Chidian

/// A connection the server ends between two statements must fail the next statement at once, not hang it
/// (PostgresNIO 1.33 loses a statement written to a closed channel; `PostgresConnection.rows` guards it).
@Suite struct ClosedConnectionTests {
    @Test func aStatementAfterTheServerEndedTheSessionFailsAndThePoolRecovers() async throws {
        try await TestDatabase.withFresh { database, _ in
            let started = ContinuousClock.now
            // MUT
            let outcome: Result<Void, any Error> = await Result(catching: {
                try await database.transaction { connection in
                    try await connection.rows("SET LOCAL idle_in_transaction_session_timeout = 200", logger: database.logger)
                    try await Task.sleep(for: .seconds(1))
                    try await connection.rows("SELECT 1", logger: database.logger)
                }
            })
            // validate
            #expect(throws: DatabaseUnavailable.self) { try outcome.get() }
            #expect(ContinuousClock.now - started < .seconds(10))
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
                    try await Task.sleep(for: .milliseconds(300))
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

/// Statements prepared through `rows(prepared:)` keep PostgresNIO's parameter types and survive a lost session.
@Suite struct PreparedQueryTests {
    @Test func bindTypesAreReadAsPostgresNIOSendsThem() throws {
        let text = "a"
        let number = 7
        let missing: String? = nil
        let query: PostgresQuery = "SELECT \(text), \(number), \(missing)::text, \([text])::text[]"
        // MUT
        let types = BindTypes.of(query.binds)
        // validate
        #expect(types == [.text, .int8, .null, .textArray])
    }

    @Test func aPreparedStatementAnswersWithNullAndTypedBindsAlike() async throws {
        try await TestDatabase.withFresh { database, _ in
            // MUT: a cursor-like text bind cast to timestamptz, first NULL then set, on one prepared text.
            var answers: [String?] = []
            for stamp in [nil, "2026-01-02 03:04:05+00", nil] as [String?] {
                let rows = try await database.query(
                    "SELECT (\(stamp)::timestamptz + interval '1 day')::text, \(stamp)::text IS NULL")
                answers.append(try rows[0].decode(String?.self, context: .default))
            }
            // validate
            #expect(answers == [nil, "2026-01-03 03:04:05+00", nil])
        }
    }

    @Test func aPreparedStatementOnAClosedSessionFailsAtOnce() async throws {
        try await TestDatabase.withFresh { database, _ in
            // MUT
            let outcome: Result<Void, any Error> = await Result(catching: {
                try await database.transaction { connection in
                    try await connection.rows("SET LOCAL idle_in_transaction_session_timeout = 200", logger: database.logger)
                    try await Task.sleep(for: .seconds(1))
                    try await connection.rows(prepared: "SELECT 1", logger: database.logger)
                }
            })
            // validate
            #expect(throws: DatabaseUnavailable.self) { try outcome.get() }
            let next = try await database.query("SELECT 4")
            #expect(try next[0].decode(Int.self) == 4)
        }
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
