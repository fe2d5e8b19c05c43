-- Issue #45: the featured feed's first page is composed in memory from each category's newest feed reviews (the
-- walk's segments and cold start's candidates), cached under fk:<category>. A review entering or leaving a
-- category's feed, or changing what cold start weighs (likes, rating, age), tells its category, old and new;
-- a store's rating score, which cold start weighs too, tells the store's category.

CREATE FUNCTION comments_feed_notify() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF cache_bulk() THEN
        RETURN NULL;  -- comments_cache_notify says '*'
    END IF;
    IF TG_OP <> 'INSERT' AND OLD.kind = 'review' AND OLD.hidden_at IS NULL AND NOT OLD.store_archived
        AND OLD.recommended THEN
        PERFORM cache_notify('fk:' || OLD.category_id);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.kind = 'review' AND NEW.hidden_at IS NULL AND NOT NEW.store_archived
        AND NEW.recommended THEN
        PERFORM cache_notify('fk:' || NEW.category_id);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER comments_feed_notify
    AFTER INSERT OR DELETE ON comments
    FOR EACH ROW EXECUTE FUNCTION comments_feed_notify();

CREATE TRIGGER comments_feed_notify_update
    AFTER UPDATE OF kind, hidden_at, store_archived, recommended, category_id, created_at, like_count, rating, store_id
    ON comments
    FOR EACH ROW WHEN ((OLD.kind, OLD.hidden_at IS NULL, OLD.store_archived, OLD.recommended, OLD.category_id,
        OLD.created_at, OLD.like_count, OLD.rating, OLD.store_id)
        IS DISTINCT FROM (NEW.kind, NEW.hidden_at IS NULL, NEW.store_archived, NEW.recommended, NEW.category_id,
        NEW.created_at, NEW.like_count, NEW.rating, NEW.store_id))
    EXECUTE FUNCTION comments_feed_notify();

CREATE FUNCTION stores_feed_notify() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF NOT cache_bulk() THEN
        PERFORM cache_notify('fk:' || NEW.category_id);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER stores_feed_notify
    AFTER UPDATE OF rating_score ON stores
    FOR EACH ROW WHEN (OLD.rating_score IS DISTINCT FROM NEW.rating_score)
    EXECUTE FUNCTION stores_feed_notify();
