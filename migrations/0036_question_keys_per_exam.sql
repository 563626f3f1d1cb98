-- A question's source key belongs to its exam: two exams may each have a question "Q1", and
-- importing into one never takes over, moves or retires a question of another. The exam is
-- kept on the question (set from its domain by a trigger, so no writer can get it wrong) and
-- held to its domain's exam by a foreign key. Every existing question stays where it is.

ALTER TABLE domains ADD CONSTRAINT domains_id_exam UNIQUE (id, exam_id);

ALTER TABLE questions ADD COLUMN exam_id bigint;
UPDATE questions q SET exam_id = d.exam_id FROM domains d WHERE d.id = q.domain_id;
ALTER TABLE questions ALTER COLUMN exam_id SET NOT NULL;
ALTER TABLE questions ADD CONSTRAINT questions_domain_exam FOREIGN KEY (domain_id, exam_id) REFERENCES domains (id, exam_id);

ALTER TABLE questions DROP CONSTRAINT questions_source_key_key;
ALTER TABLE questions ADD CONSTRAINT questions_source_key_per_exam UNIQUE (exam_id, source_key);

-- The exam of a question is its domain's, whatever the writer said.
CREATE FUNCTION questions_set_exam() RETURNS trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    NEW.exam_id := (SELECT d.exam_id FROM public.domains d WHERE d.id = NEW.domain_id);
    RETURN NEW;
END
$$;
CREATE TRIGGER questions_exam BEFORE INSERT OR UPDATE OF domain_id, exam_id ON questions
    FOR EACH ROW EXECUTE FUNCTION questions_set_exam();
