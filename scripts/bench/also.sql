-- GET /v1/stores/{id}/also-viewed, anonymous, a random store each time (generated ids are s + 6 digits): the
-- statements the endpoint issues with CACHE=off, in order.
\set n random(1, :stores)
-- 1. The store itself as everyone sees it (a missing or archived store is a 404).
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
FROM ids_in_order(ARRAY['s' || lpad(:n::text, 6, '0')]) AS wanted (id, position)
JOIN stores s ON s.id = wanted.id AND s.archived_at IS NULL
JOIN categories c ON c.id = s.category_id
JOIN users u ON u.id = s.manager_id
ORDER BY wanted.position;

-- 2. StoreVisits.alsoViewed (limit 10), the ids gathered into :ids for step 3 (an aggregate around the
-- statement, nothing more).
SELECT coalesce(array_agg(a.id), '{}')::text AS ids FROM (
    SELECT c.other_id FROM store_covisits c JOIN stores s ON s.id = c.other_id AND s.archived_at IS NULL
    WHERE c.store_id = 's' || lpad(:n::text, 6, '0') AND c.other_id <> 's' || lpad(:n::text, 6, '0')
    ORDER BY c.viewers DESC, c.other_id DESC
    LIMIT 10
) a (id)
\gset

-- 3. Those stores as everyone sees them (with the cache, their cards).
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
