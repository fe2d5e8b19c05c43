SELECT s.id, s.rating_score::text, s.id FROM stores s
WHERE s.archived_at IS NULL AND (NULL::text IS NULL OR s.category_id = NULL::text)
 AND (NULL::int IS NULL OR s.price_per_person <= NULL::int)
 AND (NULL::float8 IS NULL OR ST_DWithin(s.location, ST_SetSRID(ST_MakePoint(104.055175::float8, NULL::float8), 4326)::geography, 3000::float8, false))
 AND (NOT false OR s.open_minutes @> store_week_minute('2026-11-28 12:00:00+00'::timestamptz, s.time_zone))
 AND ('4.361111111111111'::float8 IS NULL OR (s.rating_score, s.id) < ('4.361111111111111'::float8, 's000674'::text))
ORDER BY s.rating_score DESC, s.id DESC LIMIT 21;
