import Foundation
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Named prepared statements: a NULL bind on a declared type, the closed-session guard, whole-row decoding.
@Suite struct PreparedStatementTests {
    /// A cursor-like text bind cast to timestamptz, which may be NULL.
    struct NextDay: PostgresPreparedStatement {
        static let name = "test_next_day"
        static let sql = "SELECT ($1::timestamptz + interval '1 day')::text, $1 IS NULL"
        static let bindingDataTypes: [PostgresDataType] = [.text]

        var stamp: String?

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(stamp)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> String? { try row.decodeAll((String?, Bool).self).0 }
    }

    @Test func aPreparedStatementAnswersWithNullAndSetBindsAlike() async throws {
        try await TestDatabase.withFresh { database, _ in
            // MUT: first NULL then set, then NULL again, on one connection's prepared statement.
            let answers = try await database.withConnection { connection in
                var answers: [String?] = []
                for stamp in [nil, "2026-01-02 03:04:05+00", nil] as [String?] {
                    answers += try await connection.run(NextDay(stamp: stamp), logger: database.logger)
                }
                return answers
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
                    try await connection.rows(
                        "SET LOCAL idle_in_transaction_session_timeout = 200", logger: database.logger)
                    // the event: this client has seen the server close the session
                    try await connection.closeFuture.get()
                    _ = try await connection.run(NextDay(stamp: nil), logger: database.logger)
                }
            })
            // validate: an error, not a hang (a hang stops the suite's watchdog, which names the test; a wall-clock
            // bound here measured the loaded machine: 38 s once beside a CI run and a CPU hog)
            #expect(throws: DatabaseUnavailable.self) { try outcome.get() }
            let next = try await database.query("SELECT 4")
            #expect(try next[0].decode(Int.self) == 4)
        }
    }

    @Test func aRowWithAColumnItsDecoderDoesNotReadIsRefused() async throws {
        try await TestDatabase.withFresh { database, _ in
            let rows = try await database.query("SELECT 'a', 'b', 'c'")
            // MUT / validate
            #expect(throws: RowShapeMismatch.self) { try rows[0].decodeAll((String, String).self) }
            #expect(throws: RowShapeMismatch.self) { try rows[0].decodeAll(String.self) }
            let all = try rows[0].decodeAll((String, String, String).self)
            #expect([all.0, all.1, all.2] == ["a", "b", "c"])
        }
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
