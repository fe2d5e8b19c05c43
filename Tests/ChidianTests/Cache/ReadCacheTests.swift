import NIOCore
import Testing

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// The LRU's own rules, without a server: the byte cap, tags, the fill race and liveness.
@Suite struct ReadCacheTests {
    static func live(_ capacity: Int = 1 << 20) -> ReadCache {
        let cache = ReadCache(name: "test", capacityBytes: capacity, freshness: .seconds(3600))
        cache.heard(sentAt: Monotonic.nanoseconds)
        return cache
    }

    static func entry(_ text: String) -> ReadCache.Entry<String> {
        ReadCache.Entry(value: text) { Array($0.utf8) }
    }

    @Test func theLeastRecentlyUsedLeaveFirstAndTheBytesStayUnderTheCap() {
        // setup: room for about ten 1 kB entries
        let cache = Self.live(10 * 1300)
        for n in 0..<10 {
            cache.insert("k\(n)", Self.entry("v\(n)"), tags: [], cost: 1000, since: cache.ticket())
        }
        _ = cache.get("k0", as: String.self)  // k0 is now the most recent
        // MUT
        for n in 10..<13 {
            cache.insert("k\(n)", Self.entry("v\(n)"), tags: [], cost: 1000, since: cache.ticket())
        }
        // validate
        #expect(cache.bytes <= 10 * 1300)
        #expect(cache.get("k0", as: String.self)?.value == "v0")
        #expect(cache.get("k1", as: String.self) == nil)
        #expect(cache.get("k12", as: String.self)?.value == "v12")
    }

    @Test func aTagRemovesExactlyTheEntriesThatShowIt() {
        let cache = Self.live()
        cache.insert("store", Self.entry("a"), tags: ["s:1"], cost: 10, since: cache.ticket())
        cache.insert("page", Self.entry("b"), tags: ["c:1", "a:7"], cost: 10, since: cache.ticket())
        cache.insert("other", Self.entry("c"), tags: ["s:2"], cost: 10, since: cache.ticket())
        // MUT
        cache.invalidate("a:7")
        // validate
        #expect(cache.get("page", as: String.self) == nil)
        #expect(cache.get("store", as: String.self)?.value == "a")
        #expect(cache.get("other", as: String.self)?.value == "c")
        cache.invalidate("*")
        #expect(cache.count == 0 && cache.bytes == 0)
    }

    @Test func aValueReadBeforeAnInvalidationOfItsTagIsNotKept() {
        let cache = Self.live()
        let before = cache.ticket()
        // MUT: a write's invalidation lands while the reader still holds the old value
        cache.invalidate("s:1")
        cache.insert("store", Self.entry("old"), tags: ["s:1"], cost: 10, since: before)
        cache.insert("unrelated", Self.entry("fine"), tags: ["s:2"], cost: 10, since: before)
        // validate
        #expect(cache.get("store", as: String.self) == nil)
        #expect(cache.get("unrelated", as: String.self)?.value == "fine")
        cache.removeAll()
        cache.insert("late", Self.entry("old"), tags: [], cost: 10, since: before)
        #expect(cache.get("late", as: String.self) == nil, "a fill from before a flush is refused")
    }

    @Test func aPredicatePicksItsEntriesAndItsFallbackTakesOverPastTheScanBudget() {
        let scanning = ReadCache(name: "test", capacityBytes: 1 << 20, freshness: .seconds(3600))
        let spent = ReadCache(name: "test", capacityBytes: 1 << 20, freshness: .seconds(3600), scanBudget: .zero)
        for cache in [scanning, spent] {
            cache.heard(sentAt: Monotonic.nanoseconds)
            for key in ["a", "b"] {
                cache.insert(key, Self.entry(key), tags: ["search"], cost: 10, since: cache.ticket())
            }
            let before = cache.ticket()
            // MUT: an event that picks "a" only
            cache.invalidate(matching: { ($0 as? ReadCache.Entry<String>)?.value == "a" }, fallback: "search")
            cache.insert("a", Self.entry("a"), tags: ["search"], cost: 10, since: before)
        }
        // validate: within the budget only "a" goes (and its fill from before the event is refused); past it, all
        #expect(scanning.get("a", as: String.self) == nil)
        #expect(scanning.get("b", as: String.self)?.value == "b")
        #expect(spent.get("a", as: String.self) == nil && spent.get("b", as: String.self) == nil)
    }

    @Test func nothingIsServedOnceTheHeartbeatIsOlderThanTheFreshness() {
        // A freshness far longer than a loaded machine's pause between two lines of this test.
        let cache = ReadCache(name: "test", capacityBytes: 1 << 20, freshness: .seconds(30))
        #expect(!cache.isLive, "never heard: not live")
        cache.heard(sentAt: Monotonic.nanoseconds)
        cache.insert("k", Self.entry("v"), tags: [], cost: 10, since: cache.ticket())
        #expect(cache.get("k", as: String.self)?.value == "v")
        // MUT: the last heartbeat heard was sent a minute ago
        cache.heard(sentAt: Monotonic.nanoseconds - 60_000_000_000)
        // validate
        #expect(cache.get("k", as: String.self) == nil)
        cache.heard(sentAt: Monotonic.nanoseconds)
        #expect(cache.get("k", as: String.self)?.value == "v")
        cache.silence()
        #expect(cache.get("k", as: String.self) == nil && cache.count == 0, "a lost listener empties the cache")
    }

    @Test func anEntryOverAnEighthOfTheCapIsNotKept() {
        let cache = Self.live(8000)
        cache.insert("big", Self.entry("x"), tags: [], cost: 1100, since: cache.ticket())
        #expect(cache.get("big", as: String.self) == nil)
    }
}
