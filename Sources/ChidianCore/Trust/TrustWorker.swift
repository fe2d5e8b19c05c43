import Foundation
import Logging
import ServiceLifecycle

/// Judges the trust queue beside the requests (docs/TRUST.md): every second, the reviews that came due, in passes
/// until none is left. Every server runs one; they share the queue (SKIP LOCKED).
public struct TrustWorker: Service {
    package let trust: TrustService
    package let interval: Duration

    package init(trust: TrustService, interval: Duration = .seconds(1)) {
        self.trust = trust
        self.interval = interval
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
            while !Task.isCancelled, try await trust.judgeDue().due > 0 {}
        } catch {
            // The reviews stay queued (the pass was one transaction) and are judged on the next tick.
            trust.database.logger.warning(
                "trust pass failed; its reviews stay queued", metadata: DatabaseErrors.metadata(any: error))
        }
    }
}
