import Foundation
import PostgresNIO
import Testing

@testable import ChidianApp
@testable import ChidianCore

/// What the comment and store triggers say on the caches' channel (migrations 016, 019 and 047): a write tells the
/// caches what it changed that they show, and nothing when it changed nothing they show.
@Suite struct CacheEventTests {
    @Test func theJudgesScoreAloneSaysNothingAndAVerdictSaysItsStore() async throws {
        try await TestApp.run { client, app in
            // setup: a judged review (its verdict the machine's, recommended)
            let world = try await CommentWorld.make(client, app)
            let id = try RecommendedFixture.id(try await world.review(4, "好吃"))
            let judge: @Sendable (Bool, Double) async throws -> Void = { recommended, score in
                let took = try await app.database.query(
                    "SELECT trust_machine_verdict(\(id), \(recommended), \(score))"
                ).map { try $0.decode(Bool.self) }
                #expect(took == [true])
            }
            // MUT: the score moves twice with the verdict kept, then the verdict changes
            let scored = try await Self.heard(app) {
                try await judge(true, 0.4)
                try await judge(true, 0.7)
            }
            let judged = try await Self.heard(app) { try await judge(false, 0.9) }
            // validate (the server's own workers may write beside the test, so only this store's tags are counted)
            #expect(!scored.contains { $0 == "c:\(world.storeID)" || $0.hasPrefix("t:") })
            #expect(judged.contains("c:\(world.storeID)"))
            #expect(
                try await app.database.query("SELECT trust_score FROM comments WHERE id = \(id)")
                    .map { try $0.decode(Double.self) } == [0.9])
        }
    }

    @Test func aStoreSaysItsScoreToSearchOnlyWhenTheScoreMoves() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await CommentWorld.make(client, app)
            _ = try await world.review(4, "好吃")
            // MUT: the review count alone, then the rating
            let counted = try await Self.heard(app) {
                try await app.database.query(
                    "UPDATE stores SET review_count = review_count + 1 WHERE id = \(world.storeID)")
            }
            let rated = try await Self.heard(app) {
                try await app.database.query(
                    "UPDATE stores SET rating_sum = rating_sum + 1, rating_count = rating_count + 1 WHERE id = \(world.storeID)"
                )
            }
            // validate: the store's own pages hear both; search hears the score move only
            #expect(counted.contains("s:\(world.storeID)"))
            #expect(!counted.contains { $0.hasPrefix("search") })
            #expect(rated.contains("s:\(world.storeID)"))
            #expect(rated.contains { $0.hasPrefix("search:{") && $0.contains("\"s\": \"\(world.storeID)\"") })
        }
    }

    /// The payloads on the caches' channel while `writes` run, in order, between two markers. PostgreSQL delivers
    /// notifications in commit order, but a new LISTEN skips the queue's committed entries only up to the first one
    /// of a transaction still committing, and hands over what follows, the setup's included: the first marker, sent
    /// after the LISTEN and before the writes, cuts those off.
    static func heard(_ app: TestApp, during writes: @Sendable () async throws -> Void) async throws -> [String] {
        let id = UUID().uuidString
        let (start, end) = ("test-start-\(id)", "test-end-\(id)")
        return try await app.database.client.withConnection { connection in
            try await connection.listen(on: CacheListener.channel) { notifications in
                try await app.database.query("SELECT pg_notify(\(CacheListener.channel), \(start))")
                try await writes()
                try await app.database.query("SELECT pg_notify(\(CacheListener.channel), \(end))")
                var heard: [String]?
                for try await notification in notifications {
                    if notification.payload == end { break }
                    if notification.payload == start {
                        heard = []
                    } else {
                        heard?.append(notification.payload)
                    }
                }
                guard let heard else { throw TestFailure("the start marker was not heard before the end marker") }
                return heard
            }
        }
    }
}
