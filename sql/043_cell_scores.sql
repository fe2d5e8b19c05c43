-- Issue #45: the pick ranks a hundred stores of the cells it walks by rating and favourites. Those are kept per cell
-- as columns beside the cell (gk:<cell>), so a store's change of either tells its cell. Moves, openings and
-- archiving already say g:<cell> (migration 036), which the columns are kept under too.
CREATE FUNCTION stores_score_notify() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF NOT cache_bulk() THEN  -- stores_cache_notify says '*'
        PERFORM cache_notify('gk:' || place_cell(NEW.location));
    END IF;
    RETURN NULL;
END $$;

-- rating_score is generated from the totals, so the trigger watches what it is computed from.
CREATE TRIGGER stores_score_notify
    AFTER UPDATE OF rating_count, rating_sum, favorite_count ON stores FOR EACH ROW
    WHEN (NEW.location IS NOT NULL AND NEW.archived_at IS NULL
        AND (OLD.rating_score, OLD.favorite_count) IS DISTINCT FROM (NEW.rating_score, NEW.favorite_count))
    EXECUTE FUNCTION stores_score_notify();
