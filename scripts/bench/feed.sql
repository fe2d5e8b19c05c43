-- GET /v1/feed/featured as a signed-in viewer with clicks in 10 categories (first page, limit 20): the
-- statements the endpoint issues, in order. Variables come from scripts/bench.sh (pgbench -D).
-- 1. SessionRepository.authenticate (the expiry slide writes at most once a minute, so it updates nothing here).
WITH touched AS (
    UPDATE sessions SET last_used_at = now(), expires_at = now() + make_interval(secs => :lifetime)
    WHERE token_hash = :token_hash AND revoked_at IS NULL AND expires_at > now()
      AND last_used_at < now() - interval '1 minute'
)
SELECT u.id, u.name, u.role FROM sessions s JOIN users u ON u.id = s.user_id
WHERE s.token_hash = :token_hash AND s.revoked_at IS NULL AND s.expires_at > now();

-- 2. InterestRepository.interests
SELECT i.category_id, c.name, i.score, i.score_at, i.clicks
FROM viewer_interests i JOIN categories c ON c.id = i.category_id
WHERE i.viewer = :viewer;

-- 3. FeedRepository.category: the top category fills the page (limit + 1 rows).
SELECT c.id, c.created_at::text FROM comments c
WHERE c.category_id = :category AND c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived
ORDER BY c.created_at DESC, c.id DESC LIMIT 21;

-- 4. CommentRepository.views(ids:) for the 20 ids step 3 returns.
SELECT c.id, c.kind, c.store_id, s.name, g.id, g.name,
    (SELECT si.image_id FROM store_images si WHERE si.store_id = s.id ORDER BY si.position LIMIT 1),
    u.id, u.name, u.avatar_image_id, c.rating::int, c.taste::int, c.environment::int, c.service::int,
    c.price_per_person, c.body,
    ARRAY(SELECT ci.image_id FROM comment_images ci WHERE ci.comment_id = c.id ORDER BY ci.position),
    c.like_count, r.body, ru.id, ru.name, r.created_at, r.updated_at,
    c.created_at, c.updated_at, c.version, c.created_at::text
FROM comments c
JOIN stores s ON s.id = c.store_id
JOIN categories g ON g.id = s.category_id
JOIN users u ON u.id = c.author_id
LEFT JOIN comment_replies r ON r.comment_id = c.id
LEFT JOIN users ru ON ru.id = r.author_id
WHERE c.id = ANY(:feed_ids::text[]) AND c.hidden_at IS NULL AND NOT c.store_archived AND s.archived_at IS NULL;

-- 5. CommentLikes.mark: which of the 20 the signed-in viewer liked.
SELECT comment_id FROM comment_likes WHERE user_id = :viewer_id AND comment_id = ANY(:feed_ids::text[]);
