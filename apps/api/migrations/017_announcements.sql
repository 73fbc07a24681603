-- Announcements and maintenance notices (staff's System Update; the shell's banner reads the active
-- ones). `state` is what staff did (a draft, published, withdrawn); whether a published notice is
-- scheduled, active or ended follows from starts_at / ends_at and the clock when it is read.
CREATE TABLE announcements (
  id bigserial PRIMARY KEY,
  severity text NOT NULL CHECK (severity IN ('info', 'maintenance', 'critical')),
  body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 500),
  audience text NOT NULL CHECK (audience IN ('everyone', 'signedIn', 'staff')),
  state text NOT NULL CHECK (state IN ('draft', 'published', 'withdrawn')),
  -- Null on a draft only: publishing sets it (to the moment of publication when none was chosen).
  starts_at timestamptz,
  ends_at timestamptz,
  -- What readers see changed (severity, text): a banner dismissed at an older revision shows again.
  revision integer NOT NULL DEFAULT 1,
  -- Every change: an edit names the version it started from.
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  updated_at timestamptz NOT NULL,
  updated_by text NOT NULL,
  published_at timestamptz,
  withdrawn_at timestamptz,
  CHECK (ends_at IS NULL OR starts_at IS NULL OR ends_at > starts_at),
  CHECK (state = 'draft' OR starts_at IS NOT NULL)
);
-- The banner's read: published notices whose window holds now.
CREATE INDEX announcements_published_idx ON announcements (starts_at, ends_at) WHERE state = 'published';
