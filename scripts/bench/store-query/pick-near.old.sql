WITH seeds AS (
 (SELECT o.store_id FROM viewer_store_opens o WHERE o.viewer = 'u:u005356'::text ORDER BY o.opened_at DESC LIMIT 10)
 UNION
 (SELECT f.store_id FROM favorites f WHERE f.user_id = 'u005356'::text ORDER BY f.created_at DESC LIMIT 10)
), related AS (
 SELECT x.other_id AS id, sum(x.viewers)::int AS covisits FROM seeds s CROSS JOIN LATERAL (
  SELECT c.other_id, c.viewers FROM store_covisits c WHERE c.store_id = s.store_id ORDER BY c.viewers DESC, c.other_id DESC LIMIT 12) x
 GROUP BY x.other_id)
SELECT p.*, coalesce(r.covisits, 0) FROM (
SELECT s.id, s.category_id, s.rating_score, s.favorite_count,
 CASE WHEN 30.666529::float8 IS NULL THEN NULL ELSE ST_Distance(s.location, ST_SetSRID(ST_MakePoint(104.055175::float8, 30.666529::float8), 4326)::geography, false) END,
 'u005356'::text IS NOT NULL AND EXISTS (SELECT 1 FROM favorites f WHERE f.user_id = 'u005356'::text AND f.store_id = s.id)
FROM stores s
WHERE s.archived_at IS NULL AND s.open_minutes @> store_week_minute('2026-11-28 12:00:00+00'::timestamptz, s.time_zone)
 AND (30.666529::float8 IS NULL OR ST_DWithin(s.location, ST_SetSRID(ST_MakePoint(104.055175::float8, 30.666529::float8), 4326)::geography, 3000::float8, false))
 AND (NULL::int IS NULL OR s.price_per_person <= NULL::int)
 AND (NULL::text IS NULL OR s.category_id = NULL::text)
 AND NOT (s.id = ANY('{}'::text[]))
 AND ('u005356'::text IS NULL OR NOT EXISTS (SELECT 1 FROM comments c WHERE c.author_id = 'u005356'::text AND c.store_id = s.id AND c.kind = 'review' AND c.created_at > '2026-10-29 12:00:00+00'::timestamptz))
ORDER BY CASE WHEN 30.666529::float8 IS NULL THEN -s.rating_score ELSE s.location <-> ST_SetSRID(ST_MakePoint(104.055175::float8, 30.666529::float8), 4326)::geography END, CASE WHEN 30.666529::float8 IS NULL THEN s.id END DESC
LIMIT 100) p LEFT JOIN related r ON r.id = p.id;
