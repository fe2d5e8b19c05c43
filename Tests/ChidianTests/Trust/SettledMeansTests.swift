import Foundation
import PostgresNIO
import Testing

@testable import ChidianCore

/// The judge's settled means, read once a store (`SettledMeans`), equal what the per-review statement they replaced
/// gives each review: the mean rating of the store's latest 200 recommended live reviews posted a week or more
/// before it, when there are at least five. The busy store has more than 200 such reviews and the judged reviews
/// spread over weeks, so an earlier one reaches further back than a later one; hidden and not recommended reviews
/// are among them; the quiet store has too few.
@Suite struct SettledMeansTests {
    /// The statement each review's settled mean came from before (the oracle).
    static func oracle(_ app: TestApp, _ ids: [String]) async throws -> [String: Double?] {
        var means: [String: Double?] = [:]
        for row in try await app.database.query(
            """
            SELECT c.id, (SELECT avg(s.rating)::float8 FROM (
                SELECT s.rating FROM comments s
                WHERE s.store_id = c.store_id AND s.hidden_at IS NULL AND s.kind = 'review' AND s.recommended
                  AND s.created_at < c.created_at - interval '7 days'
                ORDER BY s.created_at DESC, s.id DESC LIMIT 200
             ) s HAVING count(*) >= 5)
            FROM comments c WHERE c.id = ANY(\(ids)::text[])
            """)
        {
            let (id, mean) = try row.decode((String, Double?).self)
            means[id] = mean
        }
        return means
    }

    @Test func eachReviewsSettledMeanIsThePerReviewStatements() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            let quiet = try await CommentFixture.store(
                app, name: "小面馆", categoryID: world.categoryID, managerID: world.manager.id)
            // 320 reviews of the busy store, one every 4 hours back over 53 days, ratings cycling; every 7th
            // hidden, every 11th not recommended. Four of the quiet store, weeks old.
            _ = try await app.database.query(
                """
                INSERT INTO comments (kind, store_id, author_id, rating, body, created_at, hidden_at, recommended)
                SELECT 'review', \(world.storeID), \(world.user.id), 1 + (n * 7) % 5, '第' || n || '条',
                    now() - n * interval '4 hours', CASE WHEN n % 7 = 0 THEN now() END, n % 11 <> 0
                FROM generate_series(1, 320) n
                UNION ALL
                SELECT 'review', \(quiet), \(world.user.id), 2 + n % 3, '小店第' || n || '条',
                    now() - (20 + n) * interval '1 day', NULL, true
                FROM generate_series(1, 4) n
                """)
            let ids = try await app.database.query(
                "SELECT id FROM comments WHERE kind = 'review' AND hidden_at IS NULL ORDER BY created_at DESC, id"
            ).map { try $0.decode(String.self) }
            let judged = ids.enumerated().filter { $0.offset % 9 == 0 || $0.offset >= ids.count - 6 }.map(\.element)
            let (evidence, _) = try await app.database.withConnection { connection in
                try await TrustService.evidence(judged, on: connection, logger: app.database.logger)
            }
            let expected = try await Self.oracle(app, judged)
            #expect(evidence.count == judged.count)
            var reachedBack = 0
            for review in evidence {
                let want = try #require(expected[review.commentID])
                #expect(review.settledMean == want, "review \(review.commentID) of \(review.storeID)")
                if want != nil { reachedBack += 1 }
            }
            // The comparison means something: most judged reviews of the busy store have a settled mean, some
            // (the newest few days' neighbours of the first week) none, and the quiet store's none.
            #expect(reachedBack > judged.count / 2)
            #expect(evidence.contains { $0.storeID == world.storeID && $0.settledMean == nil })
            #expect(evidence.filter { $0.storeID == quiet }.allSatisfy { $0.settledMean == nil })
        }
    }
}
