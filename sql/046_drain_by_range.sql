-- Issue #44: the drain took its batch with `DELETE ... WHERE id IN (the first p_limit in time order)`. The queue is
-- often empty when autovacuum analyzes it, so the planner believes it holds one row and joins the two as a nested
-- loop: under the mix, 2,713 queued rows × 454 chosen made 1.2 million comparisons, 60-320 ms a batch of 500
-- (auto_explain, chidian_fresh). The batch is now a range of the (at, id) index up to its last event, which no
-- estimate can make quadratic. Since the range is read when the DELETE runs, an event committed late with an earlier
-- time is taken too, and so applied before the later ones, as time order wants.
CREATE OR REPLACE FUNCTION drain_viewer_events(
    p_cutoff timestamptz, p_limit int, p_window float8, p_half_life float8, p_shard smallint,
    p_visit_window float8, p_visit_cap int
) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    k text[]; v text[]; s text[]; n float8[]; t timestamptz[]; l text[];
    taken int;
    last_at timestamptz;
    last_id bigint;
    lo int := 1;
    hi int;
BEGIN
    IF NOT pg_try_advisory_xact_lock(7041981) THEN RETURN -1; END IF;
    -- The batch ends at its last event in time order; everything up to it goes (one committed late included).
    SELECT x.at, x.id INTO last_at, last_id FROM (
        SELECT at, id FROM viewer_event_queue WHERE at < p_cutoff ORDER BY at, id LIMIT p_limit) x
    ORDER BY x.at DESC, x.id DESC LIMIT 1;
    IF NOT FOUND THEN RETURN 0; END IF;
    WITH batch AS (
        DELETE FROM viewer_event_queue q WHERE (q.at, q.id) <= (last_at, last_id)
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
