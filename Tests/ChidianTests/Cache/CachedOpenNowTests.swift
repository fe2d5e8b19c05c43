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
        let current = ReadCache.Entry(value: store, json: sentinel, etag: "", renderedAt: now.addingTimeInterval(-1))
        let stale = ReadCache.Entry(value: store, json: sentinel, etag: "", renderedAt: opening)
        let list = ReadCache.Entry(value: [store, store], json: sentinel, etag: "", renderedAt: opening)
        // validate
        #expect(current.currentJSON == sentinel)
        let rewritten = try JSONSerialization.jsonObject(with: Data(stale.currentJSON)) as? [String: Any]
        #expect(rewritten?["openNow"] as? Bool == false)
        #expect(!list.placesUnchanged)
    }

    @Test func aMinuteFoundUnchangedIsRememberedButNotPastItsMinuteOrACoupon() throws {
        // setup: closed until 11:00; a coupon from 10:59:30 on a second store
        let store = try Self.lunchStore()
        var couponed = store
        couponed.couponWindows = [Self.monday(10, 59).addingTimeInterval(30)..<Self.monday(12)]
        let sentinel = Array("cached bytes".utf8)
        let renderedAt = Self.monday(10, 58)
        let entry = ReadCache.Entry(value: store, json: sentinel, etag: "", renderedAt: renderedAt)
        let couponEntry = ReadCache.Entry(value: couponed, json: sentinel, etag: "", renderedAt: renderedAt)
        // MUT + validate: remembered within 10:59, true again at 11:00 only after a check
        #expect(entry.json(at: Self.monday(10, 59).addingTimeInterval(10)) == sentinel)
        #expect(entry.json(at: Self.monday(10, 59).addingTimeInterval(50)) == sentinel)
        let opened = try JSONSerialization.jsonObject(with: Data(entry.json(at: Self.monday(11)))) as? [String: Any]
        #expect(opened?["openNow"] as? Bool == true)
        // the coupon starts within a minute already remembered
        #expect(couponEntry.json(at: Self.monday(10, 59).addingTimeInterval(10)) == sentinel)
        let claimed =
            try JSONSerialization.jsonObject(
                with: Data(couponEntry.json(at: Self.monday(10, 59).addingTimeInterval(40)))) as? [String: Any]
        #expect(claimed?["couponCount"] as? Int == 1)
    }
}
