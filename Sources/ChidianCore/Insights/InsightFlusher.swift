import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// Writes an `InsightCounter`'s counts every `interval` in one statement, and once more on a clean stop (the
/// service group stops the HTTP server before this service, and this before the database pool).
public struct InsightFlusher: Service {
    package let counter: InsightCounter
    package let database: Database
    package let interval: Duration

    /// The sketches' k: distinct counts are exact until a day holds twice this many hashes, then estimated.
    static let storeK = 1_000
    static let platformK = 4_096

    public init(counter: InsightCounter, database: Database, interval: Duration) {
        self.counter = counter
        self.database = database
        self.interval = interval
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                await flushLogging()
            }
        }
        // Cancelled by shutdown: what is left goes out before the pool closes.
        await flushLogging()
    }

    private func flushLogging() async {
        do { try await flush() } catch {
            database.logger.warning(
                "insight counts not written; kept for the next flush",
                metadata: DatabaseErrors.metadata(any: error))
        }
    }

    /// Writes everything pending; on failure puts it back and rethrows.
    public func flush() async throws {
        let pending = counter.take()
        guard !pending.isEmpty else { return }
        do {
            try await Self.write(pending, to: database)
        } catch {
            counter.restore(pending)
            throw error
        }
    }

    package static func write(_ pending: InsightCounter.Pending, to database: Database) async throws {
        let counts = pending.counts.sorted {
            ($0.key.storeID, $0.key.minute, $0.key.metric) < ($1.key.storeID, $1.key.minute, $1.key.metric)
        }
        let cStores = counts.map(\.key.storeID), cMinutes = counts.map(\.key.minute)
        let cMetrics = counts.map(\.key.metric), cValues = counts.map(\.value)
        let vStores = pending.visitors.map(\.storeID), vMinutes = pending.visitors.map(\.minute)
        let vKeys = pending.visitors.map(\.visitor)
        let aMinutes = pending.active.map(\.minute), aSignedIn = pending.active.map(\.signedIn)
        let aKeys = pending.active.map(\.viewer)
        let storeTrim = 2 * storeK, platformTrim = 2 * platformK
        let rows = try await database.query(
            """
            WITH c AS (
                SELECT c.store_id, (to_timestamp(c.minute * 60) AT TIME ZONE s.time_zone)::date AS day,
                    extract(hour FROM to_timestamp(c.minute * 60) AT TIME ZONE s.time_zone)::int2 AS hour, c.metric, c.n
                FROM unnest(\(cStores)::text[], \(cMinutes)::int8[], \(cMetrics)::int2[], \(cValues)::int8[])
                    AS c (store_id, minute, metric, n)
                JOIN stores s ON s.id = c.store_id
            ), hours AS (
                INSERT INTO store_hours AS hh (store_id, day, hour, views)
                SELECT store_id, day, hour, sum(n) FROM c WHERE metric = 0 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
                ON CONFLICT (store_id, day, hour) DO UPDATE SET views = hh.views + EXCLUDED.views
            ), v AS (
                SELECT DISTINCT v.store_id, (to_timestamp(v.minute * 60) AT TIME ZONE s.time_zone)::date AS day,
                    hashtextextended(v.visitor, 0) AS h
                FROM unnest(\(vStores)::text[], \(vMinutes)::int8[], \(vKeys)::text[]) AS v (store_id, minute, visitor)
                JOIN stores s ON s.id = v.store_id
            ), seen AS (
                INSERT INTO store_day_visitors (store_id, day, h)
                SELECT v.store_id, v.day, v.h FROM v LEFT JOIN store_days d USING (store_id, day)
                WHERE d.visitor_cut IS NULL OR v.h < d.visitor_cut
                ORDER BY 1, 2, 3
                ON CONFLICT DO NOTHING
                RETURNING store_id, day
            ), keys AS (
                SELECT store_id, day FROM c UNION SELECT store_id, day FROM v
            ), cw AS (
                SELECT store_id, day,
                    sum(n) FILTER (WHERE metric = 0) AS m0, sum(n) FILTER (WHERE metric = 1) AS m1,
                    sum(n) FILTER (WHERE metric = 2) AS m2, sum(n) FILTER (WHERE metric = 3) AS m3,
                    sum(n) FILTER (WHERE metric = 4) AS m4, sum(n) FILTER (WHERE metric = 5) AS m5,
                    sum(n) FILTER (WHERE metric = 6) AS m6, sum(n) FILTER (WHERE metric = 7) AS m7,
                    sum(n) FILTER (WHERE metric = 8) AS m8, sum(n) FILTER (WHERE metric = 9) AS m9,
                    sum(n) FILTER (WHERE metric = 10) AS m10
                FROM c GROUP BY 1, 2
            ), fresh AS (
                SELECT store_id, day, count(*)::int AS n FROM seen GROUP BY 1, 2
            ), days AS (
                INSERT INTO store_days AS d (
                    store_id, day, views, imp_daily, imp_feed, imp_search, imp_near, imp_pick,
                    clk_daily, clk_feed, clk_search, clk_near, clk_pick, visitor_rows)
                SELECT k.store_id, k.day, coalesce(m0, 0), coalesce(m1, 0), coalesce(m2, 0), coalesce(m3, 0),
                    coalesce(m4, 0), coalesce(m5, 0), coalesce(m6, 0), coalesce(m7, 0), coalesce(m8, 0),
                    coalesce(m9, 0), coalesce(m10, 0), coalesce(fresh.n, 0)
                FROM keys k LEFT JOIN cw USING (store_id, day) LEFT JOIN fresh USING (store_id, day)
                ORDER BY k.store_id, k.day
                ON CONFLICT (store_id, day) DO UPDATE SET
                    views = d.views + EXCLUDED.views,
                    imp_daily = d.imp_daily + EXCLUDED.imp_daily, imp_feed = d.imp_feed + EXCLUDED.imp_feed,
                    imp_search = d.imp_search + EXCLUDED.imp_search, imp_near = d.imp_near + EXCLUDED.imp_near,
                    imp_pick = d.imp_pick + EXCLUDED.imp_pick,
                    clk_daily = d.clk_daily + EXCLUDED.clk_daily, clk_feed = d.clk_feed + EXCLUDED.clk_feed,
                    clk_search = d.clk_search + EXCLUDED.clk_search, clk_near = d.clk_near + EXCLUDED.clk_near,
                    clk_pick = d.clk_pick + EXCLUDED.clk_pick,
                    visitor_rows = d.visitor_rows + EXCLUDED.visitor_rows
                RETURNING d.store_id, d.day, d.visitor_rows
            ), a AS (
                SELECT DISTINCT (to_timestamp(a.minute * 60) AT TIME ZONE 'Asia/Shanghai')::date AS day, a.signed_in,
                    hashtextextended(a.viewer, 0) AS h
                FROM unnest(\(aMinutes)::int8[], \(aSignedIn)::bool[], \(aKeys)::text[]) AS a (minute, signed_in, viewer)
            ), pseen AS (
                INSERT INTO platform_day_viewers (day, signed_in, h)
                SELECT a.day, a.signed_in, a.h FROM a LEFT JOIN platform_days p USING (day, signed_in)
                WHERE p.cut IS NULL OR a.h < p.cut
                ORDER BY 1, 2, 3
                ON CONFLICT DO NOTHING
                RETURNING day, signed_in
            ), pfresh AS (
                SELECT day, signed_in, count(*)::int AS n FROM pseen GROUP BY 1, 2
            ), pdays AS (
                INSERT INTO platform_days AS p (day, signed_in, rows_held)
                SELECT k.day, k.signed_in, coalesce(pfresh.n, 0)
                FROM (SELECT DISTINCT day, signed_in FROM a) k LEFT JOIN pfresh USING (day, signed_in) ORDER BY 1, 2
                ON CONFLICT (day, signed_in) DO UPDATE SET rows_held = p.rows_held + EXCLUDED.rows_held
                RETURNING p.day, p.signed_in, p.rows_held
            )
            SELECT 's', store_id, day::text, false FROM days WHERE visitor_rows > \(storeTrim)
            UNION ALL
            SELECT 'p', '', day::text, signed_in FROM pdays WHERE rows_held > \(platformTrim)
            """)
        for row in rows {
            let (kind, storeID, day, signedIn) = try row.decodeAll((String, String, String, Bool).self)
            if kind == "s" {
                try await trimStore(storeID: storeID, day: day, database: database)
            } else {
                try await trimPlatform(day: day, signedIn: signedIn, database: database)
            }
        }
    }

    /// Keeps the day's `storeK` smallest hashes and remembers the largest kept: from then on the count is estimated.
    static func trimStore(storeID: String, day: String, database: Database) async throws {
        let k = storeK
        try await database.query(
            """
            WITH cut AS (
                SELECT h FROM store_day_visitors WHERE store_id = \(storeID) AND day = \(day)::date
                ORDER BY h OFFSET \(k - 1) LIMIT 1
            ), gone AS (
                DELETE FROM store_day_visitors v USING cut
                WHERE v.store_id = \(storeID) AND v.day = \(day)::date AND v.h > cut.h RETURNING 1
            )
            UPDATE store_days d SET visitor_cut = cut.h, visitor_rows = greatest(0, d.visitor_rows - (SELECT count(*) FROM gone))
            FROM cut WHERE d.store_id = \(storeID) AND d.day = \(day)::date
            """)
    }

    static func trimPlatform(day: String, signedIn: Bool, database: Database) async throws {
        let k = platformK
        try await database.query(
            """
            WITH cut AS (
                SELECT h FROM platform_day_viewers WHERE day = \(day)::date AND signed_in = \(signedIn)
                ORDER BY h OFFSET \(k - 1) LIMIT 1
            ), gone AS (
                DELETE FROM platform_day_viewers v USING cut
                WHERE v.day = \(day)::date AND v.signed_in = \(signedIn) AND v.h > cut.h RETURNING 1
            )
            UPDATE platform_days p SET cut = cut.h, rows_held = greatest(0, p.rows_held - (SELECT count(*) FROM gone))
            FROM cut WHERE p.day = \(day)::date AND p.signed_in = \(signedIn)
            """)
    }
}
