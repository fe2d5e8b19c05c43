WITH knn AS (SELECT s.location <-> ST_SetSRID(ST_MakePoint(104.055175::float8, 30.666529::float8), 4326)::geography AS m FROM stores s
 WHERE s.archived_at IS NULL AND ST_DWithin(s.location, ST_SetSRID(ST_MakePoint(104.055175::float8, 30.666529::float8), 4326)::geography, 3000::float8, false)
 ORDER BY s.location <-> ST_SetSRID(ST_MakePoint(104.055175::float8, 30.666529::float8), 4326)::geography LIMIT 21)
SELECT s.id, d.meters::text, s.id FROM stores s CROSS JOIN LATERAL (SELECT ST_Distance(s.location, ST_SetSRID(ST_MakePoint(104.055175::float8, 30.666529::float8), 4326)::geography, false) AS meters) d
WHERE s.archived_at IS NULL AND ST_DWithin(s.location, ST_SetSRID(ST_MakePoint(104.055175::float8, 30.666529::float8), 4326)::geography, least(3000::float8, coalesce((SELECT CASE WHEN count(*) < 21 THEN NULL ELSE max(m) + 1 END FROM knn), 3000::float8)), false)
ORDER BY d.meters, s.id DESC LIMIT 21;
