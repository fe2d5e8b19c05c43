WITH knn AS (SELECT s.location <-> ST_SetSRID(ST_MakePoint(104.055175::float8, 30.666529::float8), 4326)::geography AS m FROM stores s
 WHERE s.archived_at IS NULL AND (NULL::text IS NULL OR s.category_id = NULL::text) AND (NULL::int IS NULL OR s.price_per_person <= NULL::int)
 AND ST_DWithin(s.location, ST_SetSRID(ST_MakePoint(104.055175::float8, 30.666529::float8), 4326)::geography, 3000::float8, false) AND (NOT false OR s.open_minutes @> store_week_minute('2026-11-28 12:00:00+00'::timestamptz, s.time_zone))
 AND (NULL::float8 IS NULL OR ST_Distance(s.location, ST_SetSRID(ST_MakePoint(104.055175::float8, 30.666529::float8), 4326)::geography, false) > NULL::float8 OR (ST_Distance(s.location, ST_SetSRID(ST_MakePoint(104.055175::float8, 30.666529::float8), 4326)::geography, false) = NULL::float8 AND s.id < NULL::text))
 ORDER BY s.location <-> ST_SetSRID(ST_MakePoint(104.055175::float8, 30.666529::float8), 4326)::geography LIMIT 21)
SELECT s.id, d.meters::text, s.id FROM stores s CROSS JOIN LATERAL (SELECT ST_Distance(s.location, ST_SetSRID(ST_MakePoint(104.055175::float8, 30.666529::float8), 4326)::geography, false) AS meters) d
WHERE s.archived_at IS NULL AND (NULL::text IS NULL OR s.category_id = NULL::text) AND (NULL::int IS NULL OR s.price_per_person <= NULL::int)
 AND ST_DWithin(s.location, ST_SetSRID(ST_MakePoint(104.055175::float8, 30.666529::float8), 4326)::geography, least(3000::float8, coalesce((SELECT CASE WHEN count(*) < 21 THEN NULL ELSE max(m) + 1 END FROM knn), 3000::float8)), false)
 AND (NOT false OR s.open_minutes @> store_week_minute('2026-11-28 12:00:00+00'::timestamptz, s.time_zone))
 AND (NULL::float8 IS NULL OR d.meters > NULL::float8 OR (d.meters = NULL::float8 AND s.id < NULL::text))
ORDER BY d.meters, s.id DESC LIMIT 21;
