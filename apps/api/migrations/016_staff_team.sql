-- The team manager (docs/api.md#staff): who granted each staff flag and when, the name and avatar a member
-- had when added (for members who never signed in), and the staff audit's before / after states.

-- Per flag held: { "<FLAG>": { "by": "<staff user id>", "at": "<ISO time>" } }. Rows from before this
-- migration: each flag is credited to whoever added the member, at the time they were added.
ALTER TABLE staff_members ADD COLUMN grants jsonb NOT NULL DEFAULT '{}'::jsonb;
UPDATE staff_members sm
   SET grants = COALESCE((SELECT jsonb_object_agg(p, jsonb_build_object('by', sm.added_by, 'at', sm.created_at))
                            FROM unnest(sm.permissions) AS p), '{}'::jsonb);

-- Discord's profile of the member when they were added (the users row, written at sign-in, wins).
ALTER TABLE staff_members ADD COLUMN username text;
ALTER TABLE staff_members ADD COLUMN global_name text;
ALTER TABLE staff_members ADD COLUMN avatar text;

-- What a change replaced and what it left (team changes: { "permissions": [...] }); null for reads
-- and for the rows written before this migration.
ALTER TABLE staff_audit ADD COLUMN before jsonb;
ALTER TABLE staff_audit ADD COLUMN after jsonb;

-- The audit page: newest first, by action (exact or its family, "team" for "team.*").
CREATE INDEX staff_audit_action_idx ON staff_audit (action, at DESC, id DESC);
