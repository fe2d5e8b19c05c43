import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// This server's open notification streams and the one connection (`LISTEN chidian_notifications`) that wakes
/// them. A payload names a user and a `seq`, never contents; a woken stream reads what it has not sent from
/// PostgreSQL itself. So a stream holds one flag however many notifications arrive while it writes (its memory is
/// bounded), and a missed wake-up (a lost listener connection) loses nothing: reconnecting wakes every stream.
public final class NotificationHub: Service, Sendable {
    static let channel = "chidian_notifications"
    package let client: PostgresClient
    package let logger: Logger
    /// Streams one user may hold open on this server, and streams in all.
    package let perUser: Int
    package let total: Int
    /// How often an idle stream writes a comment line, so proxies and clients see it alive.
    package let heartbeat: Duration
    private let state: Mutex<State>
    /// Heartbeat slices: every 25 ms one slice's streams are pinged, each stream once per `heartbeat`.
    let slices: Int

    struct State: ~Copyable {
        package var next = 0
        package var count = 0
        var byUser: [String: [Int: Subscriber]] = [:]
        /// The streams by heartbeat slice (id modulo `slices`).
        var bySlice: [[Int: Subscriber]]
        package var closed = false
    }

    public init(client: PostgresClient, logger: Logger, perUser: Int = 5, total: Int = 20_000, heartbeat: Duration) {
        self.client = client
        self.logger = logger
        self.perUser = perUser
        self.total = total
        self.heartbeat = heartbeat
        slices = max(1, Int(heartbeat / .milliseconds(25)))
        state = Mutex(State(bySlice: Array(repeating: [:], count: slices)))
    }

    /// One open stream: a wake-up signal (buffer of one) and whether new rows may be waiting.
    public final class Subscriber: Sendable {
        package let id: Int
        package let userID: String
        package let wakes: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation
        private let pending = Mutex<Bool>(true)

        package init(id: Int, userID: String) {
            self.id = id
            self.userID = userID
            (wakes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            continuation.yield()
        }

        /// New rows may be waiting.
        func notify() {
            pending.withLock { $0 = true }
            continuation.yield()
        }

        /// Time for a heartbeat (unless rows are due anyway).
        package func ping() { continuation.yield() }

        /// Whether rows may be waiting, clearing the flag.
        package func takePending() -> Bool {
            pending.withLock { value in
                defer { value = false }; return value
            }
        }

        package func finish() { continuation.finish() }
    }

    public enum Refusal: Error {
        case userLimit, serverLimit
    }

    /// A new stream for `userID`, or a refusal past the caps.
    func subscribe(userID: String) throws(Refusal) -> Subscriber {
        try state.withLock { state throws(Refusal) -> Subscriber in
            guard state.count < total, !state.closed else { throw .serverLimit }
            guard (state.byUser[userID]?.count ?? 0) < perUser else { throw .userLimit }
            state.next += 1
            let subscriber = Subscriber(id: state.next, userID: userID)
            state.byUser[userID, default: [:]][subscriber.id] = subscriber
            state.bySlice[subscriber.id % slices][subscriber.id] = subscriber
            state.count += 1
            return subscriber
        }
    }

    /// `subscribe`, but when the user is at the cap, first finds out whether their streams are still there: a
    /// browser that left a page closed its stream, which this server learns only at the next write. So each of
    /// the user's streams writes a heartbeat, and a stream whose client is gone ends at it; a few short tries.
    package func admit(userID: String) async throws(Refusal) -> Subscriber {
        for attempt in 1...4 {
            do {
                return try subscribe(userID: userID)
            } catch .userLimit where attempt < 4 {
                let theirs = state.withLock { Array(($0.byUser[userID] ?? [:]).values) }
                for subscriber in theirs { subscriber.ping() }
                try? await Task.sleep(for: .milliseconds(50 * attempt))
            }
        }
        return try subscribe(userID: userID)
    }

    package func unsubscribe(_ subscriber: Subscriber) {
        state.withLock { state in
            guard state.byUser[subscriber.userID]?.removeValue(forKey: subscriber.id) != nil else { return }
            if state.byUser[subscriber.userID]?.isEmpty == true { state.byUser[subscriber.userID] = nil }
            state.bySlice[subscriber.id % slices][subscriber.id] = nil
            state.count -= 1
        }
        subscriber.finish()
    }

    /// Streams open on this server.
    public var openStreams: Int { state.withLock { $0.count } }

    private func everyone() -> [Subscriber] { state.withLock { $0.byUser.values.flatMap(\.values) } }

    package func apply(_ payload: String) {
        guard let space = payload.firstIndex(of: " ") else { return }
        let userID = String(payload[..<space])
        let subscribers = state.withLock { Array(($0.byUser[userID] ?? [:]).values) }
        for subscriber in subscribers { subscriber.notify() }
    }

    public func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await cancelWhenGracefulShutdown { await self.listen() } }
            group.addTask { await cancelWhenGracefulShutdown { await self.beat() } }
            group.addTask { await cancelWhenGracefulShutdown { await self.fanOut() } }
            await group.waitForAll()
        }
        // Shutting down: end every stream so its connection closes and the server can stop.
        let all = state.withLock { state in
            state.closed = true
            return state.byUser.values.flatMap(\.values)
        }
        for subscriber in all { subscriber.finish() }
    }

    /// Heartbeats spread over the interval, a slice of the streams at a time: 10,000 streams pinged at once wrote
    /// 10,000 comments in one burst, and other requests queued behind it (p99 156 ms against 4 ms without streams).
    private func beat() async {
        var tick = 0
        while !Task.isCancelled {
            try? await Task.sleep(for: heartbeat / slices)
            tick = (tick + 1) % slices
            for subscriber in state.withLock({ Array($0.bySlice[tick].values) }) { subscriber.ping() }
        }
    }

    /// Works migration 023's outbox of reviews to tell their authors' followers of, a batch per transaction
    /// (every server does; `SKIP LOCKED` gives each batch to one), resting while there is nothing to do.
    private func fanOut() async {
        while !Task.isCancelled {
            var done = 0
            do {
                // Through `rows` (`whileOpen`): `client.query` could write to a connection the outage had closed
                // and wait for ever, and the hub, so the server, would never stop (a CI run's SIGTERM did not).
                done =
                    try await client.withConnection { connection in
                        try await connection.rows(
                            "SELECT notification_fanout_step(\(Self.fanOutBatch)::int)", logger: logger)
                    }.first?.decodeAll(Int.self) ?? 0
            } catch {
                // A deadlock with another server's batch or a lost connection: the batch is retried.
                if !Task.isCancelled {
                    logger.warning(
                        "notification fan-out failed; retrying", metadata: DatabaseErrors.metadata(any: error))
                }
            }
            if done == 0 { try? await Task.sleep(for: .milliseconds(200)) }
        }
    }

    /// Followers told per transaction: about 0.3 s of work (0.06 ms each, measured), so a review by someone
    /// followed by 100,000 reaches them all in about 8 s while nothing waits long on its locks.
    static let fanOutBatch = 5000

    private func listen() async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        // Whatever was committed while nobody listened: every stream looks.
                        for subscriber in self.everyone() { subscriber.notify() }
                        for try await notification in notifications { self.apply(notification.payload) }
                    }
                }
            } catch {
                if !Task.isCancelled {
                    logger.warning(
                        "notification listener lost PostgreSQL; listening again",
                        metadata: DatabaseErrors.metadata(any: error))
                }
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
