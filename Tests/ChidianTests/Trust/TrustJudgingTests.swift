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

/// Issue #48's judging path on PostgreSQL, end to end: reviews posted through the API are queued, `TrustService`
/// gathers their evidence (origins, opens, the store's settled mean, newcomers around) and writes verdicts that the
/// store's aggregates follow; an admin's verdict stands; `TRUST=off` recommends everything; origins are kept only
/// as keyed hashes and go with the account; `chidian seed` judges what it imported. The judge's arithmetic alone is
/// `TrustJudgeTests`.
@Suite struct TrustJudgingTests {
    static let ringDevice = "ring-device-0001"
    static let password = "correct horse"

    /// Past every posted review's due time (10 s after it was posted). The test servers have no `TrustWorker`
    /// (`buildApplication(runDatabase: false)` adds none), so nothing is judged until a test asks.
    static var later: Date { Date().addingTimeInterval(60) }

    static func headers(device: String?) -> HTTPFields {
        var headers = HTTPFields()
        if let device { headers[.xVisitorID] = device }
        return headers
    }

    /// Registers through the API from `device` (the `X-Visitor-Id` header).
    static func register(_ client: any TestClientProtocol, _ name: String, device: String?) async throws -> Session {
        let response = try await client.send(
            .post, "/v1/auth/register", body: ["name": name, "password": password],
            headers: headers(device: device))
        guard response.status == .created else {
            throw TestFailure("register \(name): \(response.status) \(response.text)")
        }
        let body = try response.json()
        let user = try #require(body["user"] as? [String: Any])
        return Session(
            token: try #require(body["token"] as? String), id: try #require(user["id"] as? String), name: name)
    }

    /// Posts a review through the API from `device`; returns its id.
    static func review(
        _ client: any TestClientProtocol, _ storeID: String, _ rating: Int, _ text: String, as session: Session,
        device: String?
    ) async throws -> String {
        let response = try await client.send(
            .post, "/v1/stores/\(storeID)/comments", body: ["rating": rating, "body": text], token: session.token,
            headers: headers(device: device))
        guard response.status == .created else {
            throw TestFailure("post review: \(response.status) \(response.text)")
        }
        return try RecommendedFixture.id(try response.json())
    }

    static let settledRatings = [3, 3, 4, 3, 3, 3]
    static let settledTexts = [
        "锅底偏辣，毛肚新鲜，排队半小时。",
        "服务员换汤很勤快，就是价格贵了一点。",
        "鸭血嫩，虾滑一般，总体还行吧。",
        "周末人太多，上菜慢，味道中规中矩。",
        "番茄锅不错，麻酱蘸料可以自己调。",
        "停车不方便，环境有点吵，肉还算新鲜。",
    ]
    static let ringTexts = [
        "太好吃了！五星推荐，下次还来！！",
        "必吃榜级别，服务一流，环境超赞",
        "老板人超好，每道菜都惊艳到我了",
        "全城最好吃的火锅没有之一，冲就完事",
        "朋友推荐来的，果然名不虚传，满分",
        "性价比之王，强烈安利给所有人",
        "吃过最棒的一次，环境服务味道都满分",
        "宝藏店铺，闭眼入，绝对不踩雷",
    ]

    /// A store with six reviews of three weeks ago and more, by accounts a year old (settled mean 3.2★).
    struct SettledStore {
        let world: CommentWorld
        let organic: [String]
        /// The store as shown with only those reviews.
        let before: StoreView
        var id: String { world.storeID }
    }

    static func settledStore(_ client: any TestClientProtocol, _ app: TestApp) async throws -> SettledStore {
        let world = try await CommentWorld.make(client, app)
        var ids: [String] = []
        var authors: [String] = []
        for (n, rating) in settledRatings.enumerated() {
            let session = try await client.register("老客\(n)")
            ids.append(try await review(client, world.storeID, rating, settledTexts[n], as: session, device: nil))
            authors.append(session.id)
        }
        _ = try await app.database.query(
            "UPDATE users SET created_at = now() - interval '400 days' WHERE id = ANY(\(authors)::text[])")
        _ = try await app.database.query(
            "UPDATE stores SET created_at = now() - interval '400 days' WHERE id = \(world.storeID)")
        _ = try await app.database.query(
            """
            UPDATE comments
            SET created_at = now() - interval '20 days' - array_position(\(ids)::text[], id) * interval '1 day'
            WHERE id = ANY(\(ids)::text[])
            """)
        await app.settle()
        let before = try await RecommendedFixture.store(client, world.storeID)
        #expect(before.rating.count == settledRatings.count && before.notRecommendedCount == 0)
        return SettledStore(world: world, organic: ids, before: before)
    }

    /// Eight accounts made now on one device, each posting 5★ in its own words.
    static func ring(_ client: any TestClientProtocol, _ storeID: String) async throws -> (
        sessions: [Session], ids: [String]
    ) {
        var sessions: [Session] = []
        var ids: [String] = []
        for (n, text) in ringTexts.enumerated() {
            let session = try await register(client, "刷手\(n)", device: ringDevice)
            sessions.append(session)
            ids.append(try await review(client, storeID, 5, text, as: session, device: ringDevice))
        }
        return (sessions, ids)
    }

    /// Each review's `recommended`, in the order of `ids`.
    static func recommended(_ app: TestApp, _ ids: [String]) async throws -> [Bool] {
        try await app.database.query(
            """
            SELECT recommended FROM comments WHERE id = ANY(\(ids)::text[])
            ORDER BY array_position(\(ids)::text[], id)
            """
        ).map { try $0.decode(Bool.self) }
    }

    /// The judge's signals on a review: kind → detail.
    static func signals(_ app: TestApp, _ id: String) async throws -> [String: String] {
        var found: [String: String] = [:]
        for row in try await app.database.query("SELECT kind, detail FROM comment_signals WHERE comment_id = \(id)") {
            let (kind, detail) = try row.decode((String, String).self)
            found[kind] = detail
        }
        return found
    }

    static func count(_ app: TestApp, _ query: PostgresQuery) async throws -> Int {
        try await app.database.query(query)[0].decode(Int.self)
    }

    static func requeue(_ app: TestApp, _ ids: [String]) async throws {
        _ = try await app.database.query(
            "INSERT INTO trust_queue (comment_id, due_at) SELECT unnest(\(ids)::text[]), now()")
    }

    @Test func aRingFromOneDeviceIsNotRecommendedAndAnAdminsVerdictStands() async throws {
        try await TestApp.run { client, app in
            let store = try await Self.settledStore(client, app)
            let (_, ring) = try await Self.ring(client, store.id)
            await app.settle()
            let posted = try await RecommendedFixture.store(client, store.id)
            #expect(posted.rating.count == 14 && posted.notRecommendedCount == 0, "counted until judged")
            let trust = TrustService(database: app.database, enabled: true)
            // MUT
            let pass = try await trust.judgeAll(now: Self.later)
            await app.settle()
            // validate
            #expect(pass.due == 14 && pass.changed == 8)
            #expect(try await Self.recommended(app, ring) == Array(repeating: false, count: 8))
            #expect(try await Self.recommended(app, store.organic) == Array(repeating: true, count: 6))
            let judged = try await RecommendedFixture.store(client, store.id)
            #expect(judged.rating == store.before.rating, "the ring counts in nothing the store shows")
            #expect(judged.rating.count == 6 && judged.notRecommendedCount == 8)
            try await RecommendedFixture.expectExact(app, store.id)
            let admin = try await app.admin(client)
            let shown = try await client.send(.get, "/v1/comments/\(ring[0])?track=false", token: admin.token)
            #expect(try shown.json()["recommended"] as? Bool == false)
            for id in ring {
                let signals = try await Self.signals(app, id)
                #expect(Set(signals.keys).isSuperset(of: ["shared_origin", "new_account", "group"]), "\(signals)")
                #expect(signals["shared_origin"]?.hasPrefix("7 other accounts") == true, "\(signals)")
                #expect(signals["group"] == "one of 8 linked accounts")
            }
            let organicSignals = try await Self.count(
                app,
                """
                SELECT count(*)::int FROM comment_signals
                WHERE comment_id = ANY(\(store.organic)::text[]) AND kind IN ('shared_origin', 'group', 'burst')
                """)
            #expect(organicSignals == 0, "the settled reviews are no part of the ring")
            #expect(try await Self.count(app, "SELECT count(*)::int FROM trust_queue") == 0)

            // MUT: an admin restores one
            let restored = try await client.send(
                .put, "/v1/comments/\(ring[0])/recommended", body: ["recommended": true], token: admin.token)
            await app.settle()
            // validate
            #expect(restored.status == .ok)
            let counted = try await RecommendedFixture.store(client, store.id)
            #expect(counted.rating.count == 7 && counted.notRecommendedCount == 7)

            // MUT: the judge sees the ring again
            try await Self.requeue(app, ring)
            let again = try await trust.judgeAll(now: Self.later)
            await app.settle()
            // validate: the admin's verdict stands, the rest are unchanged
            #expect(again.due == 8 && again.changed == 0)
            #expect(try await Self.recommended(app, ring) == [true] + Array(repeating: false, count: 7))
            #expect(
                try await app.database.query("SELECT verdict_by FROM comments WHERE id = \(ring[0])")[0].decode(
                    String.self) == "admin")
            let after = try await RecommendedFixture.store(client, store.id)
            #expect(after.rating.count == 7 && after.notRecommendedCount == 7)
            try await RecommendedFixture.expectExact(app, store.id)
        }
    }

    /// Beside a ring's burst, a newcomer who opened the store and some of its reviews before writing their own
    /// shows neither `never_opened` nor `no_history`; one who wrote the same without having looked at anything
    /// scores both (2 more). At the chosen threshold both are recommended, and the ring is not.
    @Test func aNewcomerWhoBrowsedFirstStaysRecommendedBesideARing() async throws {
        try await TestApp.run { client, app in
            let store = try await Self.settledStore(client, app)
            let newcomer = try await Self.register(client, "新来的", device: "own-device-0042")
            let passerby = try await Self.register(client, "路过的", device: "own-device-0043")
            #expect(try await client.send(.get, "/v1/stores/\(store.id)", token: newcomer.token).status == .ok)
            for id in store.organic.prefix(2) {
                #expect(try await client.send(.get, "/v1/comments/\(id)", token: newcomer.token).status == .ok)
            }
            // the opens, written as the server writes them every second
            try await app.flushSignals()
            let (_, ring) = try await Self.ring(client, store.id)
            let mine = try await Self.review(
                client, store.id, 3, "第一次来，清汤锅底很鲜，黄喉脆，就是等位有点久。", as: newcomer,
                device: "own-device-0042")
            let theirs = try await Self.review(
                client, store.id, 3, "路过进来吃了个午饭，牛肉片得太厚，冰粉好吃。", as: passerby,
                device: "own-device-0043")
            try await app.flushSignals()
            // MUT
            _ = try await TrustService(database: app.database, enabled: true).judgeAll(now: Self.later)
            // validate
            #expect(try await Self.recommended(app, ring) == Array(repeating: false, count: 8))
            #expect(try await Self.recommended(app, [mine, theirs]) == [true, true])
            let scores = try await app.database.query(
                "SELECT trust_score FROM comments WHERE id = ANY(\([mine, theirs])) ORDER BY id = \(mine) DESC"
            ).map { try $0.decode(Double.self) }
            #expect(abs(scores[1] - scores[0] - 2) < 1e-9, "\(scores)")
            let seen = try await Self.signals(app, mine)
            #expect(seen["new_account"] != nil && seen["burst"] != nil, "\(seen)")
            #expect(seen["never_opened"] == nil && seen["no_history"] == nil, "\(seen)")
            #expect(seen["shared_origin"] == nil && seen["group"] == nil, "\(seen)")
            let unseen = try await Self.signals(app, theirs)
            #expect(unseen["never_opened"] != nil && unseen["no_history"] != nil, "\(unseen)")
            #expect(unseen["shared_origin"] == nil && unseen["group"] == nil, "\(unseen)")
            await app.settle()
            let shown = try await RecommendedFixture.store(client, store.id)
            #expect(shown.rating.count == 8 && shown.notRecommendedCount == 8)
        }
    }

    @Test func withTrustOffEveryReviewIsRecommendedAndCounted() async throws {
        try await TestApp.run { client, app in
            let store = try await Self.settledStore(client, app)
            let (_, ring) = try await Self.ring(client, store.id)
            let off = TrustService(database: app.database, enabled: false)
            // MUT
            let pass = try await off.judgeAll(now: Self.later)
            await app.settle()
            // validate
            #expect(pass.due == 14 && pass.judged == 14 && pass.changed == 0)
            #expect(try await Self.recommended(app, ring) == Array(repeating: true, count: 8))
            #expect(try await Self.count(app, "SELECT count(*)::int FROM comments WHERE trust_score <> 0") == 0)
            #expect(try await Self.count(app, "SELECT count(*)::int FROM comment_signals") == 0)
            #expect(try await Self.count(app, "SELECT count(*)::int FROM trust_queue") == 0)
            let shown = try await RecommendedFixture.store(client, store.id)
            #expect(shown.rating.count == 14 && shown.notRecommendedCount == 0)

            // MUT: a ring the judge had turned down, judged again with TRUST=off
            try await Self.requeue(app, ring)
            _ = try await TrustService(database: app.database, enabled: true).judgeAll(now: Self.later)
            #expect(try await Self.recommended(app, ring) == Array(repeating: false, count: 8))
            try await Self.requeue(app, ring)
            let again = try await off.judgeAll(now: Self.later)
            await app.settle()
            // validate: counted again, with no score or signals left behind
            #expect(again.due == 8 && again.changed == 8)
            #expect(try await Self.recommended(app, ring) == Array(repeating: true, count: 8))
            #expect(try await Self.count(app, "SELECT count(*)::int FROM comments WHERE trust_score <> 0") == 0)
            #expect(try await Self.count(app, "SELECT count(*)::int FROM comment_signals") == 0)
            let restored = try await RecommendedFixture.store(client, store.id)
            #expect(restored.rating.count == 14 && restored.notRecommendedCount == 0)
            try await RecommendedFixture.expectExact(app, store.id)
        }
    }

    @Test func originsAreKeptOnlyAsKeyedHashesAndGoWithTheAccount() async throws {
        try await TestApp.run { client, app in
            let world = try await CommentWorld.make(client, app)
            // MUT
            let first = try await Self.register(client, "刷手甲", device: Self.ringDevice)
            // validate: sign-up records the device
            let hash = try await app.database.query(
                "SELECT trust_origin_hash('v', \(Self.ringDevice))")[0].decode(Int64.self)
            let signedUp = try await app.database.query(
                "SELECT origin FROM trust_origins WHERE user_id = \(first.id)"
            ).map { try $0.decode(Int64.self) }
            #expect(signedUp == [hash])
            // MUT: both post from the device
            let second = try await Self.register(client, "刷手乙", device: Self.ringDevice)
            _ = try await Self.review(client, world.storeID, 5, "好吃好吃好吃", as: first, device: Self.ringDevice)
            _ = try await Self.review(client, world.storeID, 5, "真的好吃", as: second, device: Self.ringDevice)
            let quiet = try await client.register("无痕")
            _ = try await Self.review(client, world.storeID, 4, "还行", as: quiet, device: nil)
            // validate
            let rows = try await app.database.query("SELECT user_id, origin FROM trust_origins ORDER BY user_id")
                .map { try $0.decode((String, Int64).self) }
            #expect(rows.count == 2, "one row per account and origin: \(rows)")
            #expect(Set(rows.map { $0.0 }) == [first.id, second.id] && rows.allSatisfy { $0.1 == hash })
            #expect(
                try await Self.count(
                    app, "SELECT count(*)::int FROM trust_origins t WHERE t::text LIKE '%ring-device%'") == 0)
            let unkeyed = try await app.database.query(
                "SELECT hashtextextended('v:' || \(Self.ringDevice), 0)")[0].decode(Int64.self)
            #expect(hash != unkeyed, "keyed: the hash of a guessed id is not the stored one")
            #expect(
                try await Self.count(app, "SELECT count(*)::int FROM trust_origins WHERE user_id = \(quiet.id)") == 0)
            // MUT: the first account is deleted
            let deleted = try await client.send(
                .delete, "/v1/me", body: ["password": Self.password], token: first.token)
            // validate
            #expect(deleted.status == .noContent)
            #expect(
                try await Self.count(app, "SELECT count(*)::int FROM trust_origins WHERE user_id = \(first.id)") == 0)
            #expect(
                try await Self.count(app, "SELECT count(*)::int FROM trust_origins WHERE user_id = \(second.id)") == 1)
        }
    }

    /// As `chidian seed` runs it: the importer alone, judging everything it queued before it returns.
    @Test func theDemoSeedIsJudgedOnImportWithNothingNotRecommended() async throws {
        try await TestDatabase.withFresh { database, url in
            let config = TestApp.testConfig(url: url)
            #expect(config.trustEnabled)
            // MUT
            let report = try await SeedImporter(database: database, config: config).run(directory: DemoSeed.directory)
            // validate
            func count(_ query: PostgresQuery) async throws -> Int {
                try await database.query(query)[0].decode(Int.self)
            }
            let reviews = try await count("SELECT count(*)::int FROM comments WHERE kind = 'review'")
            #expect(reviews > 100)
            #expect(report.judged == reviews && report.notRecommended == 0, "\(report)")
            #expect(try await count("SELECT count(*)::int FROM comments WHERE NOT recommended") == 0)
            #expect(try await count("SELECT count(*)::int FROM trust_queue") == 0)
            #expect(try await count("SELECT coalesce(sum(not_recommended_count), 0)::int FROM stores") == 0)
            // judged with TRUST on: the texts' bands were stored for later copies to be found
            #expect(try await count("SELECT count(DISTINCT comment_id)::int FROM trust_text_bands") > 0)
        }
    }

    /// The worker every server runs (`serve`) judges what was posted once it is due, 10 s later, with no one
    /// asking; the test servers do not run it, so the test does.
    @Test func theServersWorkerJudgesARingOnceDue() async throws {
        try await TestApp.run { client, app in
            let store = try await Self.settledStore(client, app)
            let (_, ring) = try await Self.ring(client, store.id)
            // MUT
            let worker = Task { try await app.services.trustWorker.run() }
            defer { worker.cancel() }
            // timing: an upper bound only, far above the 10 s until due and the 1 s tick; the loop ends on the verdicts
            let deadline = ContinuousClock.now + .seconds(120)
            var done = false
            // timing: bounded by the deadline above
            while ContinuousClock.now < deadline {
                let left = try await Self.count(app, "SELECT count(*)::int FROM trust_queue")
                let judged = try await Self.count(
                    app, "SELECT count(*)::int FROM comments WHERE id = ANY(\(ring)::text[]) AND NOT recommended")
                if left == 0 && judged == ring.count {
                    done = true
                    break
                }
                // timing: a poll of the database, bounded by the deadline above; it ends on the verdicts
                try await Task.sleep(for: .milliseconds(250))
            }
            worker.cancel()
            _ = await worker.result
            // validate
            #expect(done)
            #expect(try await Self.recommended(app, store.organic) == Array(repeating: true, count: 6))
            await app.settle()
            let shown = try await RecommendedFixture.store(client, store.id)
            #expect(shown.rating == store.before.rating && shown.notRecommendedCount == 8)
        }
    }
}
