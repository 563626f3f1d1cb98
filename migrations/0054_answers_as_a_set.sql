-- An answer's insert changes its student's data version in the statement trigger that schedules
-- the statement's answers (answers_schedule), once per student, not in a row trigger of its own.
DROP TRIGGER answers_inserted_data_version ON answers;
