import Foundation
import PostgresNIO

/// Opens written in batches (issue #44): the effect of `record` run once per open in arrival order, in one
/// statement per batch (`write_store_opens`, sql/027; `StoreVisitsBatchTests` compares the two).
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
        let rows = try await database.query(
            """
            SELECT write_store_opens(\(viewers)::text[], \(stores)::text[], \(times)::timestamptz[],
                \(Self.window)::float8, \(Self.maxPairs)::int4)
            """)
        return try rows.first?.decode(Int.self) ?? 0
    }
}
