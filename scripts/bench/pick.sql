-- GET /v1/pick?near=…, anonymous: a random position within about 5 km of the centre of Chengdu.
\set dlat random(-450, 450)
\set dlng random(-520, 520)
-- 1. PickCandidates.read: the 100 nearest open stores within 3 km (the views come from the cache), with the
-- viewers they share with the viewer's recent stores (nobody's: none).
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
) p LEFT JOIN related r ON r.id = p.id;

-- 2. InterestRepository.state for nobody: everyone's exploration counts per category with reviews.
SELECT k.id, k.name, i.score, i.score_at, coalesce(i.clicks, 0),
    coalesce(e.shown, 0), coalesce(e.clicked, 0), e.updated_at,
    coalesce(g.shown, 0)::int8, coalesce(g.clicked, 0)::int8,
    EXISTS (SELECT 1 FROM comments c WHERE c.category_id = k.id AND c.kind = 'review'
        AND c.hidden_at IS NULL AND NOT c.store_archived)
FROM categories k
LEFT JOIN viewer_interests i ON i.viewer = NULL::text AND i.category_id = k.id
LEFT JOIN viewer_explore e ON e.viewer = NULL::text AND e.category_id = k.id
LEFT JOIN (SELECT category_id, sum(shown) AS shown, sum(clicked) AS clicked FROM category_explore
    GROUP BY category_id) g ON g.category_id = k.id;
