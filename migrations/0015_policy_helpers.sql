-- The helpers row-level security calls on every statement, in PL/pgSQL: a SQL function that
-- sets its own search_path (as every SECURITY DEFINER function here must) is never inlined,
-- and its query is parsed and planned again for each statement that calls it; PL/pgSQL keeps
-- each plan for the life of the connection. The bodies and their answers are the same.

CREATE OR REPLACE FUNCTION app_user_id() RETURNS uuid
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    RETURN (SELECT s.user_id FROM public.auth_sessions s JOIN public.users u ON u.id = s.user_id
            WHERE s.token_hash = pg_catalog.sha256(pg_catalog.convert_to(NULLIF(pg_catalog.current_setting('app.session_token', true), ''), 'UTF8'))
              AND u.disabled_at IS NULL);
END
$$;

CREATE OR REPLACE FUNCTION app_role() RETURNS text
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    RETURN COALESCE((
        SELECT u.role FROM public.auth_sessions s JOIN public.users u ON u.id = s.user_id
        WHERE s.token_hash = pg_catalog.sha256(pg_catalog.convert_to(NULLIF(pg_catalog.current_setting('app.session_token', true), ''), 'UTF8'))
          AND u.disabled_at IS NULL), 'anonymous');
END
$$;

CREATE OR REPLACE FUNCTION app_guest_key() RETURNS bytea
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    RETURN pg_catalog.sha256(pg_catalog.convert_to(NULLIF(pg_catalog.current_setting('app.guest_token', true), ''), 'UTF8'));
END
$$;

CREATE OR REPLACE FUNCTION app_students() RETURNS uuid[]
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    me uuid := public.app_user_id();
BEGIN
    IF me IS NULL OR public.app_role() NOT IN ('teacher', 'admin') THEN
        RETURN '{}';
    END IF;
    RETURN (SELECT COALESCE(array_agg(DISTINCT m.user_id), '{}')
            FROM public.class_members m JOIN public.classes c ON c.id = m.class_id
            WHERE m.left_at IS NULL AND c.teacher_id = me);
END
$$;

CREATE OR REPLACE FUNCTION app_taught_classes() RETURNS uuid[]
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    me uuid := public.app_user_id();
BEGIN
    IF me IS NULL THEN
        RETURN '{}';
    END IF;
    RETURN (SELECT COALESCE(array_agg(c.id), '{}') FROM public.classes c WHERE c.teacher_id = me);
END
$$;

CREATE OR REPLACE FUNCTION app_member_classes() RETURNS uuid[]
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    me uuid := public.app_user_id();
BEGIN
    IF me IS NULL THEN
        RETURN '{}';
    END IF;
    RETURN (SELECT COALESCE(array_agg(m.class_id), '{}') FROM public.class_members m WHERE m.user_id = me AND m.left_at IS NULL);
END
$$;

CREATE OR REPLACE FUNCTION app_hosted_events() RETURNS uuid[]
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    me uuid := public.app_user_id();
BEGIN
    IF me IS NULL THEN
        RETURN '{}';
    END IF;
    RETURN (SELECT COALESCE(array_agg(e.id), '{}') FROM public.live_events e WHERE e.host_id = me);
END
$$;

CREATE OR REPLACE FUNCTION app_now() RETURNS timestamptz
    LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    RETURN (SELECT pg_catalog.now() + pg_catalog.make_interval(secs => c.offset_seconds) FROM public.server_clock c);
END
$$;
