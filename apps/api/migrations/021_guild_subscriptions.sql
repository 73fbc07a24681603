-- A Discord server subscription (an entitlement with a `guild_id`): it gives premium to that server,
-- not a slot to the buyer. `guild_id` is the server; its one premium slot covers it and never moves
-- (docs/api.md, "Billing"). NULL for every other subscription (the buyer places its slots).
ALTER TABLE subscriptions ADD COLUMN guild_id text;
