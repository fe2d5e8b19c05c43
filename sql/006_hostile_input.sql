-- Hostile input (issue 18).
--
-- 1. One length rule. A text limit of L counts L characters as people see them (grapheme clusters, checked by
--    the application, which PostgreSQL cannot count) and at most 8 × L code points (char_length), which these
--    constraints hold. The application checks both, so a value refused here never gets this far. Constraints
--    are named so a violation maps to the field's 400 in one place (DatabaseErrors.swift).
ALTER TABLE users DROP CONSTRAINT users_name_check,
    ADD CONSTRAINT users_name_length CHECK (btrim(name) = name AND name <> '' AND char_length(name) <= 32 * 8);
ALTER TABLE categories DROP CONSTRAINT categories_name_check,
    ADD CONSTRAINT categories_name_length CHECK (btrim(name) = name AND name <> '' AND char_length(name) <= 32 * 8);
ALTER TABLE stores DROP CONSTRAINT stores_name_check,
    ADD CONSTRAINT stores_name_length CHECK (btrim(name) = name AND name <> '' AND char_length(name) <= 64 * 8);
-- Tighter than before (20000 and 2000): rows written under the old bound stay, new writes follow the rule.
ALTER TABLE stores DROP CONSTRAINT stores_description_check,
    ADD CONSTRAINT stores_description_length CHECK (char_length(description) <= 2000 * 8) NOT VALID;
ALTER TABLE stores DROP CONSTRAINT stores_address_check,
    ADD CONSTRAINT stores_address_length CHECK (char_length(address) <= 200 * 8) NOT VALID;
ALTER TABLE comments DROP CONSTRAINT comments_body_check,
    ADD CONSTRAINT comments_body_length CHECK (btrim(body) <> '' AND char_length(body) <= 5000 * 8);
ALTER TABLE search_dishes DROP CONSTRAINT search_dishes_name_check,
    ADD CONSTRAINT search_dishes_name_length CHECK (btrim(name) = name AND name <> '' AND char_length(name) <= 32 * 8);

-- 2. Rate buckets shared by every server process: a fixed window per key, counting hits. Unlogged (a crash
--    forgets the counts, which only forgives some attempts) and small: expired rows are removed a few at a
--    time by rate_take, never all at once. Keys say what is limited, e.g. `login:na:<name>|<address>`.
CREATE UNLOGGED TABLE rate_buckets (
    key           text PRIMARY KEY CHECK (octet_length(key) <= 1024),
    hits          integer NOT NULL CHECK (hits >= 0),
    window_start  timestamptz NOT NULL,
    expires_at    timestamptz NOT NULL
);
CREATE INDEX rate_buckets_expires ON rate_buckets (expires_at);

-- Takes one hit from every bucket in p_keys, all or none: when each is under its limit (p_limits, same
-- order) the hit is counted in each and 0 is returned; otherwise nothing is counted and the result is the
-- seconds until the last full bucket's window ends. The rows stay locked to the end of the caller's
-- statement, so concurrent callers are counted one after the other (a burst cannot slip past the limit).
CREATE FUNCTION rate_take(p_keys text[], p_limits integer[], p_window_seconds integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    wait integer;
BEGIN
    -- Create missing buckets and restart expired ones; ON CONFLICT DO UPDATE locks the row either way.
    -- Keys are taken in sorted order so two callers never wait on each other in a cycle.
    INSERT INTO rate_buckets AS b (key, hits, window_start, expires_at)
    SELECT k, 0, now(), now() + make_interval(secs => p_window_seconds)
    FROM (SELECT DISTINCT k FROM unnest(p_keys) AS k) keys ORDER BY k COLLATE "C"
    ON CONFLICT (key) DO UPDATE SET hits = 0, window_start = EXCLUDED.window_start, expires_at = EXCLUDED.expires_at
        WHERE b.expires_at <= now();

    SELECT max(ceil(extract(epoch FROM b.expires_at - now())))::integer INTO wait
    FROM rate_buckets b JOIN unnest(p_keys, p_limits) AS t(k, lim) ON b.key = t.k
    WHERE b.hits >= t.lim;
    IF wait IS NOT NULL THEN
        RETURN greatest(wait, 1);
    END IF;

    UPDATE rate_buckets SET hits = hits + 1 WHERE key = ANY (p_keys);
    DELETE FROM rate_buckets WHERE key IN (
        SELECT key FROM rate_buckets WHERE expires_at < now() - interval '1 minute'
        ORDER BY expires_at LIMIT 20 FOR UPDATE SKIP LOCKED);
    RETURN 0;
END
$$;
