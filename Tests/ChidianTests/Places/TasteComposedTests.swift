import Foundation
import PostgresNIO
import Testing

@testable import ChidianApp
@testable import ChidianCore

/// 猜你喜欢's pool without a position composed from cached best-of-category lists, store scores and the viewer's
/// evidence (issue #45, migration 039) against the `Taste` statement it stands in for: the same candidates, for
/// three kinds of viewer and three sets of top categories, after every kind of write that changes the pool or the
/// viewer's evidence.
@Suite struct TasteComposedTests {
    @Test func composedTastePoolsEqualTheStatementAfterEveryWrite() async throws {
        try await TestApp.run(configure: {
            $0.cacheEnabled = true
            $0.cacheFreshness = .seconds(300)
        }) { client, app in
            // setup: 150 stores in two categories and an empty third, scores in steps of a tenth (ties across
            // categories go by id), a visitor whose opened stores others opened too, a user with favorites and a
            // recent review
            let caching = try #require(app.services.caching)
            let stores = StoreRepository(database: app.database, cache: caching.reads, places: caching.places)
            let candidates = StoreCandidates(database: app.database)
            let manager = try await client.register("店长", role: "manager")
            let main = try await StoreFixture.category(app, "火锅")
            let second = try await StoreFixture.category(app, "面馆")
            let empty = try await StoreFixture.category(app, "烧烤")
            try await NearWalkTests.crowd(app, managerID: manager.id, categories: [main, second], count: 150)
            try await app.database.query("UPDATE stores SET rating_count = 5, rating_sum = 5 + (hashtext(id) & 7)")
            let user = try await client.register("食客")
            let critic = try await client.register("评论家")
            let ids = try await app.database.query(
                "SELECT id FROM stores WHERE archived_at IS NULL ORDER BY name"
            ).map { try $0.decode(String.self) }
            try await app.database.query(
                """
                INSERT INTO viewer_store_opens (viewer, store_id, opened_at, first_opened_at)
                    SELECT 'v:visitor', id, now() - n * interval '1 minute', now() - n * interval '1 minute'
                    FROM unnest(\(Array(ids.prefix(4)))::text[]) WITH ORDINALITY AS o (id, n)
                """)
            try await app.database.query(
                """
                INSERT INTO store_covisits (store_id, other_id, viewers)
                    SELECT a, b, 1 + (length(a) + length(b)) % 5 FROM unnest(\(Array(ids.prefix(4)))::text[]) AS a,
                    unnest(\(Array(ids[10..<30]))::text[]) AS b
                """)
            try await app.database.query(
                "INSERT INTO favorites (user_id, store_id) SELECT \(user.id), unnest(\(Array(ids[5..<9]))::text[])")
            try await app.database.query(
                "INSERT INTO comments (kind, store_id, author_id, rating, body) VALUES ('review', \(ids[1]), \(user.id), 4, '常来')"
            )
            // and a favourite and a recent review among the best, so the pool holds stores the user already knows
            try await app.database.query(
                """
                INSERT INTO favorites (user_id, store_id) SELECT \(user.id), id FROM stores WHERE archived_at IS NULL
                ORDER BY rating_score DESC, id DESC OFFSET 1 LIMIT 1 ON CONFLICT DO NOTHING
                """)
            try await app.database.query(
                """
                INSERT INTO comments (kind, store_id, author_id, rating, body)
                SELECT 'review', id, \(user.id), 5, '最好的一家' FROM stores WHERE archived_at IS NULL
                ORDER BY rating_score DESC, id DESC LIMIT 1
                """)
            await app.settle()
            let now = Date()
            let viewers = [
                StoreCandidates.Viewer(key: nil, userID: nil, now: now),
                StoreCandidates.Viewer(key: "v:visitor", userID: nil, now: now),
                StoreCandidates.Viewer(key: "u:\(user.id)", userID: user.id, now: now),
            ]
            let tops = [[], [main], [second, empty, main]]
            @Sendable func check(_ label: String) async throws {
                for viewer in viewers {
                    for top in tops {
                        // MUT: twice, a miss then a hit
                        for _ in 0..<2 {
                            let composed = try #require(
                                try await candidates.composedTaste(categories: top, for: viewer, stores: stores))
                            let statement = try await candidates.forYou(categories: top, near: nil, for: viewer)
                            // validate
                            #expect(statement.count >= StoreFeed.best, "\(label)")
                            #expect(
                                composed.sorted { $0.id < $1.id } == statement.sorted { $0.id < $1.id },
                                "after \(label): \(viewer.key ?? "anonymous"), \(top.count) categories")
                        }
                        // The kept evidence itself, beyond what the pool shows of it.
                        let kept = try await candidates.evidence(for: viewer, cache: caching.reads)
                        #expect(
                            try await kept == candidates.evidence(for: viewer, cache: nil),
                            "after \(label): \(viewer.key ?? "anonymous")'s evidence")
                        if let key = viewer.key {
                            let kept = caching.reads.get(
                                "ev:\(key)|\(viewer.userID ?? "")", as: StoreCandidates.KeptEvidence.self)
                            #expect(kept != nil, "the evidence of \(key) is not kept")
                        }
                    }
                }
            }
            try await check("the start")
            let best = try await app.database.query(
                "SELECT id FROM stores WHERE archived_at IS NULL ORDER BY rating_score DESC, id DESC LIMIT 1"
            ).map { try $0.decode(String.self) }[0]
            // a store the user has not favorited yet: the best-but-one favorite above may be any store
            let unfavorited = try await app.database.query(
                """
                SELECT id FROM unnest(\(Array(ids[70..<80]))::text[]) WITH ORDINALITY AS o (id, n)
                WHERE NOT EXISTS (SELECT 1 FROM favorites f WHERE f.user_id = \(user.id) AND f.store_id = o.id)
                ORDER BY n LIMIT 1
                """
            ).map { try $0.decode(String.self) }[0]
            // The visitor's lowest related store, below every list: its score comes from the related scores alone.
            let related = Array(try await candidates.evidence(for: viewers[1], cache: nil).related.keys)
            let lowRelated = try await app.database.query(
                "SELECT id FROM stores WHERE id = ANY(\(related)) ORDER BY rating_score, id LIMIT 1"
            ).map { try $0.decode(String.self) }[0]
            let writes: [(String, @Sendable () async throws -> Void)] = [
                (
                    "a related store gains a favorite",
                    {
                        try await app.database.query(
                            "INSERT INTO favorites (user_id, store_id) VALUES (\(critic.id), \(lowRelated))")
                    }
                ),
                (
                    "a related store's rating moves",
                    {
                        try await app.database.query(
                            "UPDATE stores SET rating_sum = rating_sum + 1, rating_count = rating_count + 1 WHERE id = \(lowRelated)"
                        )
                    }
                ),
                (
                    "a related store is archived",
                    { try await app.database.query("UPDATE stores SET archived_at = now() WHERE id = \(lowRelated)") }
                ),
                (
                    "and restored",
                    { try await app.database.query("UPDATE stores SET archived_at = NULL WHERE id = \(lowRelated)") }
                ),
                (
                    "the best store's score falls",
                    {
                        try await app.database.query(
                            "UPDATE stores SET rating_sum = 100, rating_count = 100 WHERE id = \(best)")
                    }
                ),
                (
                    "a low store rises to the top",
                    {
                        try await app.database.query(
                            "UPDATE stores SET rating_sum = 1000, rating_count = 200 WHERE id = \(ids[120])")
                    }
                ),
                (
                    "a review moves a rating",
                    {
                        try await app.database.query(
                            "INSERT INTO comments (kind, store_id, author_id, rating, body) VALUES ('review', \(ids[50]), \(critic.id), 5, '好')"
                        )
                    }
                ),
                (
                    "a top store is archived",
                    { try await app.database.query("UPDATE stores SET archived_at = now() WHERE id = \(ids[120])") }
                ),
                (
                    "and restored",
                    { try await app.database.query("UPDATE stores SET archived_at = NULL WHERE id = \(ids[120])") }
                ),
                (
                    "a top store moves to the empty category",
                    { try await app.database.query("UPDATE stores SET category_id = \(empty) WHERE id = \(ids[120])") }
                ),
                (
                    "a new store at the top",
                    {
                        try await app.database.query(
                            """
                            INSERT INTO stores (name, category_id, manager_id, rating_sum, rating_count)
                            VALUES ('新店', \(second), \(manager.id), 500, 100)
                            """)
                    }
                ),
                (
                    "a store deleted",
                    { try await app.database.query("DELETE FROM stores WHERE name = '新店'") }
                ),
                (
                    "the user reviews a store",
                    {
                        try await app.database.query(
                            "INSERT INTO comments (kind, store_id, author_id, rating, body) VALUES ('review', \(ids[60]), \(user.id), 5, '好')"
                        )
                    }
                ),
                (
                    "a favorite",
                    {
                        try await app.database.query(
                            "INSERT INTO favorites (user_id, store_id) VALUES (\(user.id), \(unfavorited))")
                    }
                ),
                (
                    "the visitor opens another store",
                    {
                        try await app.database.query(
                            """
                            INSERT INTO viewer_store_opens (viewer, store_id, opened_at, first_opened_at)
                            VALUES ('v:visitor', \(ids[40]), now(), now())
                            """)
                        try await app.database.query(
                            "INSERT INTO store_covisits (store_id, other_id, viewers) VALUES (\(ids[40]), \(ids[90]), 7)"
                        )
                    }
                ),
                (
                    "a listed store gains a favorite",
                    {
                        let top = try await app.database.query(
                            "SELECT id FROM stores WHERE archived_at IS NULL ORDER BY rating_score DESC, id DESC LIMIT 1"
                        ).map { try $0.decode(String.self) }[0]
                        try await app.database.query(
                            "INSERT INTO favorites (user_id, store_id) VALUES (\(critic.id), \(top))")
                    }
                ),
                // The viewer's evidence is kept per viewer (migration 042): each of what it was read from drops it.
                (
                    "a seed's covisits change alone",
                    {
                        try await app.database.query(
                            "UPDATE store_covisits SET viewers = viewers + 40 WHERE store_id = \(ids[40]) AND other_id = \(ids[90])"
                        )
                    }
                ),
                (
                    "the user opens a store",
                    {
                        try await app.database.query(
                            """
                            INSERT INTO viewer_store_opens (viewer, store_id, opened_at, first_opened_at)
                            VALUES (\("u:" + user.id), \(ids[2]), now(), now())
                            """)
                    }
                ),
                (
                    "the favorite removed",
                    {
                        try await app.database.query(
                            "DELETE FROM favorites WHERE user_id = \(user.id) AND store_id = \(unfavorited)")
                    }
                ),
                (
                    "the user's review hidden",
                    {
                        try await app.database.query(
                            "UPDATE comments SET hidden_at = now() WHERE author_id = \(user.id) AND store_id = \(ids[60])"
                        )
                    }
                ),
                (
                    "the visitor's opens deleted",
                    { try await app.database.query("DELETE FROM viewer_store_opens WHERE viewer = 'v:visitor'") }
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
