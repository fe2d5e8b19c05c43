-- The following feed's first page from memory (issue #33's target): each server keeps, per author, the keys of
-- their newest live reviews (`t:<author>`) and, per user, whom they follow (`f:<user>`), and merges them for a
-- page instead of probing every followee in PostgreSQL. These tags tell the cache listener when either changes.
--
-- `t:<author>` is said when a row enters, leaves or moves within an author's live reviews: an insert or delete of
-- a review, or a change of what the feed's filter or order reads (kind, author, hiding, the store's archival, the
-- creation time). A like, an edit of the text or a reply says nothing here: the page's cards are read apart.

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
    IF TG_OP = 'UPDATE' AND (OLD.kind, OLD.author_id, OLD.hidden_at, OLD.store_archived, OLD.created_at)
        IS NOT DISTINCT FROM (NEW.kind, NEW.author_id, NEW.hidden_at, NEW.store_archived, NEW.created_at) THEN
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

CREATE FUNCTION follows_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF cache_bulk() THEN
        PERFORM cache_notify('*');
        RETURN NULL;
    END IF;
    IF TG_OP <> 'INSERT' THEN
        PERFORM cache_notify('f:' || OLD.follower_id);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM cache_notify('f:' || NEW.follower_id);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER follows_cache_notify AFTER INSERT OR UPDATE OR DELETE ON follows
    FOR EACH ROW EXECUTE FUNCTION follows_cache_notify();
