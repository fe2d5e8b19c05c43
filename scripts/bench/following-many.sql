-- GET /v1/feed/following (following 1,000 authors): FollowStatements.FollowingFeed with
-- CommentRow.columns (first page, 20 + 1 rows); the session lookup and the viewer's likes among the page (one
-- index probe each) are left out.
WITH heads AS (
    SELECT f.followee_id AS author FROM follows f
    CROSS JOIN LATERAL (
        SELECT c.created_at, c.id FROM comments c
        WHERE c.author_id = f.followee_id AND c.hidden_at IS NULL AND c.kind = 'review' AND NOT c.store_archived
          AND (c.created_at, c.id) < (COALESCE(NULL::timestamptz, 'infinity'), COALESCE(NULL::text, ''))
        ORDER BY c.created_at DESC, c.id DESC LIMIT 1
    ) x
    WHERE f.follower_id = :follow_many
    ORDER BY x.created_at DESC, x.id DESC LIMIT 21
), page AS (
    SELECT y.id FROM heads h
    CROSS JOIN LATERAL (
        SELECT c.created_at, c.id FROM comments c
        WHERE c.author_id = h.author AND c.hidden_at IS NULL AND c.kind = 'review' AND NOT c.store_archived
          AND (c.created_at, c.id) < (COALESCE(NULL::timestamptz, 'infinity'), COALESCE(NULL::text, ''))
        ORDER BY c.created_at DESC, c.id DESC LIMIT 21
    ) y
    ORDER BY y.created_at DESC, y.id DESC LIMIT 21
)
SELECT c.id, c.kind, c.store_id, s.name, g.id, g.name,
            (SELECT si.image_id FROM store_images si WHERE si.store_id = s.id ORDER BY si.position LIMIT 1),
            u.id, u.name, u.avatar_image_id, c.rating::int, c.taste::int, c.environment::int, c.service::int,
            c.price_per_person, c.body,
            ARRAY(SELECT ci.image_id FROM comment_images ci WHERE ci.comment_id = c.id ORDER BY ci.position),
            c.like_count, r.body, ru.id, ru.name, r.created_at, r.updated_at,
            c.created_at, c.updated_at, c.version, c.created_at::text
FROM page p JOIN comments c ON c.id = p.id JOIN stores s ON s.id = c.store_id
        JOIN categories g ON g.id = s.category_id
        JOIN users u ON u.id = c.author_id
        LEFT JOIN comment_replies r ON r.comment_id = c.id
        LEFT JOIN users ru ON ru.id = r.author_id
WHERE c.hidden_at IS NULL AND NOT c.store_archived AND s.archived_at IS NULL
ORDER BY c.created_at DESC, c.id DESC;
