-- Issue #48, phase 1: recommended and not recommended. A review judged not recommended stays readable but counts
-- in nothing a store shows (rating, scores, price per person, review count, dishes, search) and leaves the feeds,
-- as an older review by the same author does; it is listed apart and counted in stores.not_recommended_count.
-- So a live review is counted only while recommended: every function and trigger that kept "a live review"
-- (kind = 'review' AND hidden_at IS NULL) now also asks `recommended`, and the author's counted review of a store
-- is their latest live *recommended* one (an earlier review counts again while the latest is not recommended).
-- A verdict change is one `UPDATE comments SET recommended = ...`: the update triggers move every aggregate in
-- the same transaction, as they do for a hide or a restore.

ALTER TABLE comments
    ADD COLUMN recommended boolean NOT NULL DEFAULT true,
    -- Who gave the verdict: the machine's judge or an admin, whose verdict the judge never overrides.
    ADD COLUMN verdict_by text NOT NULL DEFAULT 'machine' CHECK (verdict_by IN ('machine', 'admin')),
    -- How suspicious the judge finds the review (0: nothing seen); the admins' queue is ordered by it.
    ADD COLUMN trust_score double precision NOT NULL DEFAULT 0 CHECK (trust_score >= 0),
    ADD CONSTRAINT comments_notice_recommended CHECK (kind = 'review' OR recommended);

ALTER TABLE stores ADD COLUMN not_recommended_count integer NOT NULL DEFAULT 0
    CHECK (not_recommended_count >= 0);

-- What the judge saw in a review (phase 2 writes them; the admins' queue reads them). Never shown to its author.
CREATE TABLE comment_signals (
    comment_id  text NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
    kind        text NOT NULL CHECK (kind ~ '^[a-z_]{1,40}$'),
    detail      text NOT NULL CHECK (char_length(detail) <= 2000),
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (comment_id, kind)
);

-- The admins' queue: suspicious or not recommended reviews, most suspicious first.
CREATE INDEX comments_trust_queue ON comments (trust_score DESC, id DESC)
    WHERE kind = 'review' AND (trust_score > 0 OR NOT recommended);
-- A store's not recommended reviews, newest first (few: the default lists walk the indexes they always did).
CREATE INDEX comments_store_not_recommended ON comments (store_id, created_at DESC, id DESC)
    WHERE hidden_at IS NULL AND NOT recommended;

-- The feeds' partial indexes hold only what the feeds show.
DROP INDEX comments_feed;
CREATE INDEX comments_feed ON comments (created_at DESC, id DESC)
    WHERE hidden_at IS NULL AND kind = 'review' AND NOT store_archived AND recommended;
DROP INDEX comments_feed_category;
CREATE INDEX comments_feed_category ON comments (category_id, created_at DESC, id DESC)
    WHERE hidden_at IS NULL AND kind = 'review' AND NOT store_archived AND recommended;
DROP INDEX comments_author_reviews;
CREATE INDEX comments_author_reviews ON comments (author_id, created_at DESC, id DESC)
    WHERE hidden_at IS NULL AND kind = 'review' AND NOT store_archived AND recommended;

-- An admin's verdict is logged beside hides and restores.
ALTER TABLE moderation_log DROP CONSTRAINT moderation_log_action_check;
ALTER TABLE moderation_log ADD CONSTRAINT moderation_log_action_check
    CHECK (action IN ('hide', 'restore', 'dismiss', 'recommend', 'not_recommend'));

-- The judge's one way to write a verdict: an admin's stands, so a review an admin judged is left as it is.
-- Answers whether the review took it.
CREATE FUNCTION trust_machine_verdict(p_comment text, p_recommended boolean, p_score double precision) RETURNS boolean
LANGUAGE sql AS $$
    WITH u AS (
        UPDATE comments SET recommended = p_recommended, trust_score = greatest(p_score, 0)
        WHERE id = p_comment AND kind = 'review' AND verdict_by = 'machine'
        RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM u)
$$;

CREATE OR REPLACE FUNCTION comments_rating_totals() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    was_live   boolean;
    is_live    boolean;
    was_judged boolean;  -- a live review judged not recommended: counted apart, in not_recommended_count
    is_judged  boolean;
    moved      boolean;
BEGIN
    IF current_setting('chidian.bulk_import', true) = 'on' THEN
        RETURN NULL;  -- the import recounts the aggregates of every store it touched
    END IF;
    IF TG_OP = 'INSERT' THEN
        IF NEW.kind = 'review' AND NEW.hidden_at IS NULL THEN
            PERFORM 1 FROM stores WHERE id = NEW.store_id FOR NO KEY UPDATE;  -- store_review_inserted does the rest
        END IF;
        RETURN NULL;
    END IF;
    was_live := OLD.kind = 'review' AND OLD.hidden_at IS NULL AND OLD.recommended;
    is_live := TG_OP <> 'DELETE' AND NEW.kind = 'review' AND NEW.hidden_at IS NULL AND NEW.recommended;
    was_judged := OLD.kind = 'review' AND OLD.hidden_at IS NULL AND NOT OLD.recommended;
    is_judged := TG_OP <> 'DELETE' AND NEW.kind = 'review' AND NEW.hidden_at IS NULL AND NOT NEW.recommended;
    moved := TG_OP = 'UPDATE' AND OLD.store_id <> NEW.store_id;
    IF was_judged AND (NOT is_judged OR moved) THEN
        UPDATE stores SET not_recommended_count = not_recommended_count - 1 WHERE id = OLD.store_id;
    END IF;
    IF is_judged AND (NOT was_judged OR moved) THEN
        UPDATE stores SET not_recommended_count = not_recommended_count + 1 WHERE id = NEW.store_id;
    END IF;
    IF was_live AND (NOT is_live OR moved) THEN
        UPDATE stores SET review_count = review_count - 1 WHERE id = OLD.store_id;
    END IF;
    IF is_live AND (NOT was_live OR moved) THEN
        UPDATE stores SET review_count = review_count + 1 WHERE id = NEW.store_id;
    END IF;
    PERFORM store_rater_recount(OLD.store_id, OLD.author_id);
    IF TG_OP = 'UPDATE' AND (NEW.store_id, NEW.author_id) IS DISTINCT FROM (OLD.store_id, OLD.author_id) THEN
        PERFORM store_rater_recount(NEW.store_id, NEW.author_id);
    END IF;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION store_rater_recount(p_store text, p_author text) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
    was store_raters;
    now record;
BEGIN
    PERFORM 1 FROM stores WHERE id = p_store FOR NO KEY UPDATE;
    SELECT * INTO was FROM store_raters WHERE store_id = p_store AND author_id = p_author;
    SELECT c.id, c.rating, c.taste, c.environment, c.service, c.price_per_person INTO now
    FROM comments c
    WHERE c.author_id = p_author AND c.store_id = p_store AND c.kind = 'review' AND c.hidden_at IS NULL AND c.recommended
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

CREATE OR REPLACE FUNCTION store_review_inserted() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    was         store_raters;
    was_at      timestamptz;
    counted     boolean;
    k           integer;
    grams       text[];
    names       text[];
    counts      integer[];
    n_rating    smallint;
    n_taste     smallint;
    n_env       smallint;
    n_service   smallint;
    n_price     integer;
BEGIN
    IF current_setting('chidian.bulk_import', true) = 'on' OR NEW.hidden_at IS NOT NULL THEN
        RETURN NULL;
    END IF;
    IF NOT NEW.recommended THEN
        -- Posted already judged: it counts in nothing but the store's not_recommended_count.
        UPDATE stores SET not_recommended_count = not_recommended_count + 1 WHERE id = NEW.store_id;
        RETURN NULL;
    END IF;
    -- The author's counted review is their latest live one: this review, unless they have a later one.
    SELECT * INTO was FROM store_raters WHERE store_id = NEW.store_id AND author_id = NEW.author_id;
    IF was.comment_id IS NOT NULL THEN
        SELECT created_at INTO was_at FROM comments WHERE id = was.comment_id;
    END IF;
    counted := was.comment_id IS NULL OR (NEW.created_at, NEW.id) > (was_at, was.comment_id);
    IF counted THEN
        n_rating := NEW.rating; n_taste := NEW.taste; n_env := NEW.environment; n_service := NEW.service;
        n_price := NEW.price_per_person;
        INSERT INTO store_raters AS r (store_id, author_id, comment_id, rating, taste, environment, service, price_per_person)
        VALUES (NEW.store_id, NEW.author_id, NEW.id, NEW.rating, NEW.taste, NEW.environment, NEW.service, NEW.price_per_person)
        ON CONFLICT (store_id, author_id) DO UPDATE SET comment_id = EXCLUDED.comment_id, rating = EXCLUDED.rating,
            taste = EXCLUDED.taste, environment = EXCLUDED.environment, service = EXCLUDED.service,
            price_per_person = EXCLUDED.price_per_person;
    ELSE
        n_rating := was.rating; n_taste := was.taste; n_env := was.environment; n_service := was.service;
        n_price := was.price_per_person;
    END IF;
    -- The stored five and the mentioned dishes at their new counts (2-character ones are search's pairs).
    k := search_store_key(NEW.store_id);
    grams := coalesce(search_grams(NEW.body), '{}');
    SELECT coalesce(array_agg(t.name ORDER BY t.n DESC, t.name COLLATE "C"), '{}'),
           coalesce(array_agg(t.n ORDER BY t.n DESC, t.name COLLATE "C"), '{}')
    INTO names, counts
    FROM (
        SELECT u.name, max(u.n) AS n FROM (
            SELECT s.name, s.n FROM stores st, unnest(st.dish_names, st.dish_counts) AS s (name, n)
            WHERE st.id = NEW.store_id
            UNION ALL
            SELECT d.name, r.review_count FROM search_dish_stores r JOIN search_dishes d ON d.id = r.dish_id
            WHERE r.store_key = k AND r.dish_id = ANY (search_dishes_in(NEW.body, grams))
            UNION ALL
            SELECT d.name, g.review_count FROM search_dishes d
            JOIN search_review_grams g ON g.store_key = k AND g.gram = d.lname
            WHERE d.lname = ANY (grams) AND char_length(d.lname) <= 2
        ) u
        GROUP BY u.name ORDER BY n DESC, u.name COLLATE "C" LIMIT 5
    ) t;
    UPDATE stores SET
        review_count = review_count + 1,
        rating_count = rating_count - (was.rating IS NOT NULL)::int + (n_rating IS NOT NULL)::int,
        rating_sum = rating_sum - coalesce(was.rating, 0) + coalesce(n_rating, 0),
        taste_count = taste_count - (was.taste IS NOT NULL)::int + (n_taste IS NOT NULL)::int,
        taste_sum = taste_sum - coalesce(was.taste, 0) + coalesce(n_taste, 0),
        environment_count = environment_count - (was.environment IS NOT NULL)::int + (n_env IS NOT NULL)::int,
        environment_sum = environment_sum - coalesce(was.environment, 0) + coalesce(n_env, 0),
        service_count = service_count - (was.service IS NOT NULL)::int + (n_service IS NOT NULL)::int,
        service_sum = service_sum - coalesce(was.service, 0) + coalesce(n_service, 0),
        price_count = price_count - (was.price_per_person IS NOT NULL)::int + (n_price IS NOT NULL)::int,
        price_sum = price_sum - coalesce(was.price_per_person, 0) + coalesce(n_price, 0),
        dish_names = names, dish_counts = counts
    WHERE id = NEW.store_id;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION store_aggregates_recount(p_stores text[]) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    DELETE FROM store_raters r WHERE r.store_id = ANY (p_stores) AND NOT EXISTS (
        SELECT 1 FROM comments c WHERE c.store_id = r.store_id AND c.author_id = r.author_id
          AND c.kind = 'review' AND c.hidden_at IS NULL AND c.recommended);
    INSERT INTO store_raters AS r (store_id, author_id, comment_id, rating, taste, environment, service, price_per_person)
    SELECT DISTINCT ON (c.store_id, c.author_id) c.store_id, c.author_id, c.id, c.rating, c.taste, c.environment,
           c.service, c.price_per_person
    FROM comments c
    WHERE c.store_id = ANY (p_stores) AND c.kind = 'review' AND c.hidden_at IS NULL AND c.recommended
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
        price_count = a.price_count, price_sum = a.price_sum, not_recommended_count = a.not_recommended
    FROM (
        SELECT s.id,
               (SELECT count(*) FROM comments c WHERE c.store_id = s.id AND c.kind = 'review' AND c.hidden_at IS NULL AND c.recommended)::int AS reviews,
               (SELECT count(*) FROM comments c WHERE c.store_id = s.id AND c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.recommended)::int AS not_recommended,
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
            st.environment_count, st.environment_sum, st.service_count, st.service_sum, st.price_count, st.price_sum,
            st.not_recommended_count)
        IS DISTINCT FROM (a.reviews, a.rating_count, a.rating_sum, a.taste_count, a.taste_sum, a.environment_count,
            a.environment_sum, a.service_count, a.service_sum, a.price_count, a.price_sum, a.not_recommended);
END $$;

CREATE OR REPLACE FUNCTION search_comment_changed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    was_live boolean := TG_OP <> 'INSERT' AND OLD.kind = 'review' AND OLD.hidden_at IS NULL AND OLD.recommended;
    is_live  boolean := TG_OP <> 'DELETE' AND NEW.kind = 'review' AND NEW.hidden_at IS NULL AND NEW.recommended;
BEGIN
    IF current_setting('chidian.bulk_import', true) = 'on' THEN
        RETURN NULL;  -- the import rebuilds the summaries of every store it touched
    END IF;
    IF was_live AND is_live AND OLD.store_id = NEW.store_id THEN
        IF OLD.body IS DISTINCT FROM NEW.body THEN
            -- The only summary change that touches no store row otherwise: wait here for an import that is
            -- recounting this store (it holds the row FOR UPDATE), so the edit lands after its rebuild.
            PERFORM 1 FROM stores WHERE id = NEW.store_id FOR KEY SHARE;
            PERFORM search_apply_review(NEW.store_id, OLD.body, NEW.body);
            PERFORM search_review_notify(NEW.store_id, OLD.body);
            PERFORM search_review_notify(NEW.store_id, NEW.body);
        END IF;
    ELSE
        IF was_live THEN
            PERFORM search_apply_review(OLD.store_id, OLD.body, NULL);
            PERFORM search_review_notify(OLD.store_id, OLD.body);
        END IF;
        IF is_live THEN
            PERFORM search_apply_review(NEW.store_id, NULL, NEW.body);
            PERFORM search_review_notify(NEW.store_id, NEW.body);
        END IF;
    END IF;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION search_count_dish(p_dish integer) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    -- Review writers wait while the dish is counted, so none is missed between the count and the trigger.
    LOCK TABLE comments IN SHARE MODE;
    DELETE FROM search_dish_stores WHERE dish_id = p_dish;
    INSERT INTO search_dish_stores (dish_id, store_key, review_count)
    SELECT p_dish, search_store_key(c.store_id), count(*)::integer
    FROM comments c, search_dishes d
    WHERE d.id = p_dish AND char_length(d.lname) >= 3
      AND c.kind = 'review' AND c.hidden_at IS NULL AND c.recommended AND strpos(lower(c.body), d.lname) > 0
    GROUP BY c.store_id;
    PERFORM store_dishes_recount(k.store_id)
    FROM search_dishes d JOIN search_review_grams g ON g.gram = d.lname AND char_length(d.lname) <= 2
    JOIN search_store_keys k ON k.key = g.store_key
    WHERE d.id = p_dish;
    PERFORM store_dishes_recount(k.store_id)
    FROM search_dish_stores r JOIN search_store_keys k ON k.key = r.store_key
    WHERE r.dish_id = p_dish;
END $$;

CREATE OR REPLACE FUNCTION search_count_reviews(p_store text, p_lq text) RETURNS integer
    LANGUAGE plpgsql STABLE
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
BEGIN
    IF p_lq ~ '[a-z]' THEN
        RETURN (SELECT count(*) FROM comments m
                WHERE m.store_id = p_store AND m.kind = 'review' AND m.hidden_at IS NULL AND m.recommended
                  AND lower(m.body) ~ '[a-z]' AND strpos(lower(m.body), p_lq) > 0);
    ELSIF p_lq = upper(p_lq) THEN
        RETURN (SELECT count(*) FROM comments m
                WHERE m.store_id = p_store AND m.kind = 'review' AND m.hidden_at IS NULL AND m.recommended AND strpos(m.body, p_lq) > 0);
    END IF;
    RETURN (SELECT count(*) FROM comments m
            WHERE m.store_id = p_store AND m.kind = 'review' AND m.hidden_at IS NULL AND m.recommended AND strpos(lower(m.body), p_lq) > 0);
END $$;

CREATE OR REPLACE FUNCTION search_count_some(p_store text, p_lq text, p_reviews integer, p_cap integer) RETURNS integer
    LANGUAGE plpgsql STABLE
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
BEGIN
    IF p_reviews <= p_cap THEN
        RETURN search_count_reviews(p_store, p_lq);
    END IF;
    RETURN (SELECT count(*) FROM (
                SELECT m.body FROM comments m
                WHERE m.store_id = p_store AND m.kind = 'review' AND m.hidden_at IS NULL AND m.recommended
                ORDER BY m.created_at DESC, m.id DESC LIMIT greatest(p_cap, 0)) x
            WHERE strpos(CASE WHEN p_lq = upper(p_lq) THEN x.body ELSE lower(x.body) END, p_lq) > 0);
END $$;

CREATE OR REPLACE FUNCTION search_rebuild(p_stores text[], p_bulk boolean DEFAULT NULL::boolean) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
    bulk        boolean := search_rebuild_begin(p_stores, p_bulk);
    batch_keys  integer[];
BEGIN
    FOR batch_keys IN SELECT search_rebuild_batches(1000) LOOP
        -- Each review's grams are computed once, for the grams and for the dishes.
        INSERT INTO search_rebuild_counts (store_key, kind, item, review_count)
        SELECT k.key, i.kind, i.item, count(*)::integer
        FROM search_rebuild_keys k
        JOIN comments c ON c.store_id = k.store_id AND c.kind = 'review' AND c.hidden_at IS NULL AND c.recommended
        CROSS JOIN LATERAL (SELECT search_grams(c.body) AS grams OFFSET 0) g
        CROSS JOIN LATERAL (
            SELECT 0 AS kind, x AS item FROM unnest(g.grams) AS x
            UNION ALL
            SELECT 1, d::text FROM unnest(search_dishes_in(c.body, g.grams)) AS d
        ) i
        WHERE k.key = ANY (batch_keys)
        GROUP BY 1, 2, 3;
        PERFORM search_rebuild_apply(batch_keys, bulk);
    END LOOP;
    PERFORM search_rebuild_end(bulk);
END $$;

CREATE OR REPLACE FUNCTION comments_cache_notify() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF cache_bulk() THEN
        PERFORM cache_notify('*');
        RETURN NULL;
    END IF;
    IF TG_OP <> 'INSERT' THEN
        PERFORM cache_notify('c:' || OLD.store_id);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM cache_notify('c:' || NEW.store_id);
    END IF;
    IF TG_OP = 'UPDATE' AND (OLD.kind, OLD.author_id, OLD.hidden_at, OLD.store_archived, OLD.created_at, OLD.recommended)
        IS NOT DISTINCT FROM (NEW.kind, NEW.author_id, NEW.hidden_at, NEW.store_archived, NEW.created_at, NEW.recommended) THEN
        RETURN NULL;
    END IF;
    IF TG_OP <> 'INSERT' AND OLD.kind = 'review' THEN
        PERFORM cache_notify('t:' || OLD.author_id);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.kind = 'review' THEN
        PERFORM cache_notify('t:' || NEW.author_id);
    END IF;
    RETURN NULL;
END
$$;

-- The update triggers also fire when the verdict changes.
DROP TRIGGER comments_rating_totals_update ON comments;
CREATE TRIGGER comments_rating_totals_update
    AFTER UPDATE OF rating, kind, hidden_at, store_id, author_id, created_at, taste, environment, service,
        price_per_person, body, recommended ON comments
    FOR EACH ROW WHEN (OLD.rating IS DISTINCT FROM NEW.rating OR OLD.kind IS DISTINCT FROM NEW.kind
        OR (OLD.hidden_at IS NULL) IS DISTINCT FROM (NEW.hidden_at IS NULL) OR OLD.store_id IS DISTINCT FROM NEW.store_id
        OR OLD.author_id IS DISTINCT FROM NEW.author_id OR OLD.created_at IS DISTINCT FROM NEW.created_at
        OR OLD.taste IS DISTINCT FROM NEW.taste OR OLD.environment IS DISTINCT FROM NEW.environment
        OR OLD.service IS DISTINCT FROM NEW.service OR OLD.price_per_person IS DISTINCT FROM NEW.price_per_person
        OR OLD.body IS DISTINCT FROM NEW.body OR OLD.recommended IS DISTINCT FROM NEW.recommended)
    EXECUTE FUNCTION comments_rating_totals();
DROP TRIGGER search_comment_changed_update ON comments;
CREATE TRIGGER search_comment_changed_update AFTER UPDATE OF body, kind, hidden_at, store_id, recommended ON comments
    FOR EACH ROW WHEN (OLD.body IS DISTINCT FROM NEW.body OR OLD.kind IS DISTINCT FROM NEW.kind
        OR (OLD.hidden_at IS NULL) IS DISTINCT FROM (NEW.hidden_at IS NULL) OR OLD.store_id IS DISTINCT FROM NEW.store_id
        OR OLD.recommended IS DISTINCT FROM NEW.recommended)
    EXECUTE FUNCTION search_comment_changed();
DROP TRIGGER store_dishes_changed_update ON comments;
CREATE TRIGGER store_dishes_changed_update AFTER UPDATE OF body, kind, hidden_at, store_id, recommended ON comments
    FOR EACH ROW WHEN (OLD.body IS DISTINCT FROM NEW.body OR OLD.kind IS DISTINCT FROM NEW.kind
        OR (OLD.hidden_at IS NULL) IS DISTINCT FROM (NEW.hidden_at IS NULL) OR OLD.store_id IS DISTINCT FROM NEW.store_id
        OR OLD.recommended IS DISTINCT FROM NEW.recommended)
    EXECUTE FUNCTION store_dishes_changed();
