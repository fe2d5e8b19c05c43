-- The servers' read caches (issue #22) hold store views, comment pages, daily promotions, categories, search
-- pages and sessions. Every write that changes what an entry shows says so here, with NOTIFY on the channel
-- chidian_cache inside the writing transaction: PostgreSQL delivers it to every listening server at commit and
-- never for a rolled-back write, whichever path wrote (the API, the web client, the CLI, psql).
--
-- Payloads are tags; an entry carries the tags of what it shows:
--   s:<store>   a store's view (and every page that shows it: daily promotions, search)
--   c:<store>   a store's comment pages
--   a:<user>    comment pages showing that author's name or avatar
--   u:<user>    that user's cached sessions (name, role, deletion)
--   x:<hex>     one session, by token hash (revocation)
--   search      the order or membership of search results
--   daily       the order or membership of the daily promotions
--   categories  the category list and its store counts
--   *           everything (a bulk import, a category change)
--
-- A store's `version` is also its ETag ("<version>", the contract's), so it now changes with everything its view
-- shows: totals, dishes, favorites, ad spend, its manager's name, its category's name; a client's copy is current
-- exactly when its version is. Optimistic concurrency guards edits against edits, not against reviews: a store
-- remembers the version its last edit made (`edited_version`), and an If-Match from any version since then is
-- accepted, so a manager's form is not refused because somebody reviewed the store meanwhile.

CREATE FUNCTION cache_notify(tag text) RETURNS void LANGUAGE sql AS $$
    SELECT pg_notify('chidian_cache', tag)
$$;

-- A seed import (`chidian.import`, its whole transaction) says '*' once and keeps the versions it writes.
CREATE FUNCTION cache_bulk() RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT current_setting('chidian.bulk_import', true) IS NOT DISTINCT FROM 'on'
        OR current_setting('chidian.import', true) IS NOT DISTINCT FROM 'on'
$$;

ALTER TABLE stores ADD COLUMN edited_version integer;
UPDATE stores SET edited_version = version;
ALTER TABLE stores ALTER COLUMN edited_version SET NOT NULL;

CREATE FUNCTION stores_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        NEW.edited_version := NEW.version;
        RETURN NEW;
    END IF;
    IF NEW.version = OLD.version AND NOT cache_bulk() AND (
        NEW.name, NEW.category_id, NEW.manager_id, NEW.description, NEW.address, NEW.rating_count, NEW.rating_sum,
        NEW.taste_count, NEW.taste_sum, NEW.environment_count, NEW.environment_sum, NEW.service_count,
        NEW.service_sum, NEW.price_count, NEW.price_sum, NEW.dish_names, NEW.dish_counts, NEW.favorite_count,
        NEW.ad_spend, NEW.archived_at
    ) IS DISTINCT FROM (
        OLD.name, OLD.category_id, OLD.manager_id, OLD.description, OLD.address, OLD.rating_count, OLD.rating_sum,
        OLD.taste_count, OLD.taste_sum, OLD.environment_count, OLD.environment_sum, OLD.service_count,
        OLD.service_sum, OLD.price_count, OLD.price_sum, OLD.dish_names, OLD.dish_counts, OLD.favorite_count,
        OLD.ad_spend, OLD.archived_at
    ) THEN
        NEW.version := OLD.version + 1;
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER stores_bump_version BEFORE INSERT OR UPDATE ON stores
    FOR EACH ROW EXECUTE FUNCTION stores_bump_version();

CREATE FUNCTION stores_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
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
    END IF;
    -- Search orders by rating score and review counts inside its groups.
    IF listed OR NEW.rating_count IS DISTINCT FROM OLD.rating_count OR NEW.rating_sum IS DISTINCT FROM OLD.rating_sum
        OR NEW.review_count IS DISTINCT FROM OLD.review_count THEN
        PERFORM cache_notify('search');
    END IF;
    IF (TG_OP = 'UPDATE' AND (NEW.ad_spend IS DISTINCT FROM OLD.ad_spend OR (listed AND NEW.ad_spend > 0)))
        OR (TG_OP = 'INSERT' AND NEW.ad_spend > 0) OR (TG_OP = 'DELETE' AND OLD.ad_spend > 0) THEN
        PERFORM cache_notify('daily');
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER stores_cache_notify AFTER INSERT OR UPDATE OR DELETE ON stores
    FOR EACH ROW EXECUTE FUNCTION stores_cache_notify();

-- The carousel: the store's view and the store card on its comments.
CREATE FUNCTION store_images_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    store text := CASE WHEN TG_OP = 'DELETE' THEN OLD.store_id ELSE NEW.store_id END;
BEGIN
    IF cache_bulk() THEN
        PERFORM cache_notify('*');
        RETURN NULL;
    END IF;
    PERFORM cache_notify('s:' || store);
    PERFORM cache_notify('c:' || store);
    RETURN NULL;
END
$$;

CREATE TRIGGER store_images_cache_notify AFTER INSERT OR UPDATE OR DELETE ON store_images
    FOR EACH ROW EXECUTE FUNCTION store_images_cache_notify();

-- Any change of a comment row (text, scores, likes, hiding, the store's archival copied onto it).
CREATE FUNCTION comments_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
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
    -- Search counts the reviews that contain a text.
    IF TG_OP <> 'UPDATE' OR NEW.body IS DISTINCT FROM OLD.body OR NEW.kind IS DISTINCT FROM OLD.kind
        OR (NEW.hidden_at IS NULL) IS DISTINCT FROM (OLD.hidden_at IS NULL) OR NEW.store_id IS DISTINCT FROM OLD.store_id
    THEN
        PERFORM cache_notify('search');
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER comments_cache_notify AFTER INSERT OR UPDATE OR DELETE ON comments
    FOR EACH ROW EXECUTE FUNCTION comments_cache_notify();

-- Replies and a comment's photos live beside the comment row.
CREATE FUNCTION comment_parts_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF cache_bulk() THEN
        PERFORM cache_notify('*');
        RETURN NULL;
    END IF;
    PERFORM cache_notify('c:' || c.store_id)
    FROM comments c WHERE c.id = CASE WHEN TG_OP = 'DELETE' THEN OLD.comment_id ELSE NEW.comment_id END;
    RETURN NULL;
END
$$;

CREATE TRIGGER comment_replies_cache_notify AFTER INSERT OR UPDATE OR DELETE ON comment_replies
    FOR EACH ROW EXECUTE FUNCTION comment_parts_cache_notify();
CREATE TRIGGER comment_images_cache_notify AFTER INSERT OR UPDATE OR DELETE ON comment_images
    FOR EACH ROW EXECUTE FUNCTION comment_parts_cache_notify();

-- A user's name and avatar show on their comments and (the name) on the stores they manage; name and role are in
-- their sessions.
CREATE FUNCTION users_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF cache_bulk() THEN
        PERFORM cache_notify('*');
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        PERFORM cache_notify('u:' || OLD.id);
        PERFORM cache_notify('a:' || OLD.id);
        RETURN NULL;
    END IF;
    IF NEW.name IS DISTINCT FROM OLD.name OR NEW.role IS DISTINCT FROM OLD.role THEN
        PERFORM cache_notify('u:' || NEW.id);
    END IF;
    IF NEW.name IS DISTINCT FROM OLD.name OR NEW.avatar_image_id IS DISTINCT FROM OLD.avatar_image_id THEN
        PERFORM cache_notify('a:' || NEW.id);
    END IF;
    IF NEW.name IS DISTINCT FROM OLD.name THEN
        UPDATE stores SET version = version + 1 WHERE manager_id = NEW.id;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER users_cache_notify AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION users_cache_notify();

CREATE FUNCTION categories_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.name IS DISTINCT FROM OLD.name AND NOT cache_bulk() THEN
        UPDATE stores SET version = version + 1 WHERE category_id = NEW.id;
    END IF;
    PERFORM cache_notify('*');
    RETURN NULL;
END
$$;

CREATE TRIGGER categories_cache_notify AFTER INSERT OR UPDATE OR DELETE ON categories
    FOR EACH ROW EXECUTE FUNCTION categories_cache_notify();

-- Revocation: logout, a password change (which revokes the others), deletion of a live session, a shortened life
-- (sliding the expiry forward, once a minute per session, says nothing).
CREATE FUNCTION sessions_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF OLD.revoked_at IS NULL AND OLD.expires_at > now() THEN
            PERFORM cache_notify('x:' || encode(OLD.token_hash, 'hex'));
        END IF;
    ELSIF NEW.revoked_at IS DISTINCT FROM OLD.revoked_at OR NEW.user_id IS DISTINCT FROM OLD.user_id
        OR NEW.created_at IS DISTINCT FROM OLD.created_at OR NEW.expires_at < OLD.expires_at THEN
        PERFORM cache_notify('x:' || encode(NEW.token_hash, 'hex'));
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER sessions_cache_notify AFTER UPDATE OR DELETE ON sessions
    FOR EACH ROW EXECUTE FUNCTION sessions_cache_notify();

-- The dish vocabulary decides which reviews count for a dish in search.
CREATE FUNCTION search_vocabulary_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM cache_notify('search');
    RETURN NULL;
END
$$;

CREATE TRIGGER search_dishes_cache_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON search_dishes
    FOR EACH STATEMENT EXECUTE FUNCTION search_vocabulary_cache_notify();
CREATE TRIGGER search_dish_stores_cache_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON search_dish_stores
    FOR EACH STATEMENT EXECUTE FUNCTION search_vocabulary_cache_notify();
