-- A form on a page kept for many showings (the exam page's start and share forms) cannot carry a
-- token of its own per showing: its send is known by what it says instead — the sender, the
-- address and the fields — and counts as the same send only for a short while after the first
-- (`form_send_begin`'s new second argument). The one-argument form is replaced by it.
DROP FUNCTION IF EXISTS form_send_begin(text);
