-- GET /v1/stores?near=…&radius=3000&open=now&sort=distance, anonymous: a random position within about 5 km of
-- the centre of Chengdu (one of the generator's 12 cities; the wrk run spreads over all of them).
\set dlat random(-450, 450)
\set dlng random(-520, 520)
-- 1. StoreRepository.list(sort: .distance): the page's ids and keys (the views come from the cache). The KNN
-- step finds how far 21 stores reach; the exact step sorts that disc.
WITH knn AS (
    SELECT s.location <-> ST_SetSRID(ST_MakePoint(104.0633 + :dlng / 10000.0, 30.6598 + :dlat / 10000.0), 4326)::geography AS m
    FROM stores s
    WHERE s.archived_at IS NULL
        AND ST_DWithin(s.location,
            ST_SetSRID(ST_MakePoint(104.0633 + :dlng / 10000.0, 30.6598 + :dlat / 10000.0), 4326)::geography, 3000, false)
        AND s.open_minutes @> store_week_minute(now(), s.time_zone)
    ORDER BY s.location <-> ST_SetSRID(ST_MakePoint(104.0633 + :dlng / 10000.0, 30.6598 + :dlat / 10000.0), 4326)::geography
    LIMIT 21)
SELECT s.id, d.meters::text, s.id FROM stores s
CROSS JOIN LATERAL (SELECT ST_Distance(s.location,
    ST_SetSRID(ST_MakePoint(104.0633 + :dlng / 10000.0, 30.6598 + :dlat / 10000.0), 4326)::geography, false) AS meters) d
WHERE s.archived_at IS NULL
    AND ST_DWithin(s.location,
        ST_SetSRID(ST_MakePoint(104.0633 + :dlng / 10000.0, 30.6598 + :dlat / 10000.0), 4326)::geography,
        least(3000, coalesce((SELECT CASE WHEN count(*) < 21 THEN NULL ELSE max(m) + 1 END FROM knn), 3000)), false)
    AND s.open_minutes @> store_week_minute(now(), s.time_zone)
ORDER BY d.meters, s.id DESC LIMIT 21;
