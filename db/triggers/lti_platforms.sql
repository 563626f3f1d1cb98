-- Every trigger of lti_platforms: the file is the whole set (schema_drop_triggers starts from none, so
-- a trigger taken out of the file leaves the database too). Triggers of one event fire in the
-- order of their names.
SELECT schema_drop_triggers('lti_platforms');

-- A platform's or provider's key set address is registered to be fetched. (key_sets_registered)
CREATE TRIGGER lti_platforms_key_set AFTER INSERT OR UPDATE OF jwks_url ON public.lti_platforms
    FOR EACH STATEMENT
    EXECUTE FUNCTION public.key_sets_registered();
