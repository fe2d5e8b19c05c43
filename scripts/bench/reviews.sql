-- GET /v1/stores/{id}/comments, anonymous, first page (limit 20, newest), a random store each time.
\set n random(1, :stores)
-- CommentRepository.storeComments(sort: .newest), any kind, first page (the cursor's sentinel position). The
-- store's existence is asked only when the page is empty, which it never is here.
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
WHERE c.store_id = 's' || lpad(:n::text, 6, '0') AND c.hidden_at IS NULL AND NOT c.store_archived AND s.archived_at IS NULL
  AND c.kind = ANY('{review,notice}'::text[])
  AND (c.created_at, c.id) < ('infinity'::timestamptz, ''::text)
ORDER BY c.created_at DESC, c.id DESC
LIMIT 21;
