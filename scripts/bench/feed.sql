-- GET /v1/feed/featured as a signed-in viewer with clicks in 10 categories (first page, limit 20): the
-- statements the endpoint issues with CACHE=off, in order. Variables come from scripts/bench.sh (pgbench -D); the
-- page's other binds are written as the first page's values. What the page showed is recorded beside the request
-- (a queue drained in batches, docs/RECOMMENDER.md), so it is not here.
-- 1. SessionRepository.authenticate (the expiry slide writes at most once a minute, beside the request).
SELECT u.id, u.name, u.role,
    extract(epoch FROM least(s.expires_at, s.created_at + make_interval(secs => 7776000)) - now())::float8,
    s.last_used_at < now() - interval '1 minute'
FROM sessions s JOIN users u ON u.id = s.user_id
WHERE s.token_hash = :token_hash AND s.revoked_at IS NULL AND s.expires_at > now()
  AND s.created_at > now() - make_interval(secs => 7776000);

-- 2. InterestRepository.state: interests and exploration counts per category with reviews.
SELECT k.id, k.name, i.score, i.score_at, coalesce(i.clicks, 0),
    coalesce(e.shown, 0), coalesce(e.clicked, 0), e.updated_at,
    coalesce(g.shown, 0)::int8, coalesce(g.clicked, 0)::int8,
    EXISTS (SELECT 1 FROM comments c WHERE c.category_id = k.id AND c.kind = 'review'
        AND c.hidden_at IS NULL AND NOT c.store_archived AND c.recommended)
FROM categories k
LEFT JOIN viewer_interests i ON i.viewer = :viewer AND i.category_id = k.id
LEFT JOIN viewer_explore e ON e.viewer = :viewer AND e.category_id = k.id
LEFT JOIN (SELECT category_id, sum(shown) AS shown, sum(clicked) AS clicked FROM category_explore
    GROUP BY category_id) g ON g.category_id = k.id;

-- 3. FeedCandidates.coldStart: each category's newest recommended reviews. The server chooses the page's pinned
-- reviews from them; here the nine newest are gathered into :pinned for step 4 (an aggregate around the
-- statement, nothing more).
SELECT coalesce((array_agg(f.id ORDER BY f.created_at DESC, f.id DESC))[1:9], '{}')::text AS pinned FROM (
    SELECT x.id, x.category_id, x.like_count, x.rating, x.created_at, s.rating_score
    FROM categories k CROSS JOIN LATERAL (
        SELECT c.id, c.category_id, c.like_count, c.rating, c.created_at, c.store_id FROM comments c
        WHERE c.category_id = k.id AND c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived AND c.recommended
        ORDER BY c.created_at DESC, c.id DESC LIMIT 8
    ) x JOIN stores s ON s.id = x.store_id
) f (id, category_id, like_count, rating, created_at, rating_score)
\gset

-- 4. FeedStatements.Page: the walk from the top of the viewer's categories (variable clicked, highest score
-- first), 21 rows (the page and one more) with the pinned reviews, as comment views with the viewer's likes; a
-- first page asks for no category names.
WITH RECURSIVE walk (segment, at, id, before, ids, clicked) AS (
    SELECT 0::int, COALESCE('9999-12-31 00:00:00+00'::timestamptz, 'infinity'), COALESCE('~', ''), 0, '{}'::text[], :clicked::text[]
    UNION ALL
    SELECT w.segment + 1, 'infinity'::timestamptz, ''::text, w.before + cardinality(w.ids),
        ARRAY(
            SELECT y.id FROM (
                SELECT c.id, c.created_at FROM comments c
                WHERE c.category_id = w.clicked[w.segment + 1]
                  AND c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived AND c.recommended
                  AND (c.created_at, c.id) < (w.at, w.id)
                ORDER BY c.created_at DESC, c.id DESC LIMIT 111) y
            WHERE w.segment < cardinality(w.clicked)
            ORDER BY y.created_at DESC, y.id DESC LIMIT 21 - w.before - cardinality(w.ids))
        || ARRAY(
            SELECT x.id FROM categories k CROSS JOIN LATERAL (
                SELECT y.id, y.created_at FROM (
                    SELECT c.id, c.created_at FROM comments c
                    WHERE c.category_id = k.id
                      AND c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived AND c.recommended
                      AND (c.created_at, c.id) < (w.at, w.id)
                    ORDER BY c.created_at DESC, c.id DESC LIMIT 111) y
                ORDER BY y.created_at DESC, y.id DESC LIMIT 21 - w.before - cardinality(w.ids)
            ) x
            WHERE w.segment = cardinality(w.clicked) AND cardinality(w.clicked) > 0
              AND k.id <> ALL(w.clicked)
            ORDER BY x.created_at DESC, x.id DESC LIMIT 21 - w.before - cardinality(w.ids))
        || ARRAY(
            SELECT y.id FROM (
                SELECT c.id, c.created_at FROM comments c
                WHERE c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived AND c.recommended
                  AND (c.created_at, c.id) < (w.at, w.id)
                ORDER BY c.created_at DESC, c.id DESC LIMIT 111) y
            WHERE w.segment = cardinality(w.clicked) AND cardinality(w.clicked) = 0
            ORDER BY y.created_at DESC, y.id DESC LIMIT 21 - w.before - cardinality(w.ids)),
        w.clicked
    FROM walk w
    WHERE w.before + cardinality(w.ids) < 21 AND w.segment <= cardinality(w.clicked)
), page AS (
    SELECT w.segment - 1 AS segment, w.before + p.n AS position, p.id
    FROM walk w CROSS JOIN LATERAL unnest(w.ids) WITH ORDINALITY AS p(id, n)
    WHERE w.before + p.n < 21
    UNION ALL
    SELECT -1, -p.n, p.id FROM unnest(:pinned::text[]) WITH ORDINALITY AS p (id, n)
), names AS (
    SELECT array_agg(k.id ORDER BY o.n) AS ids, array_agg(k.name ORDER BY o.n) AS names
    FROM unnest(:clicked::text[]) WITH ORDINALITY AS o(id, n) JOIN categories k ON k.id = o.id
    WHERE false
)
SELECT c.id, c.kind, c.store_id, s.name, g.id, g.name,
    (SELECT si.image_id FROM store_images si WHERE si.store_id = s.id ORDER BY si.position LIMIT 1),
    u.id, u.name, u.avatar_image_id, c.rating::int, c.taste::int, c.environment::int, c.service::int,
    c.price_per_person, c.body,
    ARRAY(SELECT ci.image_id FROM comment_images ci WHERE ci.comment_id = c.id ORDER BY ci.position),
    c.like_count, r.body, ru.id, ru.name, r.created_at, r.updated_at,
    c.created_at, c.updated_at, c.version, c.created_at::text, c.recommended,
    p.position, p.segment, s.archived_at IS NULL,
    c.id = ANY(ARRAY(SELECT l.comment_id FROM comment_likes l
        WHERE l.user_id = :viewer_id AND l.comment_id = ANY(ARRAY(SELECT q.id FROM page q)))),
    (SELECT max(w.before + cardinality(w.ids)) FROM walk w) >= 21,
    n.ids, n.names
FROM names n LEFT JOIN (page p JOIN comments c ON c.id = p.id
    AND (p.position > 0 OR (c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived AND c.recommended))
    JOIN stores s ON s.id = c.store_id
JOIN categories g ON g.id = s.category_id
JOIN users u ON u.id = c.author_id
LEFT JOIN comment_replies r ON r.comment_id = c.id
LEFT JOIN users ru ON ru.id = r.author_id) ON true;
