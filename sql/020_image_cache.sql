-- Servers keep hot images' bytes in memory by id (`Caching.images`). An image never changes, but housekeeping
-- deletes an upload nothing shows after a day (and its blob with the last row naming it), and psql may delete or
-- repoint one: each says `i:<id>` on migration 016's channel, so no server serves the bytes of a gone image.
CREATE FUNCTION images_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF cache_bulk() THEN
        PERFORM cache_notify('*');
        RETURN NULL;
    END IF;
    PERFORM cache_notify('i:' || OLD.id);
    RETURN NULL;
END
$$;

-- An insert is a new id, which nothing holds: a miss is never kept.
CREATE TRIGGER images_cache_notify AFTER UPDATE OR DELETE ON images
    FOR EACH ROW EXECUTE FUNCTION images_cache_notify();
