-- A card is written only with an answer, a finished session or a rebuild, and the first two
-- change the student's data version through their own rows' triggers: the card's trigger only
-- repeated that for every answer. A rebuild now says so itself (review_cards_rebuild).
DROP TRIGGER review_cards_data_version ON review_cards;

-- An answer's insert changes its student's data version without a NOTIFY of its own (the
-- portal announces its writes, several to a notice: ReaderAnnouncer); changes and removals
-- of answers, which are rare, still announce themselves.
DROP TRIGGER answers_data_version ON answers;
CREATE TRIGGER answers_data_version AFTER UPDATE OR DELETE ON answers
    FOR EACH ROW EXECUTE FUNCTION data_version_bump();
CREATE TRIGGER answers_inserted_data_version AFTER INSERT ON answers
    FOR EACH ROW EXECUTE FUNCTION data_version_bump('announced by the portal');
