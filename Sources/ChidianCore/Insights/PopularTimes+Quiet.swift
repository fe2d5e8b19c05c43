import Foundation
import PostgresNIO

/// The pick's `quiet` for every store of a grid cell at once (issue #45). At 200,000 stores a city's picks choose
/// among more stores than the cache holds, so a store's own popular times were read for almost every pick: a round
/// trip and a 1,500-byte entry each, for one yes or no. A cell's quiet stores take one read per cell every
/// `pageFreshness`, and a few bytes a store.
extension PopularTimesRepository {
    /// Whether the store is usually quiet at `now` (`PopularTimes.level` is `.quiet`), as of at most about
    /// `pageFreshness` ago: from its cell's quiet stores with the cache and a location, else its own popular times.
    package func isQuiet(storeID: String, location: GeoPoint?, timeZone: String, at now: Date) async throws -> Bool {
        let freshness = Self.pageFreshness
        guard let cache, let location else {
            let times = try await popularTimes(storeID: storeID, timeZone: timeZone, at: now, freshness: freshness)
            return times.level(at: now) == .quiet
        }
        let cell = PlaceGrid.cell(lat: location.lat, lng: location.lng)
        let quiet = try await cache.entry(
            "pq:\(cell):\(Self.slot(now, freshness))", tags: { _ in [] }, cost: { 96 + 48 * $0.count }
        ) { Set(try await database.forReads.run(QuietInCell(cell: cell, now: now))) }
        return quiet.value.contains(storeID)
    }

    /// The live stores of a cell usually quiet at `$2` in their own zone: `PopularTimes.level`'s rule in SQL. At
    /// least `minimumViews` in the window, and the hour's share of the busiest rounds below 40: 100·c/p < 39.5,
    /// compared in integers as 200·c < 79·p. An hour without views is 0, so quiet.
    struct QuietInCell: PostgresPreparedStatement {
        package static let name = "popular_times_quiet_in_cell"
        package static let sql = """
            SELECT w.id
            FROM (
                SELECT s.id, s.time_zone, extract(isodow FROM h.day)::int4 AS weekday, h.hour, sum(h.views) AS views
                FROM stores s JOIN store_hours h ON h.store_id = s.id
                WHERE place_cell(s.location) = $1 AND s.archived_at IS NULL
                    AND h.day > ($2::timestamptz AT TIME ZONE s.time_zone)::date - 56  -- PopularTimes.days
                GROUP BY 1, 2, 3, 4
            ) w
            GROUP BY w.id, w.time_zone
            HAVING sum(w.views) >= 200 AND max(w.views) > 0  -- PopularTimes.minimumViews
                AND 200 * coalesce(sum(w.views) FILTER (
                    WHERE w.weekday = extract(isodow FROM $2::timestamptz AT TIME ZONE w.time_zone)
                        AND w.hour = extract(hour FROM $2::timestamptz AT TIME ZONE w.time_zone)), 0)
                    < 79 * max(w.views)
            """
        static let bindingDataTypes: [PostgresDataType] = [.int8, .timestamptz]

        package var cell: Int64
        package var now: Date

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(cell)
            bindings.append(now)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
    }
}
