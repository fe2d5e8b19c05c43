import Foundation
import Logging
import ServiceLifecycle

/// Every `interval`: appends this server's `SignalBuffer` to the `SignalQueue` in one statement, then drains
/// what every server appended before `lag` ago (one server at a time), so that events arrive from all servers
/// before they are applied in time order; and writes the sessions' slides (`SessionTouches`). Once more on a clean
/// stop, applying everything queued. A crash loses at most the interval.
public struct SignalFlusher: Service {
    package let buffer: SignalBuffer
    package let queue: SignalQueue
    package let touches: SessionTouches?
    package let interval: Duration
    /// How old an event must be to be applied: longer than a server takes to queue it.
    package let lag: Duration
    package let clock: @Sendable () -> Date
    package let logger: Logger

    public init(
        buffer: SignalBuffer, queue: SignalQueue, touches: SessionTouches? = nil, interval: Duration,
        clock: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.buffer = buffer
        self.queue = queue
        self.touches = touches
        self.interval = interval
        lag = interval + .seconds(1)
        self.clock = clock
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                await logging("session slides not written; kept for the next flush") { try await touches?.write() }
                await logging("signals not written; kept for the next flush") {
                    try await push()
                    // The lag is wall time; a sped-up server clock (CLOCK_RATE) covers more of its own in it.
                    let lagSeconds =
                        (Double(lag.components.seconds) + Double(lag.components.attoseconds) / 1e18)
                        * (ServerClock.current?.rate ?? 1)
                    try await queue.drain(before: clock().addingTimeInterval(-lagSeconds))
                }
            }
        }
        await logging("session slides not written at the stop") { try await touches?.write() }
        await logging("signals not written at the stop") { try await flush() }
    }

    private func logging(_ message: Logger.Message, _ body: () async throws -> Void) async {
        do { try await body() } catch {
            logger.warning(message, metadata: DatabaseErrors.metadata(any: error))
        }
    }

    /// Appends everything pending to the queue; on failure puts it back and rethrows.
    public func push() async throws {
        let batch = buffer.take()
        guard !batch.isEmpty else { return }
        do {
            try await queue.push(batch)
        } catch {
            buffer.restore(batch)
            throw error
        }
    }

    /// Appends and applies everything now, whatever its time (tests, the CLI).
    public func flush() async throws {
        try await touches?.write()
        try await push()
        try await queue.drain(before: .distantFuture)
    }
}
