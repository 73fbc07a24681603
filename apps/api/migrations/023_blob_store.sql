-- Transcripts and their attachments behind a blob store (src/lib/blob-store): BLOB_STORE=database
-- keeps the bytes in `blobs`, BLOB_STORE=s3 in a bucket. A transcript stored this way names its
-- blobs by `blob_prefix`; rows stored before (blob_prefix NULL) keep their bytes in `content` and
-- `head` and are read from there whatever the store (docs/operations.md, "Transcript storage").
CREATE TABLE blobs (
  key text PRIMARY KEY,
  content_type text NOT NULL,
  size integer NOT NULL,
  content bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE transcripts ADD COLUMN blob_prefix text;
ALTER TABLE transcripts ALTER COLUMN content DROP NOT NULL;
ALTER TABLE transcripts ADD CONSTRAINT transcripts_bytes_somewhere CHECK (content IS NOT NULL OR blob_prefix IS NOT NULL);
ALTER TABLE transcript_attachments ALTER COLUMN content DROP NOT NULL;
-- Blobs to delete (a replaced or removed transcript's): written with the change that frees them,
-- removed once the store confirms; a store that was down is retried after the next change.
CREATE TABLE blob_deletions (
  key text PRIMARY KEY,
  since timestamptz NOT NULL
);
