import Logging
import NIOCore
import PostgresNIO
import Synchronization

extension PostgresConnection {
    /// Runs `query` as a named prepared statement: PostgreSQL parses and plans it once per connection instead of
    /// on every call. For the statements requests repeat; planning cost more than executing on the hot reads.
    ///
    /// The statement runs with the connection's event loop as task executor, so the closed-channel check and the
    /// write happen on that loop with nothing in between (see `rows(_:logger:)` for why that matters).
    @discardableResult
    public func rows(prepared query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        guard let statement = PreparedNames.statement(for: query) else { return try await rows(query, logger: logger) }
        return try await withTaskExecutorPreference(EventLoopExecutor.for(eventLoop)) {
            guard !self.isClosed else { throw DatabaseUnavailable(reason: "connection closed") }
            return try await AutoPrepared.$current.withValue(statement) {
                var rows: [PostgresRow] = []
                for try await row in try await self.execute(AutoPrepared(bindings: query.binds), logger: logger) {
                    rows.append(row)
                }
                return rows
            }
        }
    }
}

/// PostgresNIO names a prepared statement by its type (`static name`, `static sql`). This one type stands for
/// every interpolated `PostgresQuery`: the name, text and parameter types of the statement being sent are read
/// from a task local that `rows(prepared:)` sets around the call, which PostgresNIO reads synchronously.
struct AutoPrepared: PostgresPreparedStatement {
    struct Current: Sendable {
        var name: String
        var sql: String
        var types: [PostgresDataType]
    }

    @TaskLocal static var current = Current(name: "", sql: "", types: [])
    static var name: String { current.name }
    static var sql: String { current.sql }
    static var bindingDataTypes: [PostgresDataType] { current.types }

    typealias Row = PostgresRow
    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

/// One short statement name per distinct SQL text and parameter types, for the life of the process (texts are
/// few and fixed). A NULL bind carries no type, so until a text has been seen with every bind set, each pattern
/// of NULLs gets its own statement; once it has, that statement (and its types) serves every later call, NULLs
/// included, without reading the binds' types again.
enum PreparedNames {
    private struct Key: Hashable {
        var sql: String
        var types: [UInt32]
    }

    private struct Names {
        var byKey: [Key: String] = [:]
        var complete: [String: AutoPrepared.Current] = [:]
    }

    private static let names = Mutex(Names())

    static func statement(for query: PostgresQuery) -> AutoPrepared.Current? {
        if let known = names.withLock({ $0.complete[query.sql] }) { return known }
        guard let types = BindTypes.of(query.binds) else { return nil }
        let key = Key(sql: query.sql, types: types.map(\.rawValue))
        return names.withLock { names in
            let name = names.byKey[key] ?? "chidian_\(names.byKey.count + 1)"
            names.byKey[key] = name
            let statement = AutoPrepared.Current(name: name, sql: query.sql, types: types)
            if !types.contains(.null) { names.complete[query.sql] = statement }
            return statement
        }
    }
}

/// The parameter types PostgresNIO records for each bind (as it sends them for an unnamed statement), so a
/// prepared statement gets the same types: without them PostgreSQL infers a type from the SQL (`$1::timestamptz`)
/// that the bind's binary encoding (text) does not match. PostgresNIO does not expose them; read by reflection,
/// and nil (run unnamed) if its layout ever changes.
enum BindTypes {
    static func of(_ bindings: PostgresBindings) -> [PostgresDataType]? {
        guard let metadata = Mirror(reflecting: bindings).descendant("metadata") else { return nil }
        var types: [PostgresDataType] = []
        for element in Mirror(reflecting: metadata).children {
            guard let type = Mirror(reflecting: element.value).descendant("dataType") as? PostgresDataType else { return nil }
            types.append(type)
        }
        return types.count == bindings.count ? types : nil
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
    static func `for`(_ loop: any EventLoop) -> EventLoopExecutor {
        executors.withLock { executors in
            if let executor = executors[ObjectIdentifier(loop)] { return executor }
            let executor = EventLoopExecutor(loop)
            executors[ObjectIdentifier(loop)] = executor
            return executor
        }
    }
}
