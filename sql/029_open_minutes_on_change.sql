-- A stored generated column is recomputed on every UPDATE of its row, and stores are updated by every review
-- posted (their aggregates): each post parsed and planned store_week_minutes (a SQL function with an aggregate
-- cannot be inlined or keep its plan), about a tenth of a millisecond of a post's 4 ms (issue #44). The minutes
-- are now kept by a trigger that runs only when the hours are written.
ALTER TABLE stores ALTER COLUMN open_minutes DROP EXPRESSION;

CREATE FUNCTION stores_open_minutes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.open_minutes := store_week_minutes(NEW.hours);
    RETURN NEW;
END $$;

CREATE TRIGGER stores_open_minutes BEFORE INSERT OR UPDATE OF hours, open_minutes ON stores
    FOR EACH ROW EXECUTE FUNCTION stores_open_minutes();
