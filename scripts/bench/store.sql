-- GET /v1/stores/{id}, anonymous, a random store each time (generated ids are s + 6 digits).
\set n random(1, :stores)
-- StoreRepository.view(id:viewer: nil)
SELECT s.id, s.name, c.id, c.name, s.description, s.address, s.manager_id, u.name,
    COALESCE((SELECT array_agg(si.image_id ORDER BY si.position) FROM store_images si WHERE si.store_id = s.id),
             '{}'::text[]),
    s.rating_count, s.rating_sum, s.rating_score, s.taste_count, s.taste_sum, s.environment_count,
    s.environment_sum, s.service_count, s.service_sum, s.price_per_person, s.dish_names, s.dish_counts,
    s.favorite_count,
    EXISTS (SELECT 1 FROM favorites f WHERE f.user_id = NULL AND f.store_id = s.id),
    s.ad_spend, s.created_at, s.updated_at, s.version
FROM stores s
JOIN categories c ON c.id = s.category_id
JOIN users u ON u.id = s.manager_id
WHERE s.id = 's' || lpad(:n::text, 6, '0') AND s.archived_at IS NULL;
