import Foundation
import Logging
import Metrics
import ServiceLifecycle
import Synchronization

/// Store opens held in memory until `VisitFlusher` writes them (issue #44): recording an open costs a request one
/// lock and an append instead of a statement of up to 50 pair upserts. Bounded: past `capacity` opens, new ones are
/// dropped (and counted) until the next flush; a failed flush puts its opens back in front, in order.
public final class VisitBuffer: Sendable {
    package let capacity: Int
    private let pending = Mutex<[StoreVisits.Open]>([])
    private let dropped = Counter(label: "chidian_visit_opens_dropped_total")

    public init(capacity: Int = 200_000) {
        self.capacity = capacity
    }

    package func record(_ open: StoreVisits.Open) {
        let kept = pending.withLock { opens -> Bool in
            guard opens.count < capacity else { return false }
            opens.append(open)
            return true
        }
        if !kept { dropped.increment() }
    }

    /// Everything pending, in the order it happened; the buffer is empty after.
    package func take() -> [StoreVisits.Open] {
        pending.withLock { opens in
            defer { opens = [] }
            return opens
        }
    }

    /// A batch that was not written, back in front of what came since (as much as fits).
    package func restore(_ opens: [StoreVisits.Open]) {
        pending.withLock { pending in
            pending = Array((opens + pending).prefix(capacity))
        }
    }

    package var count: Int { pending.withLock { $0.count } }
}

/// Writes a `VisitBuffer` every `interval` in one statement (`StoreVisits.write`), and once more on a clean stop.
public struct VisitFlusher: Service {
    package let buffer: VisitBuffer
    package let visits: StoreVisits
    package let interval: Duration
    package let logger: Logger

    public init(buffer: VisitBuffer, visits: StoreVisits, interval: Duration, logger: Logger) {
        self.buffer = buffer
        self.visits = visits
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                await flushLogging()
            }
        }
        await flushLogging()
    }

    private func flushLogging() async {
        do { try await flush() } catch {
            logger.warning(
                "store opens not written; kept for the next flush", metadata: DatabaseErrors.metadata(any: error))
        }
    }

    /// Writes everything pending; on failure puts it back and rethrows.
    public func flush() async throws {
        let opens = buffer.take()
        guard !opens.isEmpty else { return }
        do {
            try await visits.write(opens)
        } catch {
            buffer.restore(opens)
            throw error
        }
    }
}
