import Foundation
import Logging
import Metrics
import PostgresNIO
import Synchronization

/// The PostgreSQL pool with a bounded wait: PostgresNIO's pool otherwise waits forever for a connection
/// when the server is gone, which hangs requests and blocks shutdown.
public struct Database: Sendable {
    public let client: PostgresClient
    public let timeout: Duration
    public let logger: Logger
    /// The streaming replicas `forReads` may choose (on the primary's value), or nil.
    public let replicas: ReplicaSet?
    /// Set when this value is a replica's pool: a read it cannot serve goes to the primary.
    let replicaIndex: Int?
    /// Set when the pool's connections have a statement deadline that a route may lower.
    package let deadlines: StatementDeadlines?

    public init(
        client: PostgresClient, timeout: Duration, logger: Logger, replicas: ReplicaSet? = nil,
        replicaIndex: Int? = nil, deadlines: StatementDeadlines? = nil
    ) {
        self.client = client
        self.timeout = timeout
        self.logger = logger
        self.replicas = replicas
        self.replicaIndex = replicaIndex
        self.deadlines = deadlines
    }

    /// The pool for a read that tolerates a little staleness: inside a request that allows it (`ReadRouting`), a
    /// healthy replica that has replayed the client's last write; otherwise this pool.
    public var forReads: Database {
        guard let replicas, replicaIndex == nil, let floor = ReadRouting.floor,
            let index = replicas.choose(atLeast: floor.lsn)
        else { return self }
        return replicas.database(at: index)
    }

    public init(
        url: DatabaseURL, poolSize: Int, timeout: Duration, statementTimeout: Duration? = nil,
        idleInTransaction: Duration = .seconds(5), logger: Logger
    ) {
        var configuration = url.clientConfiguration
        configuration.options.maximumConnections = poolSize
        configuration.options.minimumConnections = 0
        configuration.options.connectTimeout = timeout
        // A connection abandoned inside a transaction (its client gave up during an outage) must not keep its
        // row locks: the server ends such sessions after a few seconds.
        configuration.options.additionalStartupParameters = [
            ("idle_in_transaction_session_timeout", String(StatementDeadlines.milliseconds(idleInTransaction)))
        ]
        // The server's deadline for each statement: PostgreSQL cancels it there, so a client that gave up never
        // leaves a statement running.
        if let statementTimeout {
            let milliseconds = StatementDeadlines.milliseconds(statementTimeout)
            configuration.options.additionalStartupParameters.append(("statement_timeout", String(milliseconds)))
        }
        self.init(
            client: PostgresClient(configuration: configuration, backgroundLogger: logger.poolBackground),
            timeout: timeout,
            logger: logger, deadlines: statementTimeout.map(StatementDeadlines.init))
    }

    /// Set by `WriteFenceMiddleware` around a request: marks that it ran a statement on the primary. A request that
    /// ran none committed nothing, so its answer need not wait for the caches' fence.
    @TaskLocal package static var primaryUsed: StartFlag?

    /// The same pool with another bound on the wait for a connection (the CLI's long work waits longer).
    public func with(timeout: Duration) -> Database {
        Database(
            client: client, timeout: timeout, logger: logger, replicas: replicas, replicaIndex: replicaIndex,
            deadlines: deadlines)
    }

    /// Runs `body` on a pooled connection. Waiting for the connection is bounded by `timeout`;
    /// once `body` has started it is not interrupted (a half-run statement helps nobody). On a replica that
    /// fails, the read runs again on the primary (reads are safe to repeat) and the replica is skipped until the
    /// monitor sees it answer.
    public func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        guard let replicaIndex, let replicas else { return try await acquire(body) }
        do {
            return try await acquire(body)
        } catch let error as DatabaseUnavailable {
            replicas.markDown(replicaIndex, error.reason)
            return try await replicas.primary.withConnection(body)
        } catch let error as PSQLError where error.serverCode == .serializationFailure {
            // Cancelled by a conflict with recovery (the replica replaying a change the read needed): not a fault of
            // the replica's, so it stays in use.
            return try await replicas.primary.withConnection(body)
        }
    }

    private func acquire<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        if replicaIndex == nil { Self.primaryUsed?.set() }
        let started = StartFlag()
        let client = self.client
        let timeout = self.timeout
        let deadlines = self.deadlines
        let logger = self.logger
        let waits = replicaIndex == nil ? Self.primaryWaits : Self.replicaWaits
        let asked = ContinuousClock.now
        do {
            return try await withThrowingTaskGroup(of: Outcome<T>.self) { group in
                group.addTask {
                    .value(
                        try await client.withConnection { connection in
                            started.set()
                            waits.record(asked.duration(to: .now))
                            try await deadlines?.prepare(connection, logger: logger)
                            return try await body(connection)
                        })
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return .deadline
                }
                while let outcome = try await group.next() {
                    switch outcome {
                    case .value(let value):
                        group.cancelAll()
                        return value
                    case .deadline where !started.isSet:
                        group.cancelAll()
                        waits.record(timeout)
                        throw DatabaseUnavailable(reason: "no connection within \(timeout)")
                    case .deadline:
                        continue
                    }
                }
                throw DatabaseUnavailable(reason: "connection attempt ended")
            }
        } catch let error as PSQLError where error.isConnectionFailure {
            throw DatabaseUnavailable(reason: "\(error.code)")
        } catch is CancellationError where !started.isSet {
            throw DatabaseUnavailable(reason: "cancelled while waiting for a connection")
        }
    }

    /// `chidian_db_connection_wait_seconds{pool}`: how long a statement waited for a pooled connection (a wait that
    /// timed out counts as the whole bound). Made after the metrics backend exists, like the caches' counters.
    static let primaryWaits = waitTimer("primary")
    static let replicaWaits = waitTimer("replica")
    private static func waitTimer(_ pool: String) -> Metrics.Timer {
        _ = MetricsRegistry.shared
        return Metrics.Timer(label: "chidian_db_connection_wait_seconds", dimensions: [("pool", pool)])
    }

    /// Runs `body` in a transaction on a pooled connection (see `PostgresConnection.transaction`).
    public func transaction<T: Sendable>(
        _ kind: TransactionKind = .readWrite, idle: Duration? = nil,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let logger = self.logger
        return try await withConnection { connection in
            try await connection.transaction(kind, idle: idle, logger: logger) { try await body(connection) }
        }
    }

    /// Runs one unnamed statement and returns all its rows.
    @discardableResult
    public func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        let logger = self.logger
        return try await withConnection { try await $0.rows(query, logger: logger) }
    }

    /// Runs one named prepared statement and returns its decoded rows.
    public func run<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row]
    where Statement.Row: Sendable {
        let logger = self.logger
        return try await withConnection { try await $0.run(statement, logger: logger) }
    }
}

/// How a transaction begins.
public enum TransactionKind: Sendable {
    /// READ COMMITTED, read-write: every request's writes.
    case readWrite
    /// One consistent snapshot for a long read (REPEATABLE READ READ ONLY).
    case snapshot

    package var begin: PostgresQuery {
        switch self {
        case .readWrite: "BEGIN"
        case .snapshot: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        }
    }
}

extension PostgresConnection {
    /// The one way to run a transaction: `body` runs between BEGIN and COMMIT on this connection, awaited before
    /// the connection can go back to its pool; any error rolls back and is rethrown.
    ///
    /// `idle`: how long the transaction may wait on its client between statements (zero: for ever), for work that
    /// runs Swift between them (imports, exports, migrations) instead of the pool's 5 s meant for abandoned
    /// sessions. It is set for the session before BEGIN, since a starved client can already pause 5 s between
    /// BEGIN and a `SET LOCAL` (a shake saw an import's connection ended so), and reset after.
    public func transaction<T>(
        _ kind: TransactionKind = .readWrite, idle: Duration? = nil, logger: Logger, _ body: () async throws -> T
    ) async throws -> T {
        if let idle {
            let milliseconds = String(StatementDeadlines.milliseconds(idle))
            try await rows(
                "SELECT set_config('idle_in_transaction_session_timeout', \(milliseconds), false)", logger: logger)
        }
        try await rows(kind.begin, logger: logger)
        do {
            let value = try await body()
            try await rows("COMMIT", logger: logger)
            if idle != nil { try await rows("RESET idle_in_transaction_session_timeout", logger: logger) }
            return value
        } catch {
            _ = try? await rows("ROLLBACK", logger: logger)
            if idle != nil { _ = try? await rows("RESET idle_in_transaction_session_timeout", logger: logger) }
            throw error
        }
    }
}

extension Metrics.Timer {
    fileprivate func record(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

private enum Outcome<T: Sendable>: Sendable {
    case value(T)
    case deadline
}

package final class StartFlag: Sendable {
    package init() {}
    private let flag = Atomic<Bool>(false)
    package func set() { flag.store(true, ordering: .relaxed) }
    package var isSet: Bool { flag.load(ordering: .relaxed) }
}

/// The database could not be reached in time; answered 503 `database_unavailable` with `Retry-After`.
public struct DatabaseUnavailable: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "database unavailable: \(reason)" }
}

extension PSQLError {
    /// Failures that mean "the server is not there", as opposed to a bad statement.
    var isConnectionFailure: Bool {
        switch code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed,
            .uncleanShutdown, .sslUnsupported, .failedToAddSSLHandler, .messageDecodingFailure:
            return true
        case .server:
            // 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 08xxx connection exceptions, and
            // 25006 read_only_sql_transaction: a write reached a standby, which happens only while a failover moves
            // the primary (HAProxy routes writes to the new one within a second).
            let state = serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("57P") || state.hasPrefix("08") || state == "25006"
        default:
            return false
        }
    }

    /// The SQLSTATE of a server error as PostgresNIO names it (`.uniqueViolation`, …); nil for client-side failures.
    public var serverCode: PostgresError.Code? { serverInfo?[.sqlState].map(PostgresError.Code.init(raw:)) }

    /// SQLSTATE class 22, data exception: a bound value PostgreSQL could not read as its type (a forged cursor).
    var isDataException: Bool { serverCode?.raw.hasPrefix("22") == true }
}
