import Foundation
import PostgresNIO

/// `GET /v1/admin/stats`: the platform's days (Asia/Shanghai): distinct signed-in users and visitors who used it,
/// reviews posted, reports opened and closed, promotion revenue.
public struct PlatformStats: Sendable {
    public struct Day: Sendable, Equatable {
        public var date: String?
        public var activeUsers = 0
        public var visitors = 0
        public var reviews = 0
        public var reportsOpened = 0
        public var reportsClosed = 0
        public var promotionRevenue = 0

        package static func + (a: Self, b: Self) -> Self {
            Day(
                date: nil, activeUsers: a.activeUsers + b.activeUsers, visitors: a.visitors + b.visitors,
                reviews: a.reviews + b.reviews, reportsOpened: a.reportsOpened + b.reportsOpened,
                reportsClosed: a.reportsClosed + b.reportsClosed,
                promotionRevenue: a.promotionRevenue + b.promotionRevenue)
        }

    }

    public static let timeZone = "Asia/Shanghai"

    public var timeZone = Self.timeZone
    public var days: [Day]
    /// Active users and visitors of the totals are sums of the days'.
    public var totals: Day

    public static func load(_ database: Database, range: InsightRange) async throws -> PlatformStats {
        let k = InsightFlusher.platformK
        let zone = timeZone
        let rows = try await database.query(
            """
            WITH bounds AS (
                SELECT (\(range.from)::date::timestamp AT TIME ZONE \(zone)) AS lo,
                       ((\(range.to)::date + 1)::timestamp AT TIME ZONE \(zone)) AS hi
            ), r AS (
                SELECT (c.created_at AT TIME ZONE \(zone))::date AS day, count(*)::int AS n FROM comments c, bounds
                WHERE c.kind = 'review' AND c.created_at >= bounds.lo AND c.created_at < bounds.hi GROUP BY 1
            ), ro AS (
                SELECT (x.created_at AT TIME ZONE \(zone))::date AS day, count(*)::int AS n FROM reports x, bounds
                WHERE x.created_at >= bounds.lo AND x.created_at < bounds.hi GROUP BY 1
            ), rc AS (
                SELECT (x.closed_at AT TIME ZONE \(zone))::date AS day, count(*)::int AS n FROM reports x, bounds
                WHERE x.closed_at >= bounds.lo AND x.closed_at < bounds.hi GROUP BY 1
            ), p AS (
                SELECT (x.created_at AT TIME ZONE \(zone))::date AS day, sum(x.amount)::int8 AS n FROM promotions x, bounds
                WHERE x.created_at >= bounds.lo AND x.created_at < bounds.hi GROUP BY 1
            ), v AS (
                SELECT d.day, d.signed_in,
                    CASE WHEN d.total IS NOT NULL THEN d.total
                         WHEN d.cut IS NULL THEN d.rows_held
                         ELSE sketch_estimate(d.rows_held, d.cut,
                             (SELECT x.h FROM platform_day_viewers x WHERE x.day = d.day AND x.signed_in = d.signed_in
                              ORDER BY x.h OFFSET \(k - 1) LIMIT 1), \(k))
                    END AS n
                FROM platform_days d WHERE d.day BETWEEN \(range.from)::date AND \(range.to)::date
            )
            SELECT g.day::date::text,
                coalesce((SELECT n FROM v WHERE v.day = g.day::date AND v.signed_in), 0),
                coalesce((SELECT n FROM v WHERE v.day = g.day::date AND NOT v.signed_in), 0),
                coalesce(r.n, 0), coalesce(ro.n, 0), coalesce(rc.n, 0), coalesce(p.n, 0)
            FROM generate_series(\(range.from)::date, \(range.to)::date, interval '1 day') AS g (day)
            LEFT JOIN r ON r.day = g.day::date
            LEFT JOIN ro ON ro.day = g.day::date
            LEFT JOIN rc ON rc.day = g.day::date
            LEFT JOIN p ON p.day = g.day::date
            ORDER BY g.day
            """)
        let days = try rows.map { row in
            let (date, users, visitors, reviews, opened, closed, revenue) = try row.decodeAll(
                (String, Int, Int, Int, Int, Int, Int).self)
            return Day(
                date: date, activeUsers: users, visitors: visitors, reviews: reviews, reportsOpened: opened,
                reportsClosed: closed, promotionRevenue: revenue)
        }
        return PlatformStats(days: days, totals: days.reduce(Day()) { $0 + $1 })
    }
}

extension PlatformStats {
    /// `chidian stats`' lines: one per day, then the totals, as `GET /v1/admin/stats` gives them.
    public func table(from: String, to: String) -> String {
        func line(_ label: String, _ day: Day) -> String {
            "\(label)  active users \(day.activeUsers), visitors \(day.visitors), reviews \(day.reviews), "
                + "reports opened \(day.reportsOpened), closed \(day.reportsClosed), promotion revenue \(day.promotionRevenue)"
        }
        var lines = ["platform days \(from) to \(to) (\(timeZone)):"]
        lines += days.map { line("  " + ($0.date ?? ""), $0) }
        lines.append(line("  total     ", totals))
        return lines.joined(separator: "\n")
    }
}
