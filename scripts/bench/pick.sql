-- GET /v1/pick?near=…, anonymous: a random position within about 5 km of the centre of Chengdu.
\set dlat random(-450, 450)
\set dlng random(-520, 520)
-- 1. PickCandidates.read: the 100 nearest open stores within 3 km, with the viewers they share with the viewer's
-- recent stores (nobody's: none). The server draws three of them; here the first three are gathered into :ids
-- and the first into :chosen for steps 3 and 4 (an aggregate around the statement, nothing more).
SELECT coalesce((array_agg(q.id))[1:3], '{}')::text AS ids, coalesce(min(q.id), '') AS chosen FROM (
    WITH seeds AS (
        (SELECT o.store_id FROM viewer_store_opens o WHERE o.viewer = NULL::text ORDER BY o.opened_at DESC LIMIT 10)
        UNION
        (SELECT f.store_id FROM favorites f WHERE f.user_id = NULL::text ORDER BY f.created_at DESC LIMIT 10)
    ), related AS (
        SELECT x.other_id AS id, sum(x.viewers)::int AS covisits
        FROM seeds s CROSS JOIN LATERAL (
            SELECT c.other_id, c.viewers FROM store_covisits c WHERE c.store_id = s.store_id
            ORDER BY c.viewers DESC, c.other_id DESC LIMIT 12) x
        GROUP BY x.other_id
    )
    SELECT p.*, coalesce(r.covisits, 0) FROM (
    SELECT s.id, s.category_id, s.rating_score, s.favorite_count,
        ST_Distance(s.location,
            ST_SetSRID(ST_MakePoint(104.0633 + :dlng / 10000.0, 30.6598 + :dlat / 10000.0), 4326)::geography, false),
        false
    FROM stores s
    WHERE s.archived_at IS NULL
        AND s.open_minutes @> store_week_minute(:clock::timestamptz, s.time_zone)
        AND ST_DWithin(s.location,
            ST_SetSRID(ST_MakePoint(104.0633 + :dlng / 10000.0, 30.6598 + :dlat / 10000.0), 4326)::geography, 3000, false)
        AND NOT (s.id = ANY('{}'::text[]))
    ORDER BY s.location <-> ST_SetSRID(ST_MakePoint(104.0633 + :dlng / 10000.0, 30.6598 + :dlat / 10000.0), 4326)::geography
    LIMIT 100
    ) p LEFT JOIN related r ON r.id = p.id
) q (id, category_id, rating_score, favorite_count, meters, favorited, covisits)
\gset


-- 2. InterestRepository.state for nobody (EveryoneStatement): everyone's exploration counts per category with
-- reviews.
SELECT k.id, k.name, NULL::float8, NULL::timestamptz, 0,
    0::float8, 0::float8, NULL::timestamptz,
    coalesce(g.shown, 0)::int8, coalesce(g.clicked, 0)::int8,
    EXISTS (SELECT 1 FROM comments c WHERE c.category_id = k.id AND c.kind = 'review'
        AND c.hidden_at IS NULL AND NOT c.store_archived AND c.recommended)
FROM categories k
LEFT JOIN (SELECT category_id, sum(shown) AS shown, sum(clicked) AS clicked FROM category_explore
    GROUP BY category_id) g ON g.category_id = k.id;

-- 3. The three stores as everyone sees them (with the cache, their cards).
SELECT s.id, s.name, c.id, c.name, s.description, s.address, s.manager_id, u.name,
    COALESCE((SELECT array_agg(si.image_id ORDER BY si.position) FROM store_images si WHERE si.store_id = s.id),
             '{}'::text[]),
    s.rating_count, s.rating_sum, s.rating_score, s.taste_count, s.taste_sum, s.environment_count,
    s.environment_sum, s.service_count, s.service_sum, s.price_per_person, s.dish_names, s.dish_counts,
    s.favorite_count, s.not_recommended_count,
    false,
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

-- 4. PopularTimesRepository.hours for the chosen store (with the cache, kept per 5-minute slot).
SELECT extract(isodow FROM h.day)::int4, h.hour::int4, sum(h.views)::int8
FROM store_hours h
WHERE h.store_id = :chosen AND h.day > (:clock::timestamptz AT TIME ZONE 'Asia/Shanghai')::date - 56  -- PopularTimes.days
GROUP BY 1, 2;
