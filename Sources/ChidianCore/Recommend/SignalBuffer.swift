import Foundation
import Metrics
import Synchronization

/// What requests teach the recommender, held in memory until `SignalFlusher` queues it (issue #44): store opens
/// (`StoreVisits.Open`) and viewer events (review opens, interest signals, feed showings). Recording costs a
/// request one lock and an append instead of statements in its path. Bounded: past `capacity` entries, or past
/// `perViewer` of one viewer's since the last `take` (no person opens 50 pages a second; a script that does must not
/// flood the batch), new ones are dropped (and counted) until the next flush; a failed flush puts its entries back
/// in front, in order.
public final class SignalBuffer: Sendable {
    package let capacity: Int
    package let perViewer: Int
    private let state = Mutex<State>(.init())
    private let dropped = Counter(label: "chidian_signals_dropped_total")

    private struct State {
        var pending = Pending()
        var counts: [String: Int] = [:]
        /// Each viewer's window of their last feed showing kept since the last `take`.
        var looks: [String: Int64] = [:]
    }

    package struct Pending: Sendable, Equatable {
        package var opens: [StoreVisits.Open] = []
        package var events: [ViewerEvent] = []

        package var count: Int { opens.count + events.count }
        package var isEmpty: Bool { opens.isEmpty && events.isEmpty }
    }

    public init(capacity: Int = 200_000, perViewer: Int = 50) {
        self.capacity = capacity
        self.perViewer = perViewer
    }

    package func record(_ open: StoreVisits.Open) {
        keep(open.viewer) { pending in pending.opens.append(open) }
    }

    package func record(_ event: ViewerEvent) {
        keep(event.viewer, look: Self.lookWindow(event)) { pending in pending.events.append(event) }
    }

    /// A feed showing's window of the clock: the drain applies one look per viewer per window (sql/041), so a
    /// repeat within it is dropped here, before it costs the queue anything.
    static func lookWindow(_ event: ViewerEvent) -> Int64? {
        switch event {
        case .page(_, _, let at), .shown(_, _, _, _, let at):
            Int64((at.timeIntervalSince1970 / InterestRepository.dedupeWindow).rounded(.down))
        default: nil
        }
    }

    private func keep(_ viewer: String, look: Int64? = nil, _ append: (inout Pending) -> Void) {
        // false: dropped for room (counted); a repeated look is no event at all.
        let kept = state.withLock { state -> Bool in
            if let look, state.looks[viewer] == look { return true }
            guard state.pending.count < capacity, state.counts[viewer, default: 0] < perViewer else { return false }
            if let look { state.looks[viewer] = look }
            state.counts[viewer, default: 0] += 1
            append(&state.pending)
            return true
        }
        if !kept { dropped.increment() }
    }

    /// Everything pending, in the order it happened; the buffer is empty after.
    package func take() -> Pending {
        state.withLock { state in
            defer { state = .init() }
            return state.pending
        }
    }

    /// A batch that was not written, back in front of what came since (as much as fits, oldest first).
    package func restore(_ batch: Pending) {
        state.withLock { state in
            let opens = batch.opens + state.pending.opens
            let events = batch.events + state.pending.events
            let room = max(0, capacity - opens.count)
            state.pending = .init(opens: Array(opens.prefix(capacity)), events: Array(events.prefix(room)))
        }
    }

    package var count: Int { state.withLock { $0.pending.count } }
}
