-- Every trigger of sso_providers: the file is the whole set (schema_drop_triggers starts from none, so
-- a trigger taken out of the file leaves the database too). Triggers of one event fire in the
-- order of their names.
SELECT schema_drop_triggers('sso_providers');

-- A platform's or provider's key set address is registered to be fetched. (key_sets_registered)
CREATE TRIGGER sso_providers_key_set AFTER INSERT OR UPDATE OF jwks_uri ON public.sso_providers
    FOR EACH STATEMENT
    EXECUTE FUNCTION public.key_sets_registered();
