-- GET /v1/stores/{id}, anonymous, a random store each time (generated ids are s + 6 digits).
\set n random(1, :stores)
-- StoreRepository.view(id:viewer: nil) with CACHE=off: StoreStatements.ByID, its viewer bound NULL as the server
-- binds it (with the cache, the read behind a miss; the page's JSON is then kept).
\set viewer_none NULL
SELECT s.id, s.name, c.id, c.name, s.description, s.address, s.manager_id, u.name,
    COALESCE((SELECT array_agg(si.image_id ORDER BY si.position) FROM store_images si WHERE si.store_id = s.id),
             '{}'::text[]),
    s.rating_count, s.rating_sum, s.rating_score, s.taste_count, s.taste_sum, s.environment_count,
    s.environment_sum, s.service_count, s.service_sum, s.price_per_person, s.dish_names, s.dish_counts,
    s.favorite_count, s.not_recommended_count,
    EXISTS (SELECT 1 FROM favorites f WHERE f.user_id = :viewer_none::text AND f.store_id = s.id),
    s.ad_spend, s.created_at, s.updated_at, s.version,
    ST_Y(s.location::geometry), ST_X(s.location::geometry), s.hours::text, s.time_zone,
    ARRAY(SELECT k.starts_at FROM coupons k
          WHERE k.store_id = s.id AND k.claimed < k.stock AND k.ends_at > now() ORDER BY k.ends_at DESC, k.id),
    ARRAY(SELECT k.ends_at FROM coupons k
          WHERE k.store_id = s.id AND k.claimed < k.stock AND k.ends_at > now() ORDER BY k.ends_at DESC, k.id)
FROM stores s JOIN categories c ON c.id = s.category_id
JOIN users u ON u.id = s.manager_id
WHERE s.id = 's' || lpad(:n::text, 6, '0') AND s.archived_at IS NULL;
