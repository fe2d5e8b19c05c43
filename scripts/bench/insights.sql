-- GET /v1/stores/{id}/insights's days, as InsightRepository.StoreDays reads them (pgbench -D store= from= to= zone=).
WITH r AS (
    SELECT (c.created_at AT TIME ZONE :zone)::date AS day, count(*)::int8 AS n,
        coalesce(sum(c.rating), 0)::int8 AS rs, count(c.rating)::int8 AS rc
    FROM comments c
    WHERE c.store_id = :store AND c.kind = 'review' AND c.hidden_at IS NULL
        AND c.created_at >= (:from::date::timestamp AT TIME ZONE :zone)
        AND c.created_at < ((:to::date + 1)::timestamp AT TIME ZONE :zone)
    GROUP BY 1
), f AS (
    SELECT (f.created_at AT TIME ZONE :zone)::date AS day, count(*)::int8 AS n
    FROM favorites f
    WHERE f.store_id = :store
        AND f.created_at >= (:from::date::timestamp AT TIME ZONE :zone)
        AND f.created_at < ((:to::date + 1)::timestamp AT TIME ZONE :zone)
    GROUP BY 1
), p AS (
    SELECT (p.created_at AT TIME ZONE :zone)::date AS day, sum(p.amount)::int8 AS spend
    FROM promotions p
    WHERE p.store_id = :store
        AND p.created_at >= (:from::date::timestamp AT TIME ZONE :zone)
        AND p.created_at < ((:to::date + 1)::timestamp AT TIME ZONE :zone)
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
    coalesce(f.n, 0), coalesce(r.n, 0), coalesce(r.rs, 0), coalesce(r.rc, 0), coalesce(p.spend, 0)),
    E'\n' ORDER BY g.day), '')
FROM generate_series(:from::date, :to::date, interval '1 day') AS g (day)
LEFT JOIN store_days d ON d.store_id = :store AND d.day = g.day::date
LEFT JOIN r ON r.day = g.day::date
LEFT JOIN f ON f.day = g.day::date
LEFT JOIN p ON p.day = g.day::date;
