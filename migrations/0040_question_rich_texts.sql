-- A question's texts written in markdown, as trees (QuestionTexts): its stem, explanation and
-- each option's text and explanation. NULL is plain text as before; when present, the plain
-- columns hold the trees' plain text (search, statistics, review flags).
--
-- The check's function is defined in db/functions/question_texts_problem.sql (and the tree's
-- own rules in rich_text_problem.sql), which `portal migrate` applies right after the numbered
-- migrations; this placeholder only lets the constraint name it here.
CREATE FUNCTION question_texts_problem(p_rich jsonb, p_options jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE AS 'SELECT NULL::text';

ALTER TABLE questions ADD COLUMN rich jsonb;
ALTER TABLE questions ADD CONSTRAINT questions_rich_valid CHECK (rich IS NULL OR question_texts_problem(rich, options) IS NULL);
