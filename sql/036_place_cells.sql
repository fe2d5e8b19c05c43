-- Issue #45: near me is composed in memory from cells of a grid (rows of 0.02° of latitude, columns of 0.02° of
-- longitude), each cached under the tag g:<cell> with what the walk filters on; a store's change to any of that
-- tells its old and new cell. The list's statement orders by the same sphere distance the walk computes, so the
-- two give the same pages and cursors.

-- The cell a position falls in, as one number (PlaceGrid.cell in Swift divides the same float8 the same way).
CREATE FUNCTION place_cell(location geography) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT (floor(ST_Y(location::geometry) / 0.02::float8)::bigint + 5000) * 20000
        + floor(ST_X(location::geometry) / 0.02::float8)::bigint + 10000
$$;

-- Metres from (lat, lng) on PostGIS's sphere (the WGS-84 mean radius), by the haversine in the operations'
-- order PlaceGrid.meters uses: both call the C library's sin, cos, asin and sqrt, so they agree to the bit.
CREATE FUNCTION place_meters(lat float8, lng float8, location geography) RETURNS float8
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT 2::float8 * 6371008.771415::float8 * asin(least(1::float8, sqrt(
        sin((ST_Y(location::geometry) - lat) * (pi() / 180::float8) / 2::float8)
            * sin((ST_Y(location::geometry) - lat) * (pi() / 180::float8) / 2::float8)
        + cos(lat * (pi() / 180::float8)) * cos(ST_Y(location::geometry) * (pi() / 180::float8))
            * sin((ST_X(location::geometry) - lng) * (pi() / 180::float8) / 2::float8)
            * sin((ST_X(location::geometry) - lng) * (pi() / 180::float8) / 2::float8))))
$$;

CREATE INDEX stores_place_cell ON stores (place_cell(location)) WHERE archived_at IS NULL;

CREATE FUNCTION stores_place_notify() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF cache_bulk() THEN
        RETURN NULL;  -- stores_cache_notify says '*'
    END IF;
    IF TG_OP <> 'INSERT' AND OLD.location IS NOT NULL AND (TG_OP = 'DELETE'
        OR (OLD.location, OLD.archived_at IS NULL, OLD.category_id, OLD.time_zone, OLD.open_minutes)
            IS DISTINCT FROM
           (NEW.location, NEW.archived_at IS NULL, NEW.category_id, NEW.time_zone, NEW.open_minutes)) THEN
        PERFORM cache_notify('g:' || place_cell(OLD.location));
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.location IS NOT NULL AND (TG_OP = 'INSERT'
        OR (OLD.location, OLD.archived_at IS NULL, OLD.category_id, OLD.time_zone, OLD.open_minutes)
            IS DISTINCT FROM
           (NEW.location, NEW.archived_at IS NULL, NEW.category_id, NEW.time_zone, NEW.open_minutes)) THEN
        PERFORM cache_notify('g:' || place_cell(NEW.location));
    END IF;
    RETURN NULL;
END $$;

-- Reviews update their store's totals on every post: the column list keeps this trigger out of them (so the walk
-- does not filter by price, which reviews move; near me with maxPrice is the statement's).
CREATE TRIGGER stores_place_notify
    AFTER INSERT OR DELETE OR UPDATE OF location, archived_at, category_id, time_zone, hours, open_minutes
    ON stores FOR EACH ROW EXECUTE FUNCTION stores_place_notify();
