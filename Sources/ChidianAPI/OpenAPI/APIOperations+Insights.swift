import ChidianCore
import OpenAPIKit

extension APIOperations {
    // MARK: Insights

    static let rangeParameters = [
        query(
            "from",
            "First day (YYYY-MM-DD) in the store's (stats: Asia/Shanghai) time zone; default 29 days before `to`.",
            schema: APISchemas.text(pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$")),
        query(
            "to", "Last day (YYYY-MM-DD); default today. At most 366 days in all.",
            schema: APISchemas.text(pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$")),
    ]

    static let insights: [APIOperation] = [
        APIOperation(
            "get", "/v1/stores/{id}/insights", id: "storeInsights", tag: "Insights",
            summary: "What the store's promotion bought (its manager, admins)",
            description: """
                Per day of the store's time zone and in total: views of its page (API or web, by anyone but its \\
                manager), distinct visitors (signed-in users by account, `X-Visitor-Id` visitors by id, anyone \\
                else by address), impressions of its card and clicks from it by source (`daily` 每日促销, `feed` \\
                the featured feed and 猜你喜欢, `search`, `near` (`GET /v1/stores?near=`), `pick`), click-through, \\
                favorites added (still held), reviews posted (live and recommended) and their average rating, \
                reviews posted that are judged not recommended (`notRecommended`; never whose), promotion spend, \\
                spend per view, and coupons claimed and redeemed (`claims`, `redemptions`). Views, visitors, impressions and clicks are counted by each server in memory and \\
                written every 5 s (`INSIGHTS_FLUSH_SECONDS`): they may lag by that, and a crashed server loses at \\
                most that much; a clean stop loses nothing. `visitors` is exact while a day has at most 2,000 \\
                distinct visitors, then a k-minimum-values estimate (k = 1,000) with a relative standard error of \\
                about 3.2 %; the totals' `visitors` adds the days'. `promotion.rank` is the place in \\
                `GET /v1/promotions/daily`'s order (null without spend or when archived); `nextRankAmount` the \\
                smallest purchase that moves the store one place up (null at first place; 1 without spend). \\
                `?format=csv`: the same days as `text/csv`, one line per day after a header line. Anyone but its \\
                manager or an admin: 403 `not_store_owner`.
                """,
            access: .signedIn,
            parameters: [pathID("store", example: "s001")] + rangeParameters + [
                query("format", "`csv` for text/csv.", schema: APISchemas.oneOf(["json", "csv"], default: "json"))
            ],
            successes: [.init(200, "The store's days and totals.", schema: "StoreInsights")],
            problems: [
                400: ["invalid_range", "invalid_format"], 403: ["not_store_owner"], 404: ["store_not_found"],
            ]),
        APIOperation(
            "get", "/v1/admin/stats", id: "adminStats", tag: "Insights", summary: "The platform's days (admins)",
            description: """
                Per day of Asia/Shanghai and in total: distinct signed-in users and visitors who used the service \\
                (the same counting and estimate as store visitors, with k = 4,096: about 1.6 %), reviews posted, \\
                reports opened and closed, promotion revenue. Anyone but an admin: 403 `admin_required`.
                """,
            access: .signedIn, parameters: rangeParameters,
            successes: [.init(200, "The platform's days and totals.", schema: "PlatformStats")],
            problems: [400: ["invalid_range"], 403: ["admin_required"]]),
    ]
}

extension APISchemas {
    static var insights: [(String, JSONSchema)] {
        let sources = ["daily", "feed", "search", "near", "pick"]
        let bySource = object(sources.map { ($0, count) })
        let rates = object(sources.map { ($0, number(min: 0, nullable: true)) }, description: "Clicks per impression.")
        func figures(dated: Bool) -> JSONSchema {
            object(
                (dated ? [("date", text(pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"))] : []) + [
                    ("views", count), ("visitors", count), ("impressions", bySource), ("clicks", bySource),
                    ("clickThrough", rates), ("favorites", count), ("reviews", count),
                    ("ratingAverage", number(between: 1, and: 5, nullable: true)), ("spend", count),
                    ("costPerVisit", number(min: 0, nullable: true)), ("claims", count), ("redemptions", count),
                    ("notRecommended", count),
                ])
        }
        func platform(dated: Bool) -> JSONSchema {
            object(
                (dated ? [("date", text(pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"))] : []) + [
                    ("activeUsers", count), ("visitors", count), ("reviews", count), ("reportsOpened", count),
                    ("reportsClosed", count), ("promotionRevenue", count),
                ])
        }
        return [
            (
                "StoreInsights",
                object([
                    ("storeId", id), ("timeZone", text()), ("days", list(figures(dated: true), max: 366)),
                    ("totals", figures(dated: false)),
                    (
                        "promotion",
                        object([
                            ("rank", int(min: 1, nullable: true)), ("adSpend", count),
                            ("nextRankAmount", int(min: 1, nullable: true)),
                        ])
                    ),
                ])
            ),
            ("InsightsCSV", text("date,views,visitors,impressions_daily,…: one line per day after the header.")),
            (
                "PlatformStats",
                object([
                    ("timeZone", text()), ("days", list(platform(dated: true), max: 366)),
                    ("totals", platform(dated: false)),
                ])
            ),
        ]
    }
}
