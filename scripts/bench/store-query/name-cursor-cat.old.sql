SELECT s.id, s.name, s.id FROM stores s
WHERE s.archived_at IS NULL AND ('c_4c2ad5f0e24e411a'::text IS NULL OR s.category_id = 'c_4c2ad5f0e24e411a'::text)
 AND (NULL::int IS NULL OR s.price_per_person <= NULL::int)
 AND (NULL::float8 IS NULL OR ST_DWithin(s.location, ST_SetSRID(ST_MakePoint(104.055175::float8, NULL::float8), 4326)::geography, 3000::float8, false))
 AND (NOT false OR s.open_minutes @> store_week_minute('2026-11-28 12:00:00+00'::timestamptz, s.time_zone))
 AND ('丝路羊肉馆'::text IS NULL OR (s.name COLLATE "C", s.id) > ('丝路羊肉馆'::text COLLATE "C", 's013570'::text))
ORDER BY s.name COLLATE "C", s.id LIMIT 21;
