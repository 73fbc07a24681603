-- Auto-close (docs/api.md, "Auto-close"): the Tickets queue shows when each open ticket closes, from
-- its last member and staff messages and the opener's last "Keep open" (the bot's `kept_open` event).
-- This partial index finds that press without reading the ticket's other events (a ticket with many
-- messages has many `messages` events). Not CONCURRENTLY (migrations run in one transaction).
CREATE INDEX IF NOT EXISTS ticket_events_kept_open_idx ON ticket_events (bot_id, guild_id, ticket_id, at) WHERE type = 'kept_open';
