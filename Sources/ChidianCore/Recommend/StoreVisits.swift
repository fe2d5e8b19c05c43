import Foundation
import PostgresNIO

/// Which stores viewers open, and which stores are opened together: "also viewed" is kept as a count of viewers
/// per pair of stores, updated by each open (never recomputed from every open on a request).
public struct StoreVisits: Sendable {
    package let database: Database
    /// Lists are cached under `v:<store>` (migration 028 says when one may change).
    package let cache: ReadCache?

    /// Two opens by one viewer at most this far apart make a pair.
    public static let window: TimeInterval = 86_400
    /// The most earlier stores one open pairs with (its browsing session, in effect): bounds an open's work whatever a
    /// client does. 50 until issue #44's soak: pairs are most of what learning costs, and at 50 the drain fell
    /// behind the mix on two cores (docs/BENCHMARKS.md).
    package static let maxPairs = 10

    public init(database: Database, cache: ReadCache? = nil) {
        self.database = database
        self.cache = cache
    }

    /// Records `viewer` opening `storeID` at `now`, in one statement: the open itself, the pairs it makes with the
    /// viewer's other stores of the last day that this viewer never made before, and one more viewer for each
    /// such pair (both directions, in key order so concurrent opens lock rows in one order). Returns how many
    /// pairs were new.
    @discardableResult
    public func record(viewer: String, storeID: String, at now: Date) async throws -> Int {
        let since = now.addingTimeInterval(-Self.window)
        let rows = try await database.query(
            """
            WITH store AS (
                SELECT id FROM stores WHERE id = \(storeID) AND archived_at IS NULL
            ), opened AS (
                INSERT INTO viewer_store_opens AS o (viewer, store_id, opened_at)
                SELECT \(viewer), id, \(now)::timestamptz FROM store
                ON CONFLICT (viewer, store_id) DO UPDATE SET opened_at = greatest(o.opened_at, EXCLUDED.opened_at)
                RETURNING store_id
            ), recent AS (
                SELECT o.store_id FROM viewer_store_opens o
                WHERE o.viewer = \(viewer) AND o.store_id <> \(storeID) AND o.opened_at > \(since)::timestamptz
                    AND EXISTS (SELECT 1 FROM opened)
                ORDER BY o.opened_at DESC LIMIT \(Self.maxPairs)
            ), locked AS (
                -- The pairs' stores, locked once each (the pairs have no foreign keys: migration 045).
                SELECT s.id FROM stores s WHERE s.id IN (SELECT store_id FROM recent UNION SELECT id FROM store)
                ORDER BY s.id FOR KEY SHARE
            ), pairs AS (
                INSERT INTO viewer_covisits (viewer, a, b, at)
                SELECT \(viewer), least(r.store_id, \(storeID)), greatest(r.store_id, \(storeID)), \(now)::timestamptz
                FROM recent r JOIN locked l ON l.id = r.store_id
                WHERE EXISTS (SELECT 1 FROM locked WHERE id = \(storeID)) ORDER BY 2, 3
                ON CONFLICT DO NOTHING
                RETURNING a, b
            ), counted AS (
                INSERT INTO store_covisits AS c (store_id, other_id, viewers)
                SELECT x, y, 1 FROM (SELECT a, b FROM pairs UNION ALL SELECT b, a FROM pairs) p (x, y) ORDER BY x, y
                ON CONFLICT (store_id, other_id) DO UPDATE SET viewers = c.viewers + 1
                RETURNING 1
            )
            SELECT (count(*) / 2)::int FROM counted
            """)
        return try rows.first?.decode(Int.self) ?? 0
    }

    /// The live stores most viewers of `storeID` also opened, most shared viewers first (then id descending);
    /// never the store itself. `keep` false reads a miss without keeping it (a piece that shows the list is kept
    /// instead).
    public func alsoViewed(storeID: String, limit: Int, keep: Bool = true) async throws -> [String] {
        let load = { @Sendable in try await database.forReads.run(AlsoViewed(storeID: storeID, limit: limit)) }
        guard let cache else { return try await load() }
        return try await cache.entry(
            "v:\(storeID):\(limit)", tags: { _ in ["v:" + storeID] }, cost: { 64 + 48 * $0.count }, keep: keep,
            load: load
        ).value
    }

    /// Prepared: planning it took five times as long as running it.
    struct AlsoViewed: PostgresPreparedStatement {
        package static let name = "also_viewed"
        package static let sql = """
            SELECT c.other_id FROM store_covisits c JOIN stores s ON s.id = c.other_id AND s.archived_at IS NULL
            WHERE c.store_id = $1 AND c.other_id <> $1
            ORDER BY c.viewers DESC, c.other_id DESC
            LIMIT $2
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .int8]

        package var storeID: String
        package var limit: Int

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(storeID)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
    }
}
