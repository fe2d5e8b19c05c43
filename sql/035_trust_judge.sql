-- Issue #48, phase 2: what the judge remembers, and its queue. Reviews are judged beside the request: a posted or
-- edited review is queued, and a worker in every server judges what is due with the reviews its evidence touches
-- (the store's reviews of the last two weeks, accounts sharing an origin, near-copies of its text), so a verdict
-- given earlier changes when a ring grows around it. docs/TRUST.md.

-- A key for origin hashes: an unkeyed hash of an IPv4 address is undone by hashing all 2^32 of them.
CREATE TABLE trust_key (
    only_row  boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    key       text NOT NULL
);
INSERT INTO trust_key (key) VALUES (md5(random()::text || clock_timestamp()::text) || md5(random()::text));

-- A 64-bit keyed hash of an address ('a') or a visitor id ('v'): equal inputs, equal hashes, on every server.
CREATE FUNCTION trust_origin_hash(p_kind text, p_value text) RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT hashtextextended(p_kind || ':' || p_value, hashtextextended(k.key, 0)) FROM trust_key k
$$;

-- Where an account signed up and posted reviews from, as hashes only; never exported, deleted with the account.
-- Written once per account and origin (ON CONFLICT DO NOTHING locks no row: a user's concurrent posts from one
-- device must not queue behind each other's upsert).
CREATE TABLE trust_origins (
    user_id   text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    origin    bigint NOT NULL,
    first_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, origin)
);
CREATE INDEX trust_origins_origin ON trust_origins (origin);

-- The MinHash bands (TextShingles) of each author's latest review carrying them: accounts sharing a band are the
-- candidates for copied text. One row per author and band, so one author repeating a phrase cannot make a band
-- long; the judge reads a band's most recent authors only.
CREATE TABLE trust_text_bands (
    band        bigint NOT NULL,
    author_id   text NOT NULL,
    comment_id  text NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (band, author_id)
);
CREATE INDEX trust_text_bands_recent ON trust_text_bands (band, created_at DESC);
CREATE INDEX trust_text_bands_comment ON trust_text_bands (comment_id);

-- Reviews to judge, and when: a few seconds after posting, so the opens the author made just before (batched
-- beside their requests) are stored when the judge asks for them.
CREATE TABLE trust_queue (
    comment_id  text PRIMARY KEY REFERENCES comments (id) ON DELETE CASCADE,
    due_at      timestamptz NOT NULL
);
CREATE INDEX trust_queue_due ON trust_queue (due_at);

CREATE FUNCTION trust_enqueue() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('chidian.bulk_import', true) = 'on' THEN
        RETURN NULL;  -- the import queues what it wrote in one statement
    END IF;
    INSERT INTO trust_queue (comment_id, due_at) VALUES (NEW.id, now() + interval '10 seconds')
    ON CONFLICT (comment_id) DO UPDATE SET due_at = least(trust_queue.due_at, EXCLUDED.due_at);
    RETURN NULL;
END $$;

CREATE TRIGGER comments_trust_enqueue AFTER INSERT ON comments
    FOR EACH ROW WHEN (NEW.kind = 'review') EXECUTE FUNCTION trust_enqueue();
-- An edited text or rating is new evidence.
CREATE TRIGGER comments_trust_enqueue_update AFTER UPDATE OF body, rating ON comments
    FOR EACH ROW WHEN (NEW.kind = 'review' AND (OLD.body, OLD.rating) IS DISTINCT FROM (NEW.body, NEW.rating))
    EXECUTE FUNCTION trust_enqueue();

-- A review written by `chidian seed` came from elsewhere: what its author browsed before it was never seen here,
-- so the judge treats their history and opens as unknown, not as absent.
ALTER TABLE comments ADD COLUMN imported boolean NOT NULL DEFAULT false;

-- Whether an author opened a store before reviewing it: `opened_at` is the last open, which a visit after the
-- review moves, so the first is kept beside it.
ALTER TABLE viewer_store_opens ADD COLUMN first_opened_at timestamptz;
UPDATE viewer_store_opens SET first_opened_at = opened_at;
ALTER TABLE viewer_store_opens ALTER COLUMN first_opened_at SET NOT NULL;

CREATE FUNCTION viewer_store_opens_first() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    NEW.first_opened_at := coalesce(NEW.first_opened_at, NEW.opened_at);
    RETURN NEW;
END $$;

CREATE TRIGGER viewer_store_opens_first BEFORE INSERT ON viewer_store_opens
    FOR EACH ROW EXECUTE FUNCTION viewer_store_opens_first();
