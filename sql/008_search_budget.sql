-- Search work is bounded (docs/SEARCH.md, "Work budget"): a text of 3 or more characters that is not a
-- vocabulary dish was counted in the reviews of every store whose summaries hold its pairs, which for a frequent
-- phrase (很好吃) or common characters in an order nothing has meant reading most reviews. Now such a text reads
-- at most a budget of rows per page, chosen by the server (SEARCH_ROW_BUDGET), and a page that needed more says
-- it is approximate.

-- What counting a text in a store's reviews reads: its live reviews. (rating_count is the same number today;
-- it stops being so once a store's rating counts each author once.)
ALTER TABLE stores ADD COLUMN review_count integer NOT NULL DEFAULT 0 CHECK (review_count >= 0);
UPDATE stores st SET review_count = x.n
FROM (SELECT store_id, count(*)::int AS n FROM comments WHERE kind = 'review' AND hidden_at IS NULL GROUP BY store_id) x
WHERE st.id = x.store_id;

CREATE OR REPLACE FUNCTION comments_rating_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('chidian.bulk_import', true) = 'on' THEN
        RETURN NULL;  -- the import recounts the totals of every store it touched
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.kind = 'review' AND OLD.hidden_at IS NULL THEN
        UPDATE stores SET rating_count = rating_count - 1, rating_sum = rating_sum - OLD.rating,
                          review_count = review_count - 1
        WHERE id = OLD.store_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.kind = 'review' AND NEW.hidden_at IS NULL THEN
        UPDATE stores SET rating_count = rating_count + 1, rating_sum = rating_sum + NEW.rating,
                          review_count = review_count + 1
        WHERE id = NEW.store_id;
    END IF;
    RETURN NULL;
END $$;

-- Counting a text without cased letters (Chinese) compares the bodies as written: lower() of every body was a
-- third of the time, and cannot change whether such a text occurs.
CREATE OR REPLACE FUNCTION search_count_reviews(p_store text, p_lq text) RETURNS integer
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
    IF p_lq ~ '[a-z]' THEN
        RETURN (SELECT count(*) FROM comments m
                WHERE m.store_id = p_store AND m.kind = 'review' AND m.hidden_at IS NULL
                  AND lower(m.body) ~ '[a-z]' AND strpos(lower(m.body), p_lq) > 0);
    ELSIF p_lq = upper(p_lq) THEN
        RETURN (SELECT count(*) FROM comments m
                WHERE m.store_id = p_store AND m.kind = 'review' AND m.hidden_at IS NULL AND strpos(m.body, p_lq) > 0);
    END IF;
    RETURN (SELECT count(*) FROM comments m
            WHERE m.store_id = p_store AND m.kind = 'review' AND m.hidden_at IS NULL AND strpos(lower(m.body), p_lq) > 0);
END $$;

-- How many of the live reviews of `p_store` (it has `p_reviews`) contain `p_lq`: exactly when that is at most
-- `p_cap`, else among its newest `p_cap` (a lower bound).
CREATE FUNCTION search_count_some(p_store text, p_lq text, p_reviews integer, p_cap integer) RETURNS integer
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
    IF p_reviews <= p_cap THEN
        RETURN search_count_reviews(p_store, p_lq);
    END IF;
    RETURN (SELECT count(*) FROM (
                SELECT m.body FROM comments m
                WHERE m.store_id = p_store AND m.kind = 'review' AND m.hidden_at IS NULL
                ORDER BY m.created_at DESC, m.id DESC LIMIT greatest(p_cap, 0)) x
            WHERE strpos(CASE WHEN p_lq = upper(p_lq) THEN x.body ELSE lower(x.body) END, p_lq) > 0);
END $$;

-- The top `p_need` stores for a text of 3 or more characters that no summary counts (`p_lq`, lowercased;
-- `p_pairs` its distinct character pairs), in search order (count, score, id, all descending), after the cursor
-- when `p_group` is 2; only stores that groups 0 and 1 do not show (live, category not in `p_cats`, name not
-- matching). Summary rows and reviews read each count one row.
--
-- Every pair of the text is in each review that contains it, so the count of any one pair bounds the text's
-- count. The walk follows the pair with the smallest largest count from its highest count down, checks a store's
-- other pairs (rarest first; a missing one rules the store out, and the smallest count bounds it better), and
-- counts the reviews of the stores whose bound can still reach the top. It stops, exact, when the walk's count
-- falls below the `p_need`-th count found: no store not yet read can place.
--
-- When counting the next store would pass `p_budget` rows, the answer is `approximate` and the walk goes on for
-- at most a quarter of the budget more, counting each further store among its newest reviews only (its share of
-- what is left per place still open): those counts are lower bounds, so the page fills with the stores most
-- likely to belong on it, each with a count it certainly has.
CREATE FUNCTION search_text_top(
    p_lq text, p_pairs text[], p_cats text[], p_pinyin text, p_group integer, p_count integer,
    p_score double precision, p_id text, p_need integer, p_budget integer,
    OUT keys integer[], OUT ids text[], OUT counts integer[], OUT rows_read integer, OUT approximate boolean
)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
    ordered  text[];
    missing  boolean;
    walk     record;
    bound    integer;
    kth      integer := 0;
    c        integer;
    store    record;
    n        integer;
    cap      integer;
    ceiling  integer := p_budget;
    scores   double precision[] := '{}';
BEGIN
    keys := '{}'; ids := '{}'; counts := '{}'; approximate := false;
    SELECT array_agg(x.gram ORDER BY x.top, x.gram), bool_or(x.top IS NULL) INTO ordered, missing
    FROM unnest(p_pairs) AS p (gram) CROSS JOIN LATERAL (
        SELECT p.gram, (SELECT max(r.review_count) FROM search_review_grams r WHERE r.gram = p.gram) AS top) x;
    rows_read := cardinality(p_pairs);
    -- A pair no review has: nothing matches.
    IF missing OR ordered IS NULL THEN RETURN; END IF;

    FOR walk IN
        SELECT r.store_key, r.review_count FROM search_review_grams r
        WHERE r.gram = ordered[1] ORDER BY r.review_count DESC, r.store_key
    LOOP
        EXIT WHEN walk.review_count < greatest(kth, 1);
        IF rows_read >= ceiling THEN
            EXIT WHEN approximate;
            approximate := true;
            ceiling := p_budget + p_budget / 4;
        END IF;
        rows_read := rows_read + 1;
        bound := walk.review_count;
        FOR i IN 2 .. cardinality(ordered) LOOP
            SELECT r.review_count INTO c FROM search_review_grams r WHERE r.store_key = walk.store_key AND r.gram = ordered[i];
            rows_read := rows_read + 1;
            bound := least(bound, coalesce(c, 0));
            EXIT WHEN bound < greatest(kth, 1);
        END LOOP;
        CONTINUE WHEN bound < greatest(kth, 1);
        SELECT s.id, s.rating_score, s.review_count INTO store
        FROM search_store_keys k JOIN stores s ON s.id = k.store_id
        WHERE k.key = walk.store_key AND s.archived_at IS NULL
          AND NOT (s.category_id = ANY (p_cats)) AND strpos(lower(s.name), p_lq) = 0
          AND NOT (p_pinyin IS NOT NULL AND EXISTS (
                SELECT 1 FROM search_pinyin_keys pk
                WHERE pk.source = s.name COLLATE "C" AND pk.key >= p_pinyin AND pk.key < (p_pinyin || '~')));
        rows_read := rows_read + 1;
        CONTINUE WHEN store.id IS NULL;
        -- Counting reads the store's live reviews (review_count), or its share of what is left.
        IF NOT approximate AND rows_read + store.review_count > p_budget THEN
            approximate := true;
            ceiling := p_budget + p_budget / 4;
        END IF;
        cap := CASE WHEN approximate
            THEN greatest(1, (ceiling - rows_read) / greatest(1, p_need - cardinality(ids)))
            ELSE store.review_count END;
        n := search_count_some(store.id, p_lq, store.review_count, cap);
        rows_read := rows_read + least(store.review_count, cap);
        CONTINUE WHEN n < 1 OR (p_group = 2 AND (n, store.rating_score, store.id) >= (p_count, p_score, p_id));
        SELECT array_agg(x.k ORDER BY x.n DESC, x.s DESC, x.i DESC), array_agg(x.i ORDER BY x.n DESC, x.s DESC, x.i DESC),
               array_agg(x.n ORDER BY x.n DESC, x.s DESC, x.i DESC), array_agg(x.s ORDER BY x.n DESC, x.s DESC, x.i DESC)
        INTO keys, ids, counts, scores
        FROM (
            SELECT * FROM unnest(keys || walk.store_key, ids || store.id::text, counts || n, scores || store.rating_score)
                AS u (k, i, n, s)
            ORDER BY u.n DESC, u.s DESC, u.i DESC LIMIT p_need
        ) x;
        IF cardinality(ids) >= p_need THEN kth := counts[p_need]; END IF;
    END LOOP;
END $$;

DROP FUNCTION search_page(text, text, integer, integer, double precision, text, integer);

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
-- Review counts come from three places: a text of 1 or 2 characters has its row in search_review_grams; a
-- vocabulary dish of 3 or more in search_dish_stores (both exact, read from an index); any other text is counted
-- in the reviews of the stores whose summaries hold all of its pairs, by search_text_top and within `p_budget`
-- rows read. When the budget runs out first, the page is approximate: its counts are exact for the stores
-- shown, but a store not yet counted could have belonged on it. The page's last row is its status: `out_id` NULL,
-- `out_approximate`, and `out_count` the rows read.
--
-- Group 2 never counts every matching store (鱼 is in nine stores of ten): a pass reads only summary rows with a
-- count of at least a threshold `t`, which hold every store whose sort count (the largest of its counts) reaches
-- it; when a pass yields fewer stores than wanted, `t` is halved, and at 1 a pass reads everything, so the
-- answer is exact. The first `t` is the `p_limit`-th highest count of the longest-reaching list.
CREATE FUNCTION search_page(
    p_text text, p_pinyin text, p_group integer, p_count integer, p_score double precision, p_id text,
    p_limit integer, p_budget integer
) RETURNS TABLE (
    out_id text, out_group integer, out_count integer, out_score text, out_category boolean, out_text_count integer,
    out_dish_names text[], out_dish_counts integer[], out_approximate boolean
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
    v_keys      integer[] := '{}';
    v_ids       text[] := '{}';
    v_counts    integer[] := '{}';
    v_texts     integer[] := '{}';
    spent       integer := 0;
    approximate boolean := false;
    n           integer;
    pos         integer;
    cost        integer;
    share       integer;
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

    -- Group 2: the other stores whose reviews match, by the largest of their counts. A text counted in reviews
    -- contributes its exact top `need` (search_text_top), which is all the passes below can take from it.
    IF need > 0 AND verify IS NOT NULL THEN
        SELECT x.keys, x.ids, x.counts, x.rows_read, x.approximate INTO v_keys, v_ids, v_counts, spent, approximate
        FROM search_text_top(verify, pairs, cats, p_pinyin, first_group, p_count, p_score, p_id, need, p_budget) x;
    END IF;
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
            v_counts[need],
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
                        SELECT v.key, v.n FROM unnest(v_keys, v_counts) AS v (key, n) WHERE v.n >= t
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

    -- The text's count for the page's other stores (names, categories, pinyin dishes): exact while the budget
    -- lasts, then among each store's newest reviews (a lower bound, and the page is approximate). Only a store whose summary holds every pair of
    -- the text can have a review containing it (one point lookup per pair, stopping at the first missing).
    IF verify IS NOT NULL THEN
        FOR i IN 1 .. cardinality(ids) LOOP
            pos := array_position(v_ids, ids[i]);
            n := v_counts[pos];
            IF pos IS NULL THEN
                SELECT s.review_count INTO cost FROM stores s JOIN search_store_keys k ON k.store_id = s.id
                WHERE s.id = ids[i] AND NOT EXISTS (
                    SELECT 1 FROM unnest(pairs) AS p (gram)
                    WHERE NOT EXISTS (
                        SELECT 1 FROM search_review_grams r WHERE r.store_key = k.key AND r.gram = p.gram));
                spent := spent + cardinality(pairs);
                IF cost IS NOT NULL THEN
                    -- Exact while the budget lasts, then a share of the quarter more, as in search_text_top.
                    IF spent + cost > p_budget THEN approximate := true; END IF;
                    share := CASE WHEN approximate
                        THEN greatest(0, (p_budget + p_budget / 4 - spent) / (cardinality(ids) - i + 1))
                        ELSE cost END;
                    n := search_count_some(ids[i], lq, cost, share);
                    spent := spent + least(cost, share);
                END IF;
            END IF;
            v_texts := v_texts || coalesce(n, 0);
        END LOOP;
    END IF;

    -- What each store matched. In group 2 with one list the count is already known.
    RETURN QUERY
    SELECT w.id, w.grp, w.n, w.score, s.category_id = ANY (cats),
        CASE WHEN w.grp = 2 AND lists = 1 THEN w.n ELSE coalesce(
            CASE WHEN lit_gram IS NOT NULL THEN
                    (SELECT r.review_count FROM search_review_grams r WHERE r.store_key = k.key AND r.gram = lit_gram)
                 WHEN lit_dish IS NOT NULL THEN
                    (SELECT r.review_count FROM search_dish_stores r WHERE r.store_key = k.key AND r.dish_id = lit_dish)
                 ELSE w.text_count
            END, 0) END,
        dm.names, dm.counts, approximate
    FROM unnest(ids, groups, counts, scores, v_texts) WITH ORDINALITY AS w (id, grp, n, score, text_count, position)
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
    RETURN QUERY SELECT NULL::text, NULL::integer, spent, NULL::text, NULL::boolean, NULL::integer, NULL::text[],
        NULL::integer[], approximate;
END $$;
