-- "Download my data" for a large history: the archive is made in the background as the
-- student (their rows only, row-level security as for any of their requests), kept here until
-- they download it once, then dropped. One per account; nobody else reads it.
CREATE TABLE data_exports (
    user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    requested_at timestamptz NOT NULL,
    ready_at timestamptz,
    archive bytea,
    filename text CHECK (filename ~ '^[a-z0-9.-]{1,80}$'),
    downloaded_at timestamptz,
    CHECK ((archive IS NULL) OR (ready_at IS NOT NULL AND filename IS NOT NULL))
);
ALTER TABLE data_exports ENABLE ROW LEVEL SECURITY;
ALTER TABLE data_exports FORCE ROW LEVEL SECURITY;
GRANT SELECT, INSERT, UPDATE, DELETE ON data_exports TO portal_app;
