import Foundation
import Metrics
import Synchronization

/// What requests teach the recommender, held in memory until `SignalFlusher` queues it (issue #44): store opens
/// (`StoreVisits.Open`) and viewer events (review opens, interest signals, feed showings). Recording costs a
/// request one lock and an append instead of statements in its path. Bounded: past
/// `capacity` entries, new ones are dropped (and counted) until the next flush; a failed flush puts its entries
/// back in front, in order.
public final class SignalBuffer: Sendable {
    package let capacity: Int
    private let pending = Mutex<Pending>(.init())
    private let dropped = Counter(label: "chidian_signals_dropped_total")

    package struct Pending: Sendable, Equatable {
        package var opens: [StoreVisits.Open] = []
        package var events: [ViewerEvent] = []

        package var count: Int { opens.count + events.count }
        package var isEmpty: Bool { opens.isEmpty && events.isEmpty }
    }

    public init(capacity: Int = 200_000) {
        self.capacity = capacity
    }

    package func record(_ open: StoreVisits.Open) {
        keep { pending in pending.opens.append(open) }
    }

    package func record(_ event: ViewerEvent) {
        keep { pending in pending.events.append(event) }
    }

    private func keep(_ append: (inout Pending) -> Void) {
        let kept = pending.withLock { pending -> Bool in
            guard pending.count < capacity else { return false }
            append(&pending)
            return true
        }
        if !kept { dropped.increment() }
    }

    /// Everything pending, in the order it happened; the buffer is empty after.
    package func take() -> Pending {
        pending.withLock { pending in
            defer { pending = .init() }
            return pending
        }
    }

    /// A batch that was not written, back in front of what came since (as much as fits, oldest first).
    package func restore(_ batch: Pending) {
        pending.withLock { pending in
            let opens = batch.opens + pending.opens
            let events = batch.events + pending.events
            let room = max(0, capacity - opens.count)
            pending = .init(opens: Array(opens.prefix(capacity)), events: Array(events.prefix(room)))
        }
    }

    package var count: Int { pending.withLock { $0.count } }
}
