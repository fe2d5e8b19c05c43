-- Signature dishes (推荐菜): a store's top 5 vocabulary dishes by how many of its live reviews mention them, most
-- first, then name in code-point order. Kept on the store row as reviews change, so reading a store costs nothing
-- more. The counts come from what search keeps: search_dish_stores for dishes of 3 or more characters, and
-- search_review_grams for shorter ones (毛肚, 虾饺: a review mentions a 2-character dish exactly when it holds that pair).
ALTER TABLE stores
    ADD COLUMN dish_names text[] NOT NULL DEFAULT '{}',
    ADD COLUMN dish_counts integer[] NOT NULL DEFAULT '{}';

CREATE FUNCTION store_dishes_recount(p_store text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE stores s SET dish_names = x.names, dish_counts = x.counts
    FROM (
        SELECT coalesce(array_agg(t.name ORDER BY t.n DESC, t.name COLLATE "C"), '{}') AS names,
               coalesce(array_agg(t.n ORDER BY t.n DESC, t.name COLLATE "C"), '{}') AS counts
        FROM (
            SELECT u.name, u.n FROM (
                SELECT d.name, r.review_count AS n
                FROM search_store_keys k JOIN search_dish_stores r ON r.store_key = k.key
                JOIN search_dishes d ON d.id = r.dish_id
                WHERE k.store_id = p_store
                UNION ALL
                SELECT d.name, g.review_count
                FROM search_store_keys k JOIN search_dishes d ON char_length(d.lname) <= 2
                JOIN search_review_grams g ON g.store_key = k.key AND g.gram = d.lname
                WHERE k.store_id = p_store
            ) u
            ORDER BY u.n DESC, u.name COLLATE "C" LIMIT 5
        ) t
    ) x
    WHERE s.id = p_store AND (s.dish_names, s.dish_counts) IS DISTINCT FROM (x.names, x.counts);
END $$;

-- After the search trigger (triggers of one event fire in name order: search_… before store_…) has moved the
-- review's contribution; an import recounts the stores it touched once at its end.
CREATE FUNCTION store_dishes_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('chidian.bulk_import', true) = 'on' THEN
        RETURN NULL;
    END IF;
    IF TG_OP <> 'INSERT' THEN
        PERFORM store_dishes_recount(OLD.store_id);
    END IF;
    IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.store_id <> OLD.store_id) THEN
        PERFORM store_dishes_recount(NEW.store_id);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER store_dishes_inserted AFTER INSERT ON comments
    FOR EACH ROW WHEN (NEW.kind = 'review') EXECUTE FUNCTION store_dishes_changed();
CREATE TRIGGER store_dishes_deleted AFTER DELETE ON comments
    FOR EACH ROW WHEN (OLD.kind = 'review') EXECUTE FUNCTION store_dishes_changed();
CREATE TRIGGER store_dishes_changed_update AFTER UPDATE OF body, kind, hidden_at, store_id ON comments
    FOR EACH ROW
    WHEN (OLD.body IS DISTINCT FROM NEW.body OR OLD.kind IS DISTINCT FROM NEW.kind
          OR (OLD.hidden_at IS NULL) IS DISTINCT FROM (NEW.hidden_at IS NULL) OR OLD.store_id IS DISTINCT FROM NEW.store_id)
    EXECUTE FUNCTION store_dishes_changed();

-- A dish added to the vocabulary (`chidian dish add`, or the catalogue at migrate) can enter any store's top 5.
CREATE OR REPLACE FUNCTION search_count_dish(p_dish integer) RETURNS void
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
    PERFORM store_dishes_recount(k.store_id)
    FROM search_dishes d JOIN search_review_grams g ON g.gram = d.lname AND char_length(d.lname) <= 2
    JOIN search_store_keys k ON k.key = g.store_key
    WHERE d.id = p_dish;
    PERFORM store_dishes_recount(k.store_id)
    FROM search_dish_stores r JOIN search_store_keys k ON k.key = r.store_key
    WHERE r.dish_id = p_dish;
END $$;

SELECT store_dishes_recount(id) FROM stores;
