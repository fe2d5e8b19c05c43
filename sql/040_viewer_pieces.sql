-- Issue #45: a signed-in page's own parts are cached per viewer too: the viewer's interest and exploration rows
-- (vs:<viewer>) and the reviews a user liked (lk:<user>). Each row written tells its viewer; the signal drain
-- writes many rows of a viewer in one statement, and identical notifications of a transaction are sent once.

CREATE FUNCTION viewer_state_notify() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF cache_bulk() THEN
        PERFORM cache_notify('*');
        RETURN NULL;
    END IF;
    IF TG_OP <> 'INSERT' THEN
        PERFORM cache_notify('vs:' || OLD.viewer);
    END IF;
    IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.viewer IS DISTINCT FROM OLD.viewer) THEN
        PERFORM cache_notify('vs:' || NEW.viewer);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER viewer_interests_state_notify
    AFTER INSERT OR UPDATE OR DELETE ON viewer_interests
    FOR EACH ROW EXECUTE FUNCTION viewer_state_notify();

CREATE TRIGGER viewer_explore_state_notify
    AFTER INSERT OR UPDATE OR DELETE ON viewer_explore
    FOR EACH ROW EXECUTE FUNCTION viewer_state_notify();

CREATE FUNCTION comment_likes_user_notify() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF cache_bulk() THEN
        PERFORM cache_notify('*');
        RETURN NULL;
    END IF;
    IF TG_OP <> 'INSERT' THEN
        PERFORM cache_notify('lk:' || OLD.user_id);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM cache_notify('lk:' || NEW.user_id);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER comment_likes_user_notify
    AFTER INSERT OR UPDATE OR DELETE ON comment_likes
    FOR EACH ROW EXECUTE FUNCTION comment_likes_user_notify();
