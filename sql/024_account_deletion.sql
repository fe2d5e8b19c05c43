-- A user's rights over their own data (issue #33): `GET /v1/me/export` and `DELETE /v1/me`.
--
-- Deleting an account deletes the users row last; before it, in the same transaction, the rows that name the user
-- without a foreign key (viewer histories 'u:<id>', counted ratings, rate-limit keys, the moderation log) and the
-- rows whose delete must run the aggregate triggers in a known order (likes, favorites, the user's reviews).
-- These indexes make the foreign keys' own work (cascade, set null) and those deletes index scans instead of
-- whole-table scans on a large database.
CREATE INDEX reports_reporter ON reports (reporter_id);
CREATE INDEX comment_replies_author ON comment_replies (author_id);
CREATE INDEX promotions_buyer ON promotions (buyer_id) WHERE buyer_id IS NOT NULL;
CREATE INDEX moderation_log_admin ON moderation_log (admin_id) WHERE admin_id IS NOT NULL;
CREATE INDEX store_raters_author ON store_raters (author_id);
-- The deletion's batches take the user's comments in store order; the author indexes before this one leave out
-- hidden comments (and notices), so without it each batch read the whole table.
CREATE INDEX comments_author ON comments (author_id, store_id, id);

-- Whether a rate-limit key (rate_tokens: `<kind>|u:<id>`; rate_buckets: `uploads-day|<id>`,
-- `<scope>:n:<id or lower-cased name>`, `<scope>:na:<id or lower-cased name>|<address>`) counts for the user
-- with id p_user, or, when p_name is given, for their name. The one place that knows the key shapes, for the
-- export (ids only: a key by name counts whoever typed the name, and holds their address) and the deletion (both).
-- A name may hold `|` and an address never does: the subject of a `:na:` key is what comes before its last `|`.
CREATE FUNCTION rate_key_names_user(p_key text, p_user text, p_name text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
    SELECT p_key = 'uploads-day|' || p_user
        OR right(p_key, length(p_user) + 3) = '|u:' || p_user
        OR EXISTS (
            SELECT 1 FROM unnest(ARRAY[p_user, lower(p_name)]) AS s(subject)
            WHERE p_key ~ '^[a-z_-]+:n:' AND substr(p_key, strpos(p_key, ':n:') + 3) = s.subject
               OR p_key ~ '^[a-z_-]+:na:'
                  AND regexp_replace(substr(p_key, strpos(p_key, ':na:') + 4), '\|[^|]*$', '') = s.subject
        )
$$;
