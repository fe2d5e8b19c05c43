import Logging
import Metrics
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Pools on PostgreSQL streaming replicas (`DATABASE_READ_URLS`) and what the monitor last saw of each. A
/// replica serves a read only while it answers, lags at most `maxLag` and has replayed the reader's last write.
public final class ReplicaSet: Sendable {
    public struct Status: Sendable, Equatable {
        public var healthy: Bool
        public var replayLSN: LSN?
        public var lagSeconds: Double?
        /// Why it is not serving, when it is not.
        public var problem: String?

        package static let unknown = Status(healthy: false, problem: "not checked yet")
    }

    package let databases: [Database]
    /// The primary's client, for reads a replica could not serve.
    package let primary: Database
    package let maxLag: Double
    private let statuses: Mutex<[Status]>
    /// The primary's WAL position when the monitor first reached it, after this server migrated: a replica that
    /// has not replayed that far may lack the tables and functions this server's statements use.
    private let startLSN = Mutex<LSN?>(nil)
    private let turn = Atomic<Int>(0)
    private let reads: [Counter]

    /// `replicas` are pools on the replicas; their connection wait should be short, since a read that cannot get
    /// one goes to the primary instead.
    public init(primary: Database, replicas: [Database], maxLag: Duration) {
        self.primary = primary
        self.maxLag = Double(maxLag.components.seconds) + Double(maxLag.components.attoseconds) / 1e18
        databases = replicas
        statuses = Mutex(Array(repeating: .unknown, count: replicas.count))
        reads = (["primary"] + replicas.indices.map { "replica\($0 + 1)" }).map {
            Counter(label: "chidian_db_reads_total", dimensions: [("pool", $0)])
        }
    }

    public var snapshot: [Status] { statuses.withLock { $0 } }

    /// A replica for a read that must see `floor` (the reader's last write), round robin; nil: use the primary.
    package func choose(atLeast floor: LSN?) -> Int? {
        let current = snapshot
        let usable = current.indices.filter { index in
            let status = current[index]
            guard status.healthy, let lag = status.lagSeconds, lag <= maxLag else { return false }
            guard let floor else { return true }
            return status.replayLSN.map { $0 >= floor } ?? false
        }
        guard !usable.isEmpty else {
            reads[0].increment()
            return nil
        }
        let index = usable[turn.add(1, ordering: .relaxed).newValue % usable.count]
        reads[index + 1].increment()
        return index
    }

    func markDown(_ index: Int, _ problem: String) {
        record(Status(healthy: false, problem: problem), at: index)
    }

    func record(_ status: Status, at index: Int) {
        statuses.withLock { $0[index] = status }
    }

    /// One look at every replica: is it a replica, how far has it replayed, how far behind the primary is it.
    package func check() async {
        let primaryLSN = try? await primary.with(timeout: .seconds(1)).query("SELECT pg_current_wal_lsn()::text")
            .first.flatMap { try? $0.decode(String.self) }.flatMap { LSN(Substring($0)) }
        let schemaLSN = startLSN.withLock { start in
            if start == nil { start = primaryLSN }
            return start
        }
        for (index, replica) in databases.enumerated() {
            let status: Status
            do {
                let row = try await replica.query(
                    """
                    SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn()::text,
                           EXTRACT(epoch FROM now() - pg_last_xact_replay_timestamp())::float8
                    """
                ).first
                let (recovering, replayed, sinceReplay) =
                    try row?.decode((Bool, String?, Double?).self) ?? (false, nil, nil)
                let replay = replayed.flatMap { LSN(Substring($0)) }
                if !recovering {
                    status = Status(healthy: false, problem: "not a replica (not in recovery)")
                } else if let schemaLSN, replay.map({ $0 < schemaLSN }) ?? true {
                    status = Status(
                        healthy: false, replayLSN: replay, problem: "has not replayed this server's schema yet")
                } else if schemaLSN == nil {
                    status = Status(healthy: false, replayLSN: replay, problem: "primary not reached yet")
                } else if let replay, let primaryLSN, replay >= primaryLSN {
                    // Caught up with what the primary had written when this check began.
                    status = Status(healthy: true, replayLSN: replay, lagSeconds: 0)
                } else {
                    // Behind: by at most the time since its last replayed commit (unknown: not usable).
                    let lag = sinceReplay.map { max(0, $0) }
                    let within = lag.map { $0 <= maxLag } ?? false
                    status = Status(
                        healthy: within, replayLSN: replay, lagSeconds: lag,
                        problem: within ? nil : "lags more than \(maxLag) s")
                }
            } catch {
                status = Status(healthy: false, problem: "unreachable")
            }
            record(status, at: index)
        }
    }

    /// The pool a read runs on once `choose` picked replica `index`.
    package func database(at index: Int) -> Database {
        Database(
            client: databases[index].client, timeout: databases[index].timeout, logger: databases[index].logger,
            replicas: self, replicaIndex: index, deadlines: databases[index].deadlines)
    }
}

/// Checks the replicas a few times a second, until the server shuts down.
public struct ReplicaMonitor: Service {
    package let replicas: ReplicaSet
    package let interval: Duration

    public init(replicas: ReplicaSet, interval: Duration = .milliseconds(250)) {
        self.replicas = replicas
        self.interval = interval
    }

    public func run() async throws {
        // Shutdown cancels the sleep: the normal end, not a failure.
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await replicas.check()
                try await Task.sleep(for: interval)
            }
        }
    }
}

/// Which requests may read from a replica, and how fresh it must be: set per request by `ReadYourWritesMiddleware`.
public enum ReadRouting {
    public struct Floor: Sendable {
        /// The client's last write, which a replica must have replayed to serve it.
        public let lsn: LSN?
    }

    /// Nil (writes, the CLI, background work): every statement runs on the primary.
    @TaskLocal public static var floor: Floor?
}
