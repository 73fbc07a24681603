-- The bot API: keys, ticket events, tickets (recomputed from their events), transcripts (v2).
-- Timestamps are written by the API (its clock) or come from the bot's events.

-- A key per bot application; only the sha256 of the whole key is stored. A rotated key keeps working
-- until expires_at (the overlap window), so a bot can switch without a gap.
CREATE TABLE bot_keys (
  id text PRIMARY KEY,                 -- the key's public id (part of the key, in logs)
  bot_id text NOT NULL,                -- the bot's Discord application id
  name text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz,              -- null: no end; set when rotated
  last_used_at timestamptz
);
CREATE INDEX bot_keys_bot_idx ON bot_keys (bot_id);

-- Every event as the bot sent it; (bot_id, event_id) makes a batch sent twice have one effect.
CREATE TABLE ticket_events (
  seq bigserial,
  bot_id text NOT NULL,
  event_id text NOT NULL,
  guild_id text NOT NULL,
  ticket_id text NOT NULL,
  type text NOT NULL,
  at timestamptz NOT NULL,
  data jsonb NOT NULL,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (bot_id, event_id)
);
CREATE INDEX ticket_events_ticket_idx ON ticket_events (bot_id, guild_id, ticket_id);

-- One row per ticket, recomputed from all its events whenever one arrives (so events arriving out of
-- order are applied as if in order). Statistics read this table.
CREATE TABLE tickets (
  bot_id text NOT NULL,
  guild_id text NOT NULL,
  ticket_id text NOT NULL,
  number integer,
  panel_id text,
  opener_id text,
  answers jsonb,
  opened_at timestamptz,               -- null until the 'opened' event has arrived
  claimed_by text,
  first_response_at timestamptz,
  first_response_by text,
  closed_at timestamptz,               -- null while open (a reopen clears it until the next close)
  closed_by text,
  close_reason text,
  reopen_count integer NOT NULL DEFAULT 0,
  messages integer NOT NULL DEFAULT 0,
  staff_messages integer NOT NULL DEFAULT 0,
  rating smallint,
  feedback text,
  transcript_id text,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (bot_id, guild_id, ticket_id)
);
CREATE INDEX tickets_guild_opened_idx ON tickets (guild_id, opened_at);
CREATE INDEX tickets_guild_closed_idx ON tickets (guild_id, closed_at);

-- Transcripts (v2), stored compressed (gzip of the JSON). Searchable columns are copied out.
CREATE TABLE transcripts (
  guild_id text NOT NULL,
  file_id text NOT NULL,
  bot_id text NOT NULL,
  ticket_id text NOT NULL,
  number integer NOT NULL,
  panel_id text,
  opener_id text NOT NULL,
  opener_name text NOT NULL,
  closed_by text,
  closer_name text,
  opened_at timestamptz NOT NULL,
  closed_at timestamptz NOT NULL,
  message_count integer NOT NULL,
  search_text text NOT NULL,           -- the messages' text, lower-cased, cut at 1 MiB (the list's filter)
  json_bytes integer NOT NULL,
  content bytea NOT NULL,              -- gzip of the JSON
  created_at timestamptz NOT NULL,
  PRIMARY KEY (guild_id, file_id)
);
CREATE INDEX transcripts_guild_closed_idx ON transcripts (guild_id, closed_at DESC);
CREATE INDEX transcripts_opener_idx ON transcripts (opener_id, closed_at DESC);

-- Attachments copied from Discord's CDN at upload, so transcripts never lose their files.
CREATE TABLE transcript_attachments (
  guild_id text NOT NULL,
  file_id text NOT NULL,
  attachment_id text NOT NULL,
  filename text NOT NULL,
  content_type text NOT NULL,
  size integer NOT NULL,
  content bytea NOT NULL,
  PRIMARY KEY (guild_id, file_id, attachment_id),
  FOREIGN KEY (guild_id, file_id) REFERENCES transcripts (guild_id, file_id) ON DELETE CASCADE
);
