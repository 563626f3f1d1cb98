-- Images that came with imported content (Moodle files, content packages' webcontent), served
-- at /content-images/{digest}.{extension}. The digest is the bytes' SHA-256 and the table
-- checks it, so an address can never be made to show another picture; rows are never updated
-- or deleted (nobody is granted either), so a question's image does not change under it.
CREATE TABLE content_images (
    digest text PRIMARY KEY CHECK (digest ~ '^[0-9a-f]{64}$'),
    media_type text NOT NULL
        CHECK (media_type IN ('image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml')),
    bytes bytea NOT NULL CHECK (octet_length(bytes) BETWEEN 1 AND 2097152),
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT content_images_named_by_digest CHECK (digest = encode(sha256(bytes), 'hex'))
);

-- Content is public: everyone reads; only admins add (the owner role, importing from the
-- command line, is not subject to policies).
ALTER TABLE content_images ENABLE ROW LEVEL SECURITY;
CREATE POLICY content_images_read ON content_images FOR SELECT USING (true);
CREATE POLICY content_images_admin ON content_images FOR INSERT TO portal_app WITH CHECK (app_role() = 'admin');
GRANT SELECT, INSERT ON content_images TO portal_app;
