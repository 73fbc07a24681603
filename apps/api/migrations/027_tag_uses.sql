-- Uses of tags (canned replies) for Statistics (src/services/statistics.ts, "tags"): one row per use,
-- from the bot's `tag_used` event (source 'bot', ref the event id) or a dashboard reply written from a
-- tag that the bot reported done (source 'dashboard', ref the command id). A use arriving twice is one.
CREATE TABLE tag_uses (
  bot_id text NOT NULL,
  source text NOT NULL CHECK (source IN ('bot', 'dashboard')),
  ref text NOT NULL,
  guild_id text NOT NULL,
  ticket_id text NOT NULL,
  tag_id text NOT NULL,
  staff_id text NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (bot_id, source, ref)
);
-- Statistics reads a server's uses in a range.
CREATE INDEX tag_uses_guild_at_idx ON tag_uses (guild_id, at);
