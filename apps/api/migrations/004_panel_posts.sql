-- Panels and multi-panels the bot has posted (services/panel-posts.ts): one message per item. Sending
-- an item again replaces its row; `posted_version` is the configuration version the message shows
-- (compared with the live one to tell an outdated message); `deleted_at` is set when Discord says the
-- message or its channel is gone (Unknown Message 10008 / Unknown Channel 10003).

CREATE TABLE panel_posts (
  guild_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('panel', 'multiPanel')),
  item_id text NOT NULL,
  channel_id text NOT NULL,
  message_id text NOT NULL,
  posted_version integer NOT NULL CHECK (posted_version > 0),
  posted_at timestamptz NOT NULL,
  deleted_at timestamptz,
  PRIMARY KEY (guild_id, kind, item_id)
);
