-- Server configurations and Web Logs (the server dashboard). Every save is a version; the newest is
-- the live configuration. A version is written with the Web Logs entry that describes it, in one
-- transaction (services/server-config.ts); the primary key makes a second save of the same version
-- fail, so two admins saving at once never lose an update.

CREATE TABLE server_config_versions (
  guild_id text NOT NULL,
  version integer NOT NULL CHECK (version > 0),
  config jsonb NOT NULL,
  summary text NOT NULL,
  actor_id text NOT NULL,
  actor_name text NOT NULL,
  actor_avatar_url text,
  restored_from integer,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (guild_id, version)
);

CREATE TABLE web_logs (
  id bigserial PRIMARY KEY,
  guild_id text NOT NULL,
  at timestamptz NOT NULL,
  actor_id text NOT NULL,
  actor_name text NOT NULL,
  actor_avatar_url text,
  action text NOT NULL,
  target text NOT NULL,
  version integer,
  changes jsonb NOT NULL
);
CREATE INDEX web_logs_guild_idx ON web_logs (guild_id, id DESC);
