-- A draft may be withdrawn (docs/api.md, announcements): it never started, so only a published
-- notice needs its start. The old rule (every row but a draft has starts_at) refused that with a 500.
ALTER TABLE announcements DROP CONSTRAINT IF EXISTS announcements_check1;
ALTER TABLE announcements ADD CONSTRAINT announcements_published_has_start CHECK (state <> 'published' OR starts_at IS NOT NULL);
