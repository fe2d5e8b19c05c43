-- Image bytes live in PostgreSQL, once per content hash, so every server process, started from any directory,
-- serves the same bytes: nothing about an image is left on one machine's disk.
--
-- `images` stays one row per upload (ownership and the API's view); `image_blobs` holds the content it names,
-- written in the same transaction as the first row that refers to it.
CREATE TABLE image_blobs (
    sha256        bytea PRIMARY KEY CHECK (octet_length(sha256) = 32),
    content_type  text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'image/webp', 'image/gif')),
    width         integer NOT NULL CHECK (width > 0),
    height        integer NOT NULL CHECK (height > 0),
    byte_count    integer NOT NULL CHECK (byte_count BETWEEN 1 AND 8388608),
    bytes         bytea NOT NULL CHECK (octet_length(bytes) = byte_count),
    created_at    timestamptz NOT NULL DEFAULT now()
);
-- JPEG, PNG, WebP and GIF are compressed already: keep the bytes out of line and uncompressed, so serving reads a
-- large image in slices (substring) without decompressing or loading the whole value.
ALTER TABLE image_blobs ALTER COLUMN bytes SET STORAGE EXTERNAL;

-- Rows uploaded before this migration had their bytes in files (IMAGE_DIR): they are not checked, and are
-- answered 404 until `chidian images load DIR` reads those files in.
ALTER TABLE images ADD CONSTRAINT images_blob_fk FOREIGN KEY (sha256) REFERENCES image_blobs (sha256) NOT VALID;
