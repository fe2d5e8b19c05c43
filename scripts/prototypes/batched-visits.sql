-- #44 prototype: a batch of store opens ($1 viewers, $2 stores, $3 times, in arrival order) written in one statement
-- with the effect of `StoreVisits.record` run once per open in that order: the opens (latest time kept), the
-- viewer's new pairs (each open pairs with the viewer's 50 most recent other stores of the last day, counting the
-- batch's earlier opens), and one more viewer per new pair in store_covisits. Keys are written sorted.
WITH input AS (
    SELECT i.ord, i.viewer, i.store_id, i.at
    FROM unnest($1::text[], $2::text[], $3::timestamptz[]) WITH ORDINALITY AS i (viewer, store_id, at, ord)
    JOIN stores s ON s.id = i.store_id AND s.archived_at IS NULL
), seen AS (
    -- What each viewer had opened before the batch (order 0), and the batch's own opens in arrival order.
    SELECT o.viewer, o.store_id, o.opened_at AS at, 0::int8 AS ord FROM viewer_store_opens o
    WHERE o.viewer IN (SELECT viewer FROM input)
    UNION ALL
    SELECT viewer, store_id, at, ord FROM input
), recent AS (
    -- For each open, the viewer's other stores seen before it, with the latest time each was seen.
    SELECT i.ord, i.viewer, i.store_id, i.at, x.store_id AS other, max(x.at) AS seen_at
    FROM input i JOIN seen x ON x.viewer = i.viewer AND x.ord < i.ord AND x.store_id <> i.store_id
    GROUP BY i.ord, i.viewer, i.store_id, i.at, x.store_id
), candidate AS (
    -- The 50 most recent of the last day, as `StoreVisits.record` takes them.
    SELECT viewer, least(store_id, other) AS a, greatest(store_id, other) AS b, at, ord FROM (
        SELECT r.*, row_number() OVER (PARTITION BY r.ord ORDER BY r.seen_at DESC) AS n FROM recent r
        WHERE r.seen_at > r.at - interval '1 day'
    ) ranked WHERE n <= 50
), first AS (
    -- A pair made twice in the batch counts once, at its first making.
    SELECT DISTINCT ON (viewer, a, b) viewer, a, b, at FROM candidate ORDER BY viewer, a, b, ord
), opened AS (
    INSERT INTO viewer_store_opens AS o (viewer, store_id, opened_at)
    SELECT viewer, store_id, max(at) FROM input GROUP BY viewer, store_id ORDER BY viewer, store_id
    ON CONFLICT (viewer, store_id) DO UPDATE SET opened_at = greatest(o.opened_at, EXCLUDED.opened_at)
), pairs AS (
    INSERT INTO viewer_covisits (viewer, a, b, at)
    SELECT viewer, a, b, at FROM first ORDER BY viewer, a, b
    ON CONFLICT DO NOTHING
    RETURNING a, b
), counted AS (
    INSERT INTO store_covisits AS c (store_id, other_id, viewers)
    SELECT x, y, count(*) FROM (SELECT a, b FROM pairs UNION ALL SELECT b, a FROM pairs) p (x, y)
    GROUP BY x, y ORDER BY x, y
    ON CONFLICT (store_id, other_id) DO UPDATE SET viewers = c.viewers + EXCLUDED.viewers
    RETURNING 1
)
SELECT (count(*))::int FROM counted;
