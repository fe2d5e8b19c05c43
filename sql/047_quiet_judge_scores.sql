-- Issue #44: writes that say only what changed what people see.
--
-- The trust judge rewrites a review's trust_score whenever its evidence moves it by more than 0.005 (2-3 thousand
-- times in the mixed bench's 15 s), and each write said `c:<store>`: every cached comment page of the store and
-- every cached view of its reviews (the feed's pieces) dropped, though nothing cached shows the score (the admins'
-- suspicion list reads the table). An update that changes nothing but trust_score now says nothing.
DROP TRIGGER comments_cache_notify ON comments;
CREATE TRIGGER comments_cache_notify AFTER INSERT OR DELETE ON comments
    FOR EACH ROW EXECUTE FUNCTION comments_cache_notify();
CREATE TRIGGER comments_cache_notify_update AFTER UPDATE ON comments
    FOR EACH ROW WHEN ((to_jsonb(OLD) - 'trust_score') IS DISTINCT FROM (to_jsonb(NEW) - 'trust_score'))
    EXECUTE FUNCTION comments_cache_notify();

-- Search's score event (migration 019) also went out when only review_count moved, with the score unchanged: 244 of
-- the mix's 246 such events, each with a category lookup, and no page can change by it (the review's own `r` event
-- covers its text). It now goes out when the score moves.
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
    ELSIF NEW.archived_at IS NULL AND NEW.rating_score IS DISTINCT FROM OLD.rating_score THEN
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
