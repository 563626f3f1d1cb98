-- Per-student FSRS weights: once a student has made 400 reviews on a later day than the
-- previous one, their 21 weights are fitted to their own history (and refitted after every 500
-- more); the scheduler uses them from then on. A row also records a check that found too few
-- reviews (weights NULL), so the fitting job does not read the same history again and again.
--
-- The job fits a student's weights on a connection scoped to that student's own session (the
-- server queues the work when the student finishes a session or opens their dashboard), so it
-- reads and writes only what row-level security gives the student: no role may read another's
-- history to fit it. A student could therefore write weights of their own choosing — the check
-- below keeps any weights within the optimizer's bounds, and they shape nobody's schedule but
-- theirs.

-- The optimizer's bounds (FSRSOptimizer.bounds), weight by weight.
CREATE FUNCTION fsrs_weights_within_bounds(weights double precision[]) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog AS $$
    SELECT cardinality(weights) = 21 AND array_ndims(weights) = 1 AND NOT EXISTS (
        SELECT 1 FROM unnest(weights,
            ARRAY[0.001, 0.001, 0.001, 0.001, 1, 0.001, 0.001, 0.001, 0, 0, 0.001, 0.001, 0.001, 0.001, 0, 0, 1, 0, 0, 0, 0.1]::double precision[],
            ARRAY[100, 100, 100, 100, 10, 4, 4, 0.75, 4.5, 0.8, 3.5, 5, 0.25, 0.9, 4, 1, 6, 2, 2, 0.8, 0.8]::double precision[])
            AS w(value, low, high)
        WHERE w.value IS NULL OR w.value = 'NaN' OR w.value < w.low OR w.value > w.high)
$$;
GRANT EXECUTE ON FUNCTION fsrs_weights_within_bounds(double precision[]) TO portal_app;

CREATE TABLE fsrs_weights (
    user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    -- NULL until a fit: the last check found fewer than 400 scored reviews.
    weights double precision[] CHECK (weights IS NULL OR fsrs_weights_within_bounds(weights)),
    -- Scored (cross-day) reviews the weights were fitted to, or counted at the last check.
    reviews integer NOT NULL CHECK (reviews >= 0),
    -- Mean log loss on those reviews: the default weights', and the fitted ones'.
    log_loss_before double precision CHECK (log_loss_before >= 0),
    log_loss_after double precision CHECK (log_loss_after >= 0),
    -- Every rated review of the history when it was last checked, so the next check waits for more.
    history_reviews integer NOT NULL CHECK (history_reviews >= 0),
    fitted_at timestamptz,
    checked_at timestamptz NOT NULL,
    CHECK ((weights IS NULL) = (fitted_at IS NULL) AND (weights IS NULL) = (log_loss_after IS NULL)
           AND (weights IS NULL) = (log_loss_before IS NULL))
);
ALTER TABLE fsrs_weights ENABLE ROW LEVEL SECURITY;
ALTER TABLE fsrs_weights FORCE ROW LEVEL SECURITY;
GRANT SELECT, INSERT, UPDATE ON fsrs_weights TO portal_app;
CREATE POLICY fsrs_weights_own ON fsrs_weights TO portal_app
    USING (user_id = (SELECT app_user_id())) WITH CHECK (user_id = (SELECT app_user_id()));
GRANT SELECT, INSERT, UPDATE, DELETE ON fsrs_weights TO portal_auth;
CREATE POLICY fsrs_weights_auth ON fsrs_weights TO portal_auth USING (true) WITH CHECK (true);

-- New weights change the student's schedule and what their dashboard says of it.
CREATE TRIGGER fsrs_weights_data_version AFTER INSERT OR UPDATE OR DELETE ON fsrs_weights
    FOR EACH ROW EXECUTE FUNCTION data_version_bump();

-- Retrievability with a student's own decay (weight 21); the three-argument form keeps FSRS-6's
-- default, 0.1542.
CREATE FUNCTION fsrs_retrievability(stability double precision, last_review timestamptz, at timestamptz, decay double precision)
    RETURNS double precision
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT pg_catalog.power(1 + (pg_catalog.power(0.9::double precision, 1 / -decay) - 1)
                 * greatest(0, pg_catalog.floor(extract(epoch FROM at - last_review) / 86400)) / stability, -decay)
$$;
GRANT EXECUTE ON FUNCTION fsrs_retrievability(double precision, timestamptz, timestamptz, double precision) TO portal_app;
