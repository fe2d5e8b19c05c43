import Foundation
import PostgresNIO
import Testing

@testable import ChidianCore

/// The new accounts around each judged review, counted from each store's reviews read once (`NewcomerWindows`),
/// equal what the per-review statement they replaced gives: of the store's 500 latest live reviews by other authors
/// within a day (and within two weeks), the distinct authors whose account was under a week old then, and of the
/// fortnight's, those with the review's rating. The busy store has more than 500 reviews in a fortnight, hidden ones
/// and reviews sharing a time; some authors reviewed before their account was made. With a small cap the busy store
/// is counted one review at a time (by the oracle's own statement: that run checks the hand-over, store by store),
/// and the quiet store still from its window.
@Suite struct NewcomerWindowsTests {
    /// The per-review statement each review's counts came from before, kept for the stores too busy to read whole
    /// (the oracle): the window path is a second implementation of it, in Swift, so any difference between them shows.
    static func oracle(_ app: TestApp, _ ids: [String]) async throws -> [String: [Int]] {
        var counts: [String: [Int]] = [:]
        for row in try await app.database.query(TrustEvidenceStatements.newcomerCounts(ids)) {
            let (id, around, fortnight, alike) = try row.decode((String, Int, Int, Int).self)
            counts[id] = [around, fortnight, alike]
        }
        return counts
    }

    @Test func eachReviewsNewcomersAreThePerReviewStatements() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let quiet = try await CommentFixture.store(
                app, name: "小面馆", categoryID: world.categoryID, managerID: world.manager.id)
            // 150 accounts made over the last 40 days; 720 reviews of the busy store, one every 40 minutes (two at
            // each time) back over 10 days, every 9th hidden; 30 of the quiet store, one every 8 hours.
            _ = try await app.database.query(
                """
                INSERT INTO users (id, name, password_hash, role, created_at)
                SELECT 'nw' || n, '新客' || n, '$2b$04$unusable', 'user', now() - ((n * 13) % 40) * interval '1 day'
                FROM generate_series(1, 150) n
                """)
            _ = try await app.database.query(
                """
                INSERT INTO comments (kind, store_id, author_id, rating, body, created_at, hidden_at)
                SELECT 'review', \(world.storeID), 'nw' || (1 + (k * 7) % 150), 1 + (k * 3) % 5, '第' || k || '条',
                    now() - (k / 2) * interval '40 minutes', CASE WHEN k % 9 = 0 THEN now() END
                FROM generate_series(1, 720) k
                UNION ALL
                SELECT 'review', \(quiet), 'nw' || (1 + (k * 11) % 150), 1 + k % 5, '小店第' || k || '条',
                    now() - k * interval '8 hours', NULL
                FROM generate_series(1, 30) k
                """)
            let ids = try await app.database.query(
                "SELECT id FROM comments WHERE kind = 'review' AND hidden_at IS NULL ORDER BY created_at DESC, id"
            ).map { try $0.decode(String.self) }
            let judged = ids.enumerated().filter { $0.offset % 13 == 0 }.map(\.element)
            let expected = try await Self.oracle(app, judged)
            for cap in [NewcomerWindows.cap, 200] {
                let (evidence, _) = try await app.database.withConnection { connection in
                    try await TrustService.evidence(judged, on: connection, logger: app.database.logger, windowCap: cap)
                }
                #expect(evidence.count == judged.count)
                for review in evidence {
                    let want = try #require(expected[review.commentID])
                    let got = [review.newcomersAround, review.newcomersFortnight, review.fortnightAlike]
                    #expect(got == want, "review \(review.commentID) of \(review.storeID), cap \(cap)")
                }
            }
            // The comparison means something: both stores' reviews have new accounts around them, and a busy
            // store's fortnight holds more than the 500 counted.
            let busy = judged.filter { id in expected[id].map { $0[1] > 0 } ?? false }
            #expect(busy.count > judged.count / 2)
            let fullest = try await app.database.query(
                """
                SELECT max((SELECT count(*) FROM comments s WHERE s.store_id = c.store_id AND s.hidden_at IS NULL
                    AND s.created_at BETWEEN c.created_at - interval '14 days' AND c.created_at + interval '14 days'))
                FROM comments c WHERE c.id = ANY(\(judged)::text[])
                """
            ).map { try $0.decode(Int.self) }.first
            #expect((fullest ?? 0) > 500)
        }
    }
}
