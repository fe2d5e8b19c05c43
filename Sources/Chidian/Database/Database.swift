import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The PostgreSQL pool with a bounded wait: PostgresNIO's pool otherwise waits forever for a connection
/// when the server is gone, which hangs requests and blocks shutdown.
public struct Database: Sendable {
    public let client: PostgresClient
    public let timeout: Duration
    public let logger: Logger

    public init(client: PostgresClient, timeout: Duration, logger: Logger) {
        self.client = client
        self.timeout = timeout
        self.logger = logger
    }

    public init(url: DatabaseURL, poolSize: Int, timeout: Duration, logger: Logger) {
        var configuration = url.clientConfiguration
        configuration.options.maximumConnections = poolSize
        configuration.options.minimumConnections = 0
        configuration.options.connectTimeout = timeout
        // A connection abandoned inside a transaction (its client gave up during an outage) must not keep its
        // row locks: the server ends such sessions after a few seconds.
        configuration.options.additionalStartupParameters = [("idle_in_transaction_session_timeout", "5000")]
        self.init(client: PostgresClient(configuration: configuration, backgroundLogger: logger), timeout: timeout, logger: logger)
    }

    /// Runs `body` on a pooled connection. Waiting for the connection is bounded by `timeout`;
    /// once `body` has started it is not interrupted (a half-run statement helps nobody).
    public func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let started = StartFlag()
        let client = self.client
        let timeout = self.timeout
        do {
            return try await withThrowingTaskGroup(of: Outcome<T>.self) { group in
                group.addTask {
                    .value(try await client.withConnection { connection in
                        started.set()
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

    /// Runs `body` inside BEGIN/COMMIT; any error rolls back.
    public func transaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let logger = self.logger
        return try await withConnection { connection in
            try await connection.rows("BEGIN", logger: logger)
            do {
                let value = try await body(connection)
                try await connection.rows("COMMIT", logger: logger)
                return value
            } catch {
                _ = try? await connection.rows("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// Runs one statement and returns all its rows. Prepared by default (planned once per connection);
    /// `prepared: false` plans it for its binds every time, for optional filters written `$1 IS NULL OR …`
    /// whose one shared plan would have to scan past what a bound value rules out.
    @discardableResult
    public func query(_ query: PostgresQuery, prepared: Bool = true) async throws -> [PostgresRow] {
        let logger = self.logger
        return try await withConnection { connection in
            prepared
                ? try await connection.rows(prepared: query, logger: logger)
                : try await connection.rows(query, logger: logger)
        }
    }
}

extension PostgresConnection {
    /// Runs one statement on this connection and returns all its rows.
    ///
    /// PostgresNIO 1.33 loses a statement written to a connection the server has already closed (an outage, or
    /// `idle_in_transaction_session_timeout`): its handler is gone from the pipeline and the statement's promise
    /// is never completed, so the caller waits forever. Checking and writing on the connection's event loop
    /// closes that window: while the channel is active its handler is there and fails the statement properly.
    @discardableResult
    public func rows(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        let loop = eventLoop
        let result: EventLoopFuture<PostgresQueryResult> = loop.flatSubmit {
            guard !self.isClosed else { return loop.makeFailedFuture(DatabaseUnavailable(reason: "connection closed")) }
            return self.query(query, logger: logger)
        }
        return try await result.get().rows
    }

    /// Fails at once on a closed connection, for the streaming and COPY calls `rows` cannot cover (their window
    /// stays open, but only for bulk CLI work, never a request).
    public func requireOpen() throws {
        if isClosed { throw DatabaseUnavailable(reason: "connection closed") }
    }
}

private enum Outcome<T: Sendable>: Sendable {
    case value(T)
    case deadline
}

private final class StartFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .relaxed) }
    var isSet: Bool { flag.load(ordering: .relaxed) }
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
            // 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 08xxx connection exceptions.
            let state = serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("57P") || state.hasPrefix("08")
        default:
            return false
        }
    }

    /// The SQLSTATE of a server error, if any.
    public var sqlState: String? { serverInfo?[.sqlState] }
}
