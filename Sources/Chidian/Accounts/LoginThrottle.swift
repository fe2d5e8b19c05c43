import Foundation
import Synchronization

/// Counts failed logins per name and per client address in a sliding window. Past the limit, further
/// attempts are refused (429) before any password work, so an attack on one name slows nobody else.
/// In memory: one process's view, which is what a single server needs.
public final class LoginThrottle: Sendable {
    public struct Policy: Sendable {
        public var window: Duration
        public var maxFailuresPerName: Int
        public var maxFailuresPerAddress: Int

        public init(window: Duration = .seconds(15 * 60), maxFailuresPerName: Int = 5, maxFailuresPerAddress: Int = 30) {
            self.window = window
            self.maxFailuresPerName = maxFailuresPerName
            self.maxFailuresPerAddress = maxFailuresPerAddress
        }
    }

    let policy: Policy
    let now: @Sendable () -> ContinuousClock.Instant
    private let failures = Mutex<[String: [ContinuousClock.Instant]]>([:])

    public init(policy: Policy = Policy(), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.policy = policy
        self.now = now
    }

    private func keys(name: String, address: String?) -> [(String, Int)] {
        var keys = [("n:" + name.lowercased(), policy.maxFailuresPerName)]
        if let address { keys.append(("a:" + address, policy.maxFailuresPerAddress)) }
        return keys
    }

    /// Seconds until another attempt is allowed, or nil when allowed now.
    public func retryAfter(name: String, address: String?) -> Int? {
        let now = self.now()
        let cutoff = now - policy.window
        return failures.withLock { table in
            var wait: Duration? = nil
            for (key, limit) in keys(name: name, address: address) {
                let recent = (table[key] ?? []).filter { $0 > cutoff }
                table[key] = recent.isEmpty ? nil : recent
                if recent.count >= limit {
                    // Allowed again when the oldest failure that keeps it at the limit leaves the window.
                    let until = recent[recent.count - limit] + policy.window - now
                    wait = max(wait ?? .zero, until)
                }
            }
            return wait.map { max(1, Int(($0.components.seconds) + ($0.components.attoseconds > 0 ? 1 : 0))) }
        }
    }

    public func recordFailure(name: String, address: String?) {
        let now = self.now()
        failures.withLock { table in
            if table.count > 100_000 { table.removeAll() }  // bound memory under a flood of names
            for (key, _) in keys(name: name, address: address) { table[key, default: []].append(now) }
        }
    }

    /// A successful login clears the name's failures (not the address's).
    public func recordSuccess(name: String) {
        _ = failures.withLock { $0.removeValue(forKey: "n:" + name.lowercased()) }
    }
}
