-- Review cards are the database's to write: every answer that shapes a card (a practice answer
-- when it is given, a mock exam's final answers when it ends) is applied by the database itself,
-- FSRS-6 included (db/functions/fsrs_review.sql, review_card_apply.sql), and a rebuild replays
-- the history there too. The app reads cards; it no longer writes them, so nothing it schedules
-- can disagree with what the database decided of an answer.
REVOKE INSERT, UPDATE, DELETE ON review_cards FROM portal_app;
GRANT DELETE ON review_cards TO portal_auth;
