-- The Tickets page (src/services/ticket-queue.ts, ticket-actions.ts): the labels staff put on a
-- ticket (Tickety's own data, ids of the server's configured labels; the bot mirrors them through the
-- `set_labels` command), and the files staff upload for a reply.
ALTER TABLE tickets ADD COLUMN labels text[] NOT NULL DEFAULT '{}';
-- A queue row's last message: a ticket's newest message, read backwards from its end. Not CONCURRENTLY
-- (migrations run in one transaction): on a large table, build it by hand first (docs/operations.md).
CREATE INDEX IF NOT EXISTS ticket_messages_created_idx ON ticket_messages (bot_id, guild_id, ticket_id, created_at);
-- A reply's files: the bytes in the blob store under `ticket-attachments/<id>`, the row here. Used by
-- a reply (command_id set) they are kept with the command (30 days); unused, deleted after a day.
CREATE TABLE ticket_attachments (
  id text PRIMARY KEY,                  -- att_ and 26 base32 characters
  guild_id text NOT NULL,
  ticket_id text NOT NULL,              -- the ticket it was uploaded in: only a reply there may send it
  user_id text NOT NULL,                -- who uploaded it: only they may send it
  filename text NOT NULL,
  content_type text NOT NULL,
  size integer NOT NULL,
  created_at timestamptz NOT NULL,
  command_id text                       -- the reply that carries it
);
-- Pruning (sent ones after 30 days; unsent after a day) and the room for unsent files per user and
-- per server (src/services/ticket-actions.ts) each read an index.
CREATE INDEX ticket_attachments_created_idx ON ticket_attachments (created_at);
CREATE INDEX ticket_attachments_unsent_idx ON ticket_attachments (created_at) WHERE command_id IS NULL;
CREATE INDEX ticket_attachments_unsent_user_idx ON ticket_attachments (user_id, created_at) WHERE command_id IS NULL;
CREATE INDEX ticket_attachments_unsent_guild_idx ON ticket_attachments (guild_id, created_at) WHERE command_id IS NULL;
