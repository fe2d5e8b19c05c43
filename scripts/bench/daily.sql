-- GET /v1/promotions/daily, anonymous (limit 10).
-- 1. StoreRepository.promoted
SELECT s.id FROM stores s WHERE s.archived_at IS NULL AND s.ad_spend > 0
ORDER BY s.ad_spend DESC, s.created_at, s.id LIMIT 10;

-- 2. StoreRepository.views(ids:viewer: nil) for the ids step 1 returns.
SELECT s.id, s.name, c.id, c.name, s.description, s.address, s.manager_id, u.name,
    COALESCE((SELECT array_agg(si.image_id ORDER BY si.position) FROM store_images si WHERE si.store_id = s.id),
             '{}'::text[]),
    s.rating_count, s.rating_sum, s.rating_score, s.favorite_count,
    EXISTS (SELECT 1 FROM favorites f WHERE f.user_id = '' AND f.store_id = s.id),
    s.ad_spend, s.created_at, s.updated_at, s.version
FROM unnest(:promo_ids::text[]) WITH ORDINALITY AS wanted (id, position)
JOIN stores s ON s.id = wanted.id AND s.archived_at IS NULL
JOIN categories c ON c.id = s.category_id
JOIN users u ON u.id = s.manager_id
ORDER BY wanted.position;
