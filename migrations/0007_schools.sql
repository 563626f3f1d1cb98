-- Schools: classes with a teacher and a join code, their members, share links (an exam with a
-- preset, optionally for a class and due by a date: an assignment), and what a teacher may
-- read of their students' progress.
--
-- Row-level security decides: a teacher reads the study rows of students who are members of
-- one of their classes now (a student who left is no longer visible), and nobody else's.

CREATE TABLE schools (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 200),
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX schools_name ON schools (lower(btrim(name)));

CREATE TABLE classes (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    school_id uuid REFERENCES schools(id),
    teacher_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 120),
    join_code text NOT NULL UNIQUE CHECK (join_code ~ '^[A-HJ-NP-Z2-9]{8}$'),
    created_at timestamptz NOT NULL
);
CREATE INDEX classes_by_teacher ON classes (teacher_id);

CREATE TABLE class_members (
    class_id uuid NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    joined_at timestamptz NOT NULL,
    -- Leaving (or being removed) keeps the row, so the teacher's history reads right, but ends
    -- the teacher's view of the student at once.
    left_at timestamptz,
    PRIMARY KEY (class_id, user_id)
);
CREATE INDEX class_members_by_user ON class_members (user_id) WHERE left_at IS NULL;

-- A shared exam with a preset. Only the SHA-256 of the token is kept: the link is shown once,
-- when it is made, and a lost link is replaced by a new one.
CREATE TABLE share_links (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    created_by uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    exam_id bigint NOT NULL REFERENCES exams(id),
    class_id uuid REFERENCES classes(id) ON DELETE CASCADE,
    title text NOT NULL CHECK (length(btrim(title)) BETWEEN 1 AND 120),
    mode text NOT NULL CHECK (mode IN ('practice', 'mock')),
    domains text[] NOT NULL DEFAULT '{}',
    difficulty_from integer NOT NULL DEFAULT 1 CHECK (difficulty_from BETWEEN 1 AND 5),
    difficulty_to integer NOT NULL DEFAULT 5 CHECK (difficulty_to BETWEEN 1 AND 5),
    question_count integer NOT NULL DEFAULT 20 CHECK (question_count BETWEEN 1 AND 100),
    -- Opening the link while signed in also joins its class.
    joins_class boolean NOT NULL DEFAULT false,
    due_at timestamptz,
    expires_at timestamptz,
    revoked_at timestamptz,
    created_at timestamptz NOT NULL,
    CHECK (difficulty_from <= difficulty_to),
    CHECK (NOT joins_class OR class_id IS NOT NULL)
);
CREATE INDEX share_links_by_class ON share_links (class_id) WHERE class_id IS NOT NULL;

-- Sessions started from a share link say so: that is how an assignment finds its attempts.
ALTER TABLE study_sessions ADD COLUMN share_link_id uuid REFERENCES share_links(id);
CREATE INDEX study_sessions_by_share_link ON study_sessions (share_link_id) WHERE share_link_id IS NOT NULL;

ALTER TABLE schools ENABLE ROW LEVEL SECURITY;
ALTER TABLE classes ENABLE ROW LEVEL SECURITY;
ALTER TABLE classes FORCE ROW LEVEL SECURITY;
ALTER TABLE class_members ENABLE ROW LEVEL SECURITY;
ALTER TABLE class_members FORCE ROW LEVEL SECURITY;
ALTER TABLE share_links ENABLE ROW LEVEL SECURITY;
ALTER TABLE share_links FORCE ROW LEVEL SECURITY;

-- Whether the caller teaches a class the student belongs to now. SECURITY DEFINER so the
-- policies below can ask it without each table's own policies getting in the way (and
-- without policies that call each other); it answers only that yes or no.
CREATE FUNCTION teaches(p_student uuid) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT app_role() IN ('teacher', 'admin') AND EXISTS (
        SELECT 1 FROM class_members m JOIN classes c ON c.id = m.class_id
        WHERE m.user_id = p_student AND m.left_at IS NULL AND c.teacher_id = app_user_id())
$$;

-- Whether the caller is a current member of the class.
CREATE FUNCTION in_class(p_class uuid) RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT EXISTS (SELECT 1 FROM class_members WHERE class_id = p_class AND user_id = app_user_id() AND left_at IS NULL)
$$;

CREATE POLICY schools_read ON schools FOR SELECT TO portal_app USING (true);
CREATE POLICY schools_create ON schools FOR INSERT TO portal_app WITH CHECK (app_role() IN ('teacher', 'admin'));

-- A teacher runs their own classes; a member sees the classes they are in; an admin sees all.
CREATE POLICY classes_teacher ON classes TO portal_app
    USING (teacher_id = app_user_id() OR app_role() = 'admin')
    WITH CHECK (teacher_id = app_user_id() AND app_role() IN ('teacher', 'admin'));
CREATE POLICY classes_member ON classes FOR SELECT TO portal_app USING (in_class(id));

CREATE POLICY class_members_read ON class_members FOR SELECT TO portal_app
    USING (user_id = app_user_id() OR app_role() = 'admin'
           OR EXISTS (SELECT 1 FROM classes c WHERE c.id = class_id AND c.teacher_id = app_user_id()));
CREATE POLICY class_members_join ON class_members FOR INSERT TO portal_app WITH CHECK (user_id = app_user_id());
-- A student leaves; the teacher removes. Both only set left_at.
CREATE POLICY class_members_leave ON class_members FOR UPDATE TO portal_app
    USING (user_id = app_user_id() OR EXISTS (SELECT 1 FROM classes c WHERE c.id = class_id AND c.teacher_id = app_user_id()))
    WITH CHECK (user_id = app_user_id() OR EXISTS (SELECT 1 FROM classes c WHERE c.id = class_id AND c.teacher_id = app_user_id()));

CREATE POLICY share_links_owner ON share_links TO portal_app
    USING (created_by = app_user_id() OR app_role() = 'admin')
    WITH CHECK (created_by = app_user_id() AND app_role() IN ('teacher', 'admin')
                AND (class_id IS NULL OR EXISTS (SELECT 1 FROM classes c WHERE c.id = class_id AND c.teacher_id = app_user_id())));

-- What a teacher reads of their students: sessions, answers, cards, names.
CREATE POLICY study_sessions_teacher ON study_sessions FOR SELECT TO portal_app USING (user_id IS NOT NULL AND teaches(user_id));
CREATE POLICY answers_teacher ON answers FOR SELECT TO portal_app USING (user_id IS NOT NULL AND teaches(user_id));
CREATE POLICY review_cards_teacher ON review_cards FOR SELECT TO portal_app USING (teaches(user_id));
CREATE POLICY users_teacher ON users FOR SELECT TO portal_app USING (teaches(id));

GRANT SELECT, INSERT ON schools, classes, share_links TO portal_app;
GRANT UPDATE (name) ON classes TO portal_app;
GRANT UPDATE (revoked_at) ON share_links TO portal_app;
GRANT SELECT, INSERT ON class_members TO portal_app;
GRANT UPDATE (left_at, joined_at) ON class_members TO portal_app;
GRANT UPDATE (share_link_id) ON study_sessions TO portal_app;

-- Finding a class by its join code, before joining it: its id, name and teacher only.
CREATE FUNCTION class_by_code(p_code text)
    RETURNS TABLE (id uuid, name text, teacher_name text, school_name text)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT c.id, c.name, u.display_name, s.name
    FROM classes c JOIN users u ON u.id = c.teacher_id LEFT JOIN schools s ON s.id = c.school_id
    WHERE c.join_code = upper(btrim(p_code))
$$;

-- Opening a share link by its token's hash: what the link offers and who shared it; nothing
-- for an unknown, revoked or expired link.
CREATE FUNCTION share_link_by_token(p_hash bytea, p_now timestamptz)
    RETURNS TABLE (id uuid, title text, exam_id bigint, region_code text, exam_slug text, exam_title text, exam_language text,
                   class_id uuid, class_name text, shared_by text, mode text, domains text[], difficulty_from integer,
                   difficulty_to integer, question_count integer, joins_class boolean, due_at timestamptz, expires_at timestamptz)
    LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT l.id, l.title, l.exam_id, r.code, e.slug, e.title, e.language, l.class_id, c.name, u.display_name, l.mode, l.domains,
           l.difficulty_from, l.difficulty_to, l.question_count, l.joins_class, l.due_at, l.expires_at
    FROM share_links l
    JOIN exams e ON e.id = l.exam_id JOIN regions r ON r.id = e.region_id
    JOIN users u ON u.id = l.created_by
    LEFT JOIN classes c ON c.id = l.class_id
    WHERE l.token_hash = p_hash AND l.revoked_at IS NULL AND (l.expires_at IS NULL OR l.expires_at > p_now)
$$;

-- Handing functions to a role needs that role to have CREATE on the schema, for a moment.
GRANT CREATE ON SCHEMA public TO portal_auth;
ALTER FUNCTION teaches(uuid) OWNER TO portal_auth;
ALTER FUNCTION in_class(uuid) OWNER TO portal_auth;
ALTER FUNCTION class_by_code(text) OWNER TO portal_auth;
ALTER FUNCTION share_link_by_token(bytea, timestamptz) OWNER TO portal_auth;
REVOKE CREATE ON SCHEMA public FROM portal_auth;
GRANT SELECT ON classes, class_members, share_links, schools, exams, regions TO portal_auth;
CREATE POLICY classes_auth ON classes FOR SELECT TO portal_auth USING (true);
CREATE POLICY class_members_auth ON class_members FOR SELECT TO portal_auth USING (true);
CREATE POLICY share_links_auth ON share_links FOR SELECT TO portal_auth USING (true);

REVOKE ALL ON FUNCTION teaches(uuid), in_class(uuid), class_by_code(text), share_link_by_token(bytea, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION teaches(uuid), in_class(uuid), class_by_code(text), share_link_by_token(bytea, timestamptz) TO portal_app;
