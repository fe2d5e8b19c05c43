-- Issue #44: the drain's store opens spent most of their time in foreign-key checks. Each pair a batch writes is
-- a row of viewer_covisits and two of store_covisits, each with two keys to stores: a batch of 250 opens made
-- about 15,000 checks, each a statement that locks a store row, and took 170-215 ms where the same batch without
-- them took 100 ms (chidian_fresh, 1M reviews). The pairs are statistics written only here and by StoreVisits:
-- both now lock the pairs' stores once each and write only pairs of stores that still exist, and a deleted store's
-- pairs are deleted by a trigger, as the cascade did. An open's own row (viewer_store_opens, one check per open)
-- keeps its key.
ALTER TABLE viewer_covisits DROP CONSTRAINT viewer_covisits_a_fkey, DROP CONSTRAINT viewer_covisits_b_fkey;
ALTER TABLE store_covisits DROP CONSTRAINT store_covisits_store_id_fkey, DROP CONSTRAINT store_covisits_other_id_fkey;

-- What the cascades did, once per statement however many stores it deleted.
CREATE FUNCTION stores_forget_covisits() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM viewer_covisits WHERE a IN (SELECT id FROM gone);
    DELETE FROM viewer_covisits WHERE b IN (SELECT id FROM gone);
    DELETE FROM store_covisits WHERE store_id IN (SELECT id FROM gone);
    DELETE FROM store_covisits WHERE other_id IN (SELECT id FROM gone);
    RETURN NULL;
END
$$;
CREATE TRIGGER stores_forget_covisits AFTER DELETE ON stores REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION stores_forget_covisits();

-- As in 027, but the pairs' stores locked once each instead of checked by keys row by row.
CREATE OR REPLACE FUNCTION write_store_opens(
    p_viewers text[], p_stores text[], p_times timestamptz[], p_window float8, p_cap int
) RETURNS int LANGUAGE sql AS $$
    WITH input AS (
        SELECT i.ord, i.viewer, i.store_id, i.at
        FROM unnest(p_viewers, p_stores, p_times) WITH ORDINALITY AS i (viewer, store_id, at, ord)
        JOIN stores s ON s.id = i.store_id AND s.archived_at IS NULL
        -- A deleted account's last opens, still in a server's memory when it went, are dropped.
        WHERE i.viewer NOT LIKE 'u:%' OR EXISTS (SELECT 1 FROM users u WHERE u.id = substr(i.viewer, 3))
    ), seen AS (
        -- Of what is stored, an open can pair only with the viewer's p_cap + 1 most recent stores (its own store
        -- may be one of them): everything older is behind at least p_cap others.
        SELECT v.viewer, o.store_id, o.opened_at AS at, 0::int8 AS ord
        FROM (SELECT DISTINCT viewer FROM input) v
        CROSS JOIN LATERAL (
            SELECT o.store_id, o.opened_at FROM viewer_store_opens o
            WHERE o.viewer = v.viewer ORDER BY o.opened_at DESC LIMIT p_cap + 1
        ) o
        UNION ALL
        SELECT viewer, store_id, at, ord FROM input
    ), recent AS (
        SELECT i.ord, i.viewer, i.store_id, i.at, x.store_id AS other, max(x.at) AS seen_at
        FROM input i JOIN seen x ON x.viewer = i.viewer AND x.ord < i.ord AND x.store_id <> i.store_id
        GROUP BY i.ord, i.viewer, i.store_id, i.at, x.store_id
    ), candidate AS (
        SELECT viewer, least(store_id, other) AS a, greatest(store_id, other) AS b, at, ord FROM (
            SELECT r.*, row_number() OVER (PARTITION BY r.ord ORDER BY r.seen_at DESC) AS n FROM recent r
            WHERE r.seen_at > r.at - make_interval(secs => p_window)
        ) ranked WHERE n <= p_cap
    ), first AS (
        SELECT DISTINCT ON (viewer, a, b) viewer, a, b, at FROM candidate ORDER BY viewer, a, b, ord
    ), locked AS (
        -- The pairs' stores, locked as a foreign key's check would lock them, but once each: a store deleted
        -- meanwhile makes no pair, and a delete that comes later waits for this transaction, then forgets them.
        SELECT s.id FROM stores s WHERE s.id IN (SELECT a FROM first UNION SELECT b FROM first)
        ORDER BY s.id FOR KEY SHARE
    ), opened AS (
        INSERT INTO viewer_store_opens AS o (viewer, store_id, opened_at)
        SELECT viewer, store_id, max(at) FROM input GROUP BY viewer, store_id ORDER BY viewer, store_id
        ON CONFLICT (viewer, store_id) DO UPDATE SET opened_at = greatest(o.opened_at, EXCLUDED.opened_at)
    ), pairs AS (
        INSERT INTO viewer_covisits (viewer, a, b, at)
        SELECT f.viewer, f.a, f.b, f.at FROM first f
        WHERE f.a IN (SELECT id FROM locked) AND f.b IN (SELECT id FROM locked)
        ORDER BY f.viewer, f.a, f.b
        ON CONFLICT DO NOTHING
        RETURNING a, b
    ), counted AS (
        INSERT INTO store_covisits AS c (store_id, other_id, viewers)
        SELECT x, y, count(*) FROM (SELECT a, b FROM pairs UNION ALL SELECT b, a FROM pairs) p (x, y)
        GROUP BY x, y ORDER BY x, y
        ON CONFLICT (store_id, other_id) DO UPDATE SET viewers = c.viewers + EXCLUDED.viewers
        RETURNING 1
    )
    SELECT count(*)::int FROM counted
$$;
