-- Forms that make something carry a one-time token (`form_token`, made when the form is shown):
-- the first send makes what it makes and records where it is; the same token sent again — a
-- reload of the POST's answer, back and forward, a double tap, a phone restoring its tab — leads
-- to what the first made and makes nothing more. A send's row belongs to its sender (an account
-- or a guest's cookie) and is kept for a day; only the definer functions in db/ read or write it.
CREATE TABLE form_sends (
    token_hash bytea PRIMARY KEY CHECK (length(token_hash) = 32),
    user_id uuid REFERENCES users(id) ON DELETE CASCADE,
    guest_hash bytea CHECK (guest_hash IS NULL OR length(guest_hash) = 32),
    location text CHECK (location IS NULL OR (length(location) BETWEEN 1 AND 500 AND location ~ '^/[^/\\]')),
    created_at timestamptz NOT NULL,
    CHECK ((user_id IS NULL) <> (guest_hash IS NULL))
);
CREATE INDEX form_sends_created ON form_sends (created_at);
ALTER TABLE form_sends ENABLE ROW LEVEL SECURITY;
ALTER TABLE form_sends FORCE ROW LEVEL SECURITY;
GRANT SELECT, INSERT, UPDATE, DELETE ON form_sends TO portal_auth;

-- A batch of class accounts, so its cards have an address of their own: the teacher who made
-- them can open them again for a day (a reload, back, a lost tab show the same cards with the
-- same start codes); then the codes are forgotten (`prune_anonymous_state`) and the page offers
-- new ones. `cards` is [{"user": id, "code": "ABCD-EFGH-JKLM"}], the codes removed after a day.
CREATE TABLE class_account_batches (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    class_id uuid NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
    teacher_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    made_at timestamptz NOT NULL,
    cards jsonb NOT NULL CHECK (jsonb_typeof(cards) = 'array'),
    codes_shown boolean NOT NULL DEFAULT true
);
CREATE INDEX class_account_batches_made ON class_account_batches (made_at) WHERE codes_shown;
ALTER TABLE class_account_batches ENABLE ROW LEVEL SECURITY;
ALTER TABLE class_account_batches FORCE ROW LEVEL SECURITY;
GRANT SELECT, INSERT, UPDATE, DELETE ON class_account_batches TO portal_auth;
