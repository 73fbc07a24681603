-- Staff pages have shorter lifetimes than the rest of a session (docs/api.md, "Staff sessions"):
-- 30 minutes without staff activity, 12 hours after sign-in. The last staff request of the session
-- (written at most once a minute); NULL: none yet (the sign-in counts as the start).
ALTER TABLE sessions ADD COLUMN staff_seen_at timestamptz;
