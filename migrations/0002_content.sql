-- The exam content (DESIGN §4): regions → exams → domains → questions.
-- Everyone reads published content; only admins (app_role() = 'admin') write it.

CREATE TABLE regions (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    code text NOT NULL UNIQUE CHECK (code ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
    name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    position integer NOT NULL DEFAULT 0
);

CREATE TABLE exams (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    region_id bigint NOT NULL REFERENCES regions(id),
    slug text NOT NULL CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,79}$'),
    title text NOT NULL CHECK (length(title) BETWEEN 1 AND 300),
    description text NOT NULL DEFAULT '',
    language text NOT NULL CHECK (language ~ '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$'),
    pass_mark integer NOT NULL CHECK (pass_mark BETWEEN 1 AND 100),
    time_limit_s integer NOT NULL CHECK (time_limit_s BETWEEN 60 AND 86400),
    question_count integer NOT NULL CHECK (question_count BETWEEN 1 AND 500),
    content_updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (region_id, slug)
);

CREATE TABLE domains (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    exam_id bigint NOT NULL REFERENCES exams(id),
    slug text NOT NULL CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,79}$'),
    title text NOT NULL CHECK (length(title) BETWEEN 1 AND 300),
    -- The share of the exam's questions drawn from this domain, in percent.
    weight integer NOT NULL CHECK (weight BETWEEN 1 AND 100),
    UNIQUE (exam_id, slug)
);

-- Why a question's options and answer key are malformed, or NULL when they are sound.
-- The CHECK on questions calls it, and the Swift validator applies the same rules, so nothing
-- malformed is ever stored, whichever way it arrives.
CREATE FUNCTION question_shape_problem(kind text, options jsonb, correct jsonb) RETURNS text
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    option_count integer;
    option jsonb;
    position integer := 0;
    ids text[] := '{}';
    answer jsonb;
    answers integer[] := '{}';
    number_value numeric;
    value integer;
BEGIN
    IF kind NOT IN ('single-choice', 'multi-choice', 'ordering', 'code-snippet') THEN
        RETURN format('unknown question type %s', kind);
    END IF;
    IF options IS NULL OR jsonb_typeof(options) <> 'array' THEN
        RETURN 'options must be an array';
    END IF;
    option_count := jsonb_array_length(options);
    IF option_count < 2 OR option_count > 10 THEN
        RETURN 'a question needs 2 to 10 options';
    END IF;
    FOR option IN SELECT * FROM jsonb_array_elements(options) LOOP
        IF jsonb_typeof(option) <> 'object' THEN
            RETURN format('option %s is not an object', position);
        END IF;
        IF EXISTS (SELECT 1 FROM jsonb_object_keys(option) AS key
                   WHERE key NOT IN ('id', 'text', 'imageUrl', 'code', 'explanation')) THEN
            RETURN format('option %s has a key other than id, text, imageUrl, code, explanation', position);
        END IF;
        IF jsonb_typeof(option -> 'id') IS DISTINCT FROM 'string' OR length(option ->> 'id') = 0 THEN
            RETURN format('option %s has no id', position);
        END IF;
        IF jsonb_typeof(option -> 'text') IS DISTINCT FROM 'string' OR length(btrim(option ->> 'text', E' \t\n\r')) = 0 THEN
            RETURN format('option %s has no text', position);
        END IF;
        IF (option ? 'imageUrl' AND jsonb_typeof(option -> 'imageUrl') <> 'string')
           OR (option ? 'code' AND jsonb_typeof(option -> 'code') <> 'string')
           OR (option ? 'explanation' AND jsonb_typeof(option -> 'explanation') <> 'string') THEN
            RETURN format('option %s has a non-text imageUrl, code or explanation', position);
        END IF;
        IF (option ->> 'id') = ANY (ids) THEN
            RETURN format('option %s repeats the id %s', position, option ->> 'id');
        END IF;
        ids := ids || (option ->> 'id');
        position := position + 1;
    END LOOP;

    IF correct IS NULL OR jsonb_typeof(correct) <> 'array' OR jsonb_array_length(correct) = 0 THEN
        RETURN 'the answer key must be a non-empty array of option indexes';
    END IF;
    FOR answer IN SELECT * FROM jsonb_array_elements(correct) LOOP
        IF jsonb_typeof(answer) <> 'number' THEN
            RETURN 'the answer key holds something other than option indexes';
        END IF;
        number_value := (answer #>> '{}')::numeric;
        IF number_value < 0 OR number_value > 1000 OR number_value <> trunc(number_value) THEN
            RETURN 'the answer key holds something other than option indexes';
        END IF;
        value := number_value::integer;
        IF value >= option_count THEN
            RETURN format('the answer key points at option %s, which does not exist', value);
        END IF;
        IF value = ANY (answers) THEN
            RETURN format('the answer key names option %s twice', value);
        END IF;
        answers := answers || value;
    END LOOP;

    IF kind IN ('single-choice', 'code-snippet') AND cardinality(answers) <> 1 THEN
        RETURN format('a %s question has exactly one correct option', kind);
    END IF;
    IF kind = 'ordering' AND cardinality(answers) <> option_count THEN
        RETURN 'an ordering key must list every option exactly once';
    END IF;
    RETURN NULL;
END
$$;

CREATE TABLE questions (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    domain_id bigint NOT NULL REFERENCES domains(id),
    type text NOT NULL,
    stem text NOT NULL CHECK (length(btrim(stem)) BETWEEN 1 AND 20000),
    -- A code block shown with the stem (code-snippet questions), and its language.
    code text,
    code_language text CHECK (code_language ~ '^[a-z0-9+#-]{1,20}$'),
    options jsonb NOT NULL,
    correct jsonb NOT NULL,
    explanation text NOT NULL DEFAULT '',
    difficulty integer NOT NULL CHECK (difficulty BETWEEN 1 AND 5),
    status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'retired')),
    version integer NOT NULL DEFAULT 1,
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    -- A natural key for generated and imported content, so loading it twice changes nothing.
    source_key text UNIQUE,
    CONSTRAINT questions_shape_valid CHECK (question_shape_problem(type, options, correct) IS NULL)
);

-- "All published questions of this exam at this difficulty": the exam's few domains, each an
-- index range on (domain_id, difficulty) over published, live rows only.
CREATE INDEX questions_published_by_domain_difficulty ON questions (domain_id, difficulty)
    WHERE status = 'published' AND deleted_at IS NULL;
CREATE INDEX domains_by_exam ON domains (exam_id);

-- An edit makes a new version; answers keep pointing at the version they answered.
CREATE FUNCTION questions_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (NEW.type, NEW.stem, NEW.code, NEW.code_language, NEW.options, NEW.correct, NEW.explanation,
        NEW.difficulty, NEW.status, NEW.deleted_at, NEW.domain_id)
       IS DISTINCT FROM
       (OLD.type, OLD.stem, OLD.code, OLD.code_language, OLD.options, OLD.correct, OLD.explanation,
        OLD.difficulty, OLD.status, OLD.deleted_at, OLD.domain_id) THEN
        NEW.version := OLD.version + 1;
        NEW.updated_at := now();
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER questions_version BEFORE UPDATE ON questions
    FOR EACH ROW EXECUTE FUNCTION questions_bump_version();

-- Every content write bumps its exam's content_updated_at, so offline copies learn of it.
-- Statement-level with transition tables: a bulk load touches each exam once, not per row.
CREATE FUNCTION exams_touch_from_questions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE exams SET content_updated_at = clock_timestamp()
    WHERE id IN (SELECT d.exam_id FROM changed_rows c JOIN domains d ON d.id = c.domain_id);
    RETURN NULL;
END
$$;
CREATE TRIGGER questions_touch_insert AFTER INSERT ON questions
    REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION exams_touch_from_questions();
CREATE TRIGGER questions_touch_update AFTER UPDATE ON questions
    REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION exams_touch_from_questions();
CREATE TRIGGER questions_touch_delete AFTER DELETE ON questions
    REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION exams_touch_from_questions();

CREATE FUNCTION exams_touch_from_domains() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE exams SET content_updated_at = clock_timestamp() WHERE id IN (SELECT exam_id FROM changed_rows);
    RETURN NULL;
END
$$;
CREATE TRIGGER domains_touch_insert AFTER INSERT ON domains
    REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION exams_touch_from_domains();
CREATE TRIGGER domains_touch_update AFTER UPDATE ON domains
    REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION exams_touch_from_domains();

CREATE FUNCTION exams_touch_self() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.content_updated_at IS NOT DISTINCT FROM OLD.content_updated_at THEN
        NEW.content_updated_at := clock_timestamp();
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER exams_touch BEFORE UPDATE ON exams FOR EACH ROW EXECUTE FUNCTION exams_touch_self();

-- Reading is for everyone (drafts and retired questions for admins only); writing for admins.
ALTER TABLE regions ENABLE ROW LEVEL SECURITY;
ALTER TABLE exams ENABLE ROW LEVEL SECURITY;
ALTER TABLE domains ENABLE ROW LEVEL SECURITY;
ALTER TABLE questions ENABLE ROW LEVEL SECURITY;
CREATE POLICY regions_read ON regions FOR SELECT USING (true);
CREATE POLICY exams_read ON exams FOR SELECT USING (true);
CREATE POLICY domains_read ON domains FOR SELECT USING (true);
CREATE POLICY questions_read ON questions FOR SELECT
    USING ((status = 'published' AND deleted_at IS NULL) OR app_role() = 'admin');
CREATE POLICY regions_admin ON regions FOR ALL USING (app_role() = 'admin') WITH CHECK (app_role() = 'admin');
CREATE POLICY exams_admin ON exams FOR ALL USING (app_role() = 'admin') WITH CHECK (app_role() = 'admin');
CREATE POLICY domains_admin ON domains FOR ALL USING (app_role() = 'admin') WITH CHECK (app_role() = 'admin');
CREATE POLICY questions_admin ON questions FOR ALL USING (app_role() = 'admin') WITH CHECK (app_role() = 'admin');

GRANT SELECT, INSERT, UPDATE ON regions, exams, domains, questions TO portal_app;
GRANT EXECUTE ON FUNCTION question_shape_problem(text, jsonb, jsonb) TO portal_app;
