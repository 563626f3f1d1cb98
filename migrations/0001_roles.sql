-- The two roles of the portal (DESIGN §5).
--   The owner (whoever runs the migrations, DATABASE_ADMIN_URL) owns every object.
--   portal_app (DATABASE_URL) serves requests: not an owner, no superuser, no BYPASSRLS, so
--   row-level security always applies to it.
-- Roles are cluster-wide, so several databases (and concurrent test runs) may race to create
-- the role; whichever loses the race finds it created.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'portal_app') THEN
        CREATE ROLE portal_app LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
    END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
    NULL;
END
$$;

-- Nobody but the owner creates objects; portal_app only uses what it is granted.
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO portal_app;

-- The per-request context set by the server with set_config(…, true) at the start of each
-- transaction. An unset or empty setting means "nobody": policies then match no per-user row.
CREATE FUNCTION app_user_id() RETURNS uuid
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$ SELECT NULLIF(current_setting('app.user_id', true), '')::uuid $$;

CREATE FUNCTION app_role() RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$ SELECT COALESCE(NULLIF(current_setting('app.role', true), ''), 'anonymous') $$;

GRANT EXECUTE ON FUNCTION app_user_id(), app_role() TO portal_app;

-- The server checks at start-up that the database's history matches its migrations.
GRANT SELECT ON schema_migrations TO portal_app;
