-- A review's search event carries its store's live reviews as counted when it fires (issue #31): the store's
-- count for a text the body contains is at most one more, so a page whose last store has more such reviews than
-- the store can reach keeps (Sources/Chidian/Search/SearchInvalidation.swift). A posted review is counted in
-- review_count after this trigger (store_review_inserted fires later: triggers of one event fire in name order),
-- a hidden or deleted one before it; hence the one more.
CREATE OR REPLACE FUNCTION search_review_notify(p_store text, p_body text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF NOT cache_bulk() THEN
        PERFORM search_cache_notify(jsonb_build_object(
            'r', p_store, 'b', lower(p_body),
            'rc', (SELECT s.review_count FROM stores s WHERE s.id = p_store)));
    END IF;
END
$$;
