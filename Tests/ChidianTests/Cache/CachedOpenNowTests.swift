import Foundation
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// A cached store's bytes say `openNow` as it was when written: they are sent while the store has neither opened
/// nor closed since, and written again after.
@Suite struct CachedOpenNowTests {
    /// Open on Mondays 11:00–14:00 in Shanghai (UTC+8, no summer time).
    static func lunchStore() throws -> StoreView {
        var store = JSONWriterTests.store(average: 4.5, adSpend: nil)
        store.hours = try WeeklyHours([.init(day: 1, open: 11 * 60, close: 14 * 60)])
        store.timeZone = "Asia/Shanghai"
        return store
    }

    /// Monday 2026-11-23 at `hour`:`minute` in Shanghai.
    static func monday(_ hour: Int, _ minute: Int = 0) -> Date {
        Date(timeIntervalSince1970: 1_795_363_200 + Double(hour * 3600 + minute * 60))
    }

    @Test func bytesStayTrueUntilTheStoreOpensOrCloses() throws {
        // setup
        let store = try Self.lunchStore()
        var roundTheClock = store
        roundTheClock.hours = nil
        // MUT + validate: within an opening and within a closed spell; across the opening and the close
        #expect(store.status(at: Self.monday(12))?.open == true)
        #expect(store.placeUnchanged(since: Self.monday(11, 30), at: Self.monday(13, 59)))
        #expect(store.placeUnchanged(since: Self.monday(9), at: Self.monday(10, 59)))
        #expect(!store.placeUnchanged(since: Self.monday(10, 59), at: Self.monday(11)))
        #expect(!store.placeUnchanged(since: Self.monday(13, 59), at: Self.monday(14)))
        #expect(roundTheClock.placeUnchanged(since: Self.monday(10), at: Self.monday(15)))
    }

    @Test func anEntryIsSentAsCachedUntilItsStoreChanges() throws {
        // setup: a store open for one minute half a week from now, so it is closed now and open then
        let now = Date()
        let zone = StoreTimeZone.zone("Asia/Shanghai")
        let minute = (WeeklyHours.weekMinute(of: now, in: zone) + 5040) % 10080
        var store = try Self.lunchStore()
        store.hours = try WeeklyHours([
            .init(day: minute / 1440 + 1, open: minute % 1440, close: (minute % 1440 + 1) % 1440)
        ])
        // Half a minute into that minute (zone offsets are whole minutes).
        let opening = now.addingTimeInterval(
            5040 * 60 + 30 - now.timeIntervalSince1970.truncatingRemainder(dividingBy: 60))
        let sentinel = Array("cached bytes".utf8)
        // MUT
        let current = try ReadCache.Entry(store: store, renderedAt: now.addingTimeInterval(-1))
        let stale = try ReadCache.Entry(store: store, renderedAt: opening)
        let list = ReadCache.Entry(value: [store, store], json: sentinel, etag: "", renderedAt: opening)
        // validate
        #expect(current.isCurrent(at: now))
        #expect(current.currentJSON == current.json)
        #expect(!stale.isCurrent(at: now))
        let cached = try JSONSerialization.jsonObject(with: Data(stale.json)) as? [String: Any]
        #expect(cached?["openNow"] as? Bool == true)
        let rewritten = try JSONSerialization.jsonObject(with: Data(stale.currentJSON)) as? [String: Any]
        #expect(rewritten?["openNow"] as? Bool == false)
        #expect(!list.placesUnchanged)
    }

    @Test func aMinuteFoundUnchangedIsRememberedButNotPastItsMinuteOrACoupon() throws {
        // setup: closed until 11:00; a coupon from 10:59:30 on a second store
        let store = try Self.lunchStore()
        var couponed = store
        couponed.couponWindows = [Self.monday(10, 59).addingTimeInterval(30)..<Self.monday(12)]
        let renderedAt = Self.monday(10, 58)
        let entry = try ReadCache.Entry(store: store, renderedAt: renderedAt)
        let couponEntry = try ReadCache.Entry(store: couponed, renderedAt: renderedAt)
        // MUT + validate: remembered within 10:59, true again at 11:00 only after a check
        #expect(entry.isCurrent(at: Self.monday(10, 59).addingTimeInterval(10)))
        #expect(entry.isCurrent(at: Self.monday(10, 59).addingTimeInterval(50)))
        #expect(!entry.isCurrent(at: Self.monday(11)))
        let opened = try JSONSerialization.jsonObject(with: Data(entry.json(at: Self.monday(11)))) as? [String: Any]
        #expect(opened?["openNow"] as? Bool == true)
        // the coupon starts within a minute already remembered
        #expect(couponEntry.isCurrent(at: Self.monday(10, 59).addingTimeInterval(10)))
        #expect(!couponEntry.isCurrent(at: Self.monday(10, 59).addingTimeInterval(40)))
        let claimed =
            try JSONSerialization.jsonObject(
                with: Data(couponEntry.json(at: Self.monday(10, 59).addingTimeInterval(40)))) as? [String: Any]
        #expect(claimed?["couponCount"] as? Int == 1)
    }

    @Test func aCardReadsItsStoreBackFromItsJSON() throws {
        // setup: a store whose dates are whole seconds, as JSON sends them
        var store = try Self.lunchStore()
        store.createdAt = Date(timeIntervalSince1970: 1_700_000_000)
        store.adSpend = 1_234
        store.couponWindows = [Self.monday(9)..<Self.monday(12)]
        store.location = GeoPoint(lat: 31.230416, lng: 121.473701)
        // MUT
        let entry = try ReadCache.Entry(store: store, renderedAt: Self.monday(10))
        // validate: everything but `favorited`, which a shared store never has
        var expected = store
        expected.favorited = false
        #expect(try entry.view() == expected)
        #expect(
            entry.value.meters(from: GeoPoint(lat: 31.230416, lng: 121.483701))
                == store.meters(
                    from: GeoPoint(lat: 31.230416, lng: 121.483701)))
        #expect((try JSONSerialization.jsonObject(with: Data(entry.json)) as? [String: Any])?["adSpend"] == nil)
    }
}
