-- GET /v1/pick?near=…, anonymous: a random position within about 5 km of the centre of Chengdu.
\set dlat random(-450, 450)
\set dlng random(-520, 520)
-- 1. PickCandidates.read: the 100 nearest open stores within 3 km (the views come from the cache).
SELECT s.id, s.category_id, s.rating_score, s.favorite_count,
    ST_Distance(s.location,
        ST_SetSRID(ST_MakePoint(104.0633 + :dlng / 10000.0, 30.6598 + :dlat / 10000.0), 4326)::geography, false),
    false
FROM stores s
WHERE s.archived_at IS NULL
    AND s.open_minutes @> store_week_minute(now(), s.time_zone)
    AND ST_DWithin(s.location,
        ST_SetSRID(ST_MakePoint(104.0633 + :dlng / 10000.0, 30.6598 + :dlat / 10000.0), 4326)::geography, 3000, false)
    AND NOT (s.id = ANY('{}'::text[]))
ORDER BY s.location <-> ST_SetSRID(ST_MakePoint(104.0633 + :dlng / 10000.0, 30.6598 + :dlat / 10000.0), 4326)::geography
LIMIT 100;
