-- Offline change feeds: which questions of an exam changed since a version, including the ones
-- deleted, retired or unpublished since (tombstones), which row-level security otherwise hides
-- from everyone but admins. The function returns only ids and whether each is gone.
CREATE FUNCTION exam_changes(p_exam bigint, p_since timestamptz)
    RETURNS TABLE (id uuid, removed boolean)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT q.id, (q.deleted_at IS NOT NULL OR q.status <> 'published')
    FROM questions q JOIN domains d ON d.id = q.domain_id
    -- Five minutes of overlap: an edit in a transaction that began before the version was taken
    -- still reaches the client (sending an unchanged question again is harmless).
    WHERE d.exam_id = p_exam AND q.updated_at > p_since - interval '5 minutes'
$$;

-- Handing a function to a role needs that role to have CREATE on the schema, for a moment.
GRANT CREATE ON SCHEMA public TO portal_auth;
ALTER FUNCTION exam_changes(bigint, timestamptz) OWNER TO portal_auth;
REVOKE CREATE ON SCHEMA public FROM portal_auth;
GRANT SELECT ON questions, domains TO portal_auth;
CREATE POLICY questions_changes ON questions FOR SELECT TO portal_auth USING (true);
REVOKE ALL ON FUNCTION exam_changes(bigint, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION exam_changes(bigint, timestamptz) TO portal_app;

-- Questions changed since a version are found by their exam's domains and their update time.
CREATE INDEX questions_by_domain_updated ON questions (domain_id, updated_at);
