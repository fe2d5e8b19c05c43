import Foundation
import PostgresNIO
import Testing

@testable import ChidianApp
@testable import ChidianCore

/// A viewer's state from everyone's cached piece and the viewer's own rows (issue #45, migration 037) against the
/// one statement it stands in for, for nobody, a viewer without history and one with it, after every kind of write
/// that changes either part.
@Suite struct ViewerStateCacheTests {
    static func same(_ a: ViewerState, _ b: ViewerState) -> Bool {
        a.interests == b.interests && a.arms == b.arms && a.names == b.names
    }

    @Test func composedStatesEqualTheStatementAfterEveryWrite() async throws {
        try await TestApp.run(configure: {
            $0.cacheEnabled = true
            $0.cacheFreshness = .seconds(300)
        }) { client, app in
            // setup: three categories, two with a reviewed store; a viewer with interests and exploration counts
            let caching = try #require(app.services.caching)
            let cached = InterestRepository(database: app.database, halfLife: 86_400, cache: caching.reads)
            let plain = InterestRepository(database: app.database, halfLife: 86_400)
            let manager = try await client.register("店长", role: "manager")
            let author = try await client.register("作者")
            let categories = [
                try await StoreFixture.category(app, "火锅"), try await StoreFixture.category(app, "面馆"),
                try await StoreFixture.category(app, "烧烤"),
            ]
            var made: [String] = []
            for (index, category) in categories.enumerated() {
                made.append(try await StoreFixture.store(client, manager, name: "店\(index)", categoryID: category).id)
            }
            let stores = made
            for store in stores.prefix(2) {
                try await app.database.query(
                    """
                    INSERT INTO comments (kind, store_id, author_id, rating, body)
                    VALUES ('review', \(store), \(author.id), 4, '好吃')
                    """)
            }
            try await app.database.query(
                """
                INSERT INTO viewer_interests (viewer, category_id, score, score_at, clicks)
                VALUES ('v:fan', \(categories[0]), 3, now() - interval '1 hour', 3)
                """)
            try await app.database.query(
                """
                INSERT INTO viewer_explore (viewer, category_id, shown, clicked, exploring, updated_at)
                VALUES ('v:fan', \(categories[1]), 4, 1, false, now() - interval '2 hours')
                """)
            try await app.database.query(
                """
                INSERT INTO category_explore (category_id, shard, shown, clicked)
                VALUES (\(categories[0]), 0, 10, 2), (\(categories[0]), 1, 5, 1), (\(categories[1]), 0, 7, 0)
                """)
            await app.settle()
            let now = Date()
            @Sendable func check(_ label: String) async throws {
                for viewer in [nil, "v:nobody", "v:fan"] {
                    // MUT: twice, a miss then a hit
                    for _ in 0..<2 {
                        let composed = try await cached.state(viewer: viewer, at: now)
                        let truth = try await plain.state(viewer: viewer, at: now)
                        // validate
                        #expect(Self.same(composed, truth), "after \(label): \(viewer ?? "nobody")")
                        if let viewer {
                            // 猜你喜欢's interests from the cached state equal their own statement's
                            let current = try await cached.currentInterests(viewer: viewer, at: now)
                            #expect(current == (try await plain.interests(viewer: viewer, at: now)), "\(label)")
                        }
                    }
                }
            }
            // A viewer nothing is known of has nobody's state: what a new visitor's pages read in its place.
            @Sendable func checkNewVisitor(_ label: String) async throws {
                let nobody = try await cached.state(viewer: nil, at: now)
                let unknown = try await plain.state(viewer: "v:never-seen", at: now)
                #expect(Self.same(nobody, unknown), "after \(label): a new visitor")
                // without the cache, nobody's own statement (no viewer bound) reads the same
                let uncached = try await plain.state(viewer: nil, at: now)
                #expect(Self.same(uncached, unknown), "after \(label): nobody, without the cache")
                #expect(nobody.isCold && unknown.isCold)
            }
            try await check("the start")
            try await checkNewVisitor("the start")
            #expect(caching.reads.get("state:everyone", as: [InterestRepository.StateStatement.Row].self) != nil)
            let writes: [(String, @Sendable () async throws -> Void)] = [
                (
                    "everyone's counts move",
                    {
                        try await app.database.query(
                            "UPDATE category_explore SET shown = shown + 3, clicked = clicked + 1 WHERE shard = 0")
                    }
                ),
                (
                    "a category's first counts",
                    {
                        try await app.database.query(
                            "INSERT INTO category_explore (category_id, shard, shown, clicked) VALUES (\(categories[2]), 3, 2, 1)"
                        )
                    }
                ),
                (
                    "a category's first review",
                    {
                        try await app.database.query(
                            """
                            INSERT INTO comments (kind, store_id, author_id, rating, body)
                            VALUES ('review', \(stores[2]), \(author.id), 5, '香')
                            """)
                    }
                ),
                (
                    "its only review hidden",
                    {
                        try await app.database.query(
                            "UPDATE comments SET hidden_at = now() WHERE store_id = \(stores[2])")
                    }
                ),
                (
                    "a reviewed store archived",
                    { try await app.database.query("UPDATE stores SET archived_at = now() WHERE id = \(stores[1])") }
                ),
                ("a category added", { _ = try await StoreFixture.category(app, "甜品") }),
                (
                    "a category renamed",
                    {
                        try await app.database.query(
                            "UPDATE categories SET name = '川菜' WHERE id = \(categories[0])")
                    }
                ),
                (
                    "the viewer's interest moves",
                    {
                        try await app.database.query(
                            """
                            INSERT INTO viewer_interests (viewer, category_id, score, score_at, clicks)
                            VALUES ('v:fan', \(categories[1]), 2, now(), 1)
                            """)
                    }
                ),
                (
                    "the viewer's exploration moves",
                    {
                        try await app.database.query(
                            "UPDATE viewer_explore SET shown = shown + 1, updated_at = now() WHERE viewer = 'v:fan'")
                    }
                ),
                (
                    "the viewer explores a category with reviews to show",
                    {
                        try await app.database.query(
                            """
                            INSERT INTO viewer_explore (viewer, category_id, shown, clicked, exploring, updated_at)
                            VALUES ('v:fan', \(categories[0]), 6, 2, true, now() - interval '3 hours')
                            """)
                    }
                ),
                (
                    "and is shown it again",
                    {
                        try await app.database.query(
                            "UPDATE viewer_explore SET shown = shown + 5 WHERE viewer = 'v:fan' AND category_id = \(categories[0])"
                        )
                    }
                ),
            ]
            for (label, write) in writes {
                try await write()
                await app.settle()
                try await check(label)
                try await checkNewVisitor(label)
            }
        }
    }
}
