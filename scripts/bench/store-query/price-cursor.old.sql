SELECT s.id, coalesce(s.price_per_person, 100001)::text, s.id FROM stores s
WHERE s.archived_at IS NULL AND (NULL::text IS NULL OR s.category_id = NULL::text)
 AND (NULL::int IS NULL OR s.price_per_person <= NULL::int)
 AND (NULL::float8 IS NULL OR ST_DWithin(s.location, ST_SetSRID(ST_MakePoint(104.055175::float8, NULL::float8), 4326)::geography, 3000::float8, false))
 AND (NOT false OR s.open_minutes @> store_week_minute('2026-11-28 12:00:00+00'::timestamptz, s.time_zone))
 AND ('100001'::int IS NULL OR (coalesce(s.price_per_person, 100001) > '100001'::int OR (coalesce(s.price_per_person, 100001) = '100001'::int AND s.id < 's019500'::text)))
ORDER BY coalesce(s.price_per_person, 100001), s.id DESC LIMIT 21;
