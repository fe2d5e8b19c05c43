-- GET /v1/feed/stores (猜你喜欢) as the signed-in bench viewer (20 recent stores, clicks in 10 categories): the
-- statements the endpoint issues with CACHE=off, in order. Variables come from scripts/bench.sh (pgbench -D).
-- 1. SessionRepository.authenticate (the expiry slide writes at most once a minute, beside the request).
SELECT u.id, u.name, u.role,
    extract(epoch FROM least(s.expires_at, s.created_at + make_interval(secs => 7776000)) - now())::float8,
    s.last_used_at < now() - interval '1 minute'
FROM sessions s JOIN users u ON u.id = s.user_id
WHERE s.token_hash = :token_hash AND s.revoked_at IS NULL AND s.expires_at > now()
  AND s.created_at > now() - make_interval(secs => 7776000);

-- 2. InterestRepository.interests: the viewer's stored interests.
SELECT i.category_id, c.name, i.score, i.score_at, i.clicks
FROM viewer_interests i JOIN categories c ON c.id = i.category_id
WHERE i.viewer = :viewer;

-- 3. StoreCandidates.Taste: related stores, the best of the viewer's top three categories (:top_categories) and
-- the best overall. The server scores the pool and keeps ten; here the first ten are gathered into :ids for step
-- 4 (an aggregate around the statement, nothing more). The reviews counted are the last 30 days'.
SELECT coalesce((array_agg(p.id))[1:10], '{}')::text AS ids FROM (
    WITH seeds AS (
        (SELECT o.store_id FROM viewer_store_opens o WHERE o.viewer = :viewer::text
         ORDER BY o.opened_at DESC LIMIT 10)
        UNION
        (SELECT f.store_id FROM favorites f WHERE f.user_id = :viewer_id::text
         ORDER BY f.created_at DESC LIMIT 10)
    ), related AS (
        SELECT x.other_id AS id, sum(x.viewers)::int AS covisits
        FROM seeds s CROSS JOIN LATERAL (
            SELECT c.other_id, c.viewers FROM store_covisits c WHERE c.store_id = s.store_id
            ORDER BY c.viewers DESC, c.other_id DESC LIMIT 12) x
        GROUP BY x.other_id
    ), favorite AS (
        SELECT f.store_id FROM favorites f WHERE f.user_id = :viewer_id::text
    ), reviewed AS (
        -- The author index is partial on hidden_at.
        SELECT c.store_id, c.created_at FROM comments c
        WHERE c.author_id = :viewer_id::text AND c.hidden_at IS NULL AND c.kind = 'review' AND c.created_at > (now() - interval '30 days')
    ), pool AS (
        SELECT id FROM related
        UNION
        SELECT y.id FROM unnest(:top_categories::text[]) AS k (id) CROSS JOIN LATERAL (
            SELECT t.id FROM stores t WHERE t.category_id = k.id AND t.archived_at IS NULL
            ORDER BY t.rating_score DESC, t.id DESC LIMIT 12) y
        UNION
        SELECT b.id FROM (
            SELECT t.id FROM stores t WHERE t.archived_at IS NULL
            ORDER BY t.rating_score DESC, t.id DESC LIMIT 30) b
    )SELECT s.id, s.category_id, s.rating_score, s.favorite_count, NULL::float8,
        coalesce(r.covisits, 0), s.id IN (SELECT f.store_id FROM favorite f),
        s.id IN (SELECT v.store_id FROM reviewed v)
    FROM pool p JOIN stores s ON s.id = p.id LEFT JOIN related r ON r.id = s.id
    WHERE s.archived_at IS NULL
) p (id, category_id, rating_score, favorite_count, meters, covisits, favorited, reviewed)
\gset

-- 4. StoreRepository.views(ids:viewer:): the ten stores with the viewer's favourite marks.
SELECT s.id, s.name, c.id, c.name, s.description, s.address, s.manager_id, u.name,
    COALESCE((SELECT array_agg(si.image_id ORDER BY si.position) FROM store_images si WHERE si.store_id = s.id),
             '{}'::text[]),
    s.rating_count, s.rating_sum, s.rating_score, s.taste_count, s.taste_sum, s.environment_count,
    s.environment_sum, s.service_count, s.service_sum, s.price_per_person, s.dish_names, s.dish_counts,
    s.favorite_count, s.not_recommended_count,
    EXISTS (SELECT 1 FROM favorites f WHERE f.user_id = :viewer_id AND f.store_id = s.id),
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
