import Foundation
import PostgresNIO
import Testing

@testable import ChidianApp
@testable import ChidianCore

/// The pick's and 猜你喜欢's candidates composed from the walk, cached store entries and the viewer's evidence (issue
/// #45) against the statements they stand in for: equal, for viewers with and without history, after every kind of
/// write that changes a candidate.
@Suite struct PickWalkTests {
    @Test func walkedCandidatesEqualTheStatementAfterEveryWrite() async throws {
        try await TestApp.run(configure: {
            $0.cacheEnabled = true
            $0.cacheFreshness = .seconds(300)
        }) { client, app in
            // setup: 150 stores out to about 8 km (so a 9 km pool is cut at the nearest 100), a visitor who opened
            // stores that others opened too, and a user with favorites and a recent review
            let caching = try #require(app.services.caching)
            let stores = StoreRepository(database: app.database, cache: caching.reads, places: caching.places)
            let candidates = StoreCandidates(database: app.database)
            let manager = try await client.register("店长", role: "manager")
            let main = try await StoreFixture.category(app, "火锅")
            let second = try await StoreFixture.category(app, "面馆")
            try await NearWalkTests.crowd(app, managerID: manager.id, categories: [main, second], count: 150)
            let user = try await client.register("食客")
            let critic = try await client.register("评论家")
            let ids = try await app.database.query(
                "SELECT id FROM stores WHERE archived_at IS NULL AND location IS NOT NULL ORDER BY name"
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
                """
                INSERT INTO favorites (user_id, store_id) SELECT \(user.id), unnest(\(Array(ids[5..<9]))::text[])
                """)
            try await app.database.query(
                """
                INSERT INTO comments (kind, store_id, author_id, rating, body)
                    VALUES ('review', \(ids[1]), \(user.id), 4, '常来')
                """)
            // One related store 3.2 km north, just past the 3 km pool's radius.
            try await app.database.query(
                """
                UPDATE stores SET location = ST_SetSRID(ST_MakePoint(104.081, 30.659 + 3200 / 111195.0), 4326)::geography
                WHERE id = \(ids[29])
                """)
            try await app.database.query("UPDATE store_covisits SET viewers = 50 WHERE other_id = \(ids[29])")
            await app.settle()
            let now = Date()
            let viewers = [
                StoreCandidates.Viewer(key: nil, userID: nil, now: now),
                StoreCandidates.Viewer(key: "v:visitor", userID: nil, now: now),
                StoreCandidates.Viewer(key: "u:\(user.id)", userID: user.id, now: now),
            ]
            let centre = GeoPoint(lat: 30.659, lng: 104.081)
            let filters = [
                StoreFilter(near: NearQuery(point: centre), openAt: now),
                StoreFilter(near: NearQuery(point: centre, radius: 9000)),
                StoreFilter(categoryID: second, near: NearQuery(point: centre, radius: 1500), openAt: now),
                StoreFilter(near: NearQuery(point: centre, radius: 5000), openAt: now, skip: Array(ids[10..<14])),
            ]
            @Sendable func check(_ label: String) async throws {
                for viewer in viewers {
                    for filter in filters {
                        // MUT
                        let statement = try await candidates.qualifying(filter, for: viewer).sorted(
                            by: StoreCandidates.Candidate.nearestFirst)
                        let walked = try #require(try await candidates.walked(filter, for: viewer, stores: stores))
                        // validate
                        #expect(!statement.isEmpty, "\(label)")
                        #expect(walked == statement, "after \(label): \(viewer.key ?? "anonymous")")
                    }
                    // and 猜你喜欢's pool near the centre
                    for radius in [3000, 9000] {
                        let near = NearQuery(point: centre, radius: radius)
                        let statement = try await candidates.forYou(categories: [], near: near, for: viewer)
                        let walked = try #require(
                            try await candidates.walkedForYou(near: near, for: viewer, stores: stores))
                        #expect(!statement.isEmpty, "\(label)")
                        #expect(
                            walked.sorted { $0.id < $1.id } == statement.sorted { $0.id < $1.id },
                            "猜你喜欢 after \(label): \(viewer.key ?? "anonymous") \(radius)")
                    }
                }
            }
            try await check("the start")
            #expect(
                try await candidates.qualifying(filters[1], for: viewers[0]).count == StoreCandidates.pickLimit,
                "the 9 km pool is cut")
            let writes: [(String, @Sendable () async throws -> Void)] = [
                (
                    "a review moves a rating",
                    {
                        try await app.database.query(
                            "INSERT INTO comments (kind, store_id, author_id, rating, body) VALUES ('review', \(ids[0]), \(critic.id), 1, '差')"
                        )
                    }
                ),
                (
                    "the user reviews a store near by",
                    {
                        try await app.database.query(
                            "INSERT INTO comments (kind, store_id, author_id, rating, body) VALUES ('review', \(ids[2]), \(user.id), 5, '好')"
                        )
                    }
                ),
                (
                    "a favorite",
                    {
                        try await app.database.query(
                            "INSERT INTO favorites (user_id, store_id) VALUES (\(user.id), \(ids[3]))")
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
                            "INSERT INTO store_covisits (store_id, other_id, viewers) VALUES (\(ids[40]), \(ids[3]), 7)"
                        )
                    }
                ),
                (
                    "a store is archived",
                    { try await app.database.query("UPDATE stores SET archived_at = now() WHERE id = \(ids[6])") }
                ),
                (
                    "a store's hours close it",
                    { try await app.database.query("UPDATE stores SET hours = '[]' WHERE id = \(ids[12])") }
                ),
                (
                    "a store moves",
                    {
                        try await app.database.query(
                            """
                            UPDATE stores SET location = ST_SetSRID(ST_MakePoint(104.0811, 30.6591), 4326)::geography
                            WHERE id = \(ids[ids.count - 1])
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
