import Foundation
import Metrics
import PostgresNIO

/// The queue every server appends its signals to and one server at a time drains in time order (sql/027), so what
/// requests teach is applied as if one by one in the order they happened, whichever server took them.
public struct SignalQueue: Sendable {
    package let database: Database
    package let halfLife: Double
    /// The most events one drain call applies: a call is one transaction, well inside a write's deadline.
    package static let drainLimit = 500
    /// The most events the queue holds: past it, while the drain is behind, batches are dropped (and counted).
    package static let capacity = 100_000
    private static let dropped = Counter(label: "chidian_signals_dropped_total")

    public init(database: Database, halfLife: Double) {
        self.database = database
        self.halfLife = halfLife
    }

    /// Appends a server's batch in one statement, unless the queue is full (the drain behind: dropped, counted).
    package func push(_ batch: SignalBuffer.Pending) async throws {
        let c = ViewerEventColumns(batch.events, opens: batch.opens)
        guard !c.isEmpty else { return }
        let rows = try await database.query(
            """
            WITH added AS (
                INSERT INTO viewer_event_queue (kind, viewer, subject, number, at, list)
                SELECT * FROM unnest(\(c.kinds)::text[], \(c.viewers)::text[], \(c.subjects)::text[],
                    \(c.numbers)::float8[], \(c.times)::timestamptz[], \(c.lists)::text[])
                WHERE NOT EXISTS (SELECT 1 FROM viewer_event_queue OFFSET \(Self.capacity - 1) LIMIT 1)
                RETURNING 1
            )
            SELECT count(*)::int FROM added
            """)
        if try rows.first?.decode(Int.self) == 0 { Self.dropped.increment(by: c.kinds.count) }
    }

    /// Applies everything queued with a time before `cutoff`, in calls of `drainLimit`; returns how many events it
    /// applied, or nil when another server was draining (it will have applied them).
    @discardableResult
    package func drain(before cutoff: Date) async throws -> Int? {
        var total = 0
        while true {
            let rows = try await database.query(
                """
                SELECT drain_viewer_events(\(cutoff)::timestamptz, \(Self.drainLimit)::int4,
                    \(InterestRepository.dedupeWindow)::float8, \(halfLife)::float8,
                    \(Int16.random(in: 0..<16))::int2, \(StoreVisits.window)::float8, \(StoreVisits.maxPairs)::int4)
                """)
            let taken = try rows.first?.decode(Int.self) ?? 0
            if taken < 0 { return total == 0 ? nil : total }
            total += taken
            if taken < Self.drainLimit { return total }
        }
    }
}
