import Foundation
import PostgresNIO

/// Reads insights: the counted days (store_days) beside reviews, favorites and purchases read from their own
/// tables for the same days of the store's time zone.
public struct InsightRepository: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    public struct StoreFacts: Sendable {
        public var managerID: String
        public var timeZone: String
        public var archived: Bool
    }

    /// The store's manager and time zone (archived stores keep their insights), or 404 `store_not_found`.
    public func facts(storeID: String) async throws -> StoreFacts {
        guard PlausibleID.check(storeID),
            let row = try await database.query(
                "SELECT manager_id, time_zone, archived_at IS NOT NULL FROM stores WHERE id = \(storeID)"
            ).first
        else { throw StoreRepository.notFound(storeID) }
        let (manager, zone, archived) = try row.decodeAll((String, String, Bool).self)
        return StoreFacts(managerID: manager, timeZone: zone, archived: archived)
    }

    public func store(_ storeID: String, facts: StoreFacts, range: InsightRange) async throws -> StoreInsights {
        let k = InsightFlusher.storeK
        let rows = try await database.query(
            """
            WITH r AS (
                SELECT (c.created_at AT TIME ZONE \(facts.timeZone))::date AS day, count(*)::int AS n,
                    coalesce(sum(c.rating), 0)::int AS rs, count(c.rating)::int AS rc
                FROM comments c
                WHERE c.store_id = \(storeID) AND c.kind = 'review' AND c.hidden_at IS NULL
                    AND c.created_at >= (\(range.from)::date::timestamp AT TIME ZONE \(facts.timeZone))
                    AND c.created_at < ((\(range.to)::date + 1)::timestamp AT TIME ZONE \(facts.timeZone))
                GROUP BY 1
            ), f AS (
                SELECT (f.created_at AT TIME ZONE \(facts.timeZone))::date AS day, count(*)::int AS n
                FROM favorites f
                WHERE f.store_id = \(storeID)
                    AND f.created_at >= (\(range.from)::date::timestamp AT TIME ZONE \(facts.timeZone))
                    AND f.created_at < ((\(range.to)::date + 1)::timestamp AT TIME ZONE \(facts.timeZone))
                GROUP BY 1
            ), p AS (
                SELECT (p.created_at AT TIME ZONE \(facts.timeZone))::date AS day, sum(p.amount)::int8 AS spend
                FROM promotions p
                WHERE p.store_id = \(storeID)
                    AND p.created_at >= (\(range.from)::date::timestamp AT TIME ZONE \(facts.timeZone))
                    AND p.created_at < ((\(range.to)::date + 1)::timestamp AT TIME ZONE \(facts.timeZone))
                GROUP BY 1
            )
            SELECT g.day::date::text,
                coalesce(d.views, 0), coalesce(
                    CASE WHEN d.visitors IS NOT NULL THEN d.visitors
                         WHEN d.visitor_cut IS NULL THEN d.visitor_rows
                         ELSE sketch_estimate(d.visitor_rows, d.visitor_cut,
                             (SELECT x.h FROM store_day_visitors x WHERE x.store_id = d.store_id AND x.day = d.day
                              ORDER BY x.h OFFSET \(k - 1) LIMIT 1), \(k))
                    END, 0),
                coalesce(d.imp_daily, 0), coalesce(d.imp_feed, 0), coalesce(d.imp_search, 0),
                coalesce(d.imp_near, 0), coalesce(d.imp_pick, 0),
                coalesce(d.clk_daily, 0), coalesce(d.clk_feed, 0), coalesce(d.clk_search, 0),
                coalesce(d.clk_near, 0), coalesce(d.clk_pick, 0),
                coalesce(f.n, 0), coalesce(r.n, 0), coalesce(r.rs, 0), coalesce(r.rc, 0), coalesce(p.spend, 0)
            FROM generate_series(\(range.from)::date, \(range.to)::date, interval '1 day') AS g (day)
            LEFT JOIN store_days d ON d.store_id = \(storeID) AND d.day = g.day::date
            LEFT JOIN r ON r.day = g.day::date
            LEFT JOIN f ON f.day = g.day::date
            LEFT JOIN p ON p.day = g.day::date
            ORDER BY g.day
            """)
        let days = try rows.map { row -> StoreInsights.Figures in
            let (date, views, visitors, i0, i1, i2, i3, i4, c0, c1, c2, c3, c4, favorites, reviews, rs, rc, spend) =
                try row.decodeAll(
                    (String, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int).self)
            var day = StoreInsights.Figures(date: date)
            day.views = views
            day.visitors = visitors
            day.impressions = .init(daily: i0, feed: i1, search: i2, near: i3, pick: i4)
            day.clicks = .init(daily: c0, feed: c1, search: c2, near: c3, pick: c4)
            day.favorites = favorites
            day.reviews = reviews
            day.ratingSum = rs
            day.ratingCount = rc
            day.spend = spend
            return day
        }
        let totals = days.reduce(StoreInsights.Figures()) { $0 + $1 }
        return StoreInsights(
            storeId: storeID, timeZone: facts.timeZone, days: days, totals: totals,
            promotion: try await promotion(storeID))
    }

    /// The store's place among live stores with spend, in 每日促销's order (spend descending, then earlier
    /// creation, then id), and what passing the store just ahead costs: its spend minus ours, plus one unless
    /// ours would then win the tie (an earlier creation, or the same and a smaller id). Without spend, the
    /// smallest purchase (1) enters the list at its end.
    public func promotion(_ storeID: String) async throws -> StoreInsights.Promotion {
        let row = try await database.query(
            """
            WITH me AS (SELECT id, ad_spend, created_at, archived_at FROM stores WHERE id = \(storeID)),
            ahead AS (
                SELECT o.id, o.ad_spend, o.created_at FROM stores o, me
                WHERE o.archived_at IS NULL AND o.ad_spend > 0 AND o.id <> me.id
                    AND (o.ad_spend, me.created_at, me.id) > (me.ad_spend, o.created_at, o.id)
            )
            SELECT me.ad_spend::int8, me.archived_at IS NULL,
                (SELECT count(*) FROM ahead)::int,
                (SELECT a.ad_spend - me.ad_spend + CASE WHEN (me.created_at, me.id) < (a.created_at, a.id) THEN 0 ELSE 1 END
                 FROM ahead a ORDER BY a.ad_spend, a.created_at DESC, a.id DESC LIMIT 1)::int8
            FROM me
            """)[0]
        let (spend, live, ahead, next) = try row.decodeAll((Int, Bool, Int, Int?).self)
        guard live else { return .init(rank: nil, adSpend: spend, nextRankAmount: nil) }
        guard spend > 0 else { return .init(rank: nil, adSpend: 0, nextRankAmount: 1) }
        return .init(rank: ahead + 1, adSpend: spend, nextRankAmount: next.map { max(1, $0) })
    }
}
