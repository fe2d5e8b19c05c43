import Foundation
import PostgresNIO
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

@Suite struct HousekeepingTests {
    static func count(_ app: TestApp, _ query: PostgresQuery) async throws -> Int {
        try await app.database.query(query).first?.decode(Int.self) ?? -1
    }

    @Test func removesWhatRanOutAndKeepsWhatIsLive() async throws {
        try await TestApp.run { client, app in
            // setup: sessions
            let user = try await client.register("整理")
            let expired = try await client.send(
                .post, "/v1/auth/login", body: ["name": "整理", "password": "correct horse"])
            let expiredToken = try #require(expired.json()["token"] as? String)
            try await app.database.query(
                "UPDATE sessions SET created_at = now() - interval '2 days', expires_at = now() - interval '1 second' WHERE token_hash = \(Data(Tokens.hash(expiredToken)))"
            )
            let revoked = try await client.send(
                .post, "/v1/auth/login", body: ["name": "整理", "password": "correct horse"])
            _ = try await client.send(.post, "/v1/auth/logout", token: try revoked.json()["token"] as? String)
            // visitor interests and opens: one visitor idle 91 days, one active; a user's old interest stays
            let category = try await StoreFixture.category(app, "火锅")
            try await app.database.query(
                """
                INSERT INTO viewer_interests (viewer, category_id, score, score_at, clicks) VALUES
                    ('v:idle-visitor', \(category), 1, now() - interval '91 days', 1),
                    ('v:busy-visitor', \(category), 1, now() - interval '1 day', 1),
                    (\("u:" + user.id), \(category), 1, now() - interval '91 days', 1)
                """)
            // uploads: an avatar, an old unattached one, a fresh unattached one, and an old unattached copy of the
            // avatar's bytes (its row goes, the shared bytes stay)
            let png = TestImages.png(width: 3, height: 3)
            let avatar = try await client.upload(png, token: user.token).json()["id"] as! String
            _ = try await client.send(.put, "/v1/me/avatar", body: ["imageId": avatar], token: user.token)
            let copy = try await client.upload(png, token: user.token).json()["id"] as! String
            let old = try await StoreFixture.image(app, uploaderID: user.id)
            let fresh = try await StoreFixture.image(app, uploaderID: user.id)
            try await app.database.query(
                "UPDATE images SET created_at = now() - interval '25 hours' WHERE id = ANY(\([avatar, copy, old])::text[])"
            )
            // rate-limit rows
            try await app.database.query(
                """
                INSERT INTO rate_buckets (key, hits, window_start, expires_at) VALUES
                    ('old', 1, now() - interval '1 hour', now() - interval '1 minute'),
                    ('live', 1, now(), now() + interval '1 hour')
                """)
            try await app.database.query(
                """
                INSERT INTO rate_tokens (key, tokens, refilled_at, full_at) VALUES
                    ('full', 5, now() - interval '1 hour', now() - interval '1 minute'),
                    ('draining', 1, now(), now() + interval '1 minute')
                """)
            // MUT
            let report = try #require(try await Housekeeping.run(app.database))
            let again = try #require(try await Housekeeping.run(app.database))
            await app.settle()
            // validate
            #expect(
                report
                    == Housekeeping.Report(
                        sessions: 2, visitorInterests: 1, visitorOpens: 0, uploads: 2, imageBlobs: 1, rateBuckets: 1,
                        rateTokens: 1))
            #expect(again == Housekeeping.Report())
            #expect(try await client.send(.get, "/v1/me", token: user.token).status == .ok)
            #expect(try await Self.count(app, "SELECT count(*)::int FROM sessions") == 1)
            let viewers = try await app.database.query("SELECT viewer FROM viewer_interests ORDER BY viewer").map {
                try $0.decode(String.self)
            }
            #expect(viewers == ["u:\(user.id)", "v:busy-visitor"])
            let images = try await app.database.query("SELECT id FROM images ORDER BY id").map {
                try $0.decode(String.self)
            }
            #expect(Set(images) == [avatar, fresh])
            #expect(try await client.send(.get, "/v1/images/\(avatar)").status == .ok)
            #expect(try await client.send(.get, "/v1/images/\(old)").status == .notFound)
            #expect(try await Self.count(app, "SELECT count(*)::int FROM image_blobs") == 2)
            #expect(try await Self.count(app, "SELECT count(*)::int FROM rate_buckets WHERE key = 'live'") == 1)
            #expect(try await Self.count(app, "SELECT count(*)::int FROM rate_tokens WHERE key = 'draining'") == 1)
        }
    }

    @Test func oneRunAtATimePerDatabase() async throws {
        try await TestApp.run { _, app in
            // setup: another run holds the lock. A session lock, not a transaction's: an open transaction left idle
            // while the run below waits for a pool connection on a loaded machine is ended by the pool's 5 s
            // idle-in-transaction timeout, and both kinds of advisory lock exclude each other.
            try await app.database.withConnection { connection in
                try await connection.rows("SELECT pg_advisory_lock(\(Housekeeping.lock))", logger: app.database.logger)
                // MUT
                let skipped = try await Housekeeping.run(app.database)
                try await connection.rows(
                    "SELECT pg_advisory_unlock(\(Housekeeping.lock))", logger: app.database.logger)
                // validate
                #expect(skipped == nil)
            }
            #expect(try await Housekeeping.run(app.database) != nil)
        }
    }

    @Test func theCommandPrintsWhatItRemoved() async throws {
        let url = try await TestDatabase.fresh()
        defer { Task { try? await TestDatabase.drop(url) } }
        // MUT
        let result = try await ChidianBinary.run(["housekeeping"], databaseURL: url)
        // validate
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("sessions (expired or revoked): 0"))
        #expect(result.stdout.contains("uploads never attached in 24 hours: 0"))
    }
}
