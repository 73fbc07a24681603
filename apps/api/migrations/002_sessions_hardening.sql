-- Sessions: indexes for the purge and for the per-user cap (SESSIONS_PER_USER_MAX).

-- purge() deletes sessions that ended long ago: `expires_at < $1 OR revoked_at < $1`. expires_at has
-- sessions_expires_idx (001); this covers the other half (a bitmap OR of the two), revoked rows only.
CREATE INDEX sessions_revoked_idx ON sessions (revoked_at) WHERE revoked_at IS NOT NULL;

-- A sign-in revokes the user's oldest live sessions beyond the cap: the user's unrevoked sessions by age.
CREATE INDEX sessions_user_active_idx ON sessions (user_id, created_at) WHERE revoked_at IS NULL;
