-- The first messages of each transcript, stored apart (gzip of the JSON with `totalMessages`), so
-- the viewer paints a 50,000-message ticket from a few kilobytes while the rest arrives
-- (bench/transcript-viewer.mjs). Null for transcripts stored before: the API derives it then.
ALTER TABLE transcripts ADD COLUMN head bytea;
