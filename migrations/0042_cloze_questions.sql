-- Cloze questions (kind 'cloze'): a text with numbered gaps, each filled by a choice or typed,
-- their rules in details.gaps (question_shape_problem). The text must mark each gap once as
-- {#n}: the check's function is defined in db/functions/cloze_text_problem.sql, which
-- `portal migrate` applies right after the numbered migrations; this placeholder only lets the
-- constraint name it here.
CREATE FUNCTION cloze_text_problem(p_text text, p_details jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE AS 'SELECT NULL::text';

ALTER TABLE questions ADD CONSTRAINT questions_gaps_marked CHECK (type <> 'cloze' OR cloze_text_problem(stem, details) IS NULL);
