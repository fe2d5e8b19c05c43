import Foundation
import Logging
import ServiceLifecycle

/// Judges the trust queue beside the requests (docs/TRUST.md): every second, the reviews that came due, in passes
/// until none is left. Every server runs one; they share the queue (SKIP LOCKED). While requests keep the server
/// busy it takes only reviews overdue by `lagWhileBusy`: judging yields the cores to the requests and catches up
/// when they pause, and a review is still judged within the contract's 60 s.
public struct TrustWorker: Service {
    package let trust: TrustService
    package let interval: Duration
    package let busy: @Sendable () -> Bool
    package let lagWhileBusy: TimeInterval

    package init(
        trust: TrustService, interval: Duration = .seconds(1), busy: @escaping @Sendable () -> Bool = { false },
        lagWhileBusy: TimeInterval = 30
    ) {
        self.trust = trust
        self.interval = interval
        self.busy = busy
        self.lagWhileBusy = lagWhileBusy
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                await drain()
            }
        }
    }

    private func drain() async {
        do {
            while !Task.isCancelled {
                let bound = busy() ? Date().addingTimeInterval(-lagWhileBusy) : nil
                guard try await trust.judgeDue(now: bound).due > 0 else { break }
            }
        } catch {
            // The reviews stay queued (the pass was one transaction) and are judged on the next tick.
            trust.database.logger.warning(
                "trust pass failed; its reviews stay queued", metadata: DatabaseErrors.metadata(any: error))
        }
    }
}
