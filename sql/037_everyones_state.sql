-- Issue #45: everyone's part of a viewer's state (each category's name, everyone's exploration counts, whether it
-- has reviews to show) is one cached piece, under the tags categories, explore and kr. Categories already says
-- when a category or a store's listing changes; these say when the counts change (once per statement that writes
-- them: the signal drain's) and when a store's live reviews go from none to some or back, the only review change
-- that can turn a category's "has reviews to show".

CREATE FUNCTION category_explore_notify() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF NOT cache_bulk() THEN
        PERFORM cache_notify('explore');
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER category_explore_notify
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON category_explore
    FOR EACH STATEMENT EXECUTE FUNCTION category_explore_notify();

CREATE FUNCTION stores_reviewed_notify() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM cache_notify('kr');
    RETURN NULL;
END $$;

CREATE TRIGGER stores_reviewed_notify
    AFTER UPDATE OF review_count ON stores
    FOR EACH ROW WHEN ((OLD.review_count = 0) IS DISTINCT FROM (NEW.review_count = 0))
    EXECUTE FUNCTION stores_reviewed_notify();
