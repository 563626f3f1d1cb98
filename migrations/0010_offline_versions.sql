-- Answers a device made offline on a version of a question that has changed since: the
-- response's option indexes point into that version's options, which may have been reordered,
-- added to or removed since. This function gives the option ids of earlier versions, in their
-- order, so the server can map a response onto the current options (by id) and check it against
-- the current key. Only versions students could see (published, not deleted) are answered;
-- `question_versions` itself stays readable by admins only.
CREATE FUNCTION published_option_ids(p_questions uuid[], p_versions integer[])
    RETURNS TABLE (question_id uuid, version integer, option_ids text[])
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT v.question_id, v.version,
           ARRAY(SELECT o.value->>'id' FROM jsonb_array_elements(v.snapshot->'options') WITH ORDINALITY AS o(value, n) ORDER BY o.n)
    FROM unnest(p_questions, p_versions) AS w(question_id, version)
    JOIN question_versions v ON v.question_id = w.question_id AND v.version = w.version
    WHERE v.snapshot->>'status' = 'published' AND v.snapshot->>'deletedAt' IS NULL
$$;

-- Handing a function to a role needs that role to have CREATE on the schema, for a moment.
GRANT CREATE ON SCHEMA public TO portal_auth;
ALTER FUNCTION published_option_ids(uuid[], integer[]) OWNER TO portal_auth;
REVOKE CREATE ON SCHEMA public FROM portal_auth;
GRANT SELECT ON question_versions TO portal_auth;
CREATE POLICY question_versions_offline ON question_versions FOR SELECT TO portal_auth USING (true);
REVOKE ALL ON FUNCTION published_option_ids(uuid[], integer[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION published_option_ids(uuid[], integer[]) TO portal_app;
