-- What viewers did, learnt beside their requests (issue #44). A server keeps its requests' review opens, interest
-- signals, feed showings and store opens in memory and appends them here every second in one statement; one server
-- at a time (an advisory lock) drains what is older than a watermark, in the order it happened, in one call
-- (drain_viewer_events). So the effect is exactly that of the requests one by one in time order, however they were
-- spread over servers, and no two batches ever wait on each other's row locks. The CLI and the tests' reference
-- write one event at a time through the same functions.
--
-- Kinds:
--   'open'    a review opened: subject is the comment; counted unless opened under the window's seconds ago
--   'store'   an interest signal about a store (number its weight), 'comment' one about a comment's store
--   'shown'   a feed's first page: subject its own top category ('' for none), number the places it took, list
--             the categories explored, comma-separated
--   'merge'   a visitor (viewer) signed up or in as a user (subject, 'u:…'): the visitor's history joins theirs
--   'reset'   the viewer forgot their interests (done at once as well; this forgets what was still on its way)
--   'visit'   a store opened: subject is the store (write_store_opens: co-visit pairs computed in the batch)
-- Unlogged: statistics a crash of PostgreSQL may lose, not the users' data.
CREATE UNLOGGED TABLE viewer_event_queue (
    id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind     text NOT NULL CHECK (kind IN ('open', 'store', 'comment', 'shown', 'merge', 'reset', 'visit')),
    viewer   text NOT NULL CHECK (viewer ~ '^[uv]:'),
    subject  text NOT NULL,
    number   double precision NOT NULL,
    at       timestamptz NOT NULL,
    list     text NOT NULL
);
CREATE INDEX viewer_event_queue_at ON viewer_event_queue (at, id);

-- Store opens in one statement with the effect of StoreVisits.record run once per open in the given order: the
-- open's time kept, and each new pair of stores one viewer opened within p_window seconds counted once, at most
-- p_cap pairs per open (its most recent other stores). Returns the co-visit rows counted (both directions).
CREATE FUNCTION write_store_opens(
    p_viewers text[], p_stores text[], p_times timestamptz[], p_window float8, p_cap int
) RETURNS int LANGUAGE sql AS $$
    WITH input AS (
        SELECT i.ord, i.viewer, i.store_id, i.at
        FROM unnest(p_viewers, p_stores, p_times) WITH ORDINALITY AS i (viewer, store_id, at, ord)
        JOIN stores s ON s.id = i.store_id AND s.archived_at IS NULL
        -- A deleted account's last opens, still in a server's memory when it went, are dropped.
        WHERE i.viewer NOT LIKE 'u:%' OR EXISTS (SELECT 1 FROM users u WHERE u.id = substr(i.viewer, 3))
    ), seen AS (
        -- Of what is stored, an open can pair only with the viewer's p_cap + 1 most recent stores (its own store
        -- may be one of them): everything older is behind at least p_cap others.
        SELECT v.viewer, o.store_id, o.opened_at AS at, 0::int8 AS ord
        FROM (SELECT DISTINCT viewer FROM input) v
        CROSS JOIN LATERAL (
            SELECT o.store_id, o.opened_at FROM viewer_store_opens o
            WHERE o.viewer = v.viewer ORDER BY o.opened_at DESC LIMIT p_cap + 1
        ) o
        UNION ALL
        SELECT viewer, store_id, at, ord FROM input
    ), recent AS (
        SELECT i.ord, i.viewer, i.store_id, i.at, x.store_id AS other, max(x.at) AS seen_at
        FROM input i JOIN seen x ON x.viewer = i.viewer AND x.ord < i.ord AND x.store_id <> i.store_id
        GROUP BY i.ord, i.viewer, i.store_id, i.at, x.store_id
    ), candidate AS (
        SELECT viewer, least(store_id, other) AS a, greatest(store_id, other) AS b, at, ord FROM (
            SELECT r.*, row_number() OVER (PARTITION BY r.ord ORDER BY r.seen_at DESC) AS n FROM recent r
            WHERE r.seen_at > r.at - make_interval(secs => p_window)
        ) ranked WHERE n <= p_cap
    ), first AS (
        SELECT DISTINCT ON (viewer, a, b) viewer, a, b, at FROM candidate ORDER BY viewer, a, b, ord
    ), opened AS (
        INSERT INTO viewer_store_opens AS o (viewer, store_id, opened_at)
        SELECT viewer, store_id, max(at) FROM input GROUP BY viewer, store_id ORDER BY viewer, store_id
        ON CONFLICT (viewer, store_id) DO UPDATE SET opened_at = greatest(o.opened_at, EXCLUDED.opened_at)
    ), pairs AS (
        INSERT INTO viewer_covisits (viewer, a, b, at)
        SELECT viewer, a, b, at FROM first ORDER BY viewer, a, b
        ON CONFLICT DO NOTHING
        RETURNING a, b
    ), counted AS (
        INSERT INTO store_covisits AS c (store_id, other_id, viewers)
        SELECT x, y, count(*) FROM (SELECT a, b FROM pairs UNION ALL SELECT b, a FROM pairs) p (x, y)
        GROUP BY x, y ORDER BY x, y
        ON CONFLICT (store_id, other_id) DO UPDATE SET viewers = c.viewers + EXCLUDED.viewers
        RETURNING 1
    )
    SELECT count(*)::int FROM counted
$$;

-- Viewer events (every kind but 'visit', which it skips) applied in the given order, everyone's exploration counts added once at the
-- end in category order. Returns how many review opens counted.
CREATE FUNCTION apply_viewer_events(
    p_kinds text[], p_viewers text[], p_subjects text[], p_numbers float8[], p_ats timestamptz[], p_lists text[],
    p_window float8, p_half_life float8, p_shard smallint
) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    e record;
    k record;
    category text;
    first boolean;
    counted int := 0;
    -- Everyone's exploration counts, added at the end: (category, shown, clicked).
    d_categories text[] := '{}';
    d_shown int[] := '{}';
    d_clicked int[] := '{}';
BEGIN
    FOR e IN
        SELECT * FROM unnest(p_kinds, p_viewers, p_subjects, p_numbers, p_ats, p_lists)
            WITH ORDINALITY AS x (kind, viewer, subject, number, at, list, ord)
        ORDER BY ord
    LOOP
        CONTINUE WHEN e.kind = 'visit';
        -- A deleted account's last signals, still in a server's memory when it went, are dropped.
        CONTINUE WHEN e.viewer LIKE 'u:%' AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = substr(e.viewer, 3));
        CONTINUE WHEN e.kind = 'merge' AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = substr(e.subject, 3));
        IF e.kind = 'open' THEN
            SELECT c.category_id INTO category FROM comments c
            WHERE c.id = e.subject AND c.kind = 'review' AND c.hidden_at IS NULL AND NOT c.store_archived;
            CONTINUE WHEN NOT FOUND;
            INSERT INTO viewer_opens AS o (viewer, comment_id, opened_at) VALUES (e.viewer, e.subject, e.at)
            ON CONFLICT (viewer, comment_id) DO UPDATE SET opened_at = EXCLUDED.opened_at
            WHERE o.opened_at <= EXCLUDED.opened_at - make_interval(secs => p_window);
            CONTINUE WHEN NOT FOUND;
            INSERT INTO viewer_interests AS i (viewer, category_id, score, score_at, clicks)
            VALUES (e.viewer, category, 1, e.at, 1)
            ON CONFLICT (viewer, category_id) DO UPDATE SET
                score = i.score * power(0.5, greatest(0, extract(epoch FROM EXCLUDED.score_at - i.score_at)) / p_half_life) + 1,
                score_at = greatest(i.score_at, EXCLUDED.score_at),
                clicks = i.clicks + 1;
            counted := counted + 1;
            -- A category shown to this viewer to explore in the last day: this open is that showing's click.
            UPDATE viewer_explore x SET
                shown = x.shown * power(0.5, greatest(0, extract(epoch FROM e.at - x.updated_at)) / p_half_life),
                clicked = least(x.shown, x.clicked + 1)
                    * power(0.5, greatest(0, extract(epoch FROM e.at - x.updated_at)) / p_half_life),
                updated_at = greatest(x.updated_at, e.at)
            WHERE x.viewer = e.viewer AND x.category_id = category AND x.pending_at > e.at - interval '1 day'
            RETURNING x.exploring INTO first;
            IF FOUND AND first THEN
                d_categories := d_categories || category; d_shown := d_shown || 0; d_clicked := d_clicked || 1;
            END IF;
        ELSIF e.kind IN ('store', 'comment') THEN
            IF e.kind = 'store' THEN
                SELECT s.category_id INTO category FROM stores s WHERE s.id = e.subject;
            ELSE
                SELECT c.category_id INTO category FROM comments c WHERE c.id = e.subject;
            END IF;
            CONTINUE WHEN NOT FOUND;
            INSERT INTO viewer_interests AS i (viewer, category_id, score, score_at, clicks)
            VALUES (e.viewer, category, greatest(0, e.number), e.at, 0)
            ON CONFLICT (viewer, category_id) DO UPDATE SET
                score = greatest(0, i.score * power(0.5,
                    greatest(0, extract(epoch FROM EXCLUDED.score_at - i.score_at)) / p_half_life) + e.number),
                score_at = greatest(i.score_at, EXCLUDED.score_at);
        ELSIF e.kind = 'shown' THEN
            FOR k IN
                SELECT c.id, CASE WHEN c.id = e.subject THEN e.number ELSE 1 END AS places,
                    c.id IS DISTINCT FROM e.subject AS exploring
                FROM categories c
                WHERE c.id = ANY(string_to_array(e.list, ',')) OR c.id = e.subject
                ORDER BY c.id
            LOOP
                INSERT INTO viewer_explore AS x (viewer, category_id, shown, clicked, exploring, pending_at, updated_at)
                VALUES (e.viewer, k.id, k.places, 0, k.exploring, e.at, e.at)
                ON CONFLICT (viewer, category_id) DO UPDATE SET
                    shown = x.shown * power(0.5, greatest(0, extract(epoch FROM e.at - x.updated_at)) / p_half_life)
                        + k.places,
                    clicked = x.clicked * power(0.5, greatest(0, extract(epoch FROM e.at - x.updated_at)) / p_half_life),
                    exploring = k.exploring, pending_at = e.at, updated_at = greatest(x.updated_at, e.at);
                IF k.exploring THEN
                    d_categories := d_categories || k.id; d_shown := d_shown || 1; d_clicked := d_clicked || 0;
                END IF;
            END LOOP;
        ELSIF e.kind = 'merge' THEN
            -- Interests decayed to the moment and added, opens and exploration counts joined; the visitor's gone.
            INSERT INTO viewer_interests AS i (viewer, category_id, score, score_at, clicks)
            SELECT e.subject, v.category_id,
                v.score * power(0.5, greatest(0, extract(epoch FROM e.at - v.score_at)) / p_half_life),
                greatest(v.score_at, e.at), v.clicks
            FROM viewer_interests v WHERE v.viewer = e.viewer
            ORDER BY v.category_id
            ON CONFLICT (viewer, category_id) DO UPDATE SET
                score = i.score * power(0.5, greatest(0, extract(epoch FROM EXCLUDED.score_at - i.score_at)) / p_half_life)
                    + EXCLUDED.score,
                score_at = greatest(i.score_at, EXCLUDED.score_at),
                clicks = i.clicks + EXCLUDED.clicks;
            INSERT INTO viewer_opens AS o (viewer, comment_id, opened_at)
            SELECT e.subject, v.comment_id, v.opened_at FROM viewer_opens v WHERE v.viewer = e.viewer
            ORDER BY v.comment_id
            ON CONFLICT (viewer, comment_id) DO UPDATE SET opened_at = greatest(o.opened_at, EXCLUDED.opened_at);
            INSERT INTO viewer_store_opens AS o (viewer, store_id, opened_at)
            SELECT e.subject, v.store_id, v.opened_at FROM viewer_store_opens v WHERE v.viewer = e.viewer
            ORDER BY v.store_id
            ON CONFLICT (viewer, store_id) DO UPDATE SET opened_at = greatest(o.opened_at, EXCLUDED.opened_at);
            INSERT INTO viewer_covisits (viewer, a, b, at)
            SELECT e.subject, v.a, v.b, v.at FROM viewer_covisits v WHERE v.viewer = e.viewer ORDER BY v.a, v.b
            ON CONFLICT DO NOTHING;
            INSERT INTO viewer_explore AS x (viewer, category_id, shown, clicked, exploring, pending_at, updated_at)
            SELECT e.subject, v.category_id, v.shown, v.clicked, v.exploring, v.pending_at, v.updated_at
            FROM viewer_explore v WHERE v.viewer = e.viewer ORDER BY v.category_id
            ON CONFLICT (viewer, category_id) DO UPDATE SET
                shown = x.shown + EXCLUDED.shown, clicked = x.clicked + EXCLUDED.clicked,
                pending_at = greatest(x.pending_at, EXCLUDED.pending_at),
                updated_at = greatest(x.updated_at, EXCLUDED.updated_at);
            DELETE FROM viewer_interests WHERE viewer = e.viewer;
            DELETE FROM viewer_opens WHERE viewer = e.viewer;
            DELETE FROM viewer_store_opens WHERE viewer = e.viewer;
            DELETE FROM viewer_covisits WHERE viewer = e.viewer;
            DELETE FROM viewer_explore WHERE viewer = e.viewer;
        ELSIF e.kind = 'reset' THEN
            DELETE FROM viewer_interests WHERE viewer = e.viewer;
            DELETE FROM viewer_opens WHERE viewer = e.viewer;
        ELSE
            RAISE EXCEPTION 'unknown viewer event kind %', e.kind;
        END IF;
    END LOOP;
    INSERT INTO category_explore AS g (category_id, shard, shown, clicked)
    SELECT d.category_id, p_shard, sum(d.shown), sum(d.clicked)
    FROM unnest(d_categories, d_shown, d_clicked) AS d (category_id, shown, clicked)
    GROUP BY d.category_id ORDER BY d.category_id
    ON CONFLICT (category_id, shard) DO UPDATE SET shown = g.shown + EXCLUDED.shown, clicked = g.clicked + EXCLUDED.clicked;
    RETURN counted;
END
$$;

-- Applies what every server appended with `at` before p_cutoff (at most p_limit events), in time order, and deletes
-- it, in one transaction: a failure leaves the queue as it was, for the next drain. Store opens go in one statement
-- per stretch between merges (a merge moves the visitor's opens, so those before it are written first). Returns how
-- many events it took, or -1 when another server is draining.
CREATE FUNCTION drain_viewer_events(
    p_cutoff timestamptz, p_limit int, p_window float8, p_half_life float8, p_shard smallint,
    p_visit_window float8, p_visit_cap int
) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    k text[]; v text[]; s text[]; n float8[]; t timestamptz[]; l text[];
    taken int;
    lo int := 1;
    hi int;
BEGIN
    IF NOT pg_try_advisory_xact_lock(7041981) THEN RETURN -1; END IF;
    WITH batch AS (
        DELETE FROM viewer_event_queue q WHERE q.id IN (
            SELECT id FROM viewer_event_queue WHERE at < p_cutoff ORDER BY at, id LIMIT p_limit)
        RETURNING q.*
    )
    SELECT count(*)::int, array_agg(kind ORDER BY at, id), array_agg(viewer ORDER BY at, id),
        array_agg(subject ORDER BY at, id), array_agg(number ORDER BY at, id), array_agg(at ORDER BY at, id),
        array_agg(list ORDER BY at, id)
    INTO taken, k, v, s, n, t, l
    FROM batch;
    WHILE lo <= taken LOOP
        hi := lo;
        WHILE hi <= taken AND k[hi] <> 'merge' LOOP hi := hi + 1; END LOOP;
        -- [lo, hi) has no merge; hi is a merge or past the end.
        IF hi > lo THEN
            PERFORM apply_viewer_events(
                k[lo:hi - 1], v[lo:hi - 1], s[lo:hi - 1], n[lo:hi - 1], t[lo:hi - 1], l[lo:hi - 1],
                p_window, p_half_life, p_shard);
            PERFORM write_store_opens(
                array_agg(x.viewer ORDER BY x.o), array_agg(x.subject ORDER BY x.o), array_agg(x.at ORDER BY x.o),
                p_visit_window, p_visit_cap)
            FROM unnest(k[lo:hi - 1], v[lo:hi - 1], s[lo:hi - 1], t[lo:hi - 1]) WITH ORDINALITY
                AS x (kind, viewer, subject, at, o)
            WHERE x.kind = 'visit'
            HAVING count(*) > 0;
        END IF;
        IF hi <= taken THEN
            PERFORM apply_viewer_events(
                k[hi:hi], v[hi:hi], s[hi:hi], n[hi:hi], t[hi:hi], l[hi:hi], p_window, p_half_life, p_shard);
        END IF;
        lo := hi + 1;
    END LOOP;
    RETURN taken;
END
$$;
