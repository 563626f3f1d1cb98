-- The recall of a card, once more inlined into the statements that sum it over a student's
-- cards: a fixed search_path kept it from being inlined, at a function call per card. It names
-- only pg_catalog's functions (which come first whatever the search path), and runs no query.
ALTER FUNCTION fsrs_retrievability(double precision, timestamptz, timestamptz) RESET search_path;
CREATE OR REPLACE FUNCTION fsrs_retrievability(stability double precision, last_review timestamptz, at timestamptz)
    RETURNS double precision
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT pg_catalog.power(1 + (pg_catalog.power(0.9::double precision, 1 / -0.1542::double precision) - 1)
                 * greatest(0, pg_catalog.floor(extract(epoch FROM at - last_review) / 86400)) / stability, -0.1542::double precision)
$$;
