-- Issue #45: a viewer's evidence (the stores they opened lately, their favourites, their recent reviews) is cached
-- per viewer, and a user's favourites per user, so a signed-in 猜你喜欢 or store list reads none of it from here.
-- A favourite written tells fv:<user>; the viewer's opens tell vo:<viewer> once per viewer per statement (the signal
-- drain writes many viewers' opens in one). Reviews already tell t:<author> (migration 016's timelines) and covisits
-- v:<store> (migration 028).

CREATE FUNCTION favorites_cache_notify() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF cache_bulk() THEN
        PERFORM cache_notify('*');
        RETURN NULL;
    END IF;
    IF TG_OP <> 'INSERT' THEN
        PERFORM cache_notify('fv:' || OLD.user_id);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM cache_notify('fv:' || NEW.user_id);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER favorites_cache_notify
    AFTER INSERT OR UPDATE OR DELETE ON favorites
    FOR EACH ROW EXECUTE FUNCTION favorites_cache_notify();

CREATE FUNCTION viewer_store_opens_cache_notify() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF cache_bulk() THEN
        PERFORM cache_notify('*');
        RETURN NULL;
    END IF;
    PERFORM cache_notify('vo:' || d.viewer) FROM (SELECT DISTINCT viewer FROM changed) d;
    RETURN NULL;
END $$;

-- A transition table serves one event per trigger. Updates only move opened_at (the upsert); a visitor who signs up
-- has their opens inserted under the user and deleted under the visitor, which tells both.
CREATE TRIGGER viewer_store_opens_inserted AFTER INSERT ON viewer_store_opens REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION viewer_store_opens_cache_notify();
CREATE TRIGGER viewer_store_opens_updated AFTER UPDATE ON viewer_store_opens REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION viewer_store_opens_cache_notify();
CREATE TRIGGER viewer_store_opens_deleted AFTER DELETE ON viewer_store_opens REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION viewer_store_opens_cache_notify();
