import PostgresNIO

/// Insights' reads, prepared: planning either took twice as long as running it.
extension InsightRepository {
    /// A line per day of the range, `date,views,visitors,` five impressions, five clicks, `favorites,reviews,`
    /// rating sum and count, `spend,claims,redemptions,not_recommended`: the counted day beside the store's reviews, favorites,
    /// purchases and coupon claims and redemptions of that local day. An open day past its sketch's trim reads its 1,000th smallest visitor hash for the estimate.
    /// One text, not 366 rows of 18 columns: decoding those cost the server twice what the query cost.
    struct StoreDays: PostgresPreparedStatement {
        package static let name = "insight_store_days"
        package static let sql = """
            WITH r AS (
                SELECT (c.created_at AT TIME ZONE $4)::date AS day, count(*) FILTER (WHERE c.recommended)::int8 AS n,
                    coalesce(sum(c.rating) FILTER (WHERE c.recommended), 0)::int8 AS rs,
                    count(c.rating) FILTER (WHERE c.recommended)::int8 AS rc,
                    count(*) FILTER (WHERE NOT c.recommended)::int8 AS nr
                FROM comments c
                WHERE c.store_id = $1 AND c.kind = 'review' AND c.hidden_at IS NULL
                    AND c.created_at >= ($2::date::timestamp AT TIME ZONE $4)
                    AND c.created_at < (($3::date + 1)::timestamp AT TIME ZONE $4)
                GROUP BY 1
            ), f AS (
                SELECT (f.created_at AT TIME ZONE $4)::date AS day, count(*)::int8 AS n
                FROM favorites f
                WHERE f.store_id = $1
                    AND f.created_at >= ($2::date::timestamp AT TIME ZONE $4)
                    AND f.created_at < (($3::date + 1)::timestamp AT TIME ZONE $4)
                GROUP BY 1
            ), p AS (
                SELECT (p.created_at AT TIME ZONE $4)::date AS day, sum(p.amount)::int8 AS spend
                FROM promotions p
                WHERE p.store_id = $1
                    AND p.created_at >= ($2::date::timestamp AT TIME ZONE $4)
                    AND p.created_at < (($3::date + 1)::timestamp AT TIME ZONE $4)
                GROUP BY 1
            ), q AS (
                SELECT (q.claimed_at AT TIME ZONE $4)::date AS day, count(*)::int8 AS n
                FROM coupon_claims q
                WHERE q.store_id = $1
                    AND q.claimed_at >= ($2::date::timestamp AT TIME ZONE $4)
                    AND q.claimed_at < (($3::date + 1)::timestamp AT TIME ZONE $4)
                GROUP BY 1
            ), x AS (
                SELECT (q.redeemed_at AT TIME ZONE $4)::date AS day, count(*)::int8 AS n
                FROM coupon_claims q
                WHERE q.store_id = $1
                    AND q.redeemed_at >= ($2::date::timestamp AT TIME ZONE $4)
                    AND q.redeemed_at < (($3::date + 1)::timestamp AT TIME ZONE $4)
                GROUP BY 1
            )
            SELECT coalesce(string_agg(concat_ws(',', g.day::date,
                coalesce(d.views, 0), coalesce(
                    CASE WHEN d.visitors IS NOT NULL THEN d.visitors
                         WHEN d.visitor_cut IS NULL THEN d.visitor_rows
                         ELSE sketch_estimate(d.visitor_rows, d.visitor_cut,
                             (SELECT x.h FROM store_day_visitors x WHERE x.store_id = d.store_id AND x.day = d.day
                              ORDER BY x.h OFFSET 999 LIMIT 1), 1000)
                    END, 0),
                coalesce(d.imp_daily, 0), coalesce(d.imp_feed, 0), coalesce(d.imp_search, 0),
                coalesce(d.imp_near, 0), coalesce(d.imp_pick, 0),
                coalesce(d.clk_daily, 0), coalesce(d.clk_feed, 0), coalesce(d.clk_search, 0),
                coalesce(d.clk_near, 0), coalesce(d.clk_pick, 0),
                coalesce(f.n, 0), coalesce(r.n, 0), coalesce(r.rs, 0), coalesce(r.rc, 0), coalesce(p.spend, 0),
                coalesce(q.n, 0), coalesce(x.n, 0), coalesce(r.nr, 0)),
                E'\\n' ORDER BY g.day), '')
            FROM generate_series($2::date, $3::date, interval '1 day') AS g (day)
            LEFT JOIN store_days d ON d.store_id = $1 AND d.day = g.day::date
            LEFT JOIN r ON r.day = g.day::date
            LEFT JOIN f ON f.day = g.day::date
            LEFT JOIN p ON p.day = g.day::date
            LEFT JOIN q ON q.day = g.day::date
            LEFT JOIN x ON x.day = g.day::date
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .text, .text, .text]

        package var storeID: String
        package var from: String
        package var to: String
        package var zone: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(storeID)
            bindings.append(from)
            bindings.append(to)
            bindings.append(zone)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> String {
            try row.decode(String.self)
        }
    }

    /// The store's spend, whether it is live, how many live stores 每日促销 puts before it, and the purchase that
    /// passes the one just ahead: a store of the same spend created earlier is passed by 1; else the cheapest
    /// store above (the latest created among equals) by the difference, plus 1 unless ours is the earlier.
    /// Each count is an index range of `stores_promoted`.
    struct PromotionPlace: PostgresPreparedStatement {
        package static let name = "insight_promotion_place"
        package static let sql = """
            WITH me AS (SELECT id, ad_spend, created_at, archived_at FROM stores WHERE id = $1),
            above AS (
                SELECT o.id, o.ad_spend, o.created_at FROM stores o, me
                WHERE o.archived_at IS NULL AND o.ad_spend > 0 AND o.ad_spend > me.ad_spend
            ), tied AS (
                SELECT o.id FROM stores o, me
                WHERE o.archived_at IS NULL AND o.ad_spend > 0 AND o.ad_spend = me.ad_spend
                    AND (o.created_at, o.id) < (me.created_at, me.id)
            )
            SELECT me.ad_spend::int8, me.archived_at IS NULL,
                ((SELECT count(*) FROM above) + (SELECT count(*) FROM tied))::int8,
                CASE WHEN EXISTS (SELECT 1 FROM tied) THEN 1::int8
                    ELSE (SELECT a.ad_spend - me.ad_spend
                              + CASE WHEN (me.created_at, me.id) < (a.created_at, a.id) THEN 0 ELSE 1 END
                          FROM above a ORDER BY a.ad_spend, a.created_at DESC, a.id DESC LIMIT 1)::int8
                END
            FROM me
            """
        static let bindingDataTypes: [PostgresDataType] = [.text]

        package var storeID: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(storeID)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (Int, Bool, Int, Int?) {
            try row.decode((Int, Bool, Int, Int?).self)
        }
    }
}
