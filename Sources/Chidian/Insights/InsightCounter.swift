import Foundation
import Metrics
import Synchronization

/// Where a store was shown as a card, and so where a click on it came from.
public enum InsightSource: String, CaseIterable, Sendable {
    case daily, feed, search, near, pick

    var index: Int16 {
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
    struct CountKey: Hashable {
        var storeID: String
        var minute: Int64
        var metric: Int16
    }

    struct VisitorKey: Hashable {
        var storeID: String
        var minute: Int64
        var visitor: String
    }

    struct ActiveKey: Hashable {
        var minute: Int64
        var signedIn: Bool
        var viewer: String
    }

    struct Pending {
        var counts: [CountKey: Int64] = [:]
        var visitors: Set<VisitorKey> = []
        var active: Set<ActiveKey> = []

        var size: Int { counts.count + visitors.count + active.count }
        var isEmpty: Bool { counts.isEmpty && visitors.isEmpty && active.isEmpty }
    }

    /// Past this many pending keys, new ones are dropped (and counted) until the next flush: memory stays bounded
    /// whatever clients send (a million made-up visitor ids in a few seconds).
    let capacity: Int
    let enabled: Bool
    let clock: @Sendable () -> Date
    private let state = Mutex(Pending())
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
        record { pending in
            pending.counts[CountKey(storeID: storeID, minute: minute, metric: 0), default: 0] += 1
            if let source {
                pending.counts[CountKey(storeID: storeID, minute: minute, metric: 6 + source.index), default: 0] += 1
            }
            pending.visitors.insert(VisitorKey(storeID: storeID, minute: minute, visitor: visitor))
        }
    }

    /// Stores shown as cards of `source`; a store listed twice in one answer counts once.
    public func shown<S: Sequence>(_ storeIDs: S, as source: InsightSource) where S.Element == String {
        guard enabled else { return }
        let minute = minute
        let metric = 1 + source.index
        record { pending in
            for id in Set(storeIDs) {
                pending.counts[CountKey(storeID: id, minute: minute, metric: metric), default: 0] += 1
            }
        }
    }

    /// Someone used the service (any page or API call).
    public func active(_ viewer: Viewer, address: String?) {
        guard enabled else { return }
        let key = ActiveKey(
            minute: minute, signedIn: viewer.user != nil, viewer: Self.visitorKey(viewer, address: address))
        record { pending in pending.active.insert(key) }
    }

    /// Signed-in users by account, visitors by `X-Visitor-Id`, anyone else by address.
    static func visitorKey(_ viewer: Viewer, address: String?) -> String {
        viewer.interestKey ?? "a:\(address ?? "?")"
    }

    private func record(_ change: (inout Pending) -> Void) {
        let kept = state.withLock { pending in
            guard pending.size < capacity else { return false }
            change(&pending)
            return true
        }
        if !kept { dropped.increment() }
    }

    /// Everything pending, leaving nothing.
    func take() -> Pending {
        state.withLock { pending in
            defer { pending = Pending() }
            return pending
        }
    }

    /// Puts back counts a failed flush took (as far as capacity allows), to be written by the next one.
    func restore(_ failed: Pending) {
        state.withLock { pending in
            for (key, count) in failed.counts where pending.size < capacity { pending.counts[key, default: 0] += count }
            for key in failed.visitors where pending.size < capacity { pending.visitors.insert(key) }
            for key in failed.active where pending.size < capacity { pending.active.insert(key) }
        }
    }

    var pendingSize: Int { state.withLock { $0.size } }
}
