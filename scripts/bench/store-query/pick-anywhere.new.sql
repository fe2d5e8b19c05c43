WITH seeds AS (
 (SELECT o.store_id FROM viewer_store_opens o WHERE o.viewer = 'u:u005356'::text ORDER BY o.opened_at DESC LIMIT 10)
 UNION
 (SELECT f.store_id FROM favorites f WHERE f.user_id = 'u005356'::text ORDER BY f.created_at DESC LIMIT 10)
), related AS (
 SELECT x.other_id AS id, sum(x.viewers)::int AS covisits FROM seeds s CROSS JOIN LATERAL (
  SELECT c.other_id, c.viewers FROM store_covisits c WHERE c.store_id = s.store_id ORDER BY c.viewers DESC, c.other_id DESC LIMIT 12) x
 GROUP BY x.other_id
), favorite AS (SELECT f.store_id FROM favorites f WHERE f.user_id = 'u005356'::text
), reviewed AS (SELECT c.store_id FROM comments c WHERE c.author_id = 'u005356'::text AND c.hidden_at IS NULL AND c.kind = 'review' AND c.created_at > '2026-10-29 12:00:00+00'::timestamptz)
SELECT s.id, s.category_id, s.rating_score, s.favorite_count, NULL::float8, coalesce(r.covisits, 0), s.id IN (SELECT f.store_id FROM favorite f), s.id IN (SELECT v.store_id FROM reviewed v)
FROM (SELECT s.id, s.category_id, s.rating_score, s.favorite_count, s.location, s.archived_at FROM stores s WHERE s.archived_at IS NULL AND s.open_minutes @> store_week_minute('2026-11-28 12:00:00+00'::timestamptz, s.time_zone) AND NOT (s.id IN (SELECT v.store_id FROM reviewed v)) ORDER BY s.rating_score DESC, s.id DESC LIMIT 100) s LEFT JOIN related r ON r.id = s.id WHERE s.archived_at IS NULL;
