import Foundation
import HTTPTypes
import HummingbirdTesting
import PostgresNIO
import Synchronization
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// Counted events and `GET /v1/stores/{id}/insights`: each counter, whose views count, the rank line, CSV and
/// permissions. Counts are written by flushing the server's counter, as `InsightFlusher` does every few seconds.
@Suite struct InsightsTests {
    struct World {
        let manager: Session
        let user: Session
        let categoryID: String
        let storeID: String
    }

    static func world(_ client: any TestClientProtocol, _ app: TestApp) async throws -> World {
        let manager = try await client.register("店长", role: "manager")
        let user = try await client.register("食客")
        let categoryID = try await StoreFixture.category(app, "火锅")
        let store = try await StoreFixture.store(client, manager, name: "小龙坎", categoryID: categoryID)
        return World(manager: manager, user: user, categoryID: categoryID, storeID: store.id)
    }

    static func insights(
        _ client: any TestClientProtocol, _ storeID: String, token: String, query: String = ""
    ) async throws -> [String: Any] {
        let response = try await client.send(.get, "/v1/stores/\(storeID)/insights\(query)", token: token)
        guard response.status == .ok else { throw TestFailure("insights: \(response.status) \(response.text)") }
        return try response.json()
    }

    static func totals(_ body: [String: Any]) -> [String: Any] { body["totals"] as? [String: Any] ?? [:] }

    @Test func viewsClicksAndVisitorsAreCountedButNotTheManagersOwn() async throws {
        try await TestApp.run { client, app in
            // setup
            let w = try await Self.world(client, app)
            // MUT: two views by the user (one from search), one by a visitor id, one anonymous, three by the manager
            _ = try await client.send(.get, "/v1/stores/\(w.storeID)", token: w.user.token)
            _ = try await client.send(.get, "/v1/stores/\(w.storeID)?from=search", token: w.user.token)
            _ = try await client.send(
                .get, "/v1/stores/\(w.storeID)?from=daily", headers: [.init("X-Visitor-Id")!: "visitor-0001"])
            _ = try await client.send(.get, "/v1/stores/\(w.storeID)?from=nowhere")
            for _ in 0..<3 {
                _ = try await client.send(.get, "/v1/stores/\(w.storeID)?from=feed", token: w.manager.token)
            }
            try await app.services.insightFlusher.flush()
            let body = try await Self.insights(client, w.storeID, token: w.manager.token)
            // validate
            let totals = Self.totals(body)
            #expect(totals["views"] as? Int == 4)
            #expect(totals["visitors"] as? Int == 3)
            let clicks = totals["clicks"] as? [String: Int]
            #expect(clicks == ["daily": 1, "feed": 0, "search": 1, "near": 0, "pick": 0])
            #expect((body["days"] as? [[String: Any]])?.count == 30)
            #expect(body["timeZone"] as? String == "Asia/Shanghai")
        }
    }

    @Test func impressionsAreCountedPerSource() async throws {
        try await TestApp.run { client, app in
            // setup
            let w = try await Self.world(client, app)
            let bought = try await client.send(
                .post, "/v1/stores/\(w.storeID)/promotions", body: ["amount": 100], token: w.manager.token)
            try #require(bought.status == .created)
            // MUT
            _ = try await client.send(.get, "/v1/promotions/daily")
            _ = try await client.send(.get, "/v1/promotions/daily", token: w.user.token)
            _ = try await client.send(.get, "/v1/search?q=%E5%B0%8F%E9%BE%99")
            try await app.services.insightFlusher.flush()
            let body = try await Self.insights(client, w.storeID, token: w.manager.token)
            // validate
            let impressions = Self.totals(body)["impressions"] as? [String: Int]
            #expect(impressions?["daily"] == 2)
            #expect(impressions?["search"] == 1)
            #expect(impressions?["near"] == 0)
            let rates = Self.totals(body)["clickThrough"] as? [String: Any]
            #expect(rates?["daily"] as? Double == 0)
            #expect(rates?["near"] is NSNull)
        }
    }

    @Test func concurrentViewsOnTwoServersCountExactly() async throws {
        try await TestApp.run { client, app in
            // setup: a second server on the same database, with its own counter
            let w = try await Self.world(client, app)
            var config = app.services.config
            config.cacheEnabled = false
            let services = AppServices(config: config, database: app.database, logger: TestDatabase.logger)
            let second = buildApplication(services, runDatabase: false)
            // MUT: 200 views on each, 20 at a time
            try await second.test(.router) { other in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for worker in 0..<20 {
                        group.addTask {
                            for _ in 0..<10 {
                                _ = try await client.send(
                                    .get, "/v1/stores/\(w.storeID)",
                                    headers: [.init("X-Visitor-Id")!: "visitor-a\(worker)"])
                                _ = try await other.send(
                                    .get, "/v1/stores/\(w.storeID)",
                                    headers: [.init("X-Visitor-Id")!: "visitor-b\(worker)"])
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            try await app.services.insightFlusher.flush()
            try await services.insightFlusher.flush()
            let body = try await Self.insights(client, w.storeID, token: w.manager.token)
            // validate
            #expect(Self.totals(body)["views"] as? Int == 400)
            #expect(Self.totals(body)["visitors"] as? Int == 40)
            // popular times count the same views by hour, added up across the servers the same way
            let hours = try await app.database.query(
                "SELECT coalesce(sum(views), 0)::int FROM store_hours WHERE store_id = \(w.storeID)")
            #expect(try hours.first?.decode(Int.self) == 400)
        }
    }

    @Test func rankAndNextRankAmountMatchTheDailyOrder() async throws {
        try await TestApp.run { client, app in
            // setup: A 500, B 300, C 300 (created after B), D nothing
            let w = try await Self.world(client, app)
            var ids: [String] = []
            for name in ["甲", "乙", "丙", "丁"] {
                ids.append(
                    try await StoreFixture.store(client, w.manager, name: name, categoryID: w.categoryID).id)
            }
            for (id, amount) in [(ids[0], 500), (ids[1], 300), (ids[2], 300)] {
                let bought = try await client.send(
                    .post, "/v1/stores/\(id)/promotions", body: ["amount": amount], token: w.manager.token)
                try #require(bought.status == .created)
            }
            // MUT
            var promotions: [[String: Any]] = []
            for id in ids {
                promotions.append(
                    try await Self.insights(client, id, token: w.manager.token)["promotion"] as! [String: Any])
            }
            let daily = try StoreFixture.items(try await client.send(.get, "/v1/promotions/daily")).map {
                $0["id"] as! String
            }
            // validate: ranks are the daily list's places; passing the one ahead costs the difference, plus 1 when
            // the tie would go to the earlier store
            #expect(daily == [ids[0], ids[1], ids[2]])
            #expect(promotions[0]["rank"] as? Int == 1)
            #expect(promotions[0]["nextRankAmount"] is NSNull)
            #expect(promotions[1]["rank"] as? Int == 2)
            #expect(promotions[1]["nextRankAmount"] as? Int == 201)
            #expect(promotions[2]["rank"] as? Int == 3)
            #expect(promotions[2]["nextRankAmount"] as? Int == 1)
            #expect(promotions[3]["rank"] is NSNull)
            #expect(promotions[3]["adSpend"] as? Int == 0)
            #expect(promotions[3]["nextRankAmount"] as? Int == 1)
            // and buying it moves the store exactly one place
            _ = try await client.send(
                .post, "/v1/stores/\(ids[2])/promotions", body: ["amount": 1], token: w.manager.token)
            let after = try await Self.insights(client, ids[2], token: w.manager.token)["promotion"] as! [String: Any]
            #expect(after["rank"] as? Int == 2)
        }
    }

    @Test func reviewsFavoritesRatingsAndSpendComeFromTheirTables() async throws {
        try await TestApp.run { client, app in
            // setup
            let w = try await Self.world(client, app)
            try await StoreFixture.review(app, storeID: w.storeID, authorID: w.user.id, ratings: [5, 4, 2])
            _ = try await client.send(.put, "/v1/stores/\(w.storeID)/favorite", token: w.user.token)
            _ = try await client.send(
                .post, "/v1/stores/\(w.storeID)/promotions", body: ["amount": 40], token: w.manager.token)
            for _ in 0..<8 { _ = try await client.send(.get, "/v1/stores/\(w.storeID)", token: w.user.token) }
            try await app.services.insightFlusher.flush()
            // MUT
            let totals = Self.totals(try await Self.insights(client, w.storeID, token: w.manager.token))
            // validate
            #expect(totals["reviews"] as? Int == 3)
            #expect(abs((totals["ratingAverage"] as? Double ?? 0) - 11.0 / 3) < 1e-9)
            #expect(totals["favorites"] as? Int == 1)
            #expect(totals["spend"] as? Int == 40)
            #expect(totals["costPerVisit"] as? Double == 5)
        }
    }

    @Test func csvHasAHeaderAndOneLinePerDay() async throws {
        try await TestApp.run { client, app in
            // setup
            let w = try await Self.world(client, app)
            _ = try await client.send(.get, "/v1/stores/\(w.storeID)?from=pick")
            try await app.services.insightFlusher.flush()
            let today = try Self.today()
            let from = try InsightRange(
                from: nil, to: nil, timeZone: TimeZone(identifier: "Asia/Shanghai")!, now: Date(), span: 100
            ).from
            // MUT
            let response = try await client.send(
                .get, "/v1/stores/\(w.storeID)/insights?format=csv&from=\(from)&to=\(today)", token: w.manager.token)
            // validate
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/csv; charset=utf-8")
            let lines = response.text.split(separator: "\r\n").map(String.init)
            #expect(lines.first?.hasPrefix("date,views,visitors,impressions_daily,") == true)
            #expect(lines.count == 1 + 100)
            #expect(lines.last?.hasPrefix("\(today),1,1,0,0,0,0,0,0,0,0,0,1,") == true)
        }
    }

    static func today() throws -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Shanghai")!
        let c = calendar.dateComponents([.year, .month, .day], from: Date())
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    @Test func onlyTheManagerAndAdminsSeeInsightsAndRangesAreChecked() async throws {
        try await TestApp.run { client, app in
            // setup
            let w = try await Self.world(client, app)
            let other = try await client.register("别家", role: "manager")
            let admin = try await app.admin(client)
            let path = "/v1/stores/\(w.storeID)/insights"
            // MUT + validate
            #expect(try await client.send(.get, path).problemCode == "login_required")
            #expect(try await client.send(.get, path, token: other.token).problemCode == "not_store_owner")
            #expect(try await client.send(.get, path, token: w.user.token).problemCode == "not_store_owner")
            #expect(try await client.send(.get, path, token: admin.token).status == .ok)
            #expect(try await client.send(.get, "/v1/stores/nope/insights", token: admin.token).status == .notFound)
            for query in [
                "?from=2026-02-01&to=2026-01-01", "?from=2025-01-01&to=2026-01-02", "?from=2026-02-30",
                "?to=yesterday", "?from=2026-1-01",
            ] {
                let response = try await client.send(.get, path + query, token: w.manager.token)
                #expect(response.status == .badRequest, "\(query)")
                #expect(response.problemCode == "invalid_range", "\(query)")
            }
            #expect(
                try await client.send(.get, path + "?from=2025-01-01&to=2025-12-31", token: w.manager.token).status
                    == .ok)
            #expect(
                try await client.send(.get, path + "?format=xml", token: w.manager.token).problemCode
                    == "invalid_format")
            #expect(
                try await client.send(.get, "/v1/admin/stats", token: w.manager.token).problemCode == "admin_required")
        }
    }

    @Test func visitorsAreExactToAThousandAndEstimatedBeyond() async throws {
        try await TestApp.run { client, app in
            // setup
            let w = try await Self.world(client, app)
            let counter = InsightCounter()
            let flusher = InsightFlusher(counter: counter, database: app.database, interval: .seconds(1))
            let other =
                try await StoreFixture.store(client, w.manager, name: "大店", categoryID: w.categoryID).id
            // MUT: 1,000 distinct visitors on one store, 20,000 on another, flushed in batches as servers would
            for batch in 0..<20 {
                for i in 0..<1_000 {
                    if batch == 0 {
                        counter.view(storeID: w.storeID, viewer: .visitor("v\(i)"), address: nil, from: nil)
                    }
                    counter.view(storeID: other, viewer: .visitor("v\(batch)-\(i)"), address: nil, from: nil)
                }
                try await flusher.flush()
            }
            let small = Self.totals(try await Self.insights(client, w.storeID, token: w.manager.token))
            let large = Self.totals(try await Self.insights(client, other, token: w.manager.token))
            let held = try await app.database.query(
                "SELECT count(*)::int FROM store_day_visitors WHERE store_id = \(other)")[0].decode(Int.self)
            // validate: exact, then within 4 standard errors (3.2 % each) and the raw hashes bounded
            #expect(small["visitors"] as? Int == 1_000)
            #expect(large["views"] as? Int == 20_000)
            let estimate = try #require(large["visitors"] as? Int)
            #expect(abs(Double(estimate) - 20_000) / 20_000 < 0.13, "estimate \(estimate)")
            #expect(held <= 2 * InsightFlusher.storeK + 1_000)
        }
    }

    @Test func housekeepingKeepsDailyCountsAndDropsRawHashes() async throws {
        try await TestApp.run { client, app in
            // setup: views five days ago
            let w = try await Self.world(client, app)
            let counter = InsightCounter(clock: { Date().addingTimeInterval(-5 * 86_400) })
            for i in 0..<7 { counter.view(storeID: w.storeID, viewer: .visitor("old\(i)"), address: nil, from: .near) }
            try await InsightFlusher(counter: counter, database: app.database, interval: .seconds(1)).flush()
            let before = Self.totals(try await Self.insights(client, w.storeID, token: w.manager.token))
            // MUT
            let report = try #require(try await Housekeeping.run(app.database))
            // validate
            let after = Self.totals(try await Self.insights(client, w.storeID, token: w.manager.token))
            let raw = try await app.database.query("SELECT count(*)::int FROM store_day_visitors")[0].decode(Int.self)
            #expect(before["visitors"] as? Int == 7)
            #expect(report.insightDays >= 1)
            #expect(raw == 0)
            #expect(after["visitors"] as? Int == 7)
            #expect(after["views"] as? Int == 7)
        }
    }

    @Test func adminStatsCountTheDay() async throws {
        try await TestApp.run { client, app in
            // setup: two users and a visitor use the service; three reviews, two reports (one closed), 70 bought
            let w = try await Self.world(client, app)
            let admin = try await app.admin(client)
            let reviews = try await (0..<3).asyncMap { i in
                let author = i == 0 ? w.user : try await client.register("评论者\(i)")
                let response = try await client.send(
                    .post, "/v1/stores/\(w.storeID)/comments", body: ["rating": 4, "body": "好吃 \(i)"],
                    token: author.token)
                return try response.json()["id"] as! String
            }
            _ = try await client.send(.get, "/v1/stores", headers: [.init("X-Visitor-Id")!: "visitor-0042"])
            for id in reviews.prefix(2) {
                let reported = try await client.send(
                    .post, "/v1/comments/\(id)/reports", body: ["reason": "spam"], token: w.manager.token)
                try #require(reported.status == .created, "\(reported.text)")
            }
            _ = try await client.send(
                .post, "/v1/moderation/comments/\(reviews[0])", body: ["action": "dismiss"], token: admin.token)
            _ = try await client.send(
                .post, "/v1/stores/\(w.storeID)/promotions", body: ["amount": 70], token: w.manager.token)
            try await app.services.insightFlusher.flush()
            // MUT
            let response = try await client.send(.get, "/v1/admin/stats", token: admin.token)
            // validate: users are the manager, 食客, two reviewers and the admin; visitors the visitor id and the
            // address the sign-ups came from (none in router tests: one key)
            #expect(response.status == .ok)
            let totals = try #require(try response.json()["totals"] as? [String: Int])
            #expect(totals["activeUsers"] == 5)
            #expect(totals["visitors"] == 2)
            #expect(totals["reviews"] == 3)
            #expect(totals["reportsOpened"] == 2)
            #expect(totals["reportsClosed"] == 1)
            #expect(totals["promotionRevenue"] == 70)
            #expect((try response.json()["days"] as? [[String: Any]])?.count == 30)
        }
    }
}

@Suite struct InsightDaysTests {
    @Test func daysAreTheStoresTimeZonesDays() async throws {
        try await TestApp.run { client, app in
            // setup: a New York store; 03:30 UTC on 2026-03-10 is still the 9th there (and the 10th in Shanghai)
            let w = try await InsightsTests.world(client, app)
            try await app.database.query("UPDATE stores SET time_zone = 'America/New_York' WHERE id = \(w.storeID)")
            let moment = ISO8601DateFormatter().date(from: "2026-03-10T03:30:00Z")!
            let counter = InsightCounter(clock: { moment })
            counter.view(storeID: w.storeID, viewer: .visitor("someone-1"), address: nil, from: nil)
            counter.shown([w.storeID, w.storeID], as: .near)
            try await InsightFlusher(counter: counter, database: app.database, interval: .seconds(1)).flush()
            // MUT
            let body = try await InsightsTests.insights(
                client, w.storeID, token: w.manager.token, query: "?from=2026-03-09&to=2026-03-10")
            // validate: counted on the 9th; a card listed twice in one answer is one impression
            let days = try #require(body["days"] as? [[String: Any]])
            #expect(body["timeZone"] as? String == "America/New_York")
            #expect(days.map { $0["date"] as? String } == ["2026-03-09", "2026-03-10"])
            #expect(days.map { $0["views"] as? Int } == [1, 0])
            #expect((days[0]["impressions"] as? [String: Int])?["near"] == 1)
        }
    }

    @Test func theStatsCommandPrintsThePlatformsDays() async throws {
        try await TestApp.run { client, app in
            // setup: a signed-in user and a visitor today
            let user = try await client.register("常客")
            _ = try await client.send(.get, "/v1/me", token: user.token)
            try await app.services.insightFlusher.flush()
            // MUT
            let from = try InsightRange(
                from: nil, to: nil, timeZone: TimeZone(identifier: "Asia/Shanghai")!, now: Date(), span: 10
            ).from
            let result = try await ChidianBinary.run(["stats", "--from", from], databaseURL: app.url)
            let bad = try await ChidianBinary.run(["stats", "--from", "2026-13-01"], databaseURL: app.url)
            // validate
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("platform days \(from) to "))
            #expect(result.stdout.contains("total       active users 1, visitors 1,"))
            #expect(bad.status != 0)
        }
    }
}

@Suite struct InsightSketchTests {
    /// A visitor already sent this quarter hour is not sent again (the database holds its hash); their views are.
    @Test func aVisitorIsSentOncePerQuarterHour() {
        // setup: 10:07 and 10:14 are one quarter, 10:15 the next
        let base = ISO8601DateFormatter().date(from: "2026-03-10T10:07:00Z")!
        let now = Mutex(base)
        let counter = InsightCounter(clock: { now.withLock { $0 } })
        // MUT
        counter.view(storeID: "s1", viewer: .visitor("visitor-one"), address: nil, from: nil)
        let first = counter.take()
        now.withLock { $0 = base.addingTimeInterval(7 * 60) }
        counter.view(storeID: "s1", viewer: .visitor("visitor-one"), address: nil, from: nil)
        counter.view(storeID: "s2", viewer: .visitor("visitor-one"), address: nil, from: nil)
        let second = counter.take()
        now.withLock { $0 = base.addingTimeInterval(8 * 60) }
        counter.view(storeID: "s1", viewer: .visitor("visitor-one"), address: nil, from: nil)
        let third = counter.take()
        // validate
        #expect(first.visitors.map(\.storeID) == ["s1"])
        #expect(second.visitors.map(\.storeID) == ["s2"])
        #expect(second.counts.values.reduce(0, +) == 2)
        #expect(third.visitors.map(\.storeID) == ["s1"])
    }

    /// The prepared read writes k into its SQL (a prepared statement's text is fixed): it must be the flusher's.
    @Test func theReadUsesTheFlushersK() {
        let k = InsightFlusher.storeK
        #expect(InsightRepository.StoreDays.sql.contains("ORDER BY x.h OFFSET \(k - 1) LIMIT 1), \(k))"))
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var values: [T] = []
        for element in self { values.append(try await transform(element)) }
        return values
    }
}
