-- Issue #45: 猜你喜欢 without a position draws on each category's best-rated live stores (the best of the viewer's
-- categories, and the best overall as their merge), cached under kb:<category>. A live store's rating score
-- moving, or a store entering or leaving a category's live stores, tells that category.

CREATE FUNCTION stores_best_notify() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF cache_bulk() THEN
        RETURN NULL;  -- stores_cache_notify says '*'
    END IF;
    IF TG_OP <> 'INSERT' AND OLD.archived_at IS NULL THEN
        PERFORM cache_notify('kb:' || OLD.category_id);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.archived_at IS NULL THEN
        PERFORM cache_notify('kb:' || NEW.category_id);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER stores_best_notify
    AFTER INSERT OR DELETE ON stores
    FOR EACH ROW EXECUTE FUNCTION stores_best_notify();

CREATE TRIGGER stores_best_notify_update
    AFTER UPDATE OF rating_score, category_id, archived_at ON stores
    FOR EACH ROW WHEN ((OLD.rating_score, OLD.category_id, OLD.archived_at IS NULL)
        IS DISTINCT FROM (NEW.rating_score, NEW.category_id, NEW.archived_at IS NULL))
    EXECUTE FUNCTION stores_best_notify();
