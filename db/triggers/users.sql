-- Every trigger of users: the file is the whole set (schema_drop_triggers starts from none, so
-- a trigger taken out of the file leaves the database too). Triggers of one event fire in the
-- order of their names.
SELECT schema_drop_triggers('users');

-- A setting that the student's own pages show changes their data version.
-- (users_visibility_version)
CREATE TRIGGER users_appearance_version BEFORE UPDATE OF color_scheme ON public.users
    FOR EACH ROW
    WHEN ((old.color_scheme IS DISTINCT FROM new.color_scheme))
    EXECUTE FUNCTION public.users_visibility_version();

-- A setting that the student's own pages show changes their data version.
-- (users_visibility_version)
CREATE TRIGGER users_readings_version BEFORE UPDATE OF hides_readings ON public.users
    FOR EACH ROW
    WHEN ((old.hides_readings IS DISTINCT FROM new.hides_readings))
    EXECUTE FUNCTION public.users_visibility_version();

-- A setting that the student's own pages show changes their data version.
-- (users_visibility_version)
CREATE TRIGGER users_read_aloud_version BEFORE UPDATE OF reads_aloud ON public.users
    FOR EACH ROW
    WHEN ((old.reads_aloud IS DISTINCT FROM new.reads_aloud))
    EXECUTE FUNCTION public.users_visibility_version();

-- A changed password or a disabled account ends the user's signed-in sessions. (users_end_sessions)
CREATE TRIGGER users_credentials_changed AFTER UPDATE OF password_hash, disabled_at ON public.users
    FOR EACH ROW
    WHEN (((old.password_hash IS DISTINCT FROM new.password_hash) OR (old.disabled_at IS DISTINCT FROM new.disabled_at)))
    EXECUTE FUNCTION public.users_end_sessions();

-- A setting that the student's own pages show changes their data version.
-- (users_visibility_version)
CREATE TRIGGER users_digest_version BEFORE UPDATE OF digest ON public.users
    FOR EACH ROW
    WHEN ((old.digest IS DISTINCT FROM new.digest))
    EXECUTE FUNCTION public.users_visibility_version();

-- What a signed-in session carries changed: every instance drops its copy. (notify_account_changed)
CREATE TRIGGER users_notify AFTER UPDATE ON public.users
    FOR EACH ROW
    WHEN (((((((old.role IS DISTINCT FROM new.role) OR (old.display_name IS DISTINCT FROM new.display_name)) OR (old.locale IS DISTINCT FROM new.locale)) OR (old.time_zone IS DISTINCT FROM new.time_zone)) OR (old.disabled_at IS DISTINCT FROM new.disabled_at)) OR (old.password_hash IS DISTINCT FROM new.password_hash))
           OR (old.color_scheme IS DISTINCT FROM new.color_scheme) OR (old.hides_readings IS DISTINCT FROM new.hides_readings)
           OR (old.reads_aloud IS DISTINCT FROM new.reads_aloud))
    EXECUTE FUNCTION public.notify_account_changed();

-- A setting that the student's own pages show changes their data version.
-- (users_visibility_version)
CREATE TRIGGER users_retention_version BEFORE UPDATE OF desired_retention ON public.users
    FOR EACH ROW
    WHEN ((old.desired_retention IS DISTINCT FROM new.desired_retention))
    EXECUTE FUNCTION public.users_visibility_version();

-- A setting that the student's own pages show changes their data version.
-- (users_visibility_version)
CREATE TRIGGER users_rhythm_version BEFORE UPDATE OF balance_reviews, easy_days, study_time ON public.users
    FOR EACH ROW
    WHEN ((((old.balance_reviews IS DISTINCT FROM new.balance_reviews) OR (old.easy_days IS DISTINCT FROM new.easy_days)) OR (old.study_time IS DISTINCT FROM new.study_time)))
    EXECUTE FUNCTION public.users_visibility_version();

-- A setting that the student's own pages show changes their data version.
-- (users_visibility_version)
CREATE TRIGGER users_visibility_version BEFORE UPDATE OF show_on_leaderboard ON public.users
    FOR EACH ROW
    WHEN ((old.show_on_leaderboard IS DISTINCT FROM new.show_on_leaderboard))
    EXECUTE FUNCTION public.users_visibility_version();

-- A setting that the student's own pages show changes their data version.
-- (users_visibility_version)
CREATE TRIGGER users_zone_confirmed_version BEFORE UPDATE OF time_zone_confirmed ON public.users
    FOR EACH ROW
    WHEN ((old.time_zone_confirmed IS DISTINCT FROM new.time_zone_confirmed))
    EXECUTE FUNCTION public.users_visibility_version();
