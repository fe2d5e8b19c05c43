-- Sub-ratings (口味 taste, 环境 environment, 服务 service) and price per person (人均) on reviews, and store
-- aggregates that count each author once: a user's latest live review of a store. Posting many reviews no longer
-- moves a store's rating; the older ones stay visible.
ALTER TABLE comments
    ADD COLUMN taste smallint,
    ADD COLUMN environment smallint,
    ADD COLUMN service smallint,
    ADD COLUMN price_per_person integer,
    ADD CONSTRAINT comments_scores CHECK (
        (taste IS NULL OR taste BETWEEN 1 AND 5)
        AND (environment IS NULL OR environment BETWEEN 1 AND 5)
        AND (service IS NULL OR service BETWEEN 1 AND 5)
        AND (price_per_person IS NULL OR price_per_person BETWEEN 1 AND 100000)
        AND (kind = 'review' OR (taste IS NULL AND environment IS NULL AND service IS NULL AND price_per_person IS NULL)));

-- The review each author counts with in a store's aggregates, and its values.
CREATE TABLE store_raters (
    store_id          text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    author_id         text NOT NULL,
    comment_id        text NOT NULL,
    rating            smallint NOT NULL,
    taste             smallint,
    environment       smallint,
    service           smallint,
    price_per_person  integer,
    PRIMARY KEY (store_id, author_id)
);

-- rating_count and rating_sum now count authors (their counted review); review_count (008) every live review.
ALTER TABLE stores
    ADD COLUMN taste_sum bigint NOT NULL DEFAULT 0,
    ADD COLUMN taste_count integer NOT NULL DEFAULT 0 CHECK (taste_count >= 0),
    ADD COLUMN environment_sum bigint NOT NULL DEFAULT 0,
    ADD COLUMN environment_count integer NOT NULL DEFAULT 0 CHECK (environment_count >= 0),
    ADD COLUMN service_sum bigint NOT NULL DEFAULT 0,
    ADD COLUMN service_count integer NOT NULL DEFAULT 0 CHECK (service_count >= 0),
    ADD COLUMN price_sum bigint NOT NULL DEFAULT 0,
    ADD COLUMN price_count integer NOT NULL DEFAULT 0 CHECK (price_count >= 0),
    -- 人均: the rounded average; stored so `sort=price` and `maxPrice` walk an index.
    ADD COLUMN price_per_person integer GENERATED ALWAYS AS (
        CASE WHEN price_count > 0 THEN round(price_sum::numeric / price_count)::integer END) STORED;
-- `sort=price`: cheapest first, stores without a price last (100001, above any price), then id descending.
CREATE INDEX stores_price ON stores ((coalesce(price_per_person, 100001)), id DESC) WHERE archived_at IS NULL;

-- Moves `p_author`'s contribution to `p_store`'s aggregates to their latest live review (none: out). The store
-- row is locked first, so writers of one store's aggregates take turns and each sees the others' reviews.
CREATE FUNCTION store_rater_recount(p_store text, p_author text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    was store_raters;
    now record;
BEGIN
    PERFORM 1 FROM stores WHERE id = p_store FOR UPDATE;
    SELECT * INTO was FROM store_raters WHERE store_id = p_store AND author_id = p_author;
    SELECT c.id, c.rating, c.taste, c.environment, c.service, c.price_per_person INTO now
    FROM comments c
    WHERE c.author_id = p_author AND c.store_id = p_store AND c.kind = 'review' AND c.hidden_at IS NULL
    ORDER BY c.created_at DESC, c.id DESC LIMIT 1;
    IF (was.comment_id, was.rating, was.taste, was.environment, was.service, was.price_per_person)
        IS NOT DISTINCT FROM (now.id, now.rating, now.taste, now.environment, now.service, now.price_per_person) THEN
        RETURN;
    END IF;
    UPDATE stores SET
        rating_count = rating_count - (was.rating IS NOT NULL)::int + (now.rating IS NOT NULL)::int,
        rating_sum = rating_sum - coalesce(was.rating, 0) + coalesce(now.rating, 0),
        taste_count = taste_count - (was.taste IS NOT NULL)::int + (now.taste IS NOT NULL)::int,
        taste_sum = taste_sum - coalesce(was.taste, 0) + coalesce(now.taste, 0),
        environment_count = environment_count - (was.environment IS NOT NULL)::int + (now.environment IS NOT NULL)::int,
        environment_sum = environment_sum - coalesce(was.environment, 0) + coalesce(now.environment, 0),
        service_count = service_count - (was.service IS NOT NULL)::int + (now.service IS NOT NULL)::int,
        service_sum = service_sum - coalesce(was.service, 0) + coalesce(now.service, 0),
        price_count = price_count - (was.price_per_person IS NOT NULL)::int + (now.price_per_person IS NOT NULL)::int,
        price_sum = price_sum - coalesce(was.price_per_person, 0) + coalesce(now.price_per_person, 0)
    WHERE id = p_store;
    IF now.id IS NULL THEN
        DELETE FROM store_raters WHERE store_id = p_store AND author_id = p_author;
    ELSE
        INSERT INTO store_raters AS r (store_id, author_id, comment_id, rating, taste, environment, service, price_per_person)
        VALUES (p_store, p_author, now.id, now.rating, now.taste, now.environment, now.service, now.price_per_person)
        ON CONFLICT (store_id, author_id) DO UPDATE SET comment_id = EXCLUDED.comment_id, rating = EXCLUDED.rating,
            taste = EXCLUDED.taste, environment = EXCLUDED.environment, service = EXCLUDED.service,
            price_per_person = EXCLUDED.price_per_person;
    END IF;
END $$;

-- Every aggregate of the given stores from their reviews, written only where it differs: for this migration and
-- for seed imports (whose own transaction skips the triggers).
CREATE FUNCTION store_aggregates_recount(p_stores text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM store_raters r WHERE r.store_id = ANY (p_stores) AND NOT EXISTS (
        SELECT 1 FROM comments c WHERE c.store_id = r.store_id AND c.author_id = r.author_id
          AND c.kind = 'review' AND c.hidden_at IS NULL);
    INSERT INTO store_raters AS r (store_id, author_id, comment_id, rating, taste, environment, service, price_per_person)
    SELECT DISTINCT ON (c.store_id, c.author_id) c.store_id, c.author_id, c.id, c.rating, c.taste, c.environment,
           c.service, c.price_per_person
    FROM comments c
    WHERE c.store_id = ANY (p_stores) AND c.kind = 'review' AND c.hidden_at IS NULL
    ORDER BY c.store_id, c.author_id, c.created_at DESC, c.id DESC
    ON CONFLICT (store_id, author_id) DO UPDATE SET comment_id = EXCLUDED.comment_id, rating = EXCLUDED.rating,
        taste = EXCLUDED.taste, environment = EXCLUDED.environment, service = EXCLUDED.service,
        price_per_person = EXCLUDED.price_per_person
    WHERE (r.comment_id, r.rating, r.taste, r.environment, r.service, r.price_per_person)
        IS DISTINCT FROM (EXCLUDED.comment_id, EXCLUDED.rating, EXCLUDED.taste, EXCLUDED.environment,
                          EXCLUDED.service, EXCLUDED.price_per_person);
    UPDATE stores st SET
        review_count = a.reviews, rating_count = a.rating_count, rating_sum = a.rating_sum,
        taste_count = a.taste_count, taste_sum = a.taste_sum, environment_count = a.environment_count,
        environment_sum = a.environment_sum, service_count = a.service_count, service_sum = a.service_sum,
        price_count = a.price_count, price_sum = a.price_sum
    FROM (
        SELECT s.id,
               (SELECT count(*) FROM comments c WHERE c.store_id = s.id AND c.kind = 'review' AND c.hidden_at IS NULL)::int AS reviews,
               count(r.rating)::int AS rating_count, coalesce(sum(r.rating), 0)::bigint AS rating_sum,
               count(r.taste)::int AS taste_count, coalesce(sum(r.taste), 0)::bigint AS taste_sum,
               count(r.environment)::int AS environment_count, coalesce(sum(r.environment), 0)::bigint AS environment_sum,
               count(r.service)::int AS service_count, coalesce(sum(r.service), 0)::bigint AS service_sum,
               count(r.price_per_person)::int AS price_count, coalesce(sum(r.price_per_person), 0)::bigint AS price_sum
        FROM stores s LEFT JOIN store_raters r ON r.store_id = s.id
        WHERE s.id = ANY (p_stores)
        GROUP BY s.id
    ) a
    WHERE st.id = a.id AND (st.review_count, st.rating_count, st.rating_sum, st.taste_count, st.taste_sum,
            st.environment_count, st.environment_sum, st.service_count, st.service_sum, st.price_count, st.price_sum)
        IS DISTINCT FROM (a.reviews, a.rating_count, a.rating_sum, a.taste_count, a.taste_sum, a.environment_count,
            a.environment_sum, a.service_count, a.service_sum, a.price_count, a.price_sum);
END $$;

CREATE OR REPLACE FUNCTION comments_rating_totals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    was_live boolean;
    is_live  boolean;
    moved    boolean;
BEGIN
    IF current_setting('chidian.bulk_import', true) = 'on' THEN
        RETURN NULL;  -- the import recounts the aggregates of every store it touched
    END IF;
    was_live := TG_OP <> 'INSERT' AND OLD.kind = 'review' AND OLD.hidden_at IS NULL;
    is_live := TG_OP <> 'DELETE' AND NEW.kind = 'review' AND NEW.hidden_at IS NULL;
    moved := TG_OP = 'UPDATE' AND OLD.store_id <> NEW.store_id;
    IF was_live AND (NOT is_live OR moved) THEN
        UPDATE stores SET review_count = review_count - 1 WHERE id = OLD.store_id;
    END IF;
    IF is_live AND (NOT was_live OR moved) THEN
        UPDATE stores SET review_count = review_count + 1 WHERE id = NEW.store_id;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM store_rater_recount(OLD.store_id, OLD.author_id);
    END IF;
    IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND (NEW.store_id, NEW.author_id) IS DISTINCT FROM (OLD.store_id, OLD.author_id)) THEN
        PERFORM store_rater_recount(NEW.store_id, NEW.author_id);
    END IF;
    RETURN NULL;
END $$;

DROP TRIGGER comments_rating_totals_update ON comments;
CREATE TRIGGER comments_rating_totals_update
    AFTER UPDATE OF rating, kind, hidden_at, store_id, author_id, created_at, taste, environment, service, price_per_person
    ON comments FOR EACH ROW
    WHEN ((OLD.rating, OLD.kind, OLD.hidden_at IS NULL, OLD.store_id, OLD.author_id, OLD.created_at, OLD.taste,
           OLD.environment, OLD.service, OLD.price_per_person)
          IS DISTINCT FROM (NEW.rating, NEW.kind, NEW.hidden_at IS NULL, NEW.store_id, NEW.author_id, NEW.created_at,
           NEW.taste, NEW.environment, NEW.service, NEW.price_per_person))
    EXECUTE FUNCTION comments_rating_totals();

SELECT store_aggregates_recount(ARRAY(SELECT id FROM stores));
