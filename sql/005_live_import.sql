-- A seed import into a database that servers are using: readers never wait for it (docs/SEARCH.md, "Imports into
-- a live database").
--
-- 1. The comments' row triggers are skipped only by the import's own transaction, which sets
--    chidian.bulk_import = 'on' with SET LOCAL and then does their work in bulk (category copies in the merge, one
--    recount of the touched stores' totals, one rebuild of their search summaries). Before, the import disabled
--    the triggers with ALTER TABLE, whose lock stopped every other writer of comments until it committed.
-- 2. The import locks the rows of the stores it touches (FOR UPDATE) before it merges their comments, so every
--    write that changes a touched store's totals or summaries waits for it: inserts through their foreign-key
--    check, rating, hide and delete changes through the rating trigger's store update, and body-only edits through
--    the KEY SHARE lock the search trigger below now takes. Writes to other stores go on.
-- 3. A bulk rebuild of the search summaries writes fresh tables and swaps them in at the end instead of dropping
--    the live tables' indexes (whose lock stopped every search until the import committed).

CREATE OR REPLACE FUNCTION comments_fill_store_copy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('chidian.bulk_import', true) = 'on' THEN
        RETURN NEW;  -- the import's merge fills both copies itself
    END IF;
    SELECT s.category_id, s.archived_at IS NOT NULL INTO NEW.category_id, NEW.store_archived
    FROM stores s WHERE s.id = NEW.store_id;
    RETURN NEW;
END $$;

CREATE OR REPLACE FUNCTION comments_rating_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('chidian.bulk_import', true) = 'on' THEN
        RETURN NULL;  -- the import recounts the totals of every store it touched
    END IF;
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

CREATE OR REPLACE FUNCTION search_comment_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    was_live boolean := TG_OP <> 'INSERT' AND OLD.kind = 'review' AND OLD.hidden_at IS NULL;
    is_live  boolean := TG_OP <> 'DELETE' AND NEW.kind = 'review' AND NEW.hidden_at IS NULL;
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
        END IF;
    ELSE
        IF was_live THEN PERFORM search_apply_review(OLD.store_id, OLD.body, NULL); END IF;
        IF is_live THEN PERFORM search_apply_review(NEW.store_id, NULL, NEW.body); END IF;
    END IF;
    RETURN NULL;
END $$;

-- The bulk rebuild. begin creates the empty search_review_grams_next and search_dish_stores_next, which no other
-- session can see until commit; the counts go there (COPY from SearchBulkIndexer, or search_rebuild_apply);
-- search_rebuild_index builds their keys and indexes; search_rebuild_end copies in the rows of the stores not
-- rebuilt and swaps the tables. Readers of the summaries wait only for the swap (a few catalog rows, then the
-- commit, which must follow at once); writers of the summaries (reviews of stores not being rebuilt) also wait
-- while those rows are copied.
CREATE OR REPLACE FUNCTION search_rebuild_begin(p_stores text[], p_bulk boolean) RETURNS boolean
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
        -- One bulk rebuild at a time (the seed import already holds this lock): the fresh tables have fixed names.
        PERFORM pg_advisory_xact_lock(7041978);
        CREATE TABLE search_review_grams_next (
            store_key     integer NOT NULL,
            review_count  integer NOT NULL CHECK (review_count > 0),
            gram          text COLLATE "C" NOT NULL
        ) WITH (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.05);
        CREATE TABLE search_dish_stores_next (
            dish_id       integer NOT NULL,
            store_key     integer NOT NULL,
            review_count  integer NOT NULL CHECK (review_count > 0)
        ) WITH (autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.05);
    END IF;
    RETURN bulk;
END $$;

CREATE OR REPLACE FUNCTION search_rebuild_apply(p_keys integer[], p_bulk boolean) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF p_bulk THEN
        INSERT INTO search_review_grams_next (store_key, review_count, gram)
        SELECT store_key, review_count, item FROM search_rebuild_counts WHERE kind = 0 ORDER BY store_key, item;
        INSERT INTO search_dish_stores_next (dish_id, store_key, review_count)
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

-- Keys and indexes of the fresh tables, built in one sort each while nobody waits for them.
CREATE FUNCTION search_rebuild_index(p_bulk boolean) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF p_bulk THEN
        ALTER TABLE search_review_grams_next
            ADD CONSTRAINT search_review_grams_next_pkey PRIMARY KEY (store_key, gram);
        CREATE INDEX search_review_grams_next_top ON search_review_grams_next (gram, review_count DESC, store_key);
        ALTER TABLE search_dish_stores_next
            ADD CONSTRAINT search_dish_stores_next_pkey PRIMARY KEY (store_key, dish_id),
            ADD CONSTRAINT search_dish_stores_dish_id_fkey FOREIGN KEY (dish_id)
                REFERENCES search_dishes (id) ON DELETE CASCADE;
        CREATE INDEX search_dish_stores_next_top ON search_dish_stores_next (dish_id, review_count DESC, store_key);
    END IF;
END $$;

CREATE OR REPLACE FUNCTION search_rebuild_end(p_bulk boolean) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    IF p_bulk THEN
        -- Idempotent: search_rebuild (SQL) does not call it separately.
        IF to_regclass('search_review_grams_next_pkey') IS NULL THEN
            PERFORM search_rebuild_index(true);
        END IF;
        -- Review writers of the stores not rebuilt wait from here until the commit; readers go on.
        LOCK TABLE search_review_grams, search_dish_stores IN SHARE MODE;
        INSERT INTO search_review_grams_next (store_key, review_count, gram)
        SELECT r.store_key, r.review_count, r.gram FROM search_review_grams r
        WHERE NOT EXISTS (SELECT 1 FROM search_rebuild_keys k WHERE k.key = r.store_key)
        ORDER BY r.store_key, r.gram;
        INSERT INTO search_dish_stores_next (dish_id, store_key, review_count)
        SELECT r.dish_id, r.store_key, r.review_count FROM search_dish_stores r
        WHERE NOT EXISTS (SELECT 1 FROM search_rebuild_keys k WHERE k.key = r.store_key);
        ANALYZE search_review_grams_next;
        ANALYZE search_dish_stores_next;
        -- The swap. Plans other sessions hold for the old tables are invalidated by the drop and re-planned by name.
        DROP TABLE search_review_grams, search_dish_stores;
        ALTER TABLE search_review_grams_next RENAME TO search_review_grams;
        ALTER INDEX search_review_grams_next_pkey RENAME TO search_review_grams_pkey;
        ALTER INDEX search_review_grams_next_top RENAME TO search_review_grams_top;
        ALTER TABLE search_dish_stores_next RENAME TO search_dish_stores;
        ALTER INDEX search_dish_stores_next_pkey RENAME TO search_dish_stores_pkey;
        ALTER INDEX search_dish_stores_next_top RENAME TO search_dish_stores_top;
    END IF;
    DROP TABLE search_rebuild_keys, search_rebuild_counts;
END $$;
