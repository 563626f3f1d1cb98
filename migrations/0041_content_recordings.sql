-- Recordings stand in questions as pictures do (ContentImage): audio (MP3, Ogg, M4A) and video
-- (MP4, WebM), told from their bytes, stored and named by their digest in the same table. A
-- picture stays at most 2 MiB; a recording may be up to 16 MiB.
ALTER TABLE content_images DROP CONSTRAINT content_images_media_type_check;
ALTER TABLE content_images DROP CONSTRAINT content_images_bytes_check;
ALTER TABLE content_images ADD CONSTRAINT content_images_media_type_check CHECK (media_type IN (
    'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml',
    'audio/mpeg', 'audio/ogg', 'audio/mp4', 'video/mp4', 'video/webm'));
ALTER TABLE content_images ADD CONSTRAINT content_images_bytes_check CHECK (
    octet_length(bytes) >= 1
    AND octet_length(bytes) <= CASE WHEN media_type LIKE 'image/%' THEN 2097152 ELSE 16777216 END);
