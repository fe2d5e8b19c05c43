-- What the money bought (issue #32): each store's day of views, visitors, impressions and clicks by source, and
-- the platform's day of active users and visitors. Servers count in memory and add their counts here every few
-- seconds in one statement (`InsightCounter.flush`); reviews, ratings, favorites and spend are read from their
-- own tables when insights are asked for, so they are exact by construction.

-- One row per store and day of the store's time zone. `visitor_rows`: distinct visitor hashes held in
-- store_day_visitors; `visitor_cut`: null while that set is complete (the count is exact), else the largest hash
-- kept after trimming to the smallest 1,000 (a k-minimum-values sketch: the estimate is 999 / (the 1,000th
-- smallest hash as a fraction of the hash space), relative standard error 1/sqrt(998) ≈ 3.2 %). `visitors`:
-- set by housekeeping when the day is over and its hashes are dropped.
CREATE TABLE store_days (
    store_id      text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    day           date NOT NULL,
    views         bigint NOT NULL DEFAULT 0 CHECK (views >= 0),
    imp_daily     bigint NOT NULL DEFAULT 0 CHECK (imp_daily >= 0),
    imp_feed      bigint NOT NULL DEFAULT 0 CHECK (imp_feed >= 0),
    imp_search    bigint NOT NULL DEFAULT 0 CHECK (imp_search >= 0),
    imp_near      bigint NOT NULL DEFAULT 0 CHECK (imp_near >= 0),
    imp_pick      bigint NOT NULL DEFAULT 0 CHECK (imp_pick >= 0),
    clk_daily     bigint NOT NULL DEFAULT 0 CHECK (clk_daily >= 0),
    clk_feed      bigint NOT NULL DEFAULT 0 CHECK (clk_feed >= 0),
    clk_search    bigint NOT NULL DEFAULT 0 CHECK (clk_search >= 0),
    clk_near      bigint NOT NULL DEFAULT 0 CHECK (clk_near >= 0),
    clk_pick      bigint NOT NULL DEFAULT 0 CHECK (clk_pick >= 0),
    visitor_rows  integer NOT NULL DEFAULT 0 CHECK (visitor_rows >= 0),
    visitor_cut   bigint,
    visitors      integer CHECK (visitors >= 0),
    PRIMARY KEY (store_id, day)
) WITH (fillfactor = 70);  -- room on the page, so a flush's additions are HOT updates (no index touched)

-- Hashes (hashtextextended of the visitor's key) of the day's distinct visitors; raw, dropped once the day is over.
CREATE TABLE store_day_visitors (
    store_id  text NOT NULL,
    day       date NOT NULL,
    h         bigint NOT NULL,
    PRIMARY KEY (store_id, day, h),
    FOREIGN KEY (store_id, day) REFERENCES store_days (store_id, day) ON DELETE CASCADE
);

-- The platform's days (Asia/Shanghai), split by signed-in users and visitors; the same sketch with k = 4,096
-- (relative standard error ≈ 1.6 %).
CREATE TABLE platform_days (
    day           date NOT NULL,
    signed_in     boolean NOT NULL,
    rows_held     integer NOT NULL DEFAULT 0 CHECK (rows_held >= 0),
    cut           bigint,
    total         integer CHECK (total >= 0),
    PRIMARY KEY (day, signed_in)
);

CREATE TABLE platform_day_viewers (
    day        date NOT NULL,
    signed_in  boolean NOT NULL,
    h          bigint NOT NULL,
    PRIMARY KEY (day, signed_in, h),
    FOREIGN KEY (day, signed_in) REFERENCES platform_days (day, signed_in) ON DELETE CASCADE
);

-- Distinct count from a sketch: exact (`held`) while nothing was trimmed, else (k - 1) over the k-th smallest hash
-- as a fraction of the 64-bit hash space.
CREATE FUNCTION sketch_estimate(held integer, cut bigint, kth bigint, k bigint) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN cut IS NULL OR kth IS NULL THEN held
        ELSE round((k - 1) / ((kth::numeric + 9223372036854775808) / 18446744073709551616))::integer
    END
$$;

-- Insights read a store's reviews, favorites and purchases of a range of days.
CREATE INDEX favorites_store_newest ON favorites (store_id, created_at);
CREATE INDEX comments_created ON comments (created_at) WHERE kind = 'review';
CREATE INDEX reports_created ON reports (created_at);
CREATE INDEX reports_closed ON reports (closed_at) WHERE closed_at IS NOT NULL;
CREATE INDEX promotions_created ON promotions (created_at);
