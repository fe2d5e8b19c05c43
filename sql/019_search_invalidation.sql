-- Search entries invalidated by what a write changed, not all at once (issue #31). Until now every review posted
-- said `search`, which dropped every cached search page: under a realistic mix nearly every search missed and
-- queued for the search gate. Two events now say exactly what changed, and each server's listener drops only the
-- entries they can reach (Sources/Chidian/Search/SearchInvalidation.swift holds the rules and why they are exact):
--
--   search:{"r":<store>,"b":<lower(body)>}
--       a live review's text entered or left a store's counts (posted, deleted, edited, hidden, shown again):
--       the counts of exactly the texts the body contains changed, at that store.
--   search:{"s":<store>,"o":<old score>,"n":<new score>,"rc":<reviews>,"name":<name>,"cat":<category name>}
--       a store's rating score moved: it moves inside the groups it is in, for the texts it matches.
--
-- Anything else that changes search (a name, a category, archival, the dish vocabulary, an import) still says
-- `search` or `*`. A payload over 7,900 bytes (PostgreSQL refuses 8,000) says `search` instead.

CREATE FUNCTION search_cache_notify(event jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    payload text := 'search:' || event::text;
BEGIN
    IF octet_length(payload) > 7900 THEN
        payload := 'search';
    END IF;
    PERFORM cache_notify(payload);
END
$$;

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

CREATE FUNCTION search_review_notify(p_store text, p_body text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF NOT cache_bulk() THEN
        PERFORM search_cache_notify(jsonb_build_object('r', p_store, 'b', lower(p_body)));
    END IF;
END
$$;

-- As in migration 016, but search hears a review's text from the event above, not `search`.
CREATE OR REPLACE FUNCTION comments_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
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
    RETURN NULL;
END
$$;

-- As in migration 016, but a move of the rating score alone is the `s` event above.
CREATE OR REPLACE FUNCTION stores_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    id text := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
    listed boolean;  -- name, category or liveness changed: search, categories and comment pages show them
BEGIN
    IF cache_bulk() THEN
        PERFORM cache_notify('*');
        RETURN NULL;
    END IF;
    PERFORM cache_notify('s:' || id);
    listed := TG_OP <> 'UPDATE' OR NEW.name IS DISTINCT FROM OLD.name OR NEW.category_id IS DISTINCT FROM OLD.category_id
        OR (NEW.archived_at IS NULL) IS DISTINCT FROM (OLD.archived_at IS NULL);
    IF listed THEN
        PERFORM cache_notify('c:' || id);
        PERFORM cache_notify('categories');
        PERFORM cache_notify('search');
    ELSIF NEW.archived_at IS NULL AND (NEW.rating_score IS DISTINCT FROM OLD.rating_score
        OR NEW.review_count IS DISTINCT FROM OLD.review_count) THEN
        PERFORM search_cache_notify(jsonb_build_object(
            's', NEW.id, 'o', OLD.rating_score::text, 'n', NEW.rating_score::text,
            'rc', greatest(OLD.review_count, NEW.review_count), 'name', lower(NEW.name),
            'cat', (SELECT lower(c.name) FROM categories c WHERE c.id = NEW.category_id)));
    END IF;
    IF (TG_OP = 'UPDATE' AND (NEW.ad_spend IS DISTINCT FROM OLD.ad_spend OR (listed AND NEW.ad_spend > 0)))
        OR (TG_OP = 'INSERT' AND NEW.ad_spend > 0) OR (TG_OP = 'DELETE' AND OLD.ad_spend > 0) THEN
        PERFORM cache_notify('daily');
    END IF;
    RETURN NULL;
END
$$;

-- The per-review upkeep of search_dish_stores runs inside the comments trigger, whose `r` event covers it; only a
-- direct change (a vocabulary dish added or removed, a rebuild) drops every search entry.
CREATE OR REPLACE FUNCTION search_vocabulary_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'search_dish_stores' AND pg_trigger_depth() > 1 THEN
        RETURN NULL;
    END IF;
    PERFORM cache_notify('search');
    RETURN NULL;
END
$$;
