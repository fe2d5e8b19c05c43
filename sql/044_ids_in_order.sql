-- Issue #45: a read of stores by a list of ids (a near-me page's twenty missed cards, a pick's three) was planned
-- anew on every execution. PostgreSQL keeps making custom plans while the generic plan, estimated for an array of
-- unknown length (ten elements), costs more than the custom plans made for the real length; planning took 0.3–2 ms
-- of each read, the read itself 0.1–0.2 ms (200,000 stores). Behind this function both plans see the same estimate,
-- so each connection keeps the generic plan after its fifth execution. plpgsql, so that it is never inlined.
CREATE FUNCTION ids_in_order(ids text[]) RETURNS TABLE (id text, ordinal bigint)
    LANGUAGE plpgsql STABLE STRICT ROWS 10
    AS $$
BEGIN
    RETURN QUERY SELECT * FROM unnest(ids) WITH ORDINALITY;
END $$;
