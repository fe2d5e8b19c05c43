-- Per-client rate limits (search, registration, login, password change, uploads, posting, likes, reports) as
-- token buckets shared by every server process: one UNLOGGED row per client and kind, one rate_token() call per
-- request. Unlogged: a crash forgets the buckets, which only refills them early.
CREATE UNLOGGED TABLE rate_tokens (
    key          text PRIMARY KEY CHECK (octet_length(key) <= 1024),
    tokens       double precision NOT NULL CHECK (tokens >= 0),
    refilled_at  timestamptz NOT NULL,
    -- When the bucket is full again: after that the row says nothing a fresh one would not, so housekeeping
    -- may delete it.
    full_at      timestamptz NOT NULL
);
CREATE INDEX rate_tokens_full ON rate_tokens (full_at);

-- Takes one token from bucket p_key (at most p_burst tokens, refilled at p_per_second) and returns 0, or, when
-- the bucket holds less than one token, takes nothing and returns the whole seconds until it holds one.
-- The upsert locks the row to the end of the caller's statement, so concurrent takers queue and none is lost.
CREATE FUNCTION rate_token(p_key text, p_burst integer, p_per_second double precision) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    have double precision;
    taken boolean;
BEGIN
    INSERT INTO rate_tokens AS t (key, tokens, refilled_at, full_at)
    VALUES (p_key, p_burst, now(), now())
    ON CONFLICT (key) DO UPDATE
        SET tokens = least(p_burst, t.tokens + greatest(0, extract(epoch FROM now() - t.refilled_at)) * p_per_second),
            refilled_at = now()
    RETURNING tokens INTO have;
    taken := have >= 1;
    IF taken THEN
        have := have - 1;
    END IF;
    UPDATE rate_tokens SET tokens = have, full_at = now() + make_interval(secs => (p_burst - have) / p_per_second)
    WHERE key = p_key;
    IF taken THEN
        RETURN 0;
    END IF;
    RETURN greatest(1, ceil((1 - have) / p_per_second))::integer;
END
$$;
