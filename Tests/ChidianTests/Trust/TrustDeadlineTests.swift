import Foundation
import PostgresNIO
import Testing

@testable import ChidianApp
@testable import ChidianCore

/// A judging pass runs under its own statement deadline (`TrustService.statementDeadline`), not a request's: under
/// the soak's mix every pass outlasted the 2 s a request gets, was cancelled and left its reviews queued, so
/// nothing was judged. Here the pool's deadline is 200 ms and another session holds a table the pass
/// writes for a second: the pass waits, then judges.
@Suite struct TrustDeadlineTests {
    @Test func aPassLongerThanARequestsDeadlineStillJudges() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let id = try RecommendedFixture.id(
                try await world.comment(["rating": 4, "body": "毛肚新鲜，锅底一般，服务还行。"], as: world.user))
            let pool = Database(
                url: app.url, poolSize: 2, timeout: .seconds(30), statementTimeout: .milliseconds(200),
                logger: TestDatabase.logger)
            try await withRunning(pool.client, logger: TestDatabase.logger) {
                try await app.database.withConnection { blocker in
                    try await blocker.rows("SET idle_in_transaction_session_timeout = 0", logger: TestDatabase.logger)
                    try await blocker.rows("BEGIN", logger: TestDatabase.logger)
                    try await blocker.rows(
                        "LOCK TABLE trust_text_bands IN ACCESS EXCLUSIVE MODE", logger: TestDatabase.logger)
                    async let pass = TrustService(database: pool, enabled: true)
                        .judgeDue(now: Date().addingTimeInterval(60))
                    // timing: a lower bound on how long the pass waits (five times the pool's deadline); a slow
                    // machine only shortens the wait, and the pass must succeed either way.
                    try await Task.sleep(for: .seconds(1))
                    try await blocker.rows("ROLLBACK", logger: TestDatabase.logger)
                    let judged = try await pass
                    #expect(judged.due == 1 && judged.judged >= 1)
                }
            }
            let queued = try await app.database.query(
                "SELECT count(*)::int FROM trust_queue WHERE comment_id = \(id)")[0].decode(Int.self)
            #expect(queued == 0, "the review left the queue judged")
        }
    }
}
