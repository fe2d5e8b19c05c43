import Foundation
import Logging
import Metrics
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Hears migration 016's invalidations on one connection of the pool (`LISTEN chidian_cache`) and applies them to
/// this server's caches. Its own heartbeat, a NOTIFY every 150 ms carrying the time it was sent, proves the path
/// works: a cache serves only while the last heartbeat heard was sent within its freshness (900 ms), so every
/// write committed more than that ago has been applied, in every server. Lost connection: caches empty and go quiet
/// until it listens again.
public final class CacheListener: Service, Sendable {
    static let channel = "chidian_cache"
    package let client: PostgresClient
    package let caches: [ReadCache]
    package let logger: Logger
    /// Tells this server's own heartbeats and fences from other servers'.
    package let process = String(UUID().uuidString.prefix(8))
    private let fences = Mutex<Fences>(Fences())
    /// The listening connection while it listens: fences go out on it, as heartbeats do, so a write's fence never
    /// queues for a pooled connection behind the requests it is meant to outrun.
    private let listening = Mutex<PostgresConnection?>(nil)
    /// Fence NOTIFYs sent (tests count them).
    package let fenceStatements = Atomic<Int>(0)
    /// Whether its own first heartbeat has been heard, and who waits for that (`started`).
    private let start = Mutex<(heard: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))
    /// `chidian_cache_heartbeat_heard_timestamp_seconds`: when (Unix time) this server last heard its own heartbeat.
    /// It stops moving while the listener is deaf, so an alert watches `time() - it` (scripts/cluster/alerts.yml).
    private let heardAt: Gauge
    /// `chidian_cache_fence_wait_seconds`: how long a write waited for its fence (part of its response time).
    private let fenceWaits: Metrics.Timer

    struct Fences: ~Copyable {
        package var next: UInt64 = 0
        /// Callers since the last fence NOTIFY was sent: they wait for the next one.
        var pending: [CheckedContinuation<Bool, Never>] = []
        var sending = false
        /// Sent and not yet heard, by number.
        var waiting: [UInt64: [CheckedContinuation<Bool, Never>]] = [:]
    }

    public init(client: PostgresClient, caches: [ReadCache], logger: Logger) {
        self.client = client
        self.caches = caches
        self.logger = logger
        _ = MetricsRegistry.shared
        heardAt = Gauge(label: "chidian_cache_heartbeat_heard_timestamp_seconds")
        fenceWaits = Metrics.Timer(label: "chidian_cache_fence_wait_seconds")
    }

    public func run() async throws {
        // Ends with the server's graceful shutdown, like the pool it listens on.
        await cancelWhenGracefulShutdown { await self.listen() }
    }

    private func listen() async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        // Anything stored while nobody listened may be stale.
                        for cache in caches { cache.removeAll() }
                        listening.withLock { $0 = connection }
                        defer { listening.withLock { $0 = nil } }
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask { try await self.beat(on: connection) }
                            group.addTask {
                                for try await notification in notifications { self.apply(notification.payload) }
                            }
                            _ = try await group.next()
                            group.cancelAll()
                        }
                    }
                }
            } catch {
                if !Task.isCancelled {
                    logger.warning(
                        "cache listener lost PostgreSQL; caches off until it listens again",
                        metadata: DatabaseErrors.metadata(any: error))
                }
            }
            for cache in caches { cache.silence() }
            releaseFences(heard: false)
            try? await Task.sleep(for: .seconds(1))
        }
    }

    private func beat(on connection: PostgresConnection) async throws {
        while true {
            let payload = "beat:\(process):\(Monotonic.nanoseconds)"
            try await connection.rows("SELECT pg_notify(\(Self.channel), \(payload))", logger: logger)
            for cache in caches { cache.report() }
            try await Task.sleep(for: .milliseconds(150))
        }
    }

    package func apply(_ payload: String) {
        if payload.hasPrefix("beat:") || payload.hasPrefix("fence:") {
            let parts = payload.split(separator: ":")
            guard parts.count == 3, parts[1] == process, let number = UInt64(parts[2]) else { return }
            if parts[0] == "beat" {
                for cache in caches { cache.heard(sentAt: Int64(number)) }
                heardAt.record(Date().timeIntervalSince1970)
                let waiting = start.withLock { state in
                    defer { state = (true, []) }
                    return state.waiting
                }
                for waiter in waiting { waiter.resume() }
            } else {
                release(number, heard: true)
            }
            return
        }
        if payload.hasPrefix("search:") {
            // A review's text or a store's score (migration 019): only search pages can show it.
            guard let event = SearchInvalidation.Event(payload: payload.dropFirst(7)) else {
                for cache in caches { cache.invalidate("search") }
                return
            }
            let (matcher, prefilter, keys) = (event.matcher, event.prefilter, event.keys)
            for cache in caches where cache.holdsSearches {
                cache.invalidate(matching: matcher, prefilter: prefilter, keys: keys, fallback: "search")
            }
            return
        }
        for cache in caches { cache.invalidate(payload) }
    }

    /// Returns once this listener has heard its own first heartbeat (at once after that): the event a caller that
    /// needs the caches serving awaits, instead of polling their liveness against a clock.
    public func started() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let heard = start.withLock { state in
                if !state.heard { state.waiting.append(continuation) }
                return state.heard
            }
            if heard { continuation.resume() }
        }
    }

    /// Returns once this server has applied every invalidation committed before the call: a client that has just
    /// written never reads its write stale from this server. Waits at most 1 s, then empties the caches instead (at
    /// once while the listener has no connection: nothing would hear the fence). Whether the fence was heard: an
    /// unheard one may leave invalidations still on their way, to be applied when they arrive.
    @discardableResult
    public func fence() async -> Bool {
        guard caches.contains(where: \.isLive) else { return true }
        let started = ContinuousClock.now
        defer { fenceWaits.record(duration: started.duration(to: .now)) }
        let heard = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let send = fences.withLock { state -> Bool in
                state.pending.append(continuation)
                defer { state.sending = true }
                return !state.sending
            }
            if send { Task { await self.sendFences() } }
        }
        if !heard { for cache in caches { cache.removeAll() } }
        return heard
    }

    /// One NOTIFY for all the callers that gathered while the previous one was sent, until none is left: under load
    /// one statement fences many writes (a NOTIFY per write halved the rate of refused coupon claims).
    private func sendFences() async {
        while true {
            let number = fences.withLock { state -> UInt64? in
                guard !state.pending.isEmpty else {
                    state.sending = false
                    return nil
                }
                state.next += 1
                state.waiting[state.next] = state.pending
                state.pending = []
                return state.next
            }
            guard let number else { return }
            let payload = "fence:\(process):\(number)"
            fenceStatements.add(1, ordering: .relaxed)
            // Armed before the send: a NOTIFY that waits (PostgreSQL's notify lock, under load) still bounds the wait.
            Task {
                try? await Task.sleep(for: .seconds(1))
                self.release(number, heard: false)
            }
            guard let connection = listening.withLock({ $0 }),
                (try? await connection.rows("SELECT pg_notify(\(Self.channel), \(payload))", logger: logger)) != nil
            else {
                release(number, heard: false)
                continue
            }
        }
    }

    private func release(_ number: UInt64, heard: Bool) {
        let waiters = fences.withLock { $0.waiting.removeValue(forKey: number) } ?? []
        for waiter in waiters { waiter.resume(returning: heard) }
    }

    private func releaseFences(heard: Bool) {
        let all = fences.withLock { state in
            defer { state.waiting = [:] }
            return state.waiting.values.flatMap { $0 }
        }
        for waiter in all { waiter.resume(returning: heard) }
    }
}
