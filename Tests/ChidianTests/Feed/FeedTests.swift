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

/// A wall clock the test sets.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: Double) { lock.withLock { current += seconds } }
}

/// Three categories with two stores each and reviews at known times (review i is i minutes old).
struct FeedWorld {
    var reviews: [String: [String]] = [:]  // category name → review ids, newest first
    var all: [String] = []  // every review id, newest first
    var notice: String = ""

    static func make(_ app: TestApp, _ client: any TestClientProtocol) async throws -> FeedWorld {
        let manager = try await client.register("Boss", role: "manager")
        let author = try await client.register("Writer")
        var world = FeedWorld()
        var minute = 0
        var rows: [(String, String, Int)] = []
        for category in ["火锅", "川菜", "甜品"] {
            let cat = try await app.database.query("INSERT INTO categories (name) VALUES (\(category)) RETURNING id")[0]
                .decode(String.self)
            for branch in 0..<2 {
                let store = try await app.database.query(
                    "INSERT INTO stores (name, category_id, manager_id) VALUES (\(category + String(branch)), \(cat), \(manager.id)) RETURNING id"
                )[0].decode(String.self)
                for _ in 0..<2 {
                    minute += 1
                    rows.append((category, store, minute))
                }
            }
        }
        // Interleave times across categories so "newest first" mixes them.
        rows.shuffle(using: &FixedRandom.generator)
        for (offset, row) in rows.enumerated() {
            let id = "r\(String(format: "%02d", offset))"
            try await app.database.query(
                """
                INSERT INTO comments (id, kind, store_id, author_id, rating, body, created_at)
                VALUES (\(id), 'review', \(row.1), \(author.id), 4, '好吃', now() - make_interval(mins => \(offset)::int))
                """)
            world.reviews[row.0, default: []].append(id)
            world.all.append(id)
        }
        let store = try await app.database.query("SELECT id FROM stores ORDER BY id LIMIT 1")[0].decode(String.self)
        world.notice = "notice1"
        try await app.database.query(
            "INSERT INTO comments (id, kind, store_id, author_id, body) VALUES ('notice1', 'notice', \(store), \(manager.id), '开业大吉')"
        )
        return world
    }
}

enum FixedRandom {
    nonisolated(unsafe) static var generator = SplitMix(seed: 7)
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}

extension TestResponse {
    var itemIDs: [String] { ((try? json())?["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
    var personalization: [String: Any] { ((try? json())?["personalization"] as? [String: Any]) ?? [:] }
}

extension FeedWorld {
    /// Cold start's rules on a page of every review: each once, at most three of a category among the first ten
    /// while the data allows it (three categories fill nine places so; the tenth is a fourth of one).
    func expectColdStart(_ ids: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(ids.sorted() == all.sorted(), sourceLocation: sourceLocation)
        let categoryOf = Dictionary(uniqueKeysWithValues: reviews.flatMap { name, ids in ids.map { ($0, name) } })
        let capped = min(10, 3 * reviews.count)
        let counts = Dictionary(grouping: ids.prefix(capped), by: { categoryOf[$0] ?? "" }).mapValues(\.count)
        #expect(counts.values.allSatisfy { $0 <= 3 }, "\(counts)", sourceLocation: sourceLocation)
    }
}

/// The classic walk alone: no places given to exploring.
let withoutExploring: @Sendable (inout AppConfiguration) -> Void = { $0.feedExplorePlaces = 0 }

@Suite(.serialized) struct FeedTests {
    @Test func clicksReorderTheFeedAndResetRestoresColdStart() async throws {
        let clock = TestClock()
        try await TestApp.run(configure: withoutExploring, clock: { clock.now }) { client, app in
            // setup
            let world = try await FeedWorld.make(app, client)
            let viewer = try await client.register("Viewer")
            let hotpot = world.reviews["火锅"]!
            let sichuan = world.reviews["川菜"]!
            let before = try await client.send(.get, "/v1/feed/featured?limit=50", token: viewer.token)
            world.expectColdStart(before.itemIDs)
            #expect(before.personalization["coldStart"] as? Bool == true)
            // MUT: three opens in 火锅, one in 川菜
            for id in hotpot.prefix(3) {
                #expect(try await client.send(.get, "/v1/comments/\(id)", token: viewer.token).status == .ok)
            }
            _ = try await client.send(.get, "/v1/comments/\(sichuan[0])", token: viewer.token)
            try await app.flushSignals()
            // validate
            let feed = try await client.send(.get, "/v1/feed/featured?limit=50", token: viewer.token)
            let rest = world.all.filter { !hotpot.contains($0) && !sichuan.contains($0) }
            #expect(feed.itemIDs == hotpot + sichuan + rest)
            let personalization = try feed.json()["personalization"] as? [String: Any]
            let categories = personalization?["categories"] as? [[String: Any]] ?? []
            #expect(categories.map { $0["name"] as? String } == ["火锅", "川菜"])
            #expect(categories.first?["score"] as? Double == 3)

            let interests = try await client.send(.get, "/v1/me/interests", token: viewer.token)
            let items = try interests.json()["items"] as? [[String: Any]] ?? []
            #expect(items.map { ($0["category"] as? [String: Any])?["name"] as? String } == ["火锅", "川菜"])
            #expect(items.map { $0["clicks"] as? Int } == [3, 1])

            #expect(try await client.send(.delete, "/v1/me/interests", token: viewer.token).status == .noContent)
            #expect(feed.personalization["coldStart"] as? Bool == false)
            let after = try await client.send(.get, "/v1/feed/featured?limit=50", token: viewer.token)
            world.expectColdStart(after.itemIDs)
            #expect(
                try (await client.send(.get, "/v1/me/interests", token: viewer.token)).json()["items"] as? [Any] != nil)
            #expect(
                (try (await client.send(.get, "/v1/me/interests", token: viewer.token)).json()["items"] as? [Any])?
                    .isEmpty == true)
        }
    }

    @Test func repeatedOpensWithinTenSecondsCountOnce() async throws {
        let clock = TestClock()
        try await TestApp.run(clock: { clock.now }) { client, app in
            let world = try await FeedWorld.make(app, client)
            let viewer = try await client.register("Viewer")
            let review = world.reviews["甜品"]![0]
            _ = try await client.send(.get, "/v1/comments/\(review)", token: viewer.token)
            clock.advance(9.9)
            _ = try await client.send(.get, "/v1/comments/\(review)", token: viewer.token)
            _ = try await client.send(.get, "/v1/comments/\(review)?track=false", token: viewer.token)
            _ = try await client.send(.get, "/v1/comments/\(world.notice)", token: viewer.token)
            try await app.flushSignals()
            var items =
                try (await client.send(.get, "/v1/me/interests", token: viewer.token)).json()["items"]
                as? [[String: Any]]
            #expect(items?.map { $0["clicks"] as? Int } == [1])
            clock.advance(0.2)
            _ = try await client.send(.get, "/v1/comments/\(review)", token: viewer.token)
            try await app.flushSignals()
            items =
                try (await client.send(.get, "/v1/me/interests", token: viewer.token)).json()["items"]
                as? [[String: Any]]
            #expect(items?.map { $0["clicks"] as? Int } == [2])
        }
    }

    @Test func scoresHalveEachHalfLife() async throws {
        let clock = TestClock()
        // Issue #46: one open no longer fills the first page (a mixed page would); the walk alone shows the order.
        let configure: @Sendable (inout AppConfiguration) -> Void = {
            $0.interestHalfLife = 86_400
            $0.feedExplorePlaces = 0
        }
        try await TestApp.run(configure: configure, clock: { clock.now }) { client, app in
            let world = try await FeedWorld.make(app, client)
            let viewer = try await client.register("Viewer")
            _ = try await client.send(.get, "/v1/comments/\(world.reviews["火锅"]![0])", token: viewer.token)
            clock.advance(86_400)
            try await app.flushSignals()
            var items =
                try (await client.send(.get, "/v1/me/interests", token: viewer.token)).json()["items"]
                as? [[String: Any]]
            #expect(abs((items?.first?["score"] as? Double ?? 0) - 0.5) < 1e-9)
            // A new click decays the old score to now and adds one.
            _ = try await client.send(.get, "/v1/comments/\(world.reviews["火锅"]![1])", token: viewer.token)
            clock.advance(86_400)
            try await app.flushSignals()
            items =
                try (await client.send(.get, "/v1/me/interests", token: viewer.token)).json()["items"]
                as? [[String: Any]]
            #expect(abs((items?.first?["score"] as? Double ?? 0) - 0.75) < 1e-9)
            // A category clicked long ago falls below a fresh one.
            _ = try await client.send(.get, "/v1/comments/\(world.reviews["甜品"]![0])", token: viewer.token)
            try await app.flushSignals()
            let feed = try await client.send(.get, "/v1/feed/featured?limit=2", token: viewer.token)
            #expect(feed.itemIDs == Array(world.reviews["甜品"]!.prefix(2)))
        }
    }

    @Test func visitorsHaveInterestsAndNobodyGetsColdStart() async throws {
        // Issue #46: the walk alone (one open no longer fills a mixed first page).
        try await TestApp.run(configure: withoutExploring) { client, app in
            let world = try await FeedWorld.make(app, client)
            let visitor: HTTPFields = [.xVisitorID: "visitor-0001"]
            _ = try await client.send(.get, "/v1/comments/\(world.reviews["川菜"]![0])", headers: visitor)
            try await app.flushSignals()
            let feed = try await client.send(.get, "/v1/feed/featured?limit=3", headers: visitor)
            #expect(feed.itemIDs == Array(world.reviews["川菜"]!.prefix(3)))
            let nobody = try await client.send(.get, "/v1/feed/featured?limit=50")
            world.expectColdStart(nobody.itemIDs)
            #expect((try nobody.json()["personalization"] as? [String: Any])?["categories"] as? [Any] != nil)
            #expect(try await client.send(.get, "/v1/me/interests").problemCode == "login_required")
            #expect(try await client.send(.delete, "/v1/me/interests").problemCode == "login_required")
            #expect(try await client.send(.delete, "/v1/me/interests", headers: visitor).status == .noContent)
        }
    }

    @Test func pagesKeepTheirOrderingWhileTheViewerClicks() async throws {
        try await TestApp.run(configure: withoutExploring) { client, app in
            let world = try await FeedWorld.make(app, client)
            let viewer = try await client.register("Viewer")
            _ = try await client.send(.get, "/v1/comments/\(world.reviews["甜品"]![0])", token: viewer.token)
            try await app.flushSignals()
            let expected = world.reviews["甜品"]! + world.all.filter { !world.reviews["甜品"]!.contains($0) }
            var seen: [String] = []
            var cursor: String? = nil
            repeat {
                let uri = "/v1/feed/featured?limit=5" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.send(.get, uri, token: viewer.token)
                #expect(page.status == .ok)
                seen += page.itemIDs
                cursor = try page.json()["nextCursor"] as? String
                // Clicking another category mid-walk must not disturb the walk.
                _ = try await client.send(
                    .get, "/v1/comments/\(world.reviews["火锅"]![seen.count % 4])", token: viewer.token)
                try await app.flushSignals()
            } while cursor != nil
            #expect(seen == expected)
            let bad = try await client.send(.get, "/v1/feed/featured?cursor=nonsense", token: viewer.token)
            #expect(bad.problemCode == "invalid_cursor")
        }
    }

    /// Issue 22 (amended by 30): a page is a few statements, counted on the wire (the state on a first page,
    /// then the page: its walk across segments, comment views, the viewer's likes and, from a cursor, the names),
    /// and the walk reads the same as through the API: order across segment boundaries, cursors, likes, names.
    @Test func aPageIsOneOrTwoStatementsAndWalksAcrossSegments() async throws {
        let clock = TestClock()
        try await TestApp.run(configure: withoutExploring, clock: { clock.now }) { client, app in
            // setup: clicks in 火锅 (twice) and 川菜 (once), so the walk is 火锅, 川菜, then the rest (甜品)
            let world = try await FeedWorld.make(app, client)
            let viewer = try await client.register("Viewer")
            let (hotpot, sichuan, sweets) = (world.reviews["火锅"]!, world.reviews["川菜"]!, world.reviews["甜品"]!)
            for id in [hotpot[0], hotpot[1], sichuan[0]] {
                _ = try await client.send(.get, "/v1/comments/\(id)", token: viewer.token)
            }
            let liked = [hotpot[3], sichuan[2], sweets[1]]
            for id in liked {
                #expect(
                    try await client.send(.put, "/v1/comments/\(id)/like", token: viewer.token).status == .noContent)
            }
            try await app.flushSignals()
            // MUT: the walk through the API, three reviews a page
            var pages: [[String: Any]] = []
            var cursor: String? = nil
            repeat {
                let uri = "/v1/feed/featured?limit=3" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.send(.get, uri, token: viewer.token)
                #expect(page.status == .ok)
                pages.append(try page.json())
                cursor = pages.last?["nextCursor"] as? String
            } while cursor != nil && pages.count < 10
            // validate: pages two and three cross from 火锅 to 川菜 and from 川菜 to the rest
            let items = pages.flatMap { $0["items"] as? [[String: Any]] ?? [] }
            #expect(items.compactMap { $0["id"] as? String } == hotpot + sichuan + sweets)
            #expect(pages.count == 4)
            #expect(items.filter { $0["liked"] as? Bool == true }.compactMap { $0["id"] as? String } == liked)
            for page in pages {
                let categories = (page["personalization"] as? [String: Any])?["categories"] as? [[String: Any]]
                // Likes count three opens each: one in each category.
                #expect(categories?.compactMap { $0["name"] as? String } == ["火锅", "川菜", "甜品"])
                #expect(categories?.compactMap { $0["score"] as? Double } == [5, 4, 3])
            }
            let nobody = try await client.send(.get, "/v1/feed/featured?limit=50")
            world.expectColdStart(nobody.itemIDs)
            #expect(
                (try nobody.json()["items"] as? [[String: Any]])?.allSatisfy { $0["liked"] as? Bool == false } == true)

            // validate: the statements of each kind of page, on the wire, the second time (a connection's first use
            // of a prepared statement parses it: one more round trip, once per connection)
            try await WireCounter.run(to: app.url) { counter, url in
                let config = AppConfiguration(databaseURL: url.description, databaseTimeout: .seconds(30))
                try await withDatabase(config, logger: TestDatabase.logger, poolSize: 1) { database in
                    let interests = InterestRepository(
                        database: database, halfLife: app.services.config.interestHalfLife)
                    // What a page showed goes to a buffer, as in `serve`: no statement in the request.
                    let feed = FeedService(
                        feed: FeedRepository(database: database), candidates: FeedCandidates(database: database),
                        interests: interests,
                        signals: InterestSignals(
                            interests: interests, visits: StoreVisits(database: database), buffer: SignalBuffer()),
                        explorePlaces: 0, clock: app.services.clock)
                    let user = Viewer.user(AuthUser(id: viewer.id, name: viewer.name, role: .user, tokenHash: []))
                    let second = try #require(pages[1]["nextCursor"] as? String)
                    // A cold first page reads the state, cold start's candidates and the walk with its pinned reviews;
                    // a first page with clicks, the state and the walk (exploring is off here). What a page showed
                    // is buffered, not written in the request.
                    let kinds: [(String, Viewer, String?, Int)] = [
                        ("anonymous first page", .nobody, nil, 3),
                        ("visitor first page", .visitor("visitor-0001"), nil, 3),
                        ("signed-in first page", user, nil, 2),
                        ("signed-in cursor page", user, pages[0]["nextCursor"] as? String, 1),
                        ("anonymous cursor page", .nobody, second, 1),
                    ]
                    for (name, who, token, statements) in kinds {
                        let request = PageRequest(limit: 3, cursor: try token.map { try Cursor(token: $0) })
                        var generator = SystemRandomNumberGenerator()
                        _ = try await feed.featuredPage(viewer: who, page: request, using: &generator)
                        _ = counter.take()
                        let page = try await feed.featuredPage(viewer: who, page: request, using: &generator)
                        let counts = counter.take()
                        #expect(counts.statements == statements, "\(name): \(counts.ran)")
                        #expect(counts.roundTrips == statements, "\(name): \(counts)")
                        if who == user {
                            let expected = pages[token == nil ? 0 : 1]
                            #expect(
                                page.items.map(\.id)
                                    == (expected["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String })
                            #expect(
                                page.items.map(\.liked)
                                    == (expected["items"] as? [[String: Any]])?.compactMap { $0["liked"] as? Bool })
                            // the same keys (JSONEncoder writes an object's keys in no fixed order)
                            #expect(
                                try page.nextCursor.map { try Cursor(token: $0) }
                                    == (expected["nextCursor"] as? String).map { try Cursor(token: $0) })
                            #expect(page.personalization.categories.map(\.name) == ["火锅", "川菜", "甜品"])
                        }
                    }
                }
            }

            // MUT: what the last cursor would show is hidden before it is followed
            let last = try #require(pages[2]["nextCursor"] as? String)
            for id in sweets.dropFirst() { _ = try await CommentModeration.hide(id: id, database: app.database) }
            await app.settle()
            let empty = try await client.send(.get, "/v1/feed/featured?limit=3&cursor=\(last)", token: viewer.token)
            // validate: no items and no next page, and the cursor's categories are still named
            #expect(empty.itemIDs == [])
            #expect((try empty.json()["nextCursor"]) is NSNull)
            let named = (try empty.json()["personalization"] as? [String: Any])?["categories"] as? [[String: Any]]
            #expect(named?.compactMap { $0["name"] as? String } == ["火锅", "川菜", "甜品"])
        }
    }

    @Test func concurrentOpensCountExactly() async throws {
        try await TestApp.run { client, app in
            let world = try await FeedWorld.make(app, client)
            let viewer = try await client.register("Viewer")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in world.all {
                    group.addTask { _ = try await client.send(.get, "/v1/comments/\(id)", token: viewer.token) }
                    // The same review twice at once counts once.
                    group.addTask { _ = try await client.send(.get, "/v1/comments/\(id)", token: viewer.token) }
                }
                try await group.waitForAll()
            }
            try await app.flushSignals()
            let items =
                try (await client.send(.get, "/v1/me/interests", token: viewer.token)).json()["items"]
                as? [[String: Any]]
            #expect(items?.compactMap { $0["clicks"] as? Int }.reduce(0, +) == world.all.count)
        }
    }
}
