-- Users, their Discord guild lists, sessions, sign-in states, staff, subscriptions, bot shards.
-- Timestamps are written by the API (its clock), not by now(), so tests can move time.

CREATE TABLE users (
  id text PRIMARY KEY,                         -- Discord user id
  username text NOT NULL,
  global_name text,
  avatar text,
  guilds_refreshed_at timestamptz,             -- last successful fetch of the guild list
  guilds_refresh_attempted_at timestamptz,     -- last POST /api/auth/guilds/refresh (10 s limit)
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE guilds (
  id text PRIMARY KEY,                         -- Discord guild id
  name text NOT NULL,
  icon text,
  bot_in_guild boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL
);

-- The user's guild list as Discord last sent it (position keeps Discord's order).
CREATE TABLE user_guilds (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  guild_id text NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  position integer NOT NULL,
  owner boolean NOT NULL,
  permissions text NOT NULL,                   -- Discord's decimal string
  can_manage boolean NOT NULL,
  PRIMARY KEY (user_id, guild_id)
);
CREATE INDEX user_guilds_guild_idx ON user_guilds (guild_id);

-- Server-side sessions. The cookie holds a random token; only its sha256 is stored.
-- Discord tokens are AES-256-GCM ciphertexts (see src/lib/crypto.ts), bound to the session id.
CREATE TABLE sessions (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,             -- absolute expiry; idle expiry is last_seen_at + idle
  revoked_at timestamptz,
  discord_access_token text,
  discord_refresh_token text,
  discord_token_expires_at timestamptz,
  discord_scope text,
  user_agent text
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

-- One-time OAuth states (single use: deleted when consumed). The PKCE verifier is encrypted.
CREATE TABLE oauth_states (
  state_hash text PRIMARY KEY,
  code_verifier text NOT NULL,
  return_origin text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX oauth_states_expires_idx ON oauth_states (expires_at);

-- Staff other than STAFF_OWNER_IDS, with their flags (granted by the team manager).
CREATE TABLE staff_members (
  user_id text PRIMARY KEY,
  permissions text[] NOT NULL DEFAULT '{}',
  added_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Subscriptions across providers (billing fills these; `sub` in /api/auth/@me summarises them).
CREATE TABLE subscriptions (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  provider text NOT NULL CHECK (provider IN ('paddle', 'fastspring', 'discord', 'chargebee')),
  provider_subscription_id text NOT NULL,
  status text NOT NULL,
  premium boolean NOT NULL DEFAULT false,      -- whether this status grants premium now
  servers text[] NOT NULL DEFAULT '{}',        -- guild ids it covers
  current_period_end timestamptz,
  provider_updated_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, provider_subscription_id)
);
CREATE INDEX subscriptions_user_idx ON subscriptions (user_id);

-- Bot shards' heartbeats (written by the bot API), read by /api/status.
CREATE TABLE bot_shards (
  id integer PRIMARY KEY,
  state text NOT NULL,
  latency_ms integer,
  guilds integer NOT NULL DEFAULT 0,
  last_heartbeat timestamptz NOT NULL
);
