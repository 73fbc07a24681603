-- What the dashboard asks a bot to do in a ticket (src/services/bot-commands.ts): queued here, taken by
-- the bot's poll (FOR UPDATE SKIP LOCKED: two pollers never take the same command), reported back.
-- A command not taken by expires_at expires; one taken but not reported by lease_until is offered
-- again (same id, attempt + 1) until expires_at, after which it ends as lost. Kept 30 days.
CREATE TABLE bot_commands (
  id text PRIMARY KEY,
  bot_id text NOT NULL,
  guild_id text NOT NULL,
  ticket_id text NOT NULL,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  requested_by jsonb NOT NULL,          -- { id, name, avatarUrl }: who acts (a reply is posted as them)
  requested_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  state text NOT NULL DEFAULT 'queued', -- queued, taken, done, failed (expired and lost are read from the times)
  attempts integer NOT NULL DEFAULT 0,
  lease_until timestamptz,
  finished_at timestamptz,
  outcome jsonb                         -- the bot's report: { messageId } or { reason, message }
);
-- The poll's scan: a bot's commands still to hand out, oldest first.
CREATE INDEX bot_commands_open_idx ON bot_commands (bot_id, requested_at) WHERE state IN ('queued', 'taken');
CREATE INDEX bot_commands_ticket_idx ON bot_commands (guild_id, ticket_id, requested_at);
