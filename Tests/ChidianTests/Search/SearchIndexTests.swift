import Foundation
import HummingbirdTesting
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The summaries the triggers keep equal a recount from the reviews, after any mix of writes, after a seed
/// import (which disables the triggers and rebuilds), and for dishes added later.
@Suite struct SearchIndexTests {
    /// The review summaries as kept, and as recounted from the live reviews, as sorted text.
    static func summaries(_ database: Database) async throws -> (kept: [String], recounted: [String]) {
        let kept = try await database.query(
            """
            SELECT k.store_id || ' ' || r.gram || ' ' || r.review_count FROM search_review_grams r
            JOIN search_store_keys k ON k.key = r.store_key
            UNION ALL
            SELECT k.store_id || ' #' || d.lname || ' ' || r.review_count FROM search_dish_stores r
            JOIN search_store_keys k ON k.key = r.store_key JOIN search_dishes d ON d.id = r.dish_id
            ORDER BY 1
            """
        ).map { try $0.decode(String.self) }
        let recounted = try await database.query(
            """
            SELECT * FROM (
                SELECT c.store_id || ' ' || g || ' ' || count(*) FROM comments c, unnest(search_grams(c.body)) AS g
                WHERE c.kind = 'review' AND c.hidden_at IS NULL GROUP BY c.store_id, g
                UNION ALL
                SELECT c.store_id || ' #' || d.lname || ' ' || count(*) FROM comments c, search_dishes d
                WHERE c.kind = 'review' AND c.hidden_at IS NULL AND char_length(d.lname) >= 3
                    AND strpos(lower(c.body), d.lname) > 0
                GROUP BY c.store_id, d.lname
            ) x ORDER BY 1
            """
        ).map { try $0.decode(String.self) }
        return (kept, recounted)
    }

    @Test func gramsAreTheDistinctCharactersAndPairsLowercased() async throws {
        try await TestApp.run { client, app in
            // MUT
            let rows = try await app.database.query("SELECT search_grams('Ab鱼鱼，ab')")
            // validate
            let grams = try rows[0].decode([String].self)
            #expect(Set(grams) == ["a", "b", "鱼", "，", "ab", "b鱼", "鱼鱼", "鱼，", "，a"])
            #expect(grams.count == 9)
        }
    }

    @Test func triggersKeepTheSummariesEqualToARecount() async throws {
        try await TestApp.run { client, app in
            // setup
            var world = try await SearchWorld.make(client, app)
            // MUT: edits, a hide, a delete, a review moved between kinds, a store deleted outright.
            let edits = [
                try await client.send(
                    .patch, "/v1/comments/\(world.reviews["毛肚"]!)", body: ["body": "毛肚毛肚，鸭肠也好"],
                    token: world.author("毛肚").token),
                try await client.send(
                    .patch, "/v1/comments/\(world.reviews["pizza"]!)", body: ["body": "PIZZA so good, 水煮鱼 too"],
                    token: world.author("pizza").token),
            ]
            _ = try await CommentModeration.hide(id: world.reviews["鸭肠"]!, database: app.database)
            let deleted = try await client.send(
                .delete, "/v1/comments/\(world.reviews["酸菜鱼"]!)", token: world.author("酸菜鱼").token)
            world.reviews["again"] = try await world.post(
                store: "鱼你在一起", body: ["rating": 5, "body": "酸菜鱼回锅肉都好"], as: world.eater)
            try await app.database.query("UPDATE comments SET hidden_at = NULL WHERE id = \(world.reviews["鸭肠"]!)")
            try await app.database.query(
                "UPDATE comments SET kind = 'notice', rating = NULL WHERE id = \(world.reviews["水煮鱼2"]!)")
            try await app.database.query("DELETE FROM stores WHERE id = \(world.stores["老王烧烤"]!)")
            // validate
            #expect(edits.map(\.status) == [.ok, .ok])
            #expect(deleted.status == .noContent)
            let (kept, recounted) = try await Self.summaries(app.database)
            #expect(kept == recounted)
            #expect(kept.contains("\(world.stores["小龙坎火锅"]!) 毛肚 1"))
            #expect(kept.contains("\(world.stores["Pizza Hut"]!) #水煮鱼 1"))
        }
    }

    @Test func rebuildingChangesNothingWhenTheSummariesAreCurrent() async throws {
        try await TestApp.run { client, app in
            // setup
            _ = try await SearchWorld.make(client, app)
            let before = try await Self.summaries(app.database).kept
            // MUT
            try await app.database.query("SELECT search_rebuild(NULL)")
            // validate
            #expect(try await Self.summaries(app.database).kept == before)
        }
    }

    @Test func bothBulkRebuildsRewriteTheSummariesAndTheirIndexes() async throws {
        try await TestApp.run { client, app in
            // setup: summaries that drifted (a row lost, a count wrong, a row that should not be there).
            let world = try await SearchWorld.make(client, app)
            let expected = try await Self.summaries(app.database).kept
            try await app.database.query(
                """
                DELETE FROM search_review_grams WHERE gram = '鱼';
                """)
            try await app.database.query("UPDATE search_review_grams SET review_count = 9 WHERE gram = '火锅'")
            try await app.database.query(
                "INSERT INTO search_dish_stores SELECT d.id, k.key, 3 FROM search_dishes d, search_store_keys k WHERE d.lname = '宫保鸡丁'"
            )
            let logger = app.database.logger
            for (label, bulk) in [
                ("sql in place", false), ("swift in bulk", true), ("swift in place", false), ("sql in bulk", true),
            ] {
                // MUT
                try await app.database.transaction { connection in
                    if label.hasPrefix("sql") {
                        try await connection.rows("SELECT search_rebuild(NULL, \(bulk))", logger: logger)
                    } else {
                        try await SearchBulkIndexer.rebuild(
                            storesSQL: "SELECT id FROM stores", bulk: bulk, on: connection, logger: logger)
                    }
                }
                await app.settle()
                // validate
                #expect(try await Self.summaries(app.database).kept == expected, "\(label)")
                let indexes = try await app.database.query(
                    """
                    SELECT count(*)::int FROM pg_indexes
                    WHERE tablename IN ('search_review_grams', 'search_dish_stores')
                      AND indexname IN ('search_review_grams_pkey', 'search_review_grams_top', 'search_dish_stores_pkey', 'search_dish_stores_top')
                    """)
                #expect(try indexes[0].decode(Int.self) == 4, "\(label)")
                #expect(
                    world.names(try await SearchClient.page(client, "鱼")) == ["鱼你在一起", "小龙坎火锅", "老王烧烤"], "\(label)")
                // Put the drift back for the next round.
                try await app.database.query("DELETE FROM search_review_grams WHERE gram = '鱼'")
            }
        }
    }

    @Test func aSeedImportBringsSearchUpToDate() async throws {
        try await TestApp.run { client, app in
            // setup
            let importer = SeedImporter(database: app.database, config: app.services.config)
            let directory = try SeedFixture().write()
            // MUT
            _ = try await importer.run(directory: directory)
            // validate
            let (kept, recounted) = try await Self.summaries(app.database)
            #expect(kept == recounted)
            #expect(!kept.isEmpty)
            let 毛肚 = try await SearchClient.page(client, "毛肚")
            #expect(毛肚.items.map(\.id) == ["s001"])
            #expect(毛肚.items.first?.matches == [.dish("毛肚", 1)])
            #expect(try await SearchClient.page(client, "hot pot").items.map(\.id) == ["s001"])
            #expect(try await SearchClient.page(client, "八折").items.isEmpty)  // a notice
            // The names' pinyin was computed during the import.
            let pending = try await app.database.query("SELECT count(*)::int FROM search_pinyin WHERE NOT ready")
            #expect(try pending[0].decode(Int.self) == 0)
            #expect(try await SearchClient.page(client, "shuxiang").items.map(\.id) == ["s001"])
            #expect(try await SearchClient.page(client, "yueshi").items.map(\.id) == ["s003"])
            // MUT: the same directory again changes nothing.
            _ = try await importer.run(directory: directory)
            // validate
            #expect(try await Self.summaries(app.database).kept == kept)
        }
    }

    @Test func aDishAddedLaterIsCountedOverExistingReviews() async throws {
        try await TestApp.run { client, app in
            // setup
            let world = try await SearchWorld.make(client, app)
            let vocabulary = DishVocabulary(database: app.database)
            #expect(try await SearchClient.page(client, "diliaoxiang").items.isEmpty)
            // MUT
            let added = try await vocabulary.add(name: " 底料香 ")
            await app.settle()
            // validate
            #expect(
                added
                    == DishVocabulary.Entry(
                        name: "底料香", syllables: "diliaoxiang", initials: "dlx", stores: 1, reviews: 1))
            #expect(world.named(try await SearchClient.page(client, "diliaoxiang")) == ["小龙坎火锅 [dish:底料香:1]"])
            #expect(world.named(try await SearchClient.page(client, "dlx")) == ["小龙坎火锅 [dish:底料香:1]"])
            // From now on the triggers count it.
            _ = try await world.post(store: "蜀大侠", body: ["rating": 4, "body": "底料香，底料香"], as: world.other)
            #expect(world.names(try await SearchClient.page(client, "diliaoxiang")) == ["蜀大侠", "小龙坎火锅"])
            let (kept, recounted) = try await Self.summaries(app.database)
            #expect(kept == recounted)
            let listed = try await vocabulary.list()
            #expect(listed.count == DishCatalog.names.count + 1)
            #expect(
                listed.last
                    == DishVocabulary.Entry(
                        name: "底料香", syllables: "diliaoxiang", initials: "dlx", stores: 2, reviews: 2))
            #expect(
                listed.first { $0.name == "火锅" }
                    == DishVocabulary.Entry(name: "火锅", syllables: "huoguo", initials: "hg", stores: 2, reviews: 3))
        }
    }

    @Test func aDishIsAddedOnceIgnoringCaseAndMustBeAName() async throws {
        try await TestApp.run { client, app in
            let vocabulary = DishVocabulary(database: app.database)
            // MUT / validate
            await #expect(throws: SearchError.dishExists("水煮鱼")) { try await vocabulary.add(name: "水煮鱼") }
            await #expect(throws: SearchError.dishExists("HOT POT")) { try await vocabulary.add(name: "HOT POT") }
            await #expect(throws: SearchError.invalidDishName("The dish name must not be blank.")) {
                try await vocabulary.add(name: "  ")
            }
            await #expect(throws: SearchError.invalidDishName("The dish name must be at most 32 characters.")) {
                try await vocabulary.add(name: String(repeating: "鱼", count: 33))
            }
            await #expect(throws: SearchError.invalidDishName("The dish name must not contain control characters.")) {
                try await vocabulary.add(name: "鱼\u{7}")
            }
            let count = try await app.database.query("SELECT count(*)::int FROM search_dishes")
            #expect(try count[0].decode(Int.self) == DishCatalog.names.count)
        }
    }
}
