-- GET /v1/stores?near=…&radius=3000&open=now&sort=distance, anonymous: a random position within about 5 km of
-- the centre of Chengdu (one of the generator's 12 cities; the wrk run spreads over all of them).
\set dlat random(-450, 450)
\set dlng random(-520, 520)
-- 1. StoreRepository.list(sort: .distance) with CACHE=off (with the cache the walk of cached cells answers): the
-- page's ids and keys (the views come from the cache). The KNN step finds how far 21 stores reach; the exact step
-- sorts that disc by place_meters, which also decides the radius (migration 036).
WITH knn AS (
    SELECT s.location <-> ST_SetSRID(ST_MakePoint(104.0633 + :dlng / 10000.0, 30.6598 + :dlat / 10000.0), 4326)::geography AS m
    FROM stores s
    WHERE s.archived_at IS NULL
        AND ST_DWithin(s.location, ST_SetSRID(ST_MakePoint(104.0633 + :dlng / 10000.0, 30.6598 + :dlat / 10000.0), 4326)::geography, 3000 + 1, false)
        AND s.open_minutes @> store_week_minute(:clock::timestamptz, s.time_zone)
        AND place_meters((30.6598 + :dlat / 10000.0)::float8, (104.0633 + :dlng / 10000.0)::float8, s.location) <= 3000
    ORDER BY s.location <-> ST_SetSRID(ST_MakePoint(104.0633 + :dlng / 10000.0, 30.6598 + :dlat / 10000.0), 4326)::geography
    LIMIT 21)
SELECT s.id, d.meters::text, s.id FROM stores s
CROSS JOIN LATERAL (SELECT place_meters((30.6598 + :dlat / 10000.0)::float8, (104.0633 + :dlng / 10000.0)::float8, s.location) AS meters) d
WHERE s.archived_at IS NULL
    AND ST_DWithin(s.location, ST_SetSRID(ST_MakePoint(104.0633 + :dlng / 10000.0, 30.6598 + :dlat / 10000.0), 4326)::geography,
        least(3000, coalesce((SELECT CASE WHEN count(*) < 21 THEN NULL ELSE max(m) + 1 END FROM knn), 3000)) + 1, false)
    AND s.open_minutes @> store_week_minute(:clock::timestamptz, s.time_zone)
    AND d.meters <= 3000
ORDER BY d.meters, s.id COLLATE "C" DESC LIMIT 21;
