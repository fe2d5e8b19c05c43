-- Where and when a store is (issue #29): a position, a weekly schedule and the time zone it is read in.
--
-- `location` is a PostGIS geography point (WGS-84 longitude/latitude, SRID 4326): ST_DWithin on it with
-- use_spheroid => false is a great-circle test on a sphere that the GiST index below answers, so "within 3 km"
-- reads a few index pages instead of every store. (earthdistance's cube boxes need a second exact check and an
-- expression index on ll_to_earth; docs/PLACES.md says why PostGIS was chosen.)
--
-- `hours` is the contract's schedule as given: [{day 1-7, open "HH:MM", close "HH:MM"}], a range whose close is
-- not after its open ending the next day. `open_minutes` is the same schedule as minutes of the week (Monday 00:00
-- is 0, a week is 10080), derived here so that "open now" is one containment test; a range past Sunday midnight
-- wraps to Monday.
CREATE EXTENSION IF NOT EXISTS postgis;

-- The minutes of the week a schedule covers. Validated shapes only (the server and the seed reader check them).
CREATE FUNCTION store_week_minutes(hours jsonb) RETURNS int4multirange LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(range_agg(part), '{}'::int4multirange)
    FROM (
        SELECT (r->>'day')::int - 1 AS day,
               split_part(r->>'open', ':', 1)::int * 60 + split_part(r->>'open', ':', 2)::int AS open,
               split_part(r->>'close', ':', 1)::int * 60 + split_part(r->>'close', ':', 2)::int AS close
        FROM jsonb_array_elements(hours) AS r
    ) given
    CROSS JOIN LATERAL (
        SELECT day * 1440 + open AS start,
               day * 1440 + CASE WHEN close > open THEN close ELSE close + 1440 END AS stop
    ) span
    CROSS JOIN LATERAL (
        SELECT int4range(span.start, least(span.stop, 10080))
        UNION ALL
        SELECT int4range(0, span.stop - 10080) WHERE span.stop > 10080
    ) AS parts (part)
$$;

-- The minute of the week `at` falls on in zone `zone`: minutes since a Monday midnight (2024-01-01 was one) of
-- the local time. One expression without FROM, so the planner inlines it into each query.
CREATE FUNCTION store_week_minute(at timestamptz, zone text) RETURNS int LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT ((floor(extract(epoch FROM (at AT TIME ZONE zone) - timestamp '2024-01-01') / 60)::bigint % 10080 + 10080)
        % 10080)::int
$$;

ALTER TABLE stores
    ADD COLUMN location geography(Point, 4326),
    ADD COLUMN hours jsonb CHECK (jsonb_typeof(hours) = 'array'),
    ADD COLUMN time_zone text NOT NULL DEFAULT 'Asia/Shanghai' CHECK (time_zone <> '' AND char_length(time_zone) <= 64),
    ADD COLUMN open_minutes int4multirange GENERATED ALWAYS AS (store_week_minutes(hours)) STORED;

CREATE INDEX stores_location ON stores USING gist (location) WHERE archived_at IS NULL;

-- The version bump of 016, now also for a store's place and hours (a write through psql or the CLI changes the
-- store's ETag as an edit through the API does).
CREATE OR REPLACE FUNCTION stores_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        NEW.edited_version := NEW.version;
        RETURN NEW;
    END IF;
    IF NEW.version = OLD.version AND NOT cache_bulk() AND (
        NEW.name, NEW.category_id, NEW.manager_id, NEW.description, NEW.address, NEW.rating_count, NEW.rating_sum,
        NEW.taste_count, NEW.taste_sum, NEW.environment_count, NEW.environment_sum, NEW.service_count,
        NEW.service_sum, NEW.price_count, NEW.price_sum, NEW.dish_names, NEW.dish_counts, NEW.favorite_count,
        NEW.ad_spend, NEW.archived_at, NEW.location, NEW.hours, NEW.time_zone
    ) IS DISTINCT FROM (
        OLD.name, OLD.category_id, OLD.manager_id, OLD.description, OLD.address, OLD.rating_count, OLD.rating_sum,
        OLD.taste_count, OLD.taste_sum, OLD.environment_count, OLD.environment_sum, OLD.service_count,
        OLD.service_sum, OLD.price_count, OLD.price_sum, OLD.dish_names, OLD.dish_counts, OLD.favorite_count,
        OLD.ad_spend, OLD.archived_at, OLD.location, OLD.hours, OLD.time_zone
    ) THEN
        NEW.version := OLD.version + 1;
    END IF;
    RETURN NEW;
END
$$;
