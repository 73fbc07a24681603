-- A bot key acts only on the servers its bot application serves. The product's own application
-- (DISCORD_CLIENT_ID) serves every server no row here gives to another application; any other
-- application (a custom bot) serves only the servers listed for it. Operators write the rows
-- (docs/operations.md, "Bot API keys").
CREATE TABLE bot_servers (
  guild_id text PRIMARY KEY,
  bot_id text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX bot_servers_bot_idx ON bot_servers (bot_id);

-- Shards belong to a bot application: one bot's heartbeats never overwrite another's. The rows
-- are heartbeats (rewritten every few seconds), so the old ones are dropped rather than guessed.
DELETE FROM bot_shards;
ALTER TABLE bot_shards ADD COLUMN bot_id text NOT NULL;
ALTER TABLE bot_shards DROP CONSTRAINT bot_shards_pkey;
ALTER TABLE bot_shards ADD PRIMARY KEY (bot_id, id);
