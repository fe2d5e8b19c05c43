-- Search (GET /v1/search): what the search reads, kept current by triggers in the same transaction as the
-- review, store or category write that changes it. The design, the query plans and the measured costs are in
-- docs/SEARCH.md; in short:
--
--   search_review_grams  for every store, how many of its live reviews (kind review, not hidden) contain each
--                        distinct character and each distinct pair of adjacent characters of the lowercased
--                        text. A 1- or 2-character query reads its exact per-store counts from one index range.
--   search_dishes        the dish vocabulary (seeded from DishCatalog below, extended by `chidian dish add`).
--   search_dish_stores   for dishes of 3 or more characters, how many of each store's live reviews mention it;
--                        a query that is a dish name (typed or as pinyin) reads exact counts here. Any other
--                        query of 3 or more characters takes the stores holding all of its pairs as candidates
--                        (their smallest pair count bounds the answer) and counts the candidates' reviews.
--   search_name_grams    the characters and pairs of each store's lowercased name: candidates for name matches.
--   search_pinyin(_keys) pinyin of store, category and dish names. PostgreSQL cannot transliterate, so the
--                        triggers only queue a new name (ready = false) and the server fills it in with ICU
--                        (Foundation's mandarinToLatin) before it answers a pinyin query, and after a seed import.
--
-- Archived stores keep their summaries (queries skip them), so archiving and restoring cost nothing here.
-- Everything is a plain B-tree: no GIN pending list to flush in the middle of a write.

-- Summary rows carry a small integer instead of the store's text id, which keeps them 16 bytes narrower.
-- No foreign key: when a store row is deleted its comments' delete triggers still find the key and take the
-- counts back to zero.
CREATE TABLE search_store_keys (
    store_id  text PRIMARY KEY,
    key       integer NOT NULL GENERATED ALWAYS AS IDENTITY UNIQUE
);

-- The distinct characters and adjacent pairs of `body` lowercased, counted in code points as substr does.
-- Each review counts once per gram however often the gram occurs in it.
-- (PL/pgSQL rather than SQL so that triggers calling it reuse its plan instead of preparing it on every call.)
CREATE FUNCTION search_grams(body text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
    RETURN ARRAY(
        SELECT DISTINCT v.g
        FROM (SELECT string_to_array(lower(body), NULL) AS c) s,
             LATERAL unnest(s.c, s.c[2:]) AS u (a, b),
             LATERAL (VALUES (u.a), (u.a || u.b)) AS v (g)
        WHERE v.g IS NOT NULL);
END $$;

CREATE TABLE search_review_grams (
    store_key     integer NOT NULL,
    review_count  integer NOT NULL CHECK (review_count > 0),
    gram          text COLLATE "C" NOT NULL,
    PRIMARY KEY (store_key, gram)
) WITH (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.05);
-- Reads walk one gram's stores from the highest count down and stop early.
CREATE INDEX search_review_grams_top ON search_review_grams (gram, review_count DESC, store_key);

CREATE TABLE search_dishes (
    id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text NOT NULL CHECK (btrim(name) = name AND name <> '' AND char_length(name) <= 32),
    lname       text COLLATE "C" NOT NULL GENERATED ALWAYS AS (lower(name)) STORED,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX search_dishes_lname ON search_dishes (lname);
-- A review can mention a dish only if the dish's first two characters are among the review's pairs.
CREATE INDEX search_dishes_lead ON search_dishes ((substr(lname, 1, 2))) WHERE char_length(lname) >= 3;

CREATE TABLE search_dish_stores (
    dish_id       integer NOT NULL REFERENCES search_dishes (id) ON DELETE CASCADE,
    store_key     integer NOT NULL,
    review_count  integer NOT NULL CHECK (review_count > 0),
    PRIMARY KEY (store_key, dish_id)
) WITH (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.05);
CREATE INDEX search_dish_stores_top ON search_dish_stores (dish_id, review_count DESC, store_key);

CREATE TABLE search_name_grams (
    gram      text COLLATE "C" NOT NULL,
    store_id  text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    PRIMARY KEY (gram, store_id)
);
CREATE INDEX search_name_grams_store ON search_name_grams (store_id);

-- Pinyin of a name, keyed by the name itself (two stores with one name share it). `syllables` is the full
-- pinyin of its Han characters without tones or spaces ("huoguo"), `initials` their first letters ("hg");
-- both are '' for a name without Han characters.
CREATE TABLE search_pinyin (
    source     text COLLATE "C" PRIMARY KEY,
    ready      boolean NOT NULL DEFAULT false,
    syllables  text COLLATE "C",
    initials   text COLLATE "C",
    CHECK (NOT ready OR (syllables IS NOT NULL AND initials IS NOT NULL))
);
CREATE INDEX search_pinyin_pending ON search_pinyin (source) WHERE NOT ready;
CREATE INDEX search_pinyin_syllables ON search_pinyin (syllables) WHERE ready;
CREATE INDEX search_pinyin_initials ON search_pinyin (initials) WHERE ready;

-- A name matches a pinyin query when the query is a prefix of one of its keys: the full pinyin from each
-- syllable onwards ("xiaolongkanhuoguo", "longkanhuoguo", ..., "guo") and the initials from each letter
-- onwards ("xlkhg", "lkhg", ..., "g").
CREATE TABLE search_pinyin_keys (
    source  text COLLATE "C" NOT NULL REFERENCES search_pinyin (source) ON DELETE CASCADE,
    key     text COLLATE "C" NOT NULL,
    PRIMARY KEY (source, key)
);
CREATE INDEX search_pinyin_keys_key ON search_pinyin_keys (key);

-- The summary key of a store, made on first use.
CREATE FUNCTION search_store_key(p_store text) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    k integer;
BEGIN
    SELECT key INTO k FROM search_store_keys WHERE store_id = p_store;
    IF k IS NULL THEN
        INSERT INTO search_store_keys (store_id) VALUES (p_store) ON CONFLICT DO NOTHING;
        SELECT key INTO k FROM search_store_keys WHERE store_id = p_store;
    END IF;
    RETURN k;
END $$;

-- The dishes of 3 or more characters that `body` mentions (case-insensitively); `grams` is search_grams(body).
CREATE FUNCTION search_dishes_in(body text, grams text[]) RETURNS integer[]
LANGUAGE plpgsql STABLE AS $$
BEGIN
    IF body IS NULL THEN
        RETURN '{}';
    END IF;
    RETURN ARRAY(
        SELECT d.id FROM search_dishes d
        WHERE char_length(d.lname) >= 3 AND substr(d.lname, 1, 2) = ANY (grams) AND strpos(lower(body), d.lname) > 0
        ORDER BY d.id);
END $$;

-- Moves one review's contribution in a store's summaries from `p_old` to `p_new` (either may be NULL: an
-- insert, a delete, a review hidden or shown). Only the grams and dishes that differ are touched.
CREATE FUNCTION search_apply_review(p_store text, p_old text, p_new text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    k           integer := search_store_key(p_store);
    old_grams   text[] := coalesce(search_grams(p_old), '{}');
    new_grams   text[] := coalesce(search_grams(p_new), '{}');
    old_dishes  integer[] := search_dishes_in(p_old, old_grams);
    new_dishes  integer[] := search_dishes_in(p_new, new_grams);
    added       text[];
    gone        text[];
    dishes_added integer[];
    dishes_gone  integer[];
BEGIN
    -- One writer per store at a time, so two transactions never lock the same summary rows in different orders.
    PERFORM pg_advisory_xact_lock(7041979, k);
    IF p_old IS NULL OR p_new IS NULL THEN
        added := new_grams;
        gone := old_grams;
    ELSE
        added := ARRAY(SELECT unnest(new_grams) EXCEPT SELECT unnest(old_grams));
        gone := ARRAY(SELECT unnest(old_grams) EXCEPT SELECT unnest(new_grams));
        dishes_added := ARRAY(SELECT unnest(new_dishes) EXCEPT SELECT unnest(old_dishes));
        dishes_gone := ARRAY(SELECT unnest(old_dishes) EXCEPT SELECT unnest(new_dishes));
        new_dishes := dishes_added;
        old_dishes := dishes_gone;
    END IF;
    IF cardinality(added) > 0 THEN
        INSERT INTO search_review_grams AS r (store_key, review_count, gram)
        SELECT k, 1, g FROM unnest(added) AS g
        ON CONFLICT (store_key, gram) DO UPDATE SET review_count = r.review_count + 1;
    END IF;
    IF cardinality(gone) > 0 THEN
        DELETE FROM search_review_grams WHERE store_key = k AND gram = ANY (gone) AND review_count = 1;
        UPDATE search_review_grams SET review_count = review_count - 1 WHERE store_key = k AND gram = ANY (gone);
    END IF;
    IF cardinality(new_dishes) > 0 THEN
        INSERT INTO search_dish_stores AS r (dish_id, store_key, review_count)
        SELECT d, k, 1 FROM unnest(new_dishes) AS d
        ON CONFLICT (store_key, dish_id) DO UPDATE SET review_count = r.review_count + 1;
    END IF;
    IF cardinality(old_dishes) > 0 THEN
        DELETE FROM search_dish_stores WHERE store_key = k AND dish_id = ANY (old_dishes) AND review_count = 1;
        UPDATE search_dish_stores SET review_count = review_count - 1 WHERE store_key = k AND dish_id = ANY (old_dishes);
    END IF;
END $$;

-- A review counts while it is a review and not hidden; an edit moves only what its text changed.
CREATE FUNCTION search_comment_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    was_live boolean := TG_OP <> 'INSERT' AND OLD.kind = 'review' AND OLD.hidden_at IS NULL;
    is_live  boolean := TG_OP <> 'DELETE' AND NEW.kind = 'review' AND NEW.hidden_at IS NULL;
BEGIN
    IF was_live AND is_live AND OLD.store_id = NEW.store_id THEN
        IF OLD.body IS DISTINCT FROM NEW.body THEN
            PERFORM search_apply_review(NEW.store_id, OLD.body, NEW.body);
        END IF;
    ELSE
        IF was_live THEN PERFORM search_apply_review(OLD.store_id, OLD.body, NULL); END IF;
        IF is_live THEN PERFORM search_apply_review(NEW.store_id, NULL, NEW.body); END IF;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER search_comment_changed AFTER INSERT OR DELETE ON comments
    FOR EACH ROW EXECUTE FUNCTION search_comment_changed();
CREATE TRIGGER search_comment_changed_update AFTER UPDATE OF body, kind, hidden_at, store_id ON comments
    FOR EACH ROW
    WHEN (OLD.body IS DISTINCT FROM NEW.body OR OLD.kind IS DISTINCT FROM NEW.kind
          OR (OLD.hidden_at IS NULL) IS DISTINCT FROM (NEW.hidden_at IS NULL) OR OLD.store_id IS DISTINCT FROM NEW.store_id)
    EXECUTE FUNCTION search_comment_changed();

-- A new or renamed store: its name's grams, and its name queued for pinyin.
CREATE FUNCTION search_store_named() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO search_store_keys (store_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
    ELSE
        DELETE FROM search_name_grams WHERE store_id = NEW.id;
    END IF;
    INSERT INTO search_name_grams (gram, store_id) SELECT g, NEW.id FROM unnest(search_grams(NEW.name)) AS g;
    INSERT INTO search_pinyin (source) VALUES (NEW.name) ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;
CREATE TRIGGER search_store_named AFTER INSERT ON stores
    FOR EACH ROW EXECUTE FUNCTION search_store_named();
CREATE TRIGGER search_store_renamed AFTER UPDATE OF name ON stores
    FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION search_store_named();

-- Category and dish names are queued for pinyin.
CREATE FUNCTION search_name_needs_pinyin() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO search_pinyin (source) VALUES (NEW.name) ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;
CREATE TRIGGER search_category_named AFTER INSERT OR UPDATE OF name ON categories
    FOR EACH ROW EXECUTE FUNCTION search_name_needs_pinyin();
CREATE TRIGGER search_dish_named AFTER INSERT OR UPDATE OF name ON search_dishes
    FOR EACH ROW EXECUTE FUNCTION search_name_needs_pinyin();

-- Recomputing the review summaries of many stores from their live reviews: for bulk writes made with the comments
-- triggers disabled (the seed import) and for the data present when this migration runs. Three steps, so the
-- counting in between can be done here (search_rebuild) or by the server, which reads the reviews and counts
-- faster than SQL can (SearchBulkIndexer): begin, then for each batch of stores fill search_rebuild_counts and
-- apply it, then end.
--
-- Normally only rows that differ are written, so importing the same data again writes nothing. A bulk rebuild
-- (by default when the summaries hold fewer rows than the rebuild will write, as on a first import) drops the
-- indexes of both summaries and builds them again at the end: inserting millions of rows into B-trees in random
-- order is many times slower than one sort. Readers of the summaries wait for the transaction meanwhile.

-- Picks the stores (every store when `p_stores` is NULL) into search_rebuild_keys, makes the empty
-- search_rebuild_counts (kind 0: `item` is a gram; kind 1: a dish id) and returns whether this is a bulk rebuild.
CREATE FUNCTION search_rebuild_begin(p_stores text[], p_bulk boolean) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    bulk     boolean := p_bulk;
    reviews  bigint;
BEGIN
    PERFORM set_config('work_mem', '64MB', true);
    PERFORM set_config('maintenance_work_mem', '256MB', true);
    INSERT INTO search_store_keys (store_id)
    SELECT s.id FROM stores s WHERE p_stores IS NULL OR s.id IN (SELECT unnest(p_stores))
    ORDER BY s.created_at, s.id
    ON CONFLICT DO NOTHING;
    CREATE TEMP TABLE search_rebuild_keys ON COMMIT DROP AS
        SELECT k.key, k.store_id FROM search_store_keys k
        WHERE p_stores IS NULL OR k.store_id IN (SELECT unnest(p_stores));
    ANALYZE search_rebuild_keys;
    CREATE TEMP TABLE search_rebuild_counts (
        store_key integer NOT NULL, kind smallint NOT NULL, item text COLLATE "C" NOT NULL, review_count integer NOT NULL
    ) ON COMMIT DROP;
    IF bulk IS NULL THEN
        SELECT count(*) INTO reviews FROM comments c JOIN search_rebuild_keys k ON k.store_id = c.store_id
        WHERE c.kind = 'review' AND c.hidden_at IS NULL;
        -- About 20 summary rows per review in the generated data.
        bulk := reviews > 10000
            AND reviews * 20 > (SELECT greatest(reltuples, 0) FROM pg_class WHERE oid = 'search_review_grams'::regclass);
    END IF;
    IF bulk THEN
        DROP INDEX search_review_grams_top;
        ALTER TABLE search_review_grams DROP CONSTRAINT search_review_grams_pkey;
        DROP INDEX search_dish_stores_top;
        ALTER TABLE search_dish_stores DROP CONSTRAINT search_dish_stores_pkey;
        DELETE FROM search_review_grams r USING search_rebuild_keys k WHERE r.store_key = k.key;
        DELETE FROM search_dish_stores r USING search_rebuild_keys k WHERE r.store_key = k.key;
    END IF;
    RETURN bulk;
END $$;

-- The stores of search_rebuild_keys in batches of `p_size` keys.
CREATE FUNCTION search_rebuild_batches(p_size integer) RETURNS SETOF integer[]
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN QUERY
    SELECT array_agg(x.key ORDER BY x.key)
    FROM (SELECT key, (row_number() OVER (ORDER BY key) - 1) / p_size AS batch FROM search_rebuild_keys) x
    GROUP BY x.batch ORDER BY x.batch;
END $$;

-- Writes the counts in search_rebuild_counts as the summaries of the stores `p_keys`, then empties it.
CREATE FUNCTION search_rebuild_apply(p_keys integer[], p_bulk boolean) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF p_bulk THEN
        INSERT INTO search_review_grams (store_key, review_count, gram)
        SELECT store_key, review_count, item FROM search_rebuild_counts WHERE kind = 0 ORDER BY store_key, item;
        INSERT INTO search_dish_stores (dish_id, store_key, review_count)
        SELECT item::integer, store_key, review_count FROM search_rebuild_counts WHERE kind = 1;
    ELSE
        ANALYZE search_rebuild_counts;
        DELETE FROM search_review_grams r
        WHERE r.store_key = ANY (p_keys)
          AND NOT EXISTS (SELECT 1 FROM search_rebuild_counts n
                          WHERE n.store_key = r.store_key AND n.kind = 0 AND n.item = r.gram);
        INSERT INTO search_review_grams AS r (store_key, review_count, gram)
        SELECT store_key, review_count, item FROM search_rebuild_counts WHERE kind = 0
        ORDER BY store_key, item
        ON CONFLICT (store_key, gram) DO UPDATE SET review_count = EXCLUDED.review_count
        WHERE r.review_count <> EXCLUDED.review_count;
        DELETE FROM search_dish_stores r
        WHERE r.store_key = ANY (p_keys)
          AND NOT EXISTS (SELECT 1 FROM search_rebuild_counts n
                          WHERE n.store_key = r.store_key AND n.kind = 1 AND n.item = r.dish_id::text);
        INSERT INTO search_dish_stores AS r (dish_id, store_key, review_count)
        SELECT item::integer, store_key, review_count FROM search_rebuild_counts WHERE kind = 1
        ON CONFLICT (store_key, dish_id) DO UPDATE SET review_count = EXCLUDED.review_count
        WHERE r.review_count <> EXCLUDED.review_count;
    END IF;
    TRUNCATE search_rebuild_counts;
END $$;

CREATE FUNCTION search_rebuild_end(p_bulk boolean) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF p_bulk THEN
        ALTER TABLE search_review_grams ADD CONSTRAINT search_review_grams_pkey PRIMARY KEY (store_key, gram);
        CREATE INDEX search_review_grams_top ON search_review_grams (gram, review_count DESC, store_key);
        ALTER TABLE search_dish_stores ADD CONSTRAINT search_dish_stores_pkey PRIMARY KEY (store_key, dish_id);
        CREATE INDEX search_dish_stores_top ON search_dish_stores (dish_id, review_count DESC, store_key);
        ANALYZE search_review_grams;
        ANALYZE search_dish_stores;
    END IF;
    DROP TABLE search_rebuild_keys, search_rebuild_counts;
END $$;

-- The whole rebuild with the counting done in SQL.
CREATE FUNCTION search_rebuild(p_stores text[], p_bulk boolean DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    bulk        boolean := search_rebuild_begin(p_stores, p_bulk);
    batch_keys  integer[];
BEGIN
    FOR batch_keys IN SELECT search_rebuild_batches(1000) LOOP
        -- Each review's grams are computed once, for the grams and for the dishes.
        INSERT INTO search_rebuild_counts (store_key, kind, item, review_count)
        SELECT k.key, i.kind, i.item, count(*)::integer
        FROM search_rebuild_keys k
        JOIN comments c ON c.store_id = k.store_id AND c.kind = 'review' AND c.hidden_at IS NULL
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

-- Counts for one dish over every store, for a dish added to the vocabulary after reviews exist.
CREATE FUNCTION search_count_dish(p_dish integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    -- Review writers wait while the dish is counted, so none is missed between the count and the trigger.
    LOCK TABLE comments IN SHARE MODE;
    DELETE FROM search_dish_stores WHERE dish_id = p_dish;
    INSERT INTO search_dish_stores (dish_id, store_key, review_count)
    SELECT p_dish, search_store_key(c.store_id), count(*)::integer
    FROM comments c, search_dishes d
    WHERE d.id = p_dish AND char_length(d.lname) >= 3
      AND c.kind = 'review' AND c.hidden_at IS NULL AND strpos(lower(c.body), d.lname) > 0
    GROUP BY c.store_id;
END $$;

-- Reviews with a Latin letter (about one in fourteen in the generated data): counting a store's reviews that
-- contain an English text only needs to read these.
CREATE INDEX search_comments_latin ON comments (store_id)
    WHERE kind = 'review' AND hidden_at IS NULL AND lower(body) ~ '[a-z]';

-- How many live reviews of `p_store` contain `p_lq` (already lowercased): the exact check behind every count
-- that no summary holds.
CREATE FUNCTION search_count_reviews(p_store text, p_lq text) RETURNS integer
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
    IF p_lq ~ '[a-z]' THEN
        RETURN (SELECT count(*) FROM comments m
                WHERE m.store_id = p_store AND m.kind = 'review' AND m.hidden_at IS NULL
                  AND lower(m.body) ~ '[a-z]' AND strpos(lower(m.body), p_lq) > 0);
    END IF;
    RETURN (SELECT count(*) FROM comments m
            WHERE m.store_id = p_store AND m.kind = 'review' AND m.hidden_at IS NULL AND strpos(lower(m.body), p_lq) > 0);
END $$;

-- One page of GET /v1/search, in order: stores whose name matches (group 0), then those whose category matches
-- (group 1), then those matched only through reviews (group 2) by their review count; inside each group by
-- rating score descending, then id descending. `p_pinyin` is the query read as pinyin (NULL when it cannot be).
-- The cursor is the position of the last store of the previous page (`p_group`, `p_count`, `p_score`, `p_id`; all
-- NULL for the first page); `p_limit` stores are returned (the caller asks for one more than it shows).
--
-- Each row carries what the store matched: the group says name (0); `out_category`; `out_text_count` is how
-- many of its reviews contain the text; `out_dish_names`/`out_dish_counts` the vocabulary dishes the pinyin spells
-- that its reviews mention, most mentioned first.
--
-- Review counts come from three places, all exact: a text of 1 or 2 characters has its row in
-- search_review_grams; a vocabulary dish of 3 or more in search_dish_stores; any other text is counted in the
-- reviews of the stores whose summaries hold all of its character pairs (their smallest pair count bounds it).
--
-- Group 2 never counts every matching store (鱼 is in nine stores of ten): a pass reads only summary rows with a
-- count of at least a threshold `t`, which hold every store whose sort count (the largest of its counts) reaches
-- it; when a pass yields fewer stores than wanted, `t` is halved, and at 1 a pass reads everything, so the
-- answer is exact. The first `t` is the `p_limit`-th highest count of the longest-reaching list.
CREATE FUNCTION search_page(
    p_text text, p_pinyin text, p_group integer, p_count integer, p_score double precision, p_id text,
    p_limit integer
) RETURNS TABLE (
    out_id text, out_group integer, out_count integer, out_score text, out_category boolean, out_text_count integer,
    out_dish_names text[], out_dish_counts integer[]
)
-- Generic plans: the statements are shaped for every query already (the branches above pick the strategy), and
-- re-planning a dozen statements per call for custom plans cost more than running them (measured 2-4x).
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
    lq          text := lower(p_text);
    len         integer := char_length(lower(p_text));
    first_group integer := coalesce(p_group, 0);
    need        integer := p_limit;
    cats        text[];
    lit_gram    text;
    lit_dish    integer;
    verify      text;
    pairs       text[] := '{}';
    d_ids       integer[] := '{}';
    d_names     text[] := '{}';
    d_lnames    text[] := '{}';
    d_lens      integer[] := '{}';
    gram_terms  text[];
    dish_terms  integer[];
    lists       integer;
    broad       integer;
    cap         integer;
    t           integer;
    ids         text[] := '{}';
    groups      integer[] := '{}';
    counts      integer[] := '{}';
    scores      text[] := '{}';
    b_ids       text[];
    b_counts    integer[];
    b_scores    text[];
BEGIN
    cats := ARRAY(
        SELECT c.id FROM categories c
        WHERE strpos(lower(c.name), lq) > 0
           OR (p_pinyin IS NOT NULL AND EXISTS (
                SELECT 1 FROM search_pinyin_keys k
                WHERE k.source = c.name COLLATE "C" AND k.key >= p_pinyin AND k.key < (p_pinyin || '~'))));
    IF len <= 2 THEN
        lit_gram := lq;
    ELSE
        SELECT d.id INTO lit_dish FROM search_dishes d WHERE d.lname = lq;
        IF lit_dish IS NULL THEN
            verify := lq;
            pairs := ARRAY(SELECT DISTINCT g FROM unnest(search_grams(lq)) AS g WHERE char_length(g) = 2);
        END IF;
    END IF;
    IF p_pinyin IS NOT NULL THEN
        SELECT coalesce(array_agg(d.id ORDER BY d.id), '{}'), coalesce(array_agg(d.name ORDER BY d.id), '{}'),
               coalesce(array_agg(d.lname ORDER BY d.id), '{}'), coalesce(array_agg(char_length(d.lname) ORDER BY d.id), '{}')
        INTO d_ids, d_names, d_lnames, d_lens
        FROM search_pinyin p JOIN search_dishes d ON d.name COLLATE "C" = p.source
        WHERE p.ready AND (p.syllables = p_pinyin OR p.initials = p_pinyin);
    END IF;
    gram_terms := ARRAY(
        SELECT DISTINCT x FROM unnest(array_append(ARRAY(SELECT u.l FROM unnest(d_lnames, d_lens) AS u (l, n) WHERE u.n <= 2), lit_gram)) AS x
        WHERE x IS NOT NULL);
    dish_terms := ARRAY(
        SELECT DISTINCT x FROM unnest(array_append(ARRAY(SELECT u.i FROM unnest(d_ids, d_lens) AS u (i, n) WHERE u.n > 2), lit_dish)) AS x
        WHERE x IS NOT NULL);
    lists := cardinality(gram_terms) + cardinality(dish_terms) + CASE WHEN verify IS NULL THEN 0 ELSE 1 END;

    -- Group 0: names containing the text (candidates from the name's first gram) or matching the pinyin.
    -- Many candidates (火锅 is in one store name of ten): walk the stores from the best score down and stop
    -- at `need`. Few: read the candidates and sort them. Either way the same stores in the same order.
    IF first_group = 0 THEN
        SELECT count(*) INTO broad FROM (
            SELECT 1 FROM search_name_grams g WHERE g.gram = substr(lq, 1, 2)
            UNION ALL
            SELECT 1 FROM search_pinyin_keys k
            WHERE p_pinyin IS NOT NULL AND k.key >= p_pinyin AND k.key < (p_pinyin || '~')
            LIMIT 400) x;
        IF broad >= 400 THEN
            SELECT coalesce(array_agg(x.id ORDER BY x.score DESC, x.id DESC), '{}'),
                   coalesce(array_agg(x.score::text ORDER BY x.score DESC, x.id DESC), '{}')
            INTO b_ids, b_scores
            FROM (
                SELECT s.id, s.rating_score AS score FROM stores s
                WHERE s.archived_at IS NULL
                  AND (p_group IS NULL OR (s.rating_score, s.id) < (p_score, p_id))
                  AND (strpos(lower(s.name), lq) > 0
                       OR (p_pinyin IS NOT NULL AND EXISTS (
                            SELECT 1 FROM search_pinyin_keys k
                            WHERE k.source = s.name COLLATE "C" AND k.key >= p_pinyin AND k.key < (p_pinyin || '~'))))
                ORDER BY s.rating_score DESC, s.id DESC
                LIMIT need
            ) x;
        ELSE
            SELECT coalesce(array_agg(x.id ORDER BY x.score DESC, x.id DESC), '{}'),
                   coalesce(array_agg(x.score::text ORDER BY x.score DESC, x.id DESC), '{}')
            INTO b_ids, b_scores
            FROM (
                SELECT s.id, s.rating_score AS score
                FROM (
                    SELECT f.store_id, bool_or(f.sure) AS sure
                    FROM (
                        SELECT g.store_id, false AS sure FROM search_name_grams g WHERE g.gram = substr(lq, 1, 2)
                        UNION ALL
                        SELECT n.id, true FROM search_pinyin_keys k
                        JOIN stores n ON n.name COLLATE "C" = k.source AND n.archived_at IS NULL
                        WHERE p_pinyin IS NOT NULL AND k.key >= p_pinyin AND k.key < (p_pinyin || '~')
                    ) f
                    GROUP BY f.store_id
                ) c
                CROSS JOIN LATERAL (
                    SELECT s.id, s.rating_score, s.name FROM stores s
                    WHERE s.id = c.store_id AND s.archived_at IS NULL
                    OFFSET 0
                ) s
                WHERE (c.sure OR strpos(lower(s.name), lq) > 0)
                  AND (p_group IS NULL OR (s.rating_score, s.id) < (p_score, p_id))
                ORDER BY s.rating_score DESC, s.id DESC
                LIMIT need
            ) x;
        END IF;
        ids := ids || b_ids;
        groups := groups || array_fill(0, ARRAY[cardinality(b_ids)]);
        counts := counts || array_fill(0, ARRAY[cardinality(b_ids)]);
        scores := scores || b_scores;
        need := need - cardinality(b_ids);
    END IF;

    -- Group 1: stores of a matching category whose name does not match; walked from the best score down (a
    -- category is usually large), or read and sorted when the categories hold few stores.
    IF need > 0 AND first_group <= 1 AND cardinality(cats) > 0 THEN
        SELECT count(*) INTO broad FROM (
            SELECT 1 FROM stores s WHERE s.category_id = ANY (cats) AND s.archived_at IS NULL LIMIT 400) x;
        IF broad >= 400 THEN
            SELECT coalesce(array_agg(x.id ORDER BY x.score DESC, x.id DESC), '{}'),
                   coalesce(array_agg(x.score::text ORDER BY x.score DESC, x.id DESC), '{}')
            INTO b_ids, b_scores
            FROM (
                SELECT s.id, s.rating_score AS score FROM stores s
                WHERE s.archived_at IS NULL AND s.category_id = ANY (cats)
                  AND strpos(lower(s.name), lq) = 0
                  AND NOT (p_pinyin IS NOT NULL AND EXISTS (
                        SELECT 1 FROM search_pinyin_keys k
                        WHERE k.source = s.name COLLATE "C" AND k.key >= p_pinyin AND k.key < (p_pinyin || '~')))
                  AND (first_group = 0 OR (s.rating_score, s.id) < (p_score, p_id))
                ORDER BY s.rating_score DESC, s.id DESC
                LIMIT need
            ) x;
        ELSE
            SELECT coalesce(array_agg(x.id ORDER BY x.score DESC, x.id DESC), '{}'),
                   coalesce(array_agg(x.score::text ORDER BY x.score DESC, x.id DESC), '{}')
            INTO b_ids, b_scores
            FROM (
                SELECT s.id, s.rating_score AS score FROM unnest(cats) AS c (id)
                JOIN stores s ON s.category_id = c.id AND s.archived_at IS NULL
                WHERE strpos(lower(s.name), lq) = 0
                  AND NOT (p_pinyin IS NOT NULL AND EXISTS (
                        SELECT 1 FROM search_pinyin_keys k
                        WHERE k.source = s.name COLLATE "C" AND k.key >= p_pinyin AND k.key < (p_pinyin || '~')))
                  AND (first_group = 0 OR (s.rating_score, s.id) < (p_score, p_id))
                ORDER BY s.rating_score DESC, s.id DESC
                LIMIT need
            ) x;
        END IF;
        ids := ids || b_ids;
        groups := groups || array_fill(1, ARRAY[cardinality(b_ids)]);
        counts := counts || array_fill(0, ARRAY[cardinality(b_ids)]);
        scores := scores || b_scores;
        need := need - cardinality(b_ids);
    END IF;

    -- Group 2: the other stores whose reviews match, by the largest of their counts.
    IF need > 0 AND lists > 0 THEN
        -- With one count list a store's count is its row's, so rows above the cursor are skipped outright.
        cap := CASE WHEN lists = 1 AND verify IS NULL AND first_group = 2 THEN p_count END;
        SELECT greatest(
            (SELECT max(x.n) FROM unnest(gram_terms) AS g (gram) CROSS JOIN LATERAL (
                SELECT r.review_count AS n FROM search_review_grams r
                WHERE r.gram = g.gram AND r.review_count <= coalesce(cap, 2147483647)
                ORDER BY r.review_count DESC OFFSET need - 1 LIMIT 1) x),
            (SELECT max(x.n) FROM unnest(dish_terms) AS d (id) CROSS JOIN LATERAL (
                SELECT r.review_count AS n FROM search_dish_stores r
                WHERE r.dish_id = d.id AND r.review_count <= coalesce(cap, 2147483647)
                ORDER BY r.review_count DESC OFFSET need - 1 LIMIT 1) x),
            (SELECT CASE WHEN count(x.n) = cardinality(pairs) THEN min(x.n) END
             FROM unnest(pairs) AS g (gram) CROSS JOIN LATERAL (
                SELECT r.review_count AS n FROM search_review_grams r
                WHERE r.gram = g.gram ORDER BY r.review_count DESC OFFSET need - 1 LIMIT 1) x),
            1)
        INTO t;
        LOOP
            SELECT coalesce(array_agg(x.id ORDER BY x.n DESC, x.score DESC, x.id DESC), '{}'),
                   coalesce(array_agg(x.n ORDER BY x.n DESC, x.score DESC, x.id DESC), '{}'),
                   coalesce(array_agg(x.score::text ORDER BY x.n DESC, x.score DESC, x.id DESC), '{}')
            INTO b_ids, b_counts, b_scores
            FROM (
                SELECT s.id, b.n, s.rating_score AS score
                FROM (
                    SELECT h.store_key, max(h.n) AS n
                    FROM (
                        SELECT r.store_key, r.review_count AS n FROM search_review_grams r
                        WHERE r.gram = ANY (gram_terms) AND r.review_count >= t
                          AND r.review_count <= coalesce(cap, 2147483647)
                        UNION ALL
                        SELECT r.store_key, r.review_count FROM search_dish_stores r
                        WHERE r.dish_id = ANY (dish_terms) AND r.review_count >= t
                          AND r.review_count <= coalesce(cap, 2147483647)
                        UNION ALL
                        SELECT c.store_key, v.n
                        FROM (
                            SELECT r.store_key FROM search_review_grams r
                            WHERE verify IS NOT NULL AND r.gram = ANY (pairs) AND r.review_count >= t
                            GROUP BY r.store_key HAVING count(*) = cardinality(pairs)
                        ) c
                        -- (OFFSET 0 keeps these per-row index probes: a hash join would read every store.)
                        CROSS JOIN LATERAL (
                            SELECT vs.id FROM search_store_keys k
                            JOIN stores vs ON vs.id = k.store_id AND vs.archived_at IS NULL
                            WHERE k.key = c.store_key
                              AND NOT (vs.category_id = ANY (cats)) AND strpos(lower(vs.name), lq) = 0
                            OFFSET 0
                        ) vs
                        CROSS JOIN LATERAL (SELECT search_count_reviews(vs.id, verify) AS n) v
                        WHERE v.n >= t
                    ) h
                    GROUP BY h.store_key
                ) b
                CROSS JOIN LATERAL (
                    SELECT s.id, s.rating_score, s.category_id, s.name FROM search_store_keys k
                    JOIN stores s ON s.id = k.store_id AND s.archived_at IS NULL
                    WHERE k.key = b.store_key
                    OFFSET 0
                ) s
                WHERE NOT (s.category_id = ANY (cats)) AND strpos(lower(s.name), lq) = 0
                  AND NOT (p_pinyin IS NOT NULL AND EXISTS (
                        SELECT 1 FROM search_pinyin_keys pk
                        WHERE pk.source = s.name COLLATE "C" AND pk.key >= p_pinyin AND pk.key < (p_pinyin || '~')))
                  AND (first_group < 2 OR (b.n, s.rating_score, s.id) < (p_count, p_score, p_id))
                ORDER BY b.n DESC, s.rating_score DESC, s.id DESC
                LIMIT need
            ) x;
            EXIT WHEN cardinality(b_ids) >= need OR t <= 1;
            t := greatest(1, t / 2);
        END LOOP;
        ids := ids || b_ids;
        groups := groups || array_fill(2, ARRAY[cardinality(b_ids)]);
        counts := counts || b_counts;
        scores := scores || b_scores;
    END IF;

    -- What each store matched. In group 2 with one list the count is already known.
    RETURN QUERY
    SELECT w.id, w.grp, w.n, w.score, s.category_id = ANY (cats),
        CASE WHEN w.grp = 2 AND lists = 1 THEN w.n ELSE coalesce(
            CASE WHEN lit_gram IS NOT NULL THEN
                    (SELECT r.review_count FROM search_review_grams r WHERE r.store_key = k.key AND r.gram = lit_gram)
                 WHEN lit_dish IS NOT NULL THEN
                    (SELECT r.review_count FROM search_dish_stores r WHERE r.store_key = k.key AND r.dish_id = lit_dish)
                 -- Only a store whose summary holds every pair of the text can have a review containing it
                 -- (one point lookup per pair, stopping at the first missing).
                 WHEN NOT EXISTS (
                        SELECT 1 FROM unnest(pairs) AS p (gram)
                        WHERE NOT EXISTS (
                            SELECT 1 FROM search_review_grams r WHERE r.store_key = k.key AND r.gram = p.gram)) THEN
                    search_count_reviews(s.id, lq)
            END, 0) END,
        dm.names, dm.counts
    FROM unnest(ids, groups, counts, scores) WITH ORDINALITY AS w (id, grp, n, score, position)
    JOIN stores s ON s.id = w.id
    LEFT JOIN search_store_keys k ON k.store_id = w.id
    CROSS JOIN LATERAL (
        SELECT coalesce(array_agg(x.name ORDER BY x.n DESC, x.position), '{}') AS names,
               coalesce(array_agg(x.n ORDER BY x.n DESC, x.position), '{}') AS counts
        FROM (
            SELECT d.name, d.position, coalesce(CASE WHEN d.len <= 2
                THEN (SELECT r.review_count FROM search_review_grams r WHERE r.store_key = k.key AND r.gram = d.lname)
                ELSE (SELECT r.review_count FROM search_dish_stores r WHERE r.store_key = k.key AND r.dish_id = d.id)
            END, 0) AS n
            FROM unnest(d_ids, d_names, d_lnames, d_lens) WITH ORDINALITY AS d (id, name, lname, len, position)
        ) x
        WHERE x.n > 0
    ) dm
    ORDER BY w.position;
END $$;

-- Existing rows: keys, name grams and pinyin queue for stores and categories, then the review summaries.
INSERT INTO search_store_keys (store_id) SELECT id FROM stores ORDER BY created_at, id;
INSERT INTO search_name_grams (gram, store_id)
SELECT DISTINCT g, s.id FROM stores s CROSS JOIN LATERAL unnest(search_grams(s.name)) AS g;
INSERT INTO search_pinyin (source)
SELECT name FROM stores UNION SELECT name FROM categories ON CONFLICT DO NOTHING;

-- The dish vocabulary: DishCatalog.names (Sources/Chidian/Dishes/DishCatalog.swift) as of this migration;
-- `chidian dish add NAME` adds more.
INSERT INTO search_dishes (name) VALUES
    ('火锅'), ('重庆火锅'), ('鸳鸯锅'), ('九宫格火锅'), ('牛油火锅'), ('毛肚'), ('鸭肠'), ('鹅肠'), ('黄喉'), ('肥牛卷'), ('手切羊肉'), ('虾滑'),
    ('番茄锅底'), ('菌汤锅底'), ('铜锅涮肉'), ('涮羊肉'), ('潮汕牛肉火锅'), ('椰子鸡'), ('猪肚鸡'), ('串串香'), ('冒菜'), ('麻辣烫'), ('鱼火锅'),
    ('羊蝎子'), ('水煮鱼'), ('宫保鸡丁'), ('麻婆豆腐'), ('回锅肉'), ('鱼香肉丝'), ('鱼香茄子'), ('辣子鸡'), ('口水鸡'), ('夫妻肺片'), ('水煮牛肉'),
    ('酸菜鱼'), ('毛血旺'), ('干煸四季豆'), ('蒜泥白肉'), ('钵钵鸡'), ('红油抄手'), ('棒棒鸡'), ('东坡肘子'), ('樟茶鸭'), ('开水白菜'), ('泡椒凤爪'),
    ('冷吃兔'), ('蚂蚁上树'), ('甜皮鸭'), ('豆花饭'), ('白切鸡'), ('烧鹅'), ('叉烧'), ('烧乳鸽'), ('盐焗鸡'), ('豉油鸡'), ('虾饺'), ('烧卖'),
    ('肠粉'), ('豉汁凤爪'), ('豉汁排骨'), ('叉烧包'), ('流沙包'), ('糯米鸡'), ('萝卜糕'), ('马拉糕'), ('煲仔饭'), ('干炒牛河'), ('艇仔粥'),
    ('皮蛋瘦肉粥'), ('老火靓汤'), ('咕噜肉'), ('菠萝包'), ('咖喱牛腩'), ('猪脚姜'), ('剁椒鱼头'), ('小炒黄牛肉'), ('农家小炒肉'), ('辣椒炒肉'),
    ('毛氏红烧肉'), ('口味虾'), ('腊味合蒸'), ('永州血鸭'), ('酸豆角炒肉末'), ('擂辣椒皮蛋'), ('外婆菜'), ('东安子鸡'), ('手撕包菜'), ('香干炒肉'),
    ('干锅肥肠'), ('干锅花菜'), ('湘西腊肉'), ('火焙鱼'), ('啤酒鸭'), ('紫苏桃子姜'), ('锅包肉'), ('地三鲜'), ('小鸡炖蘑菇'), ('猪肉炖粉条'),
    ('酸菜汆白肉'), ('杀猪菜'), ('溜肉段'), ('拔丝地瓜'), ('东北大拉皮'), ('东北乱炖'), ('铁锅炖大鹅'), ('尖椒干豆腐'), ('熏肉大饼'), ('酸菜饺子'),
    ('哈尔滨红肠'), ('得莫利炖鱼'), ('雪衣豆沙'), ('酱骨架'), ('蘸酱菜'), ('羊肉泡馍'), ('葫芦头泡馍'), ('肉夹馍'), ('凉皮'), ('甑糕'), ('手抓羊肉'),
    ('大盘鸡'), ('烤包子'), ('手抓饭'), ('烤全羊'), ('黄焖羊肉'), ('清炖羊肉'), ('酿皮'), ('粉汤羊血'), ('馕'), ('馕包肉'), ('丁丁炒面'),
    ('新疆炒米粉'), ('羊杂汤'), ('东坡肉'), ('西湖醋鱼'), ('龙井虾仁'), ('叫花鸡'), ('松鼠鳜鱼'), ('响油鳝糊'), ('腌笃鲜'), ('油爆虾'), ('本帮红烧肉'),
    ('糖醋小排'), ('蟹粉豆腐'), ('狮子头'), ('盐水鸭'), ('鸭血粉丝汤'), ('小笼包'), ('生煎包'), ('蟹黄汤包'), ('醉鸡'), ('八宝鸭'), ('干炸响铃'),
    ('宋嫂鱼羹'), ('熏鱼'), ('桂花糖藕'), ('北京烤鸭'), ('京酱肉丝'), ('爆肚'), ('卤煮火烧'), ('炒肝'), ('豆汁'), ('焦圈'), ('驴打滚'),
    ('艾窝窝'), ('豌豆黄'), ('干炸丸子'), ('糖醋里脊'), ('九转大肠'), ('葱烧海参'), ('油焖大虾'), ('锅塌豆腐'), ('门钉肉饼'), ('褡裢火烧'), ('芥末墩'),
    ('麻豆腐'), ('过桥米线'), ('小锅米线'), ('汽锅鸡'), ('酸汤鱼'), ('野生菌火锅'), ('炒见手青'), ('鲜花饼'), ('香茅草烤鱼'), ('破酥包'), ('丝娃娃'),
    ('花溪牛肉粉'), ('遵义羊肉粉'), ('折耳根炒腊肉'), ('烧饵块'), ('菠萝饭'), ('牛干巴'), ('黑三剁'), ('乳扇'), ('恋爱豆腐果'), ('肠旺面'),
    ('煎饼果子'), ('臭豆腐'), ('黄焖鸡米饭'), ('锅贴'), ('蒸饺'), ('饺子'), ('馄饨'), ('手抓饼'), ('鸡蛋灌饼'), ('烤冷面'), ('螺蛳粉'),
    ('酸辣粉'), ('胡辣汤'), ('豆腐脑'), ('油条'), ('豆浆'), ('粢饭团'), ('糖油粑粑'), ('烧饼'), ('卤肉饭'), ('隆江猪脚饭'), ('烧腊饭'),
    ('扬州炒饭'), ('蛋炒饭'), ('麻辣香锅'), ('卤鸭脖'), ('炸串'), ('狼牙土豆'), ('春卷'), ('韭菜盒子'), ('驴肉火烧'), ('鸡公煲'), ('炸鸡'),
    ('烤串'), ('羊肉串'), ('烤羊排'), ('烤羊腿'), ('烤鸡翅'), ('烤鸡胗'), ('烤五花肉'), ('烤腰子'), ('烤板筋'), ('掌中宝'), ('烤生蚝'),
    ('烤鱿鱼'), ('烤茄子'), ('烤韭菜'), ('烤玉米'), ('烤馒头片'), ('烤面筋'), ('烤苕皮'), ('烤脑花'), ('烤猪蹄'), ('烤鱼'), ('万州烤鱼'),
    ('寿司'), ('三文鱼刺身'), ('刺身拼盘'), ('天妇罗'), ('鳗鱼饭'), ('寿喜烧'), ('照烧鸡腿饭'), ('乌冬面'), ('豚骨拉面'), ('味噌汤'), ('章鱼小丸子'),
    ('关东煮'), ('玉子烧'), ('日式炸猪排'), ('亲子丼'), ('牛丼'), ('手卷'), ('茶碗蒸'), ('海胆'), ('甜虾'), ('军舰卷'), ('烧鸟'), ('石锅拌饭'),
    ('韩式炸鸡'), ('部队锅'), ('韩式烤肉'), ('泡菜汤'), ('大酱汤'), ('朝鲜冷面'), ('辣炒年糕'), ('参鸡汤'), ('紫菜包饭'), ('海鲜饼'), ('猪肉汤饭'),
    ('泡菜炒饭'), ('冬阴功汤'), ('咖喱蟹'), ('菠萝炒饭'), ('越南河粉'), ('越南春卷'), ('海南鸡饭'), ('叻沙'), ('肉骨茶'), ('绿咖喱鸡'), ('芒果糯米饭'),
    ('青木瓜沙拉'), ('打抛猪肉饭'), ('沙爹串'), ('椰浆饭'), ('泰式柠檬鱼'), ('西冷牛排'), ('菲力牛排'), ('惠灵顿牛排'), ('肉酱意面'), ('奶油培根意面'),
    ('奶油蘑菇汤'), ('罗宋汤'), ('凯撒沙拉'), ('玛格丽特披萨'), ('牛肉汉堡'), ('炸鱼薯条'), ('烤春鸡'), ('焗蜗牛'), ('法式鹅肝'), ('总汇三明治'),
    ('西班牙海鲜饭'), ('芝士焗饭'), ('意式烩饭'), ('奶茶'), ('珍珠奶茶'), ('杨枝甘露'), ('双皮奶'), ('姜撞奶'), ('芋圆'), ('烧仙草'), ('冰粉'),
    ('龟苓膏'), ('芒果班戟'), ('榴莲千层'), ('提拉米苏'), ('巴斯克芝士蛋糕'), ('葡式蛋挞'), ('丝袜奶茶'), ('冻柠茶'), ('鸳鸯奶茶'), ('椰子冻'),
    ('绿豆沙'), ('酒酿圆子'), ('生椰拿铁'), ('手打柠檬茶'), ('水果捞'), ('甜豆花'), ('兰州拉面'), ('红烧牛肉面'), ('重庆小面'), ('担担面'), ('热干面'),
    ('炸酱面'), ('油泼面'), ('biangbiang面'), ('岐山臊子面'), ('刀削面'), ('新疆拌面'), ('葱油拌面'), ('片儿川'), ('云吞面'), ('阳春面'),
    ('豌杂面'), ('宜宾燃面'), ('桂林米粉'), ('常德米粉'), ('肥肠粉'), ('河南烩面'), ('虾爆鳝面'), ('蟹黄拌面'), ('清蒸石斑鱼'), ('清蒸鲈鱼'),
    ('白灼虾'), ('香辣蟹'), ('避风塘炒蟹'), ('大闸蟹'), ('蒜蓉粉丝扇贝'), ('椒盐皮皮虾'), ('麻辣小龙虾'), ('十三香小龙虾'), ('炒花甲'), ('砂锅海鲜粥'),
    ('红烧鲍鱼'), ('酱爆鱿鱼'), ('蒜蓉蛏子'), ('红烧带鱼'), ('海鲜大咖'), ('葱姜炒蟹'), ('dumplings'), ('fried rice'),
    ('spring rolls'), ('noodles'), ('wonton soup'), ('hot pot'), ('milk tea'), ('bubble tea'), ('egg tart'),
    ('cheesecake'), ('dim sum'), ('char siu'), ('Peking duck'), ('kung pao chicken'), ('mapo tofu'),
    ('skewers'), ('sushi'), ('ramen'), ('bibimbap'), ('Korean fried chicken'), ('pad thai'), ('tom yum'),
    ('steak'), ('pasta'), ('pizza'), ('burger'), ('crayfish');

SELECT search_rebuild(NULL);
