import Foundation
import Metrics
import Synchronization

/// Where a store was shown as a card, and so where a click on it came from.
public enum InsightSource: String, CaseIterable, Sendable {
    case daily, feed, search, near, pick

    package var index: Int16 {
        switch self {
        case .daily: 0
        case .feed: 1
        case .search: 2
        case .near: 3
        case .pick: 4
        }
    }
}

/// This server's counts since its last flush: store views, impressions and clicks, the stores' visitors and the
/// platform's active viewers, aggregated in memory so counting costs a request one lock and a dictionary
/// update. `InsightFlusher` writes them every few seconds in one statement; a crash loses at most that interval.
public final class InsightCounter: Sendable {
    /// metric 0 is a view, 1–5 an impression by source, 6–10 a click by source.
    package struct CountKey: Hashable {
        package var storeID: String
        var minute: Int64
        var metric: Int16
    }

    package struct VisitorKey: Hashable {
        package var storeID: String
        var minute: Int64
        package var visitor: String
    }

    package struct ActiveKey: Hashable {
        var minute: Int64
        package var signedIn: Bool
        package var viewer: String
    }

    package struct Pending {
        package var counts: [CountKey: Int64] = [:]
        package var visitors: Set<VisitorKey> = []
        var active: Set<ActiveKey> = []

        package var size: Int { counts.count + visitors.count + active.count }
        package var isEmpty: Bool { counts.isEmpty && visitors.isEmpty && active.isEmpty }
    }

    /// The visitors (of a store, or of the platform) this server already sent in the current quarter hour: sent
    /// again, they only make the database find a hash it holds. A quarter hour never straddles a day of any
    /// time zone (offsets are whole quarter hours), so skipping them loses no visitor of any day.
    package struct Sent {
        var quarter: Int64 = 0
        package var keys: Set<Int> = []
    }

    struct State {
        package var pending = Pending()
        package var sent = Sent()
    }

    /// Past this many pending keys, new ones are dropped (and counted) until the next flush: memory stays bounded
    /// whatever clients send (a million made-up visitor ids in a few seconds).
    package let capacity: Int
    package let enabled: Bool
    package let clock: @Sendable () -> Date
    private let state = Mutex(State())
    /// The most keys `Sent` remembers; past it, repeats are sent (and found by the database) until the next quarter.
    static let sentCapacity = 300_000
    private let dropped = Counter(label: "chidian_insight_events_dropped_total")

    public init(enabled: Bool = true, capacity: Int = 500_000, clock: @escaping @Sendable () -> Date = Date.init) {
        self.enabled = enabled
        self.capacity = capacity
        self.clock = clock
    }

    private var minute: Int64 { Int64((clock().timeIntervalSince1970 / 60).rounded(.down)) }

    /// A store's page (API or web) opened by `viewer`, with the card it came from when known.
    public func view(storeID: String, viewer: Viewer, address: String?, from source: InsightSource?) {
        guard enabled else { return }
        let minute = minute
        let visitor = Self.visitorKey(viewer, address: address)
        let sentKey = Self.sentKey(storeID, visitor, quarter: minute / 15)
        record(quarter: minute / 15) { pending, sent in
            pending.counts[CountKey(storeID: storeID, minute: minute, metric: 0), default: 0] += 1
            if let source {
                pending.counts[CountKey(storeID: storeID, minute: minute, metric: 6 + source.index), default: 0] += 1
            }
            if Self.firstInQuarter(sentKey, &sent) {
                pending.visitors.insert(VisitorKey(storeID: storeID, minute: minute, visitor: visitor))
            }
        }
    }

    /// Stores shown as cards of `source`; a store listed twice in one answer counts once.
    public func shown<S: Sequence>(_ storeIDs: S, as source: InsightSource) where S.Element == String {
        guard enabled else { return }
        let minute = minute
        let metric = 1 + source.index
        record(quarter: minute / 15) { pending, _ in
            for id in Set(storeIDs) {
                pending.counts[CountKey(storeID: id, minute: minute, metric: metric), default: 0] += 1
            }
        }
    }

    /// Someone used the service (any page or API call).
    public func active(_ viewer: Viewer, address: String?) {
        guard enabled else { return }
        let minute = minute
        let key = ActiveKey(
            minute: minute, signedIn: viewer.user != nil, viewer: Self.visitorKey(viewer, address: address))
        let sentKey = Self.sentKey("", key.viewer, quarter: minute / 15)
        record(quarter: minute / 15) { pending, sent in
            if Self.firstInQuarter(sentKey, &sent) { pending.active.insert(key) }
        }
    }

    /// Signed-in users by account, visitors by `X-Visitor-Id`, anyone else by address.
    static func visitorKey(_ viewer: Viewer, address: String?) -> String {
        viewer.interestKey ?? "a:\(address ?? "?")"
    }

    static func sentKey(_ scope: String, _ visitor: String, quarter: Int64) -> Int {
        var hasher = Hasher()
        hasher.combine(scope)
        hasher.combine(visitor)
        hasher.combine(quarter)
        return hasher.finalize()
    }

    /// Whether `key` is new this quarter (and remembers it while there is room).
    static func firstInQuarter(_ key: Int, _ sent: inout Sent) -> Bool {
        guard !sent.keys.contains(key) else { return false }
        if sent.keys.count < sentCapacity { sent.keys.insert(key) }
        return true
    }

    private func record(quarter: Int64, _ change: (inout Pending, inout Sent) -> Void) {
        let kept = state.withLock { state in
            guard state.pending.size < capacity else { return false }
            if state.sent.quarter != quarter { state.sent = Sent(quarter: quarter) }
            change(&state.pending, &state.sent)
            return true
        }
        if !kept { dropped.increment() }
    }

    /// Everything pending, leaving nothing.
    package func take() -> Pending {
        state.withLock { state in
            defer { state.pending = Pending() }
            return state.pending
        }
    }

    /// Puts back counts a failed flush took (as far as capacity allows), to be written by the next one; its
    /// visitors stay remembered as sent, so they must come back too.
    package func restore(_ failed: Pending) {
        state.withLock { state in
            for (key, count) in failed.counts where state.pending.size < capacity {
                state.pending.counts[key, default: 0] += count
            }
            for key in failed.visitors where state.pending.size < capacity { state.pending.visitors.insert(key) }
            for key in failed.active where state.pending.size < capacity { state.pending.active.insert(key) }
        }
    }
}
