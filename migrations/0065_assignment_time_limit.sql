-- An assignment taken as a mock exam may carry its own time limit (a twenty-minute quiz of a
-- ninety-minute exam); a student's accommodation applies to it as to the exam's own.
ALTER TABLE share_links ADD COLUMN time_limit_minutes integer
    CHECK (time_limit_minutes BETWEEN 1 AND 600),
    ADD CONSTRAINT share_links_time_limit_is_a_mocks CHECK (time_limit_minutes IS NULL OR mode = 'mock');

-- What a link offers gains its time limit: the functions that describe it return one more column.
DROP FUNCTION IF EXISTS share_link_by_token(bytea, timestamptz);
DROP FUNCTION IF EXISTS share_link_of_my_class(uuid, timestamptz);
DROP FUNCTION IF EXISTS share_link_as_shared(uuid, timestamptz);
