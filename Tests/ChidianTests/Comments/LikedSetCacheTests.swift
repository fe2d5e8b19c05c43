import Foundation
import PostgresNIO
import Testing

@testable import ChidianApp
@testable import ChidianCore

/// A user's liked reviews from the cached set (issue #45, migration 040) against the statement it stands in for,
/// after likes and unlikes, and for a user whose likes outgrow the set (read per list instead).
@Suite struct LikedSetCacheTests {
    @Test func cachedLikesEqualTheStatementAfterEveryWrite() async throws {
        try await TestApp.run(configure: {
            $0.cacheEnabled = true
            $0.cacheFreshness = .seconds(300)
        }) { client, app in
            // setup: 1,010 reviews of one store; a user who liked three, a fan who liked 1,005
            let caching = try #require(app.services.caching)
            let cached = CommentLikes(database: app.database, cache: caching.reads)
            let plain = CommentLikes(database: app.database)
            let manager = try await client.register("店长", role: "manager")
            let user = try await client.register("食客")
            let fan = try await client.register("铁粉")
            let category = try await StoreFixture.category(app, "火锅")
            let store = try await StoreFixture.store(client, manager, name: "店", categoryID: category).id
            try await app.database.query(
                """
                INSERT INTO comments (kind, store_id, author_id, rating, body)
                SELECT 'review', \(store), \(manager.id), 4, '第' || n || '条' FROM generate_series(1, 1010) AS n
                """)
            let ids = try await app.database.query("SELECT id FROM comments ORDER BY id").map {
                try $0.decode(String.self)
            }
            try await app.database.query(
                "INSERT INTO comment_likes (comment_id, user_id) SELECT unnest(\(Array(ids.prefix(3)))::text[]), \(user.id)"
            )
            try await app.database.query(
                "INSERT INTO comment_likes (comment_id, user_id) SELECT unnest(\(Array(ids.prefix(1005)))::text[]), \(fan.id)"
            )
            await app.settle()
            let asked = Array(ids.prefix(5)) + Array(ids.suffix(5))
            @Sendable func check(_ label: String) async throws {
                for who in [user.id, fan.id] {
                    // MUT: twice, a miss then a hit
                    for _ in 0..<2 {
                        let mine = try await cached.likedIDs(asked, by: who)
                        // validate
                        #expect(mine == (try await plain.likedIDs(asked, by: who)), "after \(label): \(who)")
                    }
                }
            }
            try await check("the start")
            #expect(caching.reads.get("lk:" + user.id, as: Set<String>?.self)?.value != nil)
            // The fan's likes outgrow the set: nil is kept, and each list asks the statement.
            #expect(caching.reads.get("lk:" + fan.id, as: Set<String>?.self).map { $0.value == nil } == true)
            let writes: [(String, @Sendable () async throws -> Void)] = [
                (
                    "a like",
                    {
                        try await app.database.query(
                            "INSERT INTO comment_likes (comment_id, user_id) VALUES (\(ids[1009]), \(user.id))")
                    }
                ),
                (
                    "an unlike",
                    {
                        try await app.database.query(
                            "DELETE FROM comment_likes WHERE comment_id = \(ids[0]) AND user_id = \(user.id)")
                    }
                ),
                (
                    "a liked review deleted",
                    { try await app.database.query("DELETE FROM comments WHERE id = \(ids[1])") }
                ),
                (
                    "the fan's likes fall under the set's size",
                    {
                        try await app.database.query(
                            "DELETE FROM comment_likes WHERE user_id = \(fan.id) AND comment_id = ANY(\(Array(ids[100..<200]))::text[])"
                        )
                    }
                ),
            ]
            for (label, write) in writes {
                try await write()
                await app.settle()
                try await check(label)
            }
        }
    }
}
