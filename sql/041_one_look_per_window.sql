-- Issue #44/#45: a feed's first page counts as one look per viewer per window (the open's dedupe window, 10 s,
-- in fixed windows of the clock). One viewer reloading thousands of pages a second (a script, the bench's one
-- signed-in viewer) queued a showing each, and the drain applied them row by row: 44 ms bursts of a core, the
-- signed-in feed's tail. The function is 033's with that one check.
CREATE OR REPLACE FUNCTION apply_viewer_events(
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
            -- One look per viewer per window: a page shown again in the same p_window seconds of the clock (a
            -- reload, a script) is not more evidence of a skip. Windows are fixed (epoch / p_window), so a server
            -- may drop a repeat before queueing it and the result is the same as applying every event here.
            CONTINUE WHEN EXISTS (
                SELECT 1 FROM viewer_explore x
                WHERE x.viewer = e.viewer
                    AND x.pending_at >= to_timestamp(floor(extract(epoch FROM e.at) / p_window) * p_window));
            -- A list entry is a category explored at one place, or `category:weight:exploring` (1 or 0).
            FOR k IN
                SELECT c.id, sum(s.places) AS places, bool_or(s.exploring) AS exploring
                FROM (
                    SELECT split_part(x, ':', 1) AS id,
                        CASE WHEN x LIKE '%:%' THEN split_part(x, ':', 2)::float8 ELSE 1 END AS places,
                        x NOT LIKE '%:%' OR split_part(x, ':', 3) = '1' AS exploring
                    FROM unnest(string_to_array(e.list, ',')) AS x
                    UNION ALL SELECT e.subject, e.number, false WHERE e.subject <> ''
                ) s JOIN categories c ON c.id = s.id
                GROUP BY c.id
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
