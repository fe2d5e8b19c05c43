-- near.sql's query (3 km, open now, nearest first) with earthdistance instead of PostGIS, for docs/PLACES.md's
-- choice: a cube GiST index on ll_to_earth (bench.sh makes it for this run only), earth_box to use it, and the exact
-- earth_distance check the box needs (the box is larger than the circle).
\set dlat random(-450, 450)
\set dlng random(-520, 520)
SELECT s.id, d.meters::text, s.id FROM stores s
CROSS JOIN LATERAL (SELECT earth_distance(
    ll_to_earth(ST_Y(s.location::geometry), ST_X(s.location::geometry)),
    ll_to_earth(30.6598 + :dlat / 10000.0, 104.0633 + :dlng / 10000.0)) AS meters) d
WHERE s.archived_at IS NULL AND s.location IS NOT NULL
    AND earth_box(ll_to_earth(30.6598 + :dlat / 10000.0, 104.0633 + :dlng / 10000.0), 3000)
        @> ll_to_earth(ST_Y(s.location::geometry), ST_X(s.location::geometry))
    AND d.meters <= 3000
    AND s.open_minutes @> store_week_minute(now(), s.time_zone)
ORDER BY d.meters, s.id DESC LIMIT 21;
