import Foundation
import Testing

@testable import ChidianApp
@testable import ChidianCore

/// A user's favourites kept under `fv:<user>` (issue #45, migration 042) against the statement they stand in for:
/// the same favorited ids after every kind of write to favourites, and the statement for a user with more than the
/// cache keeps.
@Suite struct FavoritedCacheTests {
    @Test func keptFavoritesEqualTheStatementAfterEveryWrite() async throws {
        try await TestApp.run(configure: {
            $0.cacheEnabled = true
            $0.cacheFreshness = .seconds(300)
        }) { client, app in
            // setup: 12 stores, a user with three favourites
            let caching = try #require(app.services.caching)
            let cached = StoreRepository(database: app.database, cache: caching.reads)
            let plain = StoreRepository(database: app.database)
            let manager = try await client.register("店长", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            try await NearWalkTests.crowd(app, managerID: manager.id, categories: [category, category], count: 12)
            let ids = try await app.database.query("SELECT id FROM stores ORDER BY id").map {
                try $0.decode(String.self)
            }
            let user = try await client.register("食客")
            try await app.database.query(
                "INSERT INTO favorites (user_id, store_id) SELECT \(user.id), unnest(\(Array(ids.prefix(3)))::text[])")
            await app.settle()
            @Sendable func check(_ label: String) async throws {
                for _ in 0..<2 {  // a miss, then a hit
                    // MUT
                    let kept = try await cached.favorited(ids, by: user.id)
                    // validate
                    #expect(try await kept == plain.favorited(ids, by: user.id), "after \(label)")
                }
            }
            try await check("the start")
            #expect(caching.reads.get("fv:" + user.id, as: Set<String>?.self) != nil, "the favourites are not kept")
            let writes: [(String, @Sendable () async throws -> Void)] = [
                ("a favourite", { _ = try await cached.favorite(storeID: ids[5], userID: user.id) }),
                ("an unfavourite", { _ = try await cached.unfavorite(storeID: ids[0], userID: user.id) }),
                (
                    "a favourite store deleted",
                    { try await app.database.query("DELETE FROM stores WHERE id = \(ids[1])") }
                ),
                (
                    "a favourite written in SQL",
                    {
                        try await app.database.query(
                            "INSERT INTO favorites (user_id, store_id) VALUES (\(user.id), \(ids[9]))")
                    }
                ),
            ]
            for (label, write) in writes {
                try await write()
                await app.settle()
                try await check(label)
            }
            // A user with more than the cache keeps is asked per list, and still answered right.
            try await app.database.query(
                """
                INSERT INTO stores (name, category_id, manager_id)
                    SELECT '店' || n, \(category), \(manager.id) FROM generate_series(1, \(StoreRepository.keptFavorites)) n
                """)
            try await app.database.query(
                "INSERT INTO favorites (user_id, store_id) SELECT \(user.id), id FROM stores ON CONFLICT DO NOTHING")
            await app.settle()
            let all = try await app.database.query("SELECT id FROM stores").map { try $0.decode(String.self) }
            #expect(try await cached.favorited(all, by: user.id).count == all.count)
            let kept = try #require(caching.reads.get("fv:" + user.id, as: Set<String>?.self))
            #expect(kept.value == nil, "over the limit, the favourites are not kept")
        }
    }
}
