-- POST /v1/stores/{id}/comments as benchwriter, a random store each time: CommentStatements.InsertView with its
-- origins CTE, so every trigger of a post fires (the judge's queue, search, totals, the manager's notification).
-- The bench's posts come from loopback, which is no origin, and from one device (the visitor id).
\set n random(1, :stores)
-- StoreStatements.LiveManager: every post asks it first (whether the store is live, whose notice it may take).
SELECT manager_id FROM stores WHERE id = 's' || lpad(:n::text, 6, '0') AND archived_at IS NULL;
WITH c AS (
    INSERT INTO comments (kind, store_id, author_id, rating, body, taste, environment, service, price_per_person)
    SELECT 'review', 's' || lpad(:n::text, 6, '0'), :writer, 4::smallint,
        'pgbench review ' || :n || ': 水煮鱼很嫩，火锅底料香。', NULL::smallint, NULL::smallint, NULL::smallint, NULL::int
    WHERE EXISTS (SELECT 1 FROM stores WHERE id = 's' || lpad(:n::text, 6, '0') AND archived_at IS NULL)
    RETURNING *
), origins AS (
    INSERT INTO trust_origins AS t (user_id, origin)
    SELECT c.author_id, trust_origin_hash(x.kind, x.value)
    FROM c, (VALUES ('a', NULL::text), ('v', 'bench-device-0001'::text)) AS x (kind, value)
    WHERE c.kind = 'review' AND x.value IS NOT NULL
    ON CONFLICT (user_id, origin) DO NOTHING
)
SELECT c.id, c.kind, c.store_id, s.name, g.id, g.name,
    (SELECT si.image_id FROM store_images si WHERE si.store_id = s.id ORDER BY si.position LIMIT 1),
    u.id, u.name, u.avatar_image_id, c.rating::int, c.taste::int, c.environment::int, c.service::int,
    c.price_per_person, c.body,
    ARRAY(SELECT ci.image_id FROM comment_images ci WHERE ci.comment_id = c.id ORDER BY ci.position),
    c.like_count, r.body, ru.id, ru.name, r.created_at, r.updated_at,
    c.created_at, c.updated_at, c.version, c.created_at::text, c.recommended
FROM c
JOIN stores s ON s.id = c.store_id
JOIN categories g ON g.id = s.category_id
JOIN users u ON u.id = c.author_id
LEFT JOIN comment_replies r ON r.comment_id = c.id
LEFT JOIN users ru ON ru.id = r.author_id;
