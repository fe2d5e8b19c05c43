import Foundation
import Metrics
import PostgresNIO
import Synchronization

/// Sessions used after a minute's rest, whose sliding expiry is written beside the request: the check that every
/// authenticated request may run stays a read, and one statement a second slides them all (a rush of 10,000
/// first requests wrote 10,000 rows one by one). A crash loses at most a second of slides, which only moves an
/// expiry a month away by that second. Bounded: past `capacity` distinct sessions until the next write, new ones
/// are dropped (and counted); their next use records them again.
public final class SessionTouches: Sendable {
    package let database: Database
    package let lifetimeSeconds: Double
    package let maxLifetimeSeconds: Double
    package let capacity: Int
    /// Token hashes in hex.
    private let pending = Mutex<Set<String>>([])
    private let dropped = Counter(label: "chidian_session_touches_dropped_total")

    public init(database: Database, lifetime: Duration, maxLifetime: Duration, capacity: Int = 100_000) {
        self.database = database
        lifetimeSeconds = Double(lifetime.components.seconds)
        maxLifetimeSeconds = Double(maxLifetime.components.seconds)
        self.capacity = capacity
    }

    package func record(_ tokenHash: [UInt8]) {
        let hex = ImageDigest.hex(tokenHash)
        let kept = pending.withLock { set in
            guard set.count < capacity else { return set.contains(hex) }
            set.insert(hex)
            return true
        }
        if !kept { dropped.increment() }
    }

    /// Slides every recorded session in one statement, locked in key order (servers writing the same sessions
    /// never deadlock); on failure keeps them for the next write and rethrows.
    public func write() async throws {
        let hashes = pending.withLock { set in
            defer { set.removeAll() }
            return set.sorted()
        }
        guard !hashes.isEmpty else { return }
        do {
            try await database.query(
                """
                WITH locked AS (
                    SELECT token_hash FROM sessions
                    WHERE token_hash IN (SELECT decode(h, 'hex') FROM unnest(\(hashes)::text[]) h)
                      AND revoked_at IS NULL AND last_used_at < now() - interval '1 minute'
                    ORDER BY token_hash FOR NO KEY UPDATE
                )
                UPDATE sessions s SET last_used_at = now(),
                    expires_at = least(now() + make_interval(secs => \(lifetimeSeconds)),
                        s.created_at + make_interval(secs => \(maxLifetimeSeconds)))
                FROM locked WHERE s.token_hash = locked.token_hash
                """)
        } catch {
            pending.withLock { set in
                for hash in hashes where set.count < capacity { set.insert(hash) }
            }
            throw error
        }
    }
}
