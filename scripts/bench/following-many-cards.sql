-- GET /v1/feed/following (following 1,000 authors) with the cache on: FollowingTimelines merges the page's ids in memory and
-- PostgreSQL read only the 21 cards by id (the ids computed by bench.sh). Since the cards are kept too (`cm:`), a warm
-- page reads nothing; this is what a cold one reads.
SELECT c.id, c.kind, c.store_id, s.name, g.id, g.name,
            (SELECT si.image_id FROM store_images si WHERE si.store_id = s.id ORDER BY si.position LIMIT 1),
            u.id, u.name, u.avatar_image_id, c.rating::int, c.taste::int, c.environment::int, c.service::int,
            c.price_per_person, c.body,
            ARRAY(SELECT ci.image_id FROM comment_images ci WHERE ci.comment_id = c.id ORDER BY ci.position),
            c.like_count, r.body, ru.id, ru.name, r.created_at, r.updated_at,
            c.created_at, c.updated_at, c.version, c.created_at::text
FROM comments c JOIN stores s ON s.id = c.store_id
        JOIN categories g ON g.id = s.category_id
        JOIN users u ON u.id = c.author_id
        LEFT JOIN comment_replies r ON r.comment_id = c.id
        LEFT JOIN users ru ON ru.id = r.author_id
WHERE c.id = ANY(:follow_many_ids::text[]) AND c.kind = 'review'
  AND c.hidden_at IS NULL AND NOT c.store_archived AND s.archived_at IS NULL
ORDER BY c.created_at DESC, c.id DESC;
