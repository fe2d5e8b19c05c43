-- One lock order for every review write: the store row first, then the search trigger's per-store advisory lock.
-- A body-only edit took the advisory lock first (no aggregate trigger fired) and then the store row for its
-- signature dishes (013), while an insert of the same store held the row and waited for the advisory lock: a
-- deadlock (seen in CI's live-import test). Now the aggregate trigger also fires on body edits and locks the row
-- before anything else; FOR NO KEY UPDATE, the lock an update of the row takes anyway, so other reviews' foreign-key
-- checks of the store are not held up.
CREATE OR REPLACE FUNCTION store_rater_recount(p_store text, p_author text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    was store_raters;
    now record;
BEGIN
    PERFORM 1 FROM stores WHERE id = p_store FOR NO KEY UPDATE;
    SELECT * INTO was FROM store_raters WHERE store_id = p_store AND author_id = p_author;
    SELECT c.id, c.rating, c.taste, c.environment, c.service, c.price_per_person INTO now
    FROM comments c
    WHERE c.author_id = p_author AND c.store_id = p_store AND c.kind = 'review' AND c.hidden_at IS NULL
    ORDER BY c.created_at DESC, c.id DESC LIMIT 1;
    IF (was.comment_id, was.rating, was.taste, was.environment, was.service, was.price_per_person)
        IS NOT DISTINCT FROM (now.id, now.rating, now.taste, now.environment, now.service, now.price_per_person) THEN
        RETURN;
    END IF;
    UPDATE stores SET
        rating_count = rating_count - (was.rating IS NOT NULL)::int + (now.rating IS NOT NULL)::int,
        rating_sum = rating_sum - coalesce(was.rating, 0) + coalesce(now.rating, 0),
        taste_count = taste_count - (was.taste IS NOT NULL)::int + (now.taste IS NOT NULL)::int,
        taste_sum = taste_sum - coalesce(was.taste, 0) + coalesce(now.taste, 0),
        environment_count = environment_count - (was.environment IS NOT NULL)::int + (now.environment IS NOT NULL)::int,
        environment_sum = environment_sum - coalesce(was.environment, 0) + coalesce(now.environment, 0),
        service_count = service_count - (was.service IS NOT NULL)::int + (now.service IS NOT NULL)::int,
        service_sum = service_sum - coalesce(was.service, 0) + coalesce(now.service, 0),
        price_count = price_count - (was.price_per_person IS NOT NULL)::int + (now.price_per_person IS NOT NULL)::int,
        price_sum = price_sum - coalesce(was.price_per_person, 0) + coalesce(now.price_per_person, 0)
    WHERE id = p_store;
    IF now.id IS NULL THEN
        DELETE FROM store_raters WHERE store_id = p_store AND author_id = p_author;
    ELSE
        INSERT INTO store_raters AS r (store_id, author_id, comment_id, rating, taste, environment, service, price_per_person)
        VALUES (p_store, p_author, now.id, now.rating, now.taste, now.environment, now.service, now.price_per_person)
        ON CONFLICT (store_id, author_id) DO UPDATE SET comment_id = EXCLUDED.comment_id, rating = EXCLUDED.rating,
            taste = EXCLUDED.taste, environment = EXCLUDED.environment, service = EXCLUDED.service,
            price_per_person = EXCLUDED.price_per_person;
    END IF;
END $$;

DROP TRIGGER comments_rating_totals_update ON comments;
CREATE TRIGGER comments_rating_totals_update
    AFTER UPDATE OF rating, kind, hidden_at, store_id, author_id, created_at, taste, environment, service,
        price_per_person, body
    ON comments FOR EACH ROW
    WHEN ((OLD.rating, OLD.kind, OLD.hidden_at IS NULL, OLD.store_id, OLD.author_id, OLD.created_at, OLD.taste,
           OLD.environment, OLD.service, OLD.price_per_person, OLD.body)
          IS DISTINCT FROM (NEW.rating, NEW.kind, NEW.hidden_at IS NULL, NEW.store_id, NEW.author_id, NEW.created_at,
           NEW.taste, NEW.environment, NEW.service, NEW.price_per_person, NEW.body))
    EXECUTE FUNCTION comments_rating_totals();
