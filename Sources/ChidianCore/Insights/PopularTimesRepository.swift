import Foundation
import PostgresNIO

/// Reads popular times: a store's counted hours (`store_hours`, written by the insight flush) of the last eight
/// weeks. Cached per store for a while: the counts lag by the flush interval anyway, and a busy store then costs
/// the database one read every few seconds, not one per view.
public struct PopularTimesRepository: Sendable {
    package let database: Database
    package let cache: ReadCache?
    /// The API's: the contract allows 10 s of lag, the flush's 5 s and this.
    public static let freshness: TimeInterval = 5
    /// The store page's and the pick's: eight weeks of counts hardly move in five minutes, while reading them every
    /// 5 s for each of thousands of stores opened would cost the database more than the pages. Five minutes divide
    /// an hour, and every zone's offset is whole quarter hours, so a slot never straddles a local hour.
    public static let pageFreshness: TimeInterval = 300

    public init(database: Database, cache: ReadCache? = nil) {
        self.database = database
        self.cache = cache
    }

    /// The store's popular times as of `now`, in its zone, at most about `freshness` old. `keep` false reads a miss
    /// without keeping it (a piece that shows them is kept instead).
    public func popularTimes(
        storeID: String, timeZone: String, at now: Date, freshness: TimeInterval = Self.freshness, keep: Bool = true
    ) async throws -> PopularTimes {
        let load = { @Sendable () async throws -> PopularTimes in
            var times = PopularTimes(timeZone: timeZone)
            let rows = try await database.forReads.run(Hours(storeID: storeID, now: now, zone: timeZone))
            for (day, hour, views) in rows where (1...7).contains(day) && (0..<24).contains(hour) {
                times.counts[(day - 1) * 24 + hour] = views
            }
            return times
        }
        guard let cache else { return try await load() }
        // The key turns over every `freshness` seconds; an old key is simply never asked for again.
        return try await cache.entry(
            "pt:\(storeID):\(timeZone):\(Int(freshness)):\(Self.slot(now, freshness))", tags: { _ in [] },
            cost: { _ in 1_500 }, keep: keep, load: load
        ).value
    }

    package static func slot(_ now: Date, _ freshness: TimeInterval) -> Int {
        Int((now.timeIntervalSince1970 / freshness).rounded(.down))
    }

    /// Views by ISO weekday and hour over the last `PopularTimes.days` local days, today included.
    struct Hours: PostgresPreparedStatement {
        package static let name = "popular_times_hours"
        package static let sql = """
            SELECT extract(isodow FROM h.day)::int4, h.hour::int4, sum(h.views)::int8
            FROM store_hours h
            WHERE h.store_id = $1 AND h.day > ($2::timestamptz AT TIME ZONE $3)::date - 56  -- PopularTimes.days
            GROUP BY 1, 2
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .timestamptz, .text]

        package var storeID: String
        package var now: Date
        package var zone: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(storeID)
            bindings.append(now)
            bindings.append(zone)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (Int, Int, Int64) { try row.decode((Int, Int, Int64).self) }
    }
}
