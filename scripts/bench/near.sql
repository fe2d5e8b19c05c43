-- GET /v1/stores?near=…&radius=3000&open=now&sort=distance, anonymous: a random position within about 5 km of
-- the centre of Chengdu (one of the generator's 12 cities; the wrk run spreads over all of them).
\set dlat random(-450, 450)
\set dlng random(-520, 520)
-- 1. StoreRepository.list(sort: .distance) with CACHE=off (with the cache the walk of cached cells answers): the
-- page's ids and keys, gathered into :ids for step 2 (an aggregate around the statement, nothing more). The KNN step finds how far 21 stores reach; the exact step
-- sorts that disc by place_meters, which also decides the radius (migration 036).
SELECT coalesce((array_agg(p.k))[1:20], '{}')::text AS ids FROM (
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
    ORDER BY d.meters, s.id COLLATE "C" DESC LIMIT 21
) p (k, meters, key)
\gset

-- 2. StoreRepository's shared views of those ids (with the cache, the stores' cards answer).
SELECT s.id, s.name, c.id, c.name, s.description, s.address, s.manager_id, u.name,
    COALESCE((SELECT array_agg(si.image_id ORDER BY si.position) FROM store_images si WHERE si.store_id = s.id),
             '{}'::text[]),
    s.rating_count, s.rating_sum, s.rating_score, s.taste_count, s.taste_sum, s.environment_count,
    s.environment_sum, s.service_count, s.service_sum, s.price_per_person, s.dish_names, s.dish_counts,
    s.favorite_count, s.not_recommended_count,
    false,
    s.ad_spend, s.created_at, s.updated_at, s.version,
    ST_Y(s.location::geometry), ST_X(s.location::geometry), s.hours::text, s.time_zone,
    ARRAY(SELECT k.starts_at FROM coupons k
          WHERE k.store_id = s.id AND k.claimed < k.stock AND k.ends_at > now() ORDER BY k.ends_at DESC, k.id),
    ARRAY(SELECT k.ends_at FROM coupons k
          WHERE k.store_id = s.id AND k.claimed < k.stock AND k.ends_at > now() ORDER BY k.ends_at DESC, k.id)
FROM ids_in_order(:ids::text[]) AS wanted (id, position)
JOIN stores s ON s.id = wanted.id AND s.archived_at IS NULL
JOIN categories c ON c.id = s.category_id
JOIN users u ON u.id = s.manager_id
ORDER BY wanted.position;
