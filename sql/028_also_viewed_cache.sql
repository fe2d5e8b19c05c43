-- "Also viewed" is read through the servers' caches (issue #44): a store page no longer reads store_covisits on
-- every view. A list is cached under 'v:<store>' and said here (migration 016's channel) whenever it may change:
-- any write to the store's covisit rows (the drain's batches, a store deleted), and a store archived or restored,
-- which leaves or rejoins the lists of the stores it was opened with. One NOTIFY per store per statement: the
-- drain's batch of 500 opens says each store it touched once.

CREATE FUNCTION store_covisits_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF cache_bulk() THEN
        PERFORM cache_notify('*');
        RETURN NULL;
    END IF;
    PERFORM cache_notify('v:' || d.store_id) FROM (SELECT DISTINCT store_id FROM changed) d;
    RETURN NULL;
END $$;

-- A transition table serves one event per trigger, hence three.
CREATE TRIGGER store_covisits_inserted AFTER INSERT ON store_covisits REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION store_covisits_cache_notify();
CREATE TRIGGER store_covisits_updated AFTER UPDATE ON store_covisits REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION store_covisits_cache_notify();
CREATE TRIGGER store_covisits_deleted AFTER DELETE ON store_covisits REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION store_covisits_cache_notify();

CREATE FUNCTION stores_also_viewed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF cache_bulk() THEN
        RETURN NULL;  -- stores_cache_notify says '*'
    END IF;
    PERFORM cache_notify('v:' || c.store_id) FROM store_covisits c WHERE c.other_id = NEW.id;
    RETURN NULL;
END $$;

CREATE TRIGGER stores_also_viewed_notify AFTER UPDATE OF archived_at ON stores FOR EACH ROW
    WHEN ((OLD.archived_at IS NULL) IS DISTINCT FROM (NEW.archived_at IS NULL))
    EXECUTE FUNCTION stores_also_viewed_notify();
