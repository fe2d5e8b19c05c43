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

/// `GET /v1/stores/{id}/popular-times`: views by the store's local weekday and hour over eight weeks, shares of
/// the busiest hour, nothing said below 200 views, `now`, the store page's words and the pick's `quiet`.
@Suite struct PopularTimesTests {
    /// A clock the test moves: Monday 2026-11-30 12:30 in Shanghai to begin with.
    final class TestClock: Sendable {
        let date = Mutex(Date(timeIntervalSince1970: 1_796_013_000))
        func now() -> Date { date.withLock { $0 } }
        func move(by seconds: TimeInterval) { date.withLock { $0 += seconds } }
    }

    static let hour: TimeInterval = 3_600
    static let day: TimeInterval = 86_400

    /// `count` views of `storeID` now, by distinct visitors, straight into the server's counter (as a view does).
    static func views(_ app: TestApp, _ storeID: String, _ count: Int) {
        for n in 0..<count {
            app.services.insights.view(
                storeID: storeID, viewer: .visitor("visitor-\(n)"), address: nil, from: nil)
        }
    }

    static func popular(_ client: any TestClientProtocol, _ storeID: String) async throws -> [String: Any] {
        let response = try await client.send(.get, "/v1/stores/\(storeID)/popular-times")
        guard response.status == .ok else { throw TestFailure("popular-times: \(response.status) \(response.text)") }
        return try response.json()
    }

    static func week(_ body: [String: Any]) -> [[Int]] {
        (body["days"] as? [[String: Any]] ?? []).map { $0["hours"] as? [Int] ?? [] }
    }

    @Test func sharesOfTheBusiestHourByLocalWeekdayOnceThereAre200Views() async throws {
        let clock = TestClock()
        try await TestApp.run(clock: clock.now) { client, app in
            // setup
            let manager = try await client.register("店长", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            let store = try await StoreFixture.store(client, manager, name: "小龙坎", categoryID: category).id
            // MUT: 9 weeks ago (outside the window), then Tuesday 19:xx and Monday 12:xx, through the page too
            clock.move(by: -63 * Self.day)
            Self.views(app, store, 500)
            clock.move(by: 63 * Self.day - 6 * Self.day + 6.5 * Self.hour)  // Tuesday 2026-11-24 19:00
            Self.views(app, store, 50)
            clock.move(by: 6 * Self.day - 6.5 * Self.hour)  // Monday 12:30 again
            Self.views(app, store, 147)
            for _ in 0..<2 {
                let page = try await client.send(
                    .get, "/v1/stores/\(store)", headers: [.init("X-Visitor-Id")!: "visitor-page"])
                #expect(page.status == .ok)
            }
            // the manager's own: not counted
            _ = try await client.send(.get, "/v1/stores/\(store)", token: manager.token)
            try await app.services.insightFlusher.flush()
            let under = try await Self.popular(client, store)
            clock.move(by: PopularTimesRepository.freshness)
            Self.views(app, store, 1)
            try await app.services.insightFlusher.flush()
            let body = try await Self.popular(client, store)
            // validate: 199 views said nothing; 200 say every hour
            #expect(under["timeZone"] as? String == "Asia/Shanghai")
            #expect(Self.week(under).isEmpty)
            #expect(under["now"] is NSNull)
            let week = Self.week(body)
            #expect(week.count == 7 && week.allSatisfy { $0.count == 24 })
            #expect((body["days"] as? [[String: Any]])?.map { $0["day"] as? Int } == [1, 2, 3, 4, 5, 6, 7])
            #expect(week[0][12] == 100)
            #expect(week[1][19] == 33)  // 50 of 150
            #expect(week.joined().reduce(0, +) == 133, "nothing else, the 500 old views neither")
            #expect(body["now"] as? Int == 100)
            // two hours later on Monday the hour is empty
            clock.move(by: 2 * Self.hour)
            let later = try await Self.popular(client, store)
            #expect(later["now"] as? Int == 0)
        }
    }

    @Test func onlyLiveStoresAnswer() async throws {
        try await TestApp.run { client, app in
            let manager = try await client.register("店长", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            let store = try await StoreFixture.store(client, manager, name: "小龙坎", categoryID: category).id
            let empty = try await Self.popular(client, store)
            #expect(Self.week(empty).isEmpty && empty["now"] is NSNull)
            _ = try await client.send(.delete, "/v1/stores/\(store)", token: manager.token)
            for id in [store, "nope", "%00"] {
                let response = try await client.send(.get, "/v1/stores/\(id)/popular-times")
                #expect(response.status == .notFound)
                #expect(try response.json()["code"] as? String == "store_not_found")
            }
        }
    }

    @Test func housekeepingDropsHoursPastEightWeeks() async throws {
        try await TestApp.run { client, app in
            let manager = try await client.register("店长", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            let store = try await StoreFixture.store(client, manager, name: "小龙坎", categoryID: category).id
            try await app.database.query(
                """
                INSERT INTO store_hours (store_id, day, hour, views)
                VALUES (\(store), current_date - 70, 12, 5), (\(store), current_date - 20, 12, 5)
                """)
            let report = try #require(try await Housekeeping.run(app.database))
            #expect(report.popularHours == 1)
            let left = try await app.database.query("SELECT count(*)::int FROM store_hours WHERE store_id = \(store)")
            #expect(try left.first?.decode(Int.self) == 1)
        }
    }

    @Test func thePickSaysQuietAndTheStorePageSaysHowBusy() async throws {
        let clock = TestClock()
        try await TestApp.run(clock: clock.now) { client, app in
            // setup: an open store busy at 19:00 and quiet at 12:00 on Mondays
            let manager = try await client.register("店长", role: "manager")
            let category = try await StoreFixture.category(app, "火锅")
            let store = try await PickTests.store(client, app, manager, name: "小龙坎", category: category)
            try await app.database.query(
                """
                INSERT INTO store_hours (store_id, day, hour, views)
                VALUES (\(store), '2026-11-23', 19, 300), (\(store), '2026-11-23', 12, 30),
                    (\(store), '2026-11-23', 15, 200)
                """)
            // MUT + validate: at 12:30 quiet (10)
            let quiet = try await client.send(.get, "/v1/pick?near=30.659,104.081")
            let reasons = try #require(try quiet.json()["reasons"] as? [[String: String]])
            #expect(reasons.contains(["kind": "quiet", "text": "现在人少"]))
            let page = try await client.send(.get, "/stores/\(store)")
            #expect(page.text.contains("现在通常不忙"))
            #expect(page.text.contains("popular-times"))
            // at 15:30 a little busy (67), at 19:30 very busy (100): no `quiet`
            clock.move(by: 3 * Self.hour)
            let afternoon = try await client.send(.get, "/stores/\(store)")
            #expect(afternoon.text.contains("现在通常比较忙"))
            clock.move(by: 4 * Self.hour)
            let evening = try await client.send(.get, "/stores/\(store)")
            #expect(evening.text.contains("现在通常很忙"))
            let busy = try await client.send(.get, "/v1/pick?near=30.659,104.081")
            let busyReasons = try #require(try busy.json()["reasons"] as? [[String: String]])
            #expect(!busyReasons.contains { $0["kind"] == "quiet" })
        }
    }
}
