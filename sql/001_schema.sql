-- The whole product's schema. Ids are text: ids from the original app's JSON seed are kept as they are,
-- and new rows get a prefixed random id from new_id().

CREATE FUNCTION new_id(prefix text) RETURNS text
LANGUAGE sql VOLATILE AS $$
    SELECT prefix || substr(replace(gen_random_uuid()::text, '-', ''), 1, 16)
$$;

-- Images are stored on disk once per content hash; each upload is its own row so ownership is per uploader.
CREATE TABLE images (
    id            text PRIMARY KEY DEFAULT new_id('i_'),
    sha256        bytea NOT NULL CHECK (octet_length(sha256) = 32),
    content_type  text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'image/webp', 'image/gif')),
    width         integer NOT NULL CHECK (width > 0),
    height        integer NOT NULL CHECK (height > 0),
    bytes         integer NOT NULL CHECK (bytes BETWEEN 1 AND 8388608),
    uploader_id   text,  -- FK added below, users refer to images too
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX images_uploader ON images (uploader_id);
CREATE INDEX images_sha256 ON images (sha256);

CREATE TABLE users (
    id             text PRIMARY KEY DEFAULT new_id('u_'),
    -- The 32-character rule counts grapheme clusters (Swift's String.count) and is checked by the app;
    -- the database holds a looser bound in code points.
    name           text NOT NULL CHECK (btrim(name) = name AND name <> '' AND char_length(name) <= 256),
    password_hash  text NOT NULL CHECK (password_hash LIKE '$2%'),
    role           text NOT NULL CHECK (role IN ('user', 'manager', 'admin')),
    avatar_image_id text REFERENCES images (id) ON DELETE SET NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    version        integer NOT NULL DEFAULT 1 CHECK (version > 0)
);
CREATE UNIQUE INDEX users_name_lower ON users (lower(name));

ALTER TABLE images ADD CONSTRAINT images_uploader_fk
    FOREIGN KEY (uploader_id) REFERENCES users (id) ON DELETE SET NULL;

-- Bearer tokens are stored only as their SHA-256.
CREATE TABLE sessions (
    token_hash    bytea PRIMARY KEY CHECK (octet_length(token_hash) = 32),
    user_id       text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_used_at  timestamptz NOT NULL DEFAULT now(),
    expires_at    timestamptz NOT NULL,
    revoked_at    timestamptz,
    CHECK (expires_at > created_at)
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE categories (
    id          text PRIMARY KEY DEFAULT new_id('c_'),
    name        text NOT NULL CHECK (btrim(name) = name AND name <> '' AND char_length(name) <= 256),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX categories_name_lower ON categories (lower(name));

CREATE TABLE stores (
    id              text PRIMARY KEY DEFAULT new_id('s_'),
    name            text NOT NULL CHECK (btrim(name) = name AND name <> '' AND char_length(name) <= 512),
    category_id     text NOT NULL REFERENCES categories (id) ON DELETE RESTRICT,
    manager_id      text NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
    description     text NOT NULL DEFAULT '' CHECK (char_length(description) <= 20000),
    address         text NOT NULL DEFAULT '' CHECK (char_length(address) <= 2000),
    -- Running totals kept by triggers in the same transaction as the rows they summarise.
    ad_spend        bigint NOT NULL DEFAULT 0 CHECK (ad_spend >= 0),
    rating_count    integer NOT NULL DEFAULT 0 CHECK (rating_count >= 0),
    rating_sum      bigint NOT NULL DEFAULT 0 CHECK (rating_sum BETWEEN rating_count AND 5 * rating_count),
    favorite_count  integer NOT NULL DEFAULT 0 CHECK (favorite_count >= 0),
    archived_at     timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    version         integer NOT NULL DEFAULT 1 CHECK (version > 0)
);
CREATE INDEX stores_category ON stores (category_id) WHERE archived_at IS NULL;
CREATE INDEX stores_manager ON stores (manager_id, created_at DESC, id DESC);
CREATE INDEX stores_newest ON stores (created_at DESC, id DESC) WHERE archived_at IS NULL;
CREATE INDEX stores_name ON stores ((name COLLATE "C"), id) WHERE archived_at IS NULL;
CREATE INDEX stores_popular ON stores (favorite_count DESC, id DESC) WHERE archived_at IS NULL;
CREATE INDEX stores_promoted ON stores (ad_spend DESC, created_at, id) WHERE archived_at IS NULL AND ad_spend > 0;

-- The carousel: images in the order they were given.
CREATE TABLE store_images (
    store_id  text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    position  smallint NOT NULL CHECK (position >= 0),
    image_id  text NOT NULL REFERENCES images (id) ON DELETE CASCADE,
    PRIMARY KEY (store_id, position)
);

CREATE TABLE comments (
    id              text PRIMARY KEY DEFAULT new_id('m_'),
    kind            text NOT NULL CHECK (kind IN ('review', 'notice')),
    store_id        text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    author_id       text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    rating          smallint CHECK ((kind = 'review' AND rating BETWEEN 1 AND 5) OR (kind = 'notice' AND rating IS NULL)),
    body            text NOT NULL CHECK (btrim(body) <> '' AND char_length(body) <= 20000),
    -- Copies of the store's category and archive flag, kept by a trigger, so the feed and lists
    -- can walk one index per category instead of joining every store.
    category_id     text NOT NULL REFERENCES categories (id) ON DELETE RESTRICT,
    store_archived  boolean NOT NULL DEFAULT false,
    hidden_at       timestamptz,  -- moderation: hidden from every list, kept in the database
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    version         integer NOT NULL DEFAULT 1 CHECK (version > 0)
);
CREATE INDEX comments_store_newest ON comments (store_id, created_at DESC, id DESC) WHERE hidden_at IS NULL;
CREATE INDEX comments_store_rating ON comments (store_id, rating DESC, created_at DESC, id DESC)
    WHERE hidden_at IS NULL AND kind = 'review';
CREATE INDEX comments_author_newest ON comments (author_id, created_at DESC, id DESC) WHERE hidden_at IS NULL;
CREATE INDEX comments_feed ON comments (created_at DESC, id DESC)
    WHERE hidden_at IS NULL AND kind = 'review' AND NOT store_archived;
CREATE INDEX comments_feed_category ON comments (category_id, created_at DESC, id DESC)
    WHERE hidden_at IS NULL AND kind = 'review' AND NOT store_archived;

CREATE TABLE comment_images (
    comment_id  text NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
    position    smallint NOT NULL CHECK (position BETWEEN 0 AND 8),
    image_id    text NOT NULL REFERENCES images (id) ON DELETE CASCADE,
    PRIMARY KEY (comment_id, position)
);

CREATE TABLE favorites (
    user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    store_id    text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, store_id)
);
CREATE INDEX favorites_store ON favorites (store_id);
CREATE INDEX favorites_user_newest ON favorites (user_id, created_at DESC, store_id DESC);

-- The promotion ledger; stores.ad_spend is its running total.
CREATE TABLE promotions (
    id          text PRIMARY KEY DEFAULT new_id('p_'),
    store_id    text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    buyer_id    text REFERENCES users (id) ON DELETE SET NULL,
    amount      bigint NOT NULL CHECK (amount BETWEEN 1 AND 1000000000),
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX promotions_store_newest ON promotions (store_id, created_at DESC, id DESC);

-- Click interest per viewer ('u:<user id>' or 'v:<visitor id>') and category. `score` is decayed to
-- `score_at`, so a click is one upsert and reads decay it to now.
CREATE TABLE viewer_interests (
    viewer       text NOT NULL CHECK (viewer ~ '^[uv]:'),
    category_id  text NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    score        double precision NOT NULL CHECK (score >= 0),
    score_at     timestamptz NOT NULL,
    clicks       integer NOT NULL CHECK (clicks >= 0),
    PRIMARY KEY (viewer, category_id)
);

-- The last counted open of a review by a viewer: repeated opens within the window count once.
CREATE TABLE viewer_opens (
    viewer      text NOT NULL CHECK (viewer ~ '^[uv]:'),
    comment_id  text NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
    opened_at   timestamptz NOT NULL,
    PRIMARY KEY (viewer, comment_id)
);
CREATE INDEX viewer_opens_comment ON viewer_opens (comment_id);

-- Triggers keeping the running totals and the comment copies honest whoever writes.

CREATE FUNCTION comments_fill_store_copy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT s.category_id, s.archived_at IS NOT NULL INTO NEW.category_id, NEW.store_archived
    FROM stores s WHERE s.id = NEW.store_id;
    RETURN NEW;
END $$;
CREATE TRIGGER comments_fill_store_copy BEFORE INSERT OR UPDATE OF store_id ON comments
    FOR EACH ROW EXECUTE FUNCTION comments_fill_store_copy();

CREATE FUNCTION stores_copy_to_comments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE comments SET category_id = NEW.category_id, store_archived = NEW.archived_at IS NOT NULL
    WHERE store_id = NEW.id;
    RETURN NULL;
END $$;
CREATE TRIGGER stores_copy_to_comments AFTER UPDATE OF category_id, archived_at ON stores
    FOR EACH ROW
    WHEN (OLD.category_id IS DISTINCT FROM NEW.category_id
          OR (OLD.archived_at IS NULL) IS DISTINCT FROM (NEW.archived_at IS NULL))
    EXECUTE FUNCTION stores_copy_to_comments();

-- A review counts towards its store's rating while it is a review and not hidden.
CREATE FUNCTION comments_rating_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.kind = 'review' AND OLD.hidden_at IS NULL THEN
        UPDATE stores SET rating_count = rating_count - 1, rating_sum = rating_sum - OLD.rating
        WHERE id = OLD.store_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.kind = 'review' AND NEW.hidden_at IS NULL THEN
        UPDATE stores SET rating_count = rating_count + 1, rating_sum = rating_sum + NEW.rating
        WHERE id = NEW.store_id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER comments_rating_totals AFTER INSERT OR DELETE ON comments
    FOR EACH ROW EXECUTE FUNCTION comments_rating_totals();
CREATE TRIGGER comments_rating_totals_update AFTER UPDATE OF rating, kind, hidden_at, store_id ON comments
    FOR EACH ROW
    WHEN (OLD.rating IS DISTINCT FROM NEW.rating OR OLD.kind IS DISTINCT FROM NEW.kind
          OR OLD.hidden_at IS DISTINCT FROM NEW.hidden_at OR OLD.store_id IS DISTINCT FROM NEW.store_id)
    EXECUTE FUNCTION comments_rating_totals();

CREATE FUNCTION favorites_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE stores SET favorite_count = favorite_count + 1 WHERE id = NEW.store_id;
    ELSE
        UPDATE stores SET favorite_count = favorite_count - 1 WHERE id = OLD.store_id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER favorites_count AFTER INSERT OR DELETE ON favorites
    FOR EACH ROW EXECUTE FUNCTION favorites_count();

CREATE FUNCTION promotions_total() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE stores SET ad_spend = ad_spend + NEW.amount WHERE id = NEW.store_id;
    RETURN NULL;
END $$;
CREATE TRIGGER promotions_total AFTER INSERT ON promotions
    FOR EACH ROW EXECUTE FUNCTION promotions_total();
