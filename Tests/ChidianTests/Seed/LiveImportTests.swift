import Foundation
import HTTPTypes
import HummingbirdTesting
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// A seed import into a database a server is using: while its transaction is open (held at `ImportPause` points),
/// reads answer at once, writers of stores it does not touch go on, writers of the stores it touches wait for it,
/// and afterwards every trigger-kept figure equals a recount.
@Suite struct LiveImportTests {
    /// The fixture's stores plus s004, which the second import leaves out (an import never deletes).
    static func liveFixture() -> SeedFixture {
        var fixture = SeedFixture()
        fixture.stores.append(
            [
                "id": "s004", "name": "江湖菜馆", "imageName": [], "category": "川菜", "manager": "u005", "sumCost": 0,
                "staredUserId": [],
            ])
        fixture.comments.append(
            [
                "id": "c005", "store_id": "s004", "user_id": "u002", "rating": 4, "context": "水煮鱼很嫩",
                "commentImageName": [],
            ])
        return fixture
    }

    /// The same data without s004, plus enough reviews of s001–s003 that the search summaries are rebuilt in bulk
    /// (more than 10,000 reviews: fresh tables swapped in at the end).
    static func bigFixture() -> SeedFixture {
        var fixture = SeedFixture()
        let texts = ["水煮鱼很嫩，毛肚新鲜", "火锅底料香，服务好", "虾饺皮薄，下次再来", "noodles were great 鱼香肉丝"]
        for index in 0..<10_200 {
            fixture.comments.append([
                "id": String(format: "b%05d", index), "store_id": ["s001", "s002", "s003"][index % 3],
                "user_id": ["u001", "u002"][index % 2], "rating": 1 + index % 5,
                "context": "\(texts[index % 4]) \(index)",
                "commentImageName": [],
            ])
        }
        return fixture
    }

    /// Every relation the API reads, read on a connection that gives up after 200 ms of lock wait: a lock held by the
    /// import that blocks readers fails this instead of waiting.
    static func readEveryTable(_ database: Database, search: Bool) async throws {
        var tables = [
            "users", "sessions", "images", "categories", "stores", "store_images", "comments", "comment_images",
            "favorites", "promotions", "viewer_interests", "viewer_opens",
        ]
        if search {
            tables += [
                "search_store_keys", "search_review_grams", "search_dish_stores", "search_dishes", "search_name_grams",
                "search_pinyin", "search_pinyin_keys",
            ]
        }
        let logger = database.logger
        let toRead = tables
        try await database.transaction { connection in
            try await connection.rows("SET LOCAL lock_timeout = '200ms'", logger: logger)
            for table in toRead {
                try await connection.rows(
                    PostgresQuery(unsafeSQL: "SELECT count(*)::int FROM (SELECT 1 FROM \(table) LIMIT 5) x"),
                    logger: logger)
            }
            if search {
                let hits = try await connection.rows(
                    "SELECT out_id FROM search_page('毛肚', NULL, NULL, NULL, NULL, NULL, 10, 10000) WHERE out_id IS NOT NULL",
                    logger: logger)
                guard try hits.map({ try $0.decode(String.self) }).contains("s001") else {
                    throw TestFailure("search lost s001")
                }
            }
        }
    }

    static func login(_ client: any TestClientProtocol, _ name: String, _ password: String) async throws -> String {
        let response = try await client.send(.post, "/v1/auth/login", body: ["name": name, "password": password])
        guard response.status == .ok, let token = try response.json()["token"] as? String else {
            throw TestFailure("login \(name): \(response.status)")
        }
        return token
    }

    /// Ratings, favorite counts and the comments' store copies as kept, against a recount; the search summaries too.
    static func expectTotalsEqualARecount(_ database: Database) async throws {
        let drift = try await database.query(
            """
            SELECT count(*)::int FROM stores s
            WHERE (s.rating_count, s.rating_sum, s.review_count, s.favorite_count) IS DISTINCT FROM (
                (SELECT count(*) FROM (
                    SELECT DISTINCT c.author_id FROM comments c
                    WHERE c.store_id = s.id AND c.kind = 'review' AND c.hidden_at IS NULL) a),
                (SELECT coalesce(sum(l.rating), 0) FROM (
                    SELECT DISTINCT ON (c.author_id) c.rating FROM comments c
                    WHERE c.store_id = s.id AND c.kind = 'review' AND c.hidden_at IS NULL
                    ORDER BY c.author_id, c.created_at DESC, c.id DESC) l),
                (SELECT count(*) FROM comments c WHERE c.store_id = s.id AND c.kind = 'review' AND c.hidden_at IS NULL),
                (SELECT count(*) FROM favorites f WHERE f.store_id = s.id))
            """)
        #expect(try drift[0].decode(Int.self) == 0)
        let copies = try await database.query(
            """
            SELECT count(*)::int FROM comments c JOIN stores s ON s.id = c.store_id
            WHERE (c.category_id, c.store_archived) IS DISTINCT FROM (s.category_id, s.archived_at IS NOT NULL)
            """)
        #expect(try copies[0].decode(Int.self) == 0)
        let (kept, recounted) = try await SearchIndexTests.summaries(database)
        #expect(kept == recounted)
    }

    @Test func readersAndOtherStoresWritersNeverWaitForAnImport() async throws {
        try await TestApp.run { client, app in
            // setup: live data, two signed-in users, and a connection whose plans of the summaries are cached.
            let importer = SeedImporter(database: app.database, config: app.services.config)
            _ = try await importer.run(directory: try Self.liveFixture().write())
            let user1 = try await Self.login(client, "User1", "111")
            let user2 = try await Self.login(client, "User2", "222")
            let big = try Self.bigFixture().write()
            let logger = app.database.logger
            let tableOID = "SELECT 'search_review_grams'::regclass::oid::bigint"
            let oldOID = try await app.database.query(PostgresQuery(unsafeSQL: tableOID))[0].decode(Int.self)
            try await app.database.withConnection { held in
                try await held.rows(
                    "PREPARE grams (text) AS SELECT coalesce(sum(review_count), 0)::int FROM search_review_grams WHERE gram = $1",
                    logger: logger)
                for _ in 0..<6 {
                    _ = try await held.rows("EXECUTE grams('鱼')", logger: logger)
                    _ = try await held.rows(
                        "SELECT out_id FROM search_page('鱼', NULL, NULL, NULL, NULL, NULL, 10, 10000) WHERE out_id IS NOT NULL",
                        logger: logger)
                }
                try await held.rows(
                    "INSERT INTO comments (kind, store_id, author_id, rating, body) VALUES ('review', 's004', 'u001', 5, '鱼很好')",
                    logger: logger)
                let fishBefore = try await held.rows("EXECUTE grams('鱼')", logger: logger)[0].decode(Int.self)

                // MUT: the import, held at each pause while other sessions read and write.
                let waiting = Waiting()
                try await ImportPause.$hook.withValue({ point in
                    // No stopwatch: a read or write stuck behind the import's lock never answers while the import
                    // waits at its pause for it, a hang the suite's watchdog names with this test.
                    do {
                        for uri in [
                            "/v1/stores/s001", "/v1/stores/s001/comments", "/v1/stores/s004",
                            "/v1/stores/s004/comments",
                        ] {
                            let response = try await client.send(.get, uri)
                            guard response.status == .ok else {
                                throw TestFailure("\(uri) at \(point): \(response.status)")
                            }
                        }
                        try await Self.readEveryTable(app.database, search: point != .beforeCommit)
                        if point != .beforeCommit {
                            let search = try await client.send(.get, "/v1/search?q=%E6%AF%9B%E8%82%9A")
                            guard search.status == .ok, search.text.contains("s001") else {
                                throw TestFailure("search at \(point): \(search.status)")
                            }
                        }
                    }
                    switch point {
                    case .commentsMerged:
                        // A review of a store the import does not touch is written at once...
                        let posted = try await client.send(
                            .post, "/v1/stores/s004/comments", body: ["rating": 2, "body": "毛肚一般"], token: user1)
                        #expect(posted.status == .created)
                        // ...while a new review and a body-only edit of s001 wait for the import to commit.
                        await waiting.add(
                            Task {
                                try await client.send(
                                    .post, "/v1/stores/s001/comments", body: ["rating": 1, "body": "鱼不新鲜"], token: user1
                                )
                            })
                        await waiting.add(
                            Task {
                                try await client.send(
                                    .patch, "/v1/comments/c002", body: ["body": "毛肚毛肚鸭肠"], token: user2)
                            })
                    case .summariesIndexed:
                        // Written to the old summaries, copied into the new ones at the swap.
                        let posted = try await client.send(
                            .post, "/v1/stores/s004/comments", body: ["rating": 5, "body": "鸭肠很脆"], token: user2)
                        #expect(posted.status == .created)
                    case .beforeCommit:
                        break
                    }
                }) {
                    try await importer.run(directory: big)
                }
                let statuses = try await waiting.statuses()

                // validate
                #expect(statuses == [.created, .ok])
                // The bulk path ran: the summaries are a new table, under the old names, with their indexes.
                let newOID = try await app.database.query(PostgresQuery(unsafeSQL: tableOID))[0].decode(Int.self)
                #expect(newOID != oldOID)
                let indexes = try await app.database.query(
                    """
                    SELECT string_agg(indexname, ' ' ORDER BY indexname) FROM pg_indexes
                    WHERE tablename IN ('search_review_grams', 'search_dish_stores')
                    """)
                #expect(
                    try indexes[0].decode(String.self)
                        == "search_dish_stores_pkey search_dish_stores_top search_review_grams_pkey search_review_grams_top"
                )
                let leftovers = try await app.database.query(
                    "SELECT count(*)::int FROM pg_class WHERE relname LIKE '%\\_next%'")
                #expect(try leftovers[0].decode(Int.self) == 0)
                // The session that cached plans before the swap re-plans them against the new tables.
                let fishAfter = try await held.rows("EXECUTE grams('鱼')", logger: logger)[0].decode(Int.self)
                #expect(fishAfter > fishBefore + 2000)
                let hits = try await held.rows(
                    "SELECT out_id FROM search_page('鱼', NULL, NULL, NULL, NULL, NULL, 10, 10000) WHERE out_id IS NOT NULL",
                    logger: logger)
                #expect(try hits.map { try $0.decode(String.self) }.contains("s004"))
                try await held.rows(
                    "INSERT INTO comments (kind, store_id, author_id, rating, body) VALUES ('review', 's004', 'u002', 3, '鱼香肉丝')",
                    logger: logger)
                try await held.rows("DEALLOCATE grams", logger: logger)
            }
            try await Self.expectTotalsEqualARecount(app.database)
            let s004 = try await app.database.query("SELECT review_count FROM stores WHERE id = 's004'")
            #expect(try s004[0].decode(Int.self) == 5)
        }
    }

    @Test func triggersKeepCountingAfterAnImportFollowedByLiveEdits() async throws {
        try await TestApp.run { client, app in
            // setup
            let importer = SeedImporter(database: app.database, config: app.services.config)
            _ = try await importer.run(directory: try Self.liveFixture().write())
            let user1 = try await Self.login(client, "User1", "111")
            let user2 = try await Self.login(client, "User2", "222")
            // MUT: live edits of imported rows through the API and in SQL.
            let posted = try await client.send(
                .post, "/v1/stores/s003/comments", body: ["rating": 5, "body": "虾饺好吃"], token: user2)
            let edited = try await client.send(
                .patch, "/v1/comments/c001", body: ["rating": 2, "body": "毛肚不新鲜了"], token: user1)
            let removed = try await client.send(.delete, "/v1/comments/c002", token: user2)
            _ = try await CommentModeration.hide(id: "c004", database: app.database)
            let favorite = try await client.send(.put, "/v1/stores/s002/favorite", token: user2)
            try await app.database.query("UPDATE stores SET archived_at = now() WHERE id = 's004'")
            // validate
            #expect(posted.status == .created)
            #expect(edited.status == .ok)
            #expect(removed.status == .noContent)
            #expect(favorite.status.code < 300, "\(favorite.status)")
            let setting = try await app.database.query("SELECT current_setting('chidian.bulk_import', true)")
            #expect(try setting[0].decode(String?.self) ?? "" != "on")
            try await Self.expectTotalsEqualARecount(app.database)
            let s001 = try await app.database.query(
                "SELECT rating_count, rating_sum::int FROM stores WHERE id = 's001'")
            #expect(try s001[0].decode((Int, Int).self) == (1, 2))
        }
    }
}

/// Requests started while the import is held, awaited after it.
actor Waiting {
    private var tasks: [Task<TestResponse, any Error>] = []
    func add(_ task: Task<TestResponse, any Error>) { tasks.append(task) }
    func statuses() async throws -> [HTTPResponse.Status] {
        var statuses: [HTTPResponse.Status] = []
        for task in tasks { statuses.append(try await task.value.status) }
        return statuses
    }
}
