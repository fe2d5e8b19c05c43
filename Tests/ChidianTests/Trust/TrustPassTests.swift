import Foundation
import PostgresNIO
import Testing

@testable import ChidianApp
@testable import ChidianCore

/// A judging pass on a busy server (`TrustService.judgeDue`). Each test holds a table the pass writes while reading
/// evidence (`trust_text_bands`) for a second from another session, so the pass is caught mid-way:
/// - it runs under its own statement deadline, not a request's: under the soak's mix every pass outlasted the 2 s a
///   request gets, was cancelled and left its reviews queued, so nothing was judged;
/// - it holds nothing a request needs while it reads: the reviews it took are leased (their due time moved ahead),
///   not locked, so an edit of one goes through at once and queues it again, and the pass leaves it queued.
@Suite struct TrustPassTests {
    /// Runs `during` while a pass started by `pass` waits on the bands for a second; returns the pass.
    static func midPass(
        _ app: TestApp, pass: @escaping @Sendable () async throws -> TrustService.Pass,
        during: @escaping @Sendable () async throws -> Void
    ) async throws -> TrustService.Pass {
        try await app.database.withConnection { blocker in
            try await blocker.rows("SET idle_in_transaction_session_timeout = 0", logger: TestDatabase.logger)
            try await blocker.rows("BEGIN", logger: TestDatabase.logger)
            try await blocker.rows("LOCK TABLE trust_text_bands IN ACCESS EXCLUSIVE MODE", logger: TestDatabase.logger)
            async let judged = pass()
            // timing: a lower bound on how long the pass waits (five times the short deadline below); a slow
            // machine only shortens the wait, and the outcome must be the same either way.
            try await Task.sleep(for: .seconds(1))
            // The table goes back whatever `during` does, so a failing check never leaves the pass waiting.
            let done = await Result(catching: during)
            try await blocker.rows("ROLLBACK", logger: TestDatabase.logger)
            let pass = try await judged
            try done.get()
            return pass
        }
    }

    static func queued(_ app: TestApp, _ id: String) async throws -> Int {
        try await app.database.query("SELECT count(*)::int FROM trust_queue WHERE comment_id = \(id)")[0]
            .decode(Int.self)
    }

    @Test func aPassLongerThanARequestsDeadlineStillJudges() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let id = try RecommendedFixture.id(
                try await world.comment(["rating": 4, "body": "毛肚新鲜，锅底一般，服务还行。"], as: world.user))
            // The pool a server's judge shares with its requests, with a request's deadline far below the wait.
            let pool = Database(
                url: app.url, poolSize: 2, timeout: .seconds(30), statementTimeout: .milliseconds(200),
                logger: TestDatabase.logger)
            let judged = try await withRunning(pool.client, logger: TestDatabase.logger) {
                try await Self.midPass(
                    app, pass: { try await TrustService(database: pool, enabled: true).judgeDue(now: Date() + 60) },
                    during: {})
            }
            #expect(judged.due == 1 && judged.judged >= 1)
            #expect(try await Self.queued(app, id) == 0, "the review left the queue judged")
        }
    }

    @Test func anEditDuringItsPassWaitsForNothingAndIsJudgedAgain() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let id = try RecommendedFixture.id(
                try await world.comment(["rating": 4, "body": "毛肚新鲜，锅底一般，服务还行。"], as: world.user))
            let judged = try await Self.midPass(
                app, pass: { try await TrustService(database: app.database, enabled: true).judgeDue(now: Date() + 60) },
                during: {
                    // An edit with a deadline of its own. Were the queue row held by the pass, the edit would wait
                    // for the pass, which waits for the table given back only after this: it would reach its
                    // deadline on any machine, so the deadline can be generous.
                    try await app.database.transaction { connection in
                        try await connection.rows("SET LOCAL statement_timeout = 5000", logger: TestDatabase.logger)
                        try await connection.rows(
                            "UPDATE comments SET body = '毛肚新鲜，锅底偏咸。' WHERE id = \(id)", logger: TestDatabase.logger)
                    }
                })
            #expect(judged.due == 1)
            #expect(try await Self.queued(app, id) == 1, "edited while judged: queued again for its new text")
        }
    }
}
