import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// Every statement the library runs goes through `whileOpen`.
///
/// PostgresNIO 1.33 loses a statement written to a connection the server has already closed (an outage, or
/// `idle_in_transaction_session_timeout`): its handler is gone from the pipeline and the statement's promise is
/// never completed, so the caller waits forever. Checking and writing on the connection's event loop, with
/// nothing in between, closes that window: while the channel is active its handler is there and fails the
/// statement properly. `ClosedConnectionTests` reproduces the hang.
extension PostgresConnection {
    /// Runs `body` (which must write its statement before its first suspension) on the connection's event loop,
    /// after checking the connection is still open.
    func whileOpen<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await withTaskExecutorPreference(EventLoopExecutor.for(eventLoop)) {
            guard !self.isClosed else { throw DatabaseUnavailable(reason: "connection closed") }
            return try await body()
        }
    }

    /// Runs one unnamed statement and returns all its rows: planned for its binds on every call.
    @discardableResult
    public func rows(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await whileOpen { try await self.query(query, logger: logger).get().rows }
    }

    /// Runs a named prepared statement (parsed and planned once per connection) and returns its decoded rows.
    public func run<Statement: PostgresPreparedStatement>(
        _ statement: Statement, logger: Logger
    ) async throws -> [Statement.Row] where Statement.Row: Sendable {
        try await whileOpen {
            var rows: [Statement.Row] = []
            for try await row in try await self.execute(statement, logger: logger) { rows.append(row) }
            return rows
        }
    }

    /// Fails at once on a closed connection, for the streaming and COPY calls `whileOpen` cannot cover (their
    /// window stays open, but only for bulk CLI work, never a request).
    public func requireOpen() throws {
        if isClosed { throw DatabaseUnavailable(reason: "connection closed") }
    }
}

/// A task executor that runs jobs on one NIO event loop.
final class EventLoopExecutor: TaskExecutor {
    let loop: any EventLoop

    private init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        loop.execute { job.runSynchronously(on: executor) }
    }

    private static let executors = Mutex<[ObjectIdentifier: EventLoopExecutor]>([:])

    /// The executor of `loop`; loops belong to a long-lived group, so one executor each is kept.
    package static func `for`(_ loop: any EventLoop) -> EventLoopExecutor {
        executors.withLock { executors in
            if let executor = executors[ObjectIdentifier(loop)] { return executor }
            let executor = EventLoopExecutor(loop)
            executors[ObjectIdentifier(loop)] = executor
            return executor
        }
    }
}

extension PostgresRow {
    /// Decodes the whole row as `type`, refusing a row with more or fewer columns than the tuple has: a column
    /// added to a statement without its decoder (or the reverse) fails here instead of shifting cells.
    public func decodeAll<each Column: PostgresDecodable>(_ type: (repeat each Column).Type) throws -> (
        repeat each Column
    ) {
        try decodeAll(type, trailing: 0)
    }

    /// `decodeAll` for a row of `type`'s columns followed by exactly `trailing` more, which the caller reads
    /// itself (by index): a statement that adds its own columns to a shared list (`CommentRow.columns`).
    public func decodeAll<each Column: PostgresDecodable>(_ type: (repeat each Column).Type, trailing: Int) throws
        -> (repeat each Column)
    {
        var expected = trailing
        for _ in repeat (each Column).self { expected += 1 }
        guard count == expected else { throw RowShapeMismatch(expected: expected, actual: count) }
        return try decode(type)
    }

    /// `decodeAll` for a one-column row.
    public func decodeAll<Column: PostgresDecodable>(_ type: Column.Type) throws -> Column {
        guard count == 1 else { throw RowShapeMismatch(expected: 1, actual: count) }
        return try decode(type)
    }
}

/// A statement's row had a different number of columns than its decoder reads.
public struct RowShapeMismatch: Error, CustomStringConvertible {
    public let expected: Int
    public let actual: Int
    public var description: String { "row has \(actual) columns, decoder reads \(expected)" }
}
