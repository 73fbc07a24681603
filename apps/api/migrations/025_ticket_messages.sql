-- The messages of open tickets as the bot sends them (POST /api/bot/v1/messages), for the dashboard's
-- live conversation (src/services/ticket-messages.ts). One row per message, whatever order its events
-- arrive in: `message` and `author` from its creation, `edit` the newest edit (by its time), and
-- `deleted_at` once deleted (for good). `seq` is taken anew on every change, as a reader's cursor; it
-- is taken when a statement runs, not when it commits, so a reader must not take "after N" as "every
-- change after N" while writers overlap (read below the oldest running writer's snapshot, or re-read
-- an overlap). A ticket's rows are deleted when its transcript is stored.
CREATE SEQUENCE ticket_messages_seq;
CREATE TABLE ticket_messages (
  bot_id text NOT NULL,
  guild_id text NOT NULL,
  ticket_id text NOT NULL,
  message_id text NOT NULL,
  author jsonb,                 -- TranscriptUser; null until the creation arrives
  message jsonb,                -- TranscriptMessage as created; null until the creation arrives
  created_at timestamptz,
  edit jsonb,                   -- { content, embeds, attachments, editedAt } of the newest edit
  edit_at timestamptz,
  deleted_at timestamptz,
  seq bigint NOT NULL DEFAULT nextval('ticket_messages_seq'),
  PRIMARY KEY (bot_id, guild_id, ticket_id, message_id)
);
CREATE INDEX ticket_messages_changes_idx ON ticket_messages (bot_id, guild_id, ticket_id, seq);
-- The check that no transcript of the ticket is stored yet.
CREATE INDEX transcripts_ticket_idx ON transcripts (guild_id, ticket_id);
