import Foundation
import PostgresNIO

/// Opens written in batches (issue #44): the effect of `record` run once per open in arrival order, in one
/// statement per batch (scripts/prototypes/batched-visits.sql, where its equivalence is checked in SQL too).
extension StoreVisits {
    /// One store opened by one viewer.
    package struct Open: Sendable, Equatable {
        package var viewer: String
        package var storeID: String
        package var at: Date

        package init(viewer: String, storeID: String, at: Date) {
            self.viewer = viewer
            self.storeID = storeID
            self.at = at
        }
    }

    /// Writes `opens` (in the order they happened); returns how many co-visit rows were counted (both directions).
    @discardableResult
    package func write(_ opens: [Open]) async throws -> Int {
        guard !opens.isEmpty else { return 0 }
        let viewers = opens.map(\.viewer), stores = opens.map(\.storeID), times = opens.map(\.at)
        let window = Self.window, cap = Self.maxPairs
        let rows = try await database.query(
            """
            WITH input AS (
                SELECT i.ord, i.viewer, i.store_id, i.at
                FROM unnest(\(viewers)::text[], \(stores)::text[], \(times)::timestamptz[])
                    WITH ORDINALITY AS i (viewer, store_id, at, ord)
                JOIN stores s ON s.id = i.store_id AND s.archived_at IS NULL
            ), seen AS (
                SELECT o.viewer, o.store_id, o.opened_at AS at, 0::int8 AS ord FROM viewer_store_opens o
                WHERE o.viewer IN (SELECT viewer FROM input)
                UNION ALL
                SELECT viewer, store_id, at, ord FROM input
            ), recent AS (
                SELECT i.ord, i.viewer, i.store_id, i.at, x.store_id AS other, max(x.at) AS seen_at
                FROM input i JOIN seen x ON x.viewer = i.viewer AND x.ord < i.ord AND x.store_id <> i.store_id
                GROUP BY i.ord, i.viewer, i.store_id, i.at, x.store_id
            ), candidate AS (
                SELECT viewer, least(store_id, other) AS a, greatest(store_id, other) AS b, at, ord FROM (
                    SELECT r.*, row_number() OVER (PARTITION BY r.ord ORDER BY r.seen_at DESC) AS n FROM recent r
                    WHERE r.seen_at > r.at - make_interval(secs => \(window)::float8)
                ) ranked WHERE n <= \(cap)
            ), first AS (
                SELECT DISTINCT ON (viewer, a, b) viewer, a, b, at FROM candidate ORDER BY viewer, a, b, ord
            ), opened AS (
                INSERT INTO viewer_store_opens AS o (viewer, store_id, opened_at)
                SELECT viewer, store_id, max(at) FROM input GROUP BY viewer, store_id ORDER BY viewer, store_id
                ON CONFLICT (viewer, store_id) DO UPDATE SET opened_at = greatest(o.opened_at, EXCLUDED.opened_at)
            ), pairs AS (
                INSERT INTO viewer_covisits (viewer, a, b, at)
                SELECT viewer, a, b, at FROM first ORDER BY viewer, a, b
                ON CONFLICT DO NOTHING
                RETURNING a, b
            ), counted AS (
                INSERT INTO store_covisits AS c (store_id, other_id, viewers)
                SELECT x, y, count(*) FROM (SELECT a, b FROM pairs UNION ALL SELECT b, a FROM pairs) p (x, y)
                GROUP BY x, y ORDER BY x, y
                ON CONFLICT (store_id, other_id) DO UPDATE SET viewers = c.viewers + EXCLUDED.viewers
                RETURNING 1
            )
            SELECT count(*)::int FROM counted
            """)
        return try rows.first?.decode(Int.self) ?? 0
    }
}
