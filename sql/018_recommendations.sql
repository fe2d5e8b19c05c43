-- Recommendations that learn (issue #30): which stores a viewer opened, which stores are opened together, and
-- what exploring a category taught.

-- The last open of a store by a viewer (a store page, or a review of it).
CREATE TABLE viewer_store_opens (
    viewer     text NOT NULL CHECK (viewer ~ '^[uv]:'),
    store_id   text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    opened_at  timestamptz NOT NULL,
    PRIMARY KEY (viewer, store_id)
);
-- "The stores this viewer opened in the last day", newest first: the pairs an open adds.
CREATE INDEX viewer_store_opens_recent ON viewer_store_opens (viewer, opened_at DESC);

-- Pairs of stores a viewer opened within a day of each other, each counted once per viewer (a < b): what makes
-- `store_covisits` count viewers, not opens.
CREATE TABLE viewer_covisits (
    viewer    text NOT NULL CHECK (viewer ~ '^[uv]:'),
    a         text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    b         text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    at        timestamptz NOT NULL,
    PRIMARY KEY (viewer, a, b),
    CHECK (a < b)
);
CREATE INDEX viewer_covisits_b ON viewer_covisits (b);

-- How many viewers opened both stores within a day, both directions stored so "also viewed" is one range scan.
CREATE TABLE store_covisits (
    store_id  text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    other_id  text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    viewers   integer NOT NULL CHECK (viewers > 0),
    PRIMARY KEY (store_id, other_id),
    CHECK (store_id <> other_id)
);
CREATE INDEX store_covisits_top ON store_covisits (store_id, viewers DESC, other_id DESC);
CREATE INDEX store_covisits_other ON store_covisits (other_id);

-- Click-through per viewer and category on the feed's first ten places: places shown and reviews then opened
-- (within a day of the showing, never more than shown), both decayed with the interest half-life as of
-- `updated_at`, so old evidence fades and a viewer whose taste moved is explored again. `exploring`: the last
-- showing was to explore (everyone's counts below take those only).
CREATE TABLE viewer_explore (
    viewer       text NOT NULL CHECK (viewer ~ '^[uv]:'),
    category_id  text NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    shown        double precision NOT NULL CHECK (shown >= 0),
    clicked      double precision NOT NULL CHECK (clicked >= 0),
    exploring    boolean NOT NULL,
    -- The last showing: opens within a day of it count.
    pending_at   timestamptz,
    -- The last showing or click: visitors' rows idle 90 days go (housekeeping).
    updated_at   timestamptz NOT NULL,
    PRIMARY KEY (viewer, category_id)
);

-- Showings to explore and their clicks over every viewer (undecayed), split in 16 shards so concurrent feeds do not queue on one row; read summed.
CREATE TABLE category_explore (
    category_id  text NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    shard        smallint NOT NULL CHECK (shard BETWEEN 0 AND 15),
    shown        bigint NOT NULL CHECK (shown >= 0),
    clicked      bigint NOT NULL CHECK (clicked >= 0),
    PRIMARY KEY (category_id, shard)
);

-- 猜你喜欢 and the pick read a category's best-rated live stores.
CREATE INDEX stores_category_rating ON stores (category_id, rating_score DESC, id DESC) WHERE archived_at IS NULL;
