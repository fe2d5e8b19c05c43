import Logging
import PostgresNIO
import Synchronization

/// Per-route statement deadlines on one pool. Every connection starts with the pool's deadline (a startup
/// parameter); a request whose route has another one (`route`, set by `StatementDeadlineMiddleware`) sets it on
/// the connection it is given, which costs a round trip only when that connection last ran with a different one.
public final class StatementDeadlines: Sendable {
    /// The deadline of the running request's route, when it differs from the pool's.
    @TaskLocal public static var route: Duration?

    package let standard: Int
    /// The deadline each connection last ran with, by connection id (ids are never reused within a pool).
    private let applied = Mutex<[PostgresConnection.ID: Int]>([:])

    package init(standard: Duration) {
        self.standard = Self.milliseconds(standard)
    }

    package static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    /// Gives `connection` the deadline the current task wants before it runs anything.
    package func prepare(_ connection: PostgresConnection, logger: Logger) async throws {
        let wanted = Self.route.map(Self.milliseconds) ?? standard
        let last = applied.withLock { $0[connection.id] } ?? standard
        guard last != wanted else { return }
        // Through `rows`: a pooled connection the server has closed must fail here, not wait for ever.
        try await connection.rows("SELECT set_config('statement_timeout', \(String(wanted)), false)", logger: logger)
        applied.withLock { $0[connection.id] = wanted }
    }
}
