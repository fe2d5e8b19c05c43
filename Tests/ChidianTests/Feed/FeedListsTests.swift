import Foundation
import PostgresNIO
import Testing

@testable import ChidianApp
@testable import ChidianCore

/// The featured feed's first page composed from the cached category lists and comment views (issue #45, migration
/// 038) against the page statement and cold start's statement it stands in for: the same page (every field of
/// every review, likes included), the same cursor (so every later page is the same too) and the same
/// personalization, for nobody, a visitor without history and a user with interests, at four page sizes, after
/// every kind of write that changes a list or a view.
@Suite struct FeedListsTests {
    @Test func composedFirstPagesEqualTheStatementsAfterEveryWrite() async throws {
        try await TestApp.run(configure: {
            $0.cacheEnabled = true
            $0.cacheFreshness = .seconds(300)
        }) { client, app in
            // setup: four categories with two stores each; 130 reviews in the first (past a list's depth of 111),
            // 12 in each other, some at the very same instant across categories (ties go by id); a user with
            // interests in two categories who liked three reviews
            let caching = try #require(app.services.caching)
            let manager = try await client.register("店长", role: "manager")
            let fan = try await client.register("食客")
            var named: [String] = []
            for name in ["火锅", "面馆", "烧烤", "甜品"] { named.append(try await StoreFixture.category(app, name)) }
            let categories = named
            var made: [String] = []
            for (index, category) in categories.enumerated() {
                for copy in 0..<2 {
                    made.append(
                        try await StoreFixture.store(client, manager, name: "店\(index)-\(copy)", categoryID: category)
                            .id)
                }
            }
            let stores = made
            try await app.database.query(
                """
                INSERT INTO comments (kind, store_id, author_id, rating, body, created_at, like_count)
                    SELECT 'review', \(stores[0]), \(manager.id), 1 + n % 5, '第' || n || '条',
                        now() - n * interval '7 minutes', n % 4
                    FROM generate_series(1, 130) AS n
                """)
            for store in stores.dropFirst(2) {
                try await app.database.query(
                    """
                    INSERT INTO comments (kind, store_id, author_id, rating, body, created_at, like_count)
                        SELECT 'review', \(store), \(manager.id), 1 + n % 5, '第' || n || '条',
                            date_trunc('hour', now()) - n * interval '1 hour', n % 3
                        FROM generate_series(1, 6) AS n
                    """)
            }
            try await app.database.query(
                """
                INSERT INTO viewer_interests (viewer, category_id, score, score_at, clicks)
                VALUES (\("u:" + fan.id), \(categories[1]), 4, now() - interval '1 hour', 4),
                    (\("u:" + fan.id), \(categories[2]), 1, now() - interval '1 hour', 1)
                """)
            try await app.database.query(
                """
                INSERT INTO comment_likes (comment_id, user_id)
                    SELECT id, \(fan.id) FROM comments WHERE store_id = ANY(\(Array(stores[2...4]))::text[])
                    ORDER BY created_at DESC LIMIT 3
                """)
            await app.settle()

            let now = Date()
            let lists = FeedLists(database: app.database, cache: caching.reads)
            func service(_ lists: FeedLists?, cache: ReadCache?) -> FeedService {
                let interests = InterestRepository(
                    database: app.database, halfLife: app.services.config.interestHalfLife, cache: cache)
                return FeedService(
                    feed: FeedRepository(database: app.database, lists: lists),
                    candidates: FeedCandidates(database: app.database, lists: lists), interests: interests,
                    signals: InterestSignals(
                        interests: interests, visits: StoreVisits(database: app.database), buffer: SignalBuffer()),
                    clock: { now })
            }
            let composed = service(lists, cache: caching.reads)
            let truth = service(nil, cache: nil)
            let user = Viewer.user(AuthUser(id: fan.id, name: fan.name, role: .user, tokenHash: []))
            let viewers: [(String, Viewer)] = [
                ("nobody", .nobody), ("a new visitor", .visitor("feed-lists-visitor")), ("the fan", user),
            ]
            @Sendable func check(_ label: String) async throws {
                for (name, viewer) in viewers {
                    for limit in [3, 10, 20, 50] {
                        // MUT: twice, a miss then a hit
                        for round in 0..<2 {
                            let seed = UInt64(limit * 10 + round)
                            var a = SeededRandom(seed: seed)
                            var b = SeededRandom(seed: seed)
                            let request = PageRequest(limit: limit, cursor: nil)
                            let mine = try await composed.featuredPage(viewer: viewer, page: request, using: &a)
                            let theirs = try await truth.featuredPage(viewer: viewer, page: request, using: &b)
                            let context = "after \(label): \(name), limit \(limit), round \(round)"
                            #expect(mine.items.map(\.id) == theirs.items.map(\.id), "\(context)")
                            let sameViews = mine.items == theirs.items
                            #expect(sameViews, "\(context)")
                            // and the same bytes on the wire (the composed page writes cached JSON)
                            let sameJSON = try JSONWriter.bytes(of: mine) == JSONWriter.bytes(of: theirs)
                            #expect(sameJSON, "\(context)")
                            #expect(
                                try mine.nextCursor.map { try Cursor(token: $0) }
                                    == theirs.nextCursor.map { try Cursor(token: $0) }, "\(context)")
                            #expect(
                                mine.personalization.categories.map(\.id)
                                    == theirs.personalization.categories.map(\.id), "\(context)")
                            #expect(mine.personalization.explore == theirs.personalization.explore, "\(context)")
                            #expect(mine.personalization.coldStart == theirs.personalization.coldStart, "\(context)")
                        }
                    }
                }
            }
            try await check("the start")
            // The pieces were used: each category's list and the first page's views are held.
            for category in categories {
                #expect(caching.reads.get("fk:" + category, as: FeedLists.List.self) != nil, "\(category)")
            }
            #expect(try await lists.lists(categories)?.first?.ids.count == FeedLists.depth)
            // and the lists of every category at once, which cold start and a walk without interests read
            let everyone = caching.reads.get("fk:everyone", as: FeedLists.Everyone.self)?.value
            #expect(Set(categories).isSubset(of: everyone?.categories ?? []))
            #expect(everyone?.lists.count == everyone?.categories.count)

            let fanReview = try await app.database.query(
                "SELECT id FROM comments WHERE store_id = \(stores[2]) ORDER BY created_at DESC LIMIT 1"
            ).map { try $0.decode(String.self) }[0]
            let hot = try await app.database.query(
                "SELECT id FROM comments WHERE store_id = \(stores[0]) ORDER BY created_at DESC LIMIT 1"
            ).map { try $0.decode(String.self) }[0]
            let writes: [(String, @Sendable () async throws -> Void)] = [
                (
                    "a new review in the fan's category",
                    {
                        try await app.database.query(
                            """
                            INSERT INTO comments (kind, store_id, author_id, rating, body)
                            VALUES ('review', \(stores[2]), \(manager.id), 5, '新开的')
                            """)
                    }
                ),
                (
                    "a review at the same instant as another category's newest",
                    {
                        try await app.database.query(
                            """
                            INSERT INTO comments (id, kind, store_id, author_id, rating, body, created_at)
                            SELECT 'm_zzzzzzzz', 'review', \(stores[6]), \(manager.id), 3, '同一刻', max(created_at)
                            FROM comments WHERE store_id = \(stores[4])
                            """)
                    }
                ),
                (
                    "a like (cold start weighs likes)",
                    {
                        try await app.database.query(
                            "INSERT INTO comment_likes (comment_id, user_id) VALUES (\(hot), \(manager.id))")
                    }
                ),
                (
                    "likes pile up on an older review (it rises among cold start's)",
                    {
                        try await app.database.query(
                            """
                            UPDATE comments SET like_count = like_count + 1000 WHERE id = (SELECT id FROM comments
                                WHERE store_id = \(stores[0]) ORDER BY created_at DESC OFFSET 7 LIMIT 1)
                            """)
                    }
                ),
                (
                    "the fan likes a review on the page",
                    {
                        try await app.database.query(
                            """
                            INSERT INTO comment_likes (comment_id, user_id)
                            SELECT id, \(fan.id) FROM comments WHERE store_id = \(stores[4])
                            ORDER BY created_at DESC OFFSET 3 LIMIT 1
                            """)
                    }
                ),
                (
                    "the fan's like taken back",
                    {
                        try await app.database.query(
                            "DELETE FROM comment_likes WHERE user_id = \(fan.id) AND comment_id = \(fanReview)")
                    }
                ),
                (
                    "a review hidden",
                    { try await app.database.query("UPDATE comments SET hidden_at = now() WHERE id = \(hot)") }
                ),
                (
                    "a review judged not recommended",
                    {
                        try await app.database.query(
                            "UPDATE comments SET recommended = false, verdict_by = 'admin' WHERE id = \(fanReview)")
                    }
                ),
                (
                    "a review's rating edited (its store's score moves)",
                    {
                        try await app.database.query(
                            """
                            UPDATE comments SET rating = 1 WHERE id = (SELECT id FROM comments
                                WHERE store_id = \(stores[3]) ORDER BY created_at DESC LIMIT 1)
                            """)
                    }
                ),
                (
                    "a reply to a shown review",
                    {
                        try await app.database.query(
                            """
                            INSERT INTO comment_replies (comment_id, author_id, body)
                            SELECT id, \(manager.id), '谢谢' FROM comments WHERE store_id = \(stores[4])
                            ORDER BY created_at DESC LIMIT 1
                            """)
                    }
                ),
                (
                    "an author renamed",
                    { try await app.database.query("UPDATE users SET name = '老店长' WHERE id = \(manager.id)") }
                ),
                (
                    "a store renamed",
                    { try await app.database.query("UPDATE stores SET name = '新名字' WHERE id = \(stores[2])") }
                ),
                (
                    "a store moved to another category",
                    {
                        try await app.database.query(
                            "UPDATE stores SET category_id = \(categories[3]) WHERE id = \(stores[3])")
                    }
                ),
                (
                    "a store archived",
                    { try await app.database.query("UPDATE stores SET archived_at = now() WHERE id = \(stores[4])") }
                ),
                (
                    "a store restored",
                    { try await app.database.query("UPDATE stores SET archived_at = NULL WHERE id = \(stores[4])") }
                ),
                ("a category added", { _ = try await StoreFixture.category(app, "咖啡") }),
                (
                    "the first review in the category just added",
                    {
                        let category = try await app.database.query("SELECT id FROM categories WHERE name = '咖啡'")[0]
                            .decode(String.self)
                        let store = try await StoreFixture.store(client, manager, name: "咖啡店", categoryID: category).id
                        try await app.database.query(
                            """
                            INSERT INTO comments (kind, store_id, author_id, rating, body)
                            VALUES ('review', \(store), \(manager.id), 5, '新品类的第一条')
                            """)
                    }
                ),
                (
                    "a review deleted",
                    {
                        try await app.database.query(
                            """
                            DELETE FROM comments WHERE id = (SELECT id FROM comments
                                WHERE store_id = \(stores[6]) ORDER BY created_at DESC LIMIT 1)
                            """)
                    }
                ),
                (
                    "the fan's interests move",
                    {
                        try await app.database.query(
                            """
                            INSERT INTO viewer_interests (viewer, category_id, score, score_at, clicks)
                            VALUES (\("u:" + fan.id), \(categories[0]), 9, now(), 9)
                            """)
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
