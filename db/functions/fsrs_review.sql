-- FSRS-6's review of one card: its state after `p_rating` (1 again … 4 easy) at `p_at`, with
-- the student's 21 weights and desired retention. A port, formula for formula, of
-- QuestionEngine's FSRSScheduler.review (learning steps 1 and 10 minutes, relearning 10
-- minutes, intervals of whole days up to 36,500, no fuzz), held equal to it — and so to the
-- reference implementation — by the shared vectors (`Tests/Fixtures/fsrs-vectors.json`). A new
-- card has a NULL stability and difficulty. Weights are 1-based here: w[1] is FSRS's w0.
CREATE OR REPLACE FUNCTION public.fsrs_review(
    p_state text, p_step integer, p_stability double precision, p_difficulty double precision, p_last_review timestamptz,
    p_rating integer, p_at timestamptz, p_weights double precision[], p_retention double precision,
    OUT state text, OUT step integer, OUT stability double precision, OUT difficulty double precision, OUT due timestamptz)
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    w double precision[] := p_weights;
    grade double precision := p_rating;
    decay double precision := -p_weights[21];
    factor double precision := power(0.9::double precision, 1 / -p_weights[21]) - 1;
    days_since integer;
    recall double precision;
    steps double precision[];
    current_step integer;
    interval_seconds double precision;
    graduate boolean := false;
    increase double precision;
    delta double precision;
    damped double precision;
    long_term double precision;
BEGIN
    state := p_state;
    step := p_step;
    stability := p_stability;
    difficulty := p_difficulty;
    -- The memory's update: a first review takes the initial values; a review within the day the
    -- short-term stability; any other the long-term one, from the recall before it.
    IF p_stability IS NOT NULL AND p_difficulty IS NOT NULL THEN
        days_since := floor(extract(epoch FROM p_at - p_last_review) / 86400);
        IF days_since < 1 THEN
            increase := exp(w[18] * (grade - 3 + w[19])) * power(p_stability, -w[20]);
            IF grade >= 2 THEN
                increase := greatest(increase, 1);
            END IF;
            stability := greatest(p_stability * increase, 0.001);
        ELSE
            recall := power(1 + factor * greatest(0, days_since) / p_stability, decay);
            IF p_rating = 1 THEN
                long_term := w[12] * power(p_difficulty, -w[13]) * (power(p_stability + 1, w[14]) - 1) * exp((1 - recall) * w[15]);
                stability := greatest(least(long_term, p_stability / exp(w[18] * w[19])), 0.001);
            ELSE
                stability := greatest(p_stability * (1 + exp(w[9]) * (11 - p_difficulty) * power(p_stability, -w[10])
                    * (exp((1 - recall) * w[11]) - 1)
                    * CASE WHEN p_rating = 2 THEN w[16] ELSE 1 END * CASE WHEN p_rating = 4 THEN w[17] ELSE 1 END), 0.001);
            END IF;
        END IF;
        delta := -(w[7] * (grade - 3));
        damped := p_difficulty + (10 - p_difficulty) * delta / 9;
        difficulty := least(greatest(w[8] * (w[5] - exp(w[6] * 3) + 1) + (1 - w[8]) * damped, 1), 10);
    ELSE
        stability := greatest(w[p_rating], 0.001);
        difficulty := least(greatest(w[5] - exp(w[6] * (grade - 1)) + 1, 1), 10);
    END IF;

    IF p_state IN ('learning', 'relearning') THEN
        steps := CASE WHEN p_state = 'learning' THEN ARRAY[60, 600]::double precision[] ELSE ARRAY[600]::double precision[] END;
        current_step := coalesce(p_step, 0);
        IF current_step >= cardinality(steps) AND p_rating <> 1 THEN
            graduate := true;
        ELSIF p_rating = 1 THEN
            step := 0;
            interval_seconds := steps[1];
        ELSIF p_rating = 2 THEN
            interval_seconds := CASE WHEN current_step = 0 AND cardinality(steps) = 1 THEN steps[1] * 1.5
                                     WHEN current_step = 0 THEN (steps[1] + steps[2]) / 2
                                     ELSE steps[current_step + 1] END;
        ELSIF p_rating = 3 THEN
            IF current_step + 1 = cardinality(steps) THEN
                graduate := true;
            ELSE
                step := current_step + 1;
                interval_seconds := steps[current_step + 2];
            END IF;
        ELSE
            graduate := true;
        END IF;
    ELSIF p_rating = 1 THEN
        state := 'relearning';
        step := 0;
        interval_seconds := 600;
    ELSE
        graduate := false;
        interval_seconds := 86400::double precision * public.fsrs_interval_days(stability, factor, decay, p_retention);
    END IF;
    IF graduate THEN
        state := 'review';
        step := NULL;
        interval_seconds := 86400::double precision * public.fsrs_interval_days(stability, factor, decay, p_retention);
    END IF;
    due := p_at + make_interval(secs => interval_seconds);
END
$function$;
