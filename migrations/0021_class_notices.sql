-- A class's page is kept in memory by its version (class_version: its members' data versions
-- and its share links). Its members come with the version, so an instance forgets the page when
-- any of them is announced on portal_readers; a change to the class itself — someone joins,
-- leaves or is removed, a link is made or revoked — is announced as `class:<id>`.

CREATE FUNCTION class_version_members(p_class uuid) RETURNS TABLE (version text, members uuid[])
    LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM public.classes c
                   WHERE c.id = p_class AND (c.teacher_id = public.app_user_id() OR public.app_role() = 'admin')) THEN
        RETURN;
    END IF;
    RETURN QUERY SELECT public.class_version(p_class),
                        COALESCE((SELECT pg_catalog.array_agg(m.user_id ORDER BY m.user_id) FROM public.class_members m
                                  WHERE m.class_id = p_class AND m.left_at IS NULL), '{}'::uuid[]);
END
$$;

GRANT CREATE ON SCHEMA public TO portal_auth;
ALTER FUNCTION class_version_members(uuid) OWNER TO portal_auth;
REVOKE CREATE ON SCHEMA public FROM portal_auth;
REVOKE ALL ON FUNCTION class_version_members(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION class_version_members(uuid) TO portal_app;

CREATE FUNCTION notify_class_changed() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.class_id IS NOT NULL THEN
        PERFORM pg_catalog.pg_notify('portal_readers', 'class:' || OLD.class_id);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.class_id IS NOT NULL THEN
        PERFORM pg_catalog.pg_notify('portal_readers', 'class:' || NEW.class_id);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER class_members_notify AFTER INSERT OR UPDATE OR DELETE ON class_members
    FOR EACH ROW EXECUTE FUNCTION notify_class_changed();
CREATE TRIGGER share_links_notify AFTER INSERT OR UPDATE OR DELETE ON share_links
    FOR EACH ROW EXECUTE FUNCTION notify_class_changed();
