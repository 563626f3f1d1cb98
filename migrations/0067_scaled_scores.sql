-- An exam may report a scaled score (vendors' 100 to 1000, 700 to pass): the raw percentage in
-- two straight pieces, 0% to the lowest, the pass mark to the pass score, 100% to the highest
-- (QuestionEngine's ScaledScore). All three or none.
ALTER TABLE exams
    ADD COLUMN scaled_min integer,
    ADD COLUMN scaled_pass integer,
    ADD COLUMN scaled_max integer,
    ADD CONSTRAINT exams_scaled_score CHECK (
        (scaled_min IS NULL AND scaled_pass IS NULL AND scaled_max IS NULL)
        OR (scaled_min >= 0 AND scaled_min < scaled_pass AND scaled_pass < scaled_max AND scaled_max <= 100000));
