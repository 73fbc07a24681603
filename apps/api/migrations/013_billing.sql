-- Billing: which provider customer is which user, subscriptions as the providers last described
-- them, the premium slots they give and the servers those cover, and the webhook inbox (a durable
-- queue: each provider event stored once, applied later by whichever API instance takes it).

-- A provider's customer, linked to the user who bought (the checkout carries the user's id).
CREATE TABLE billing_customers (
  provider text NOT NULL CHECK (provider IN ('paddle', 'fastspring', 'discord', 'chargebee')),
  customer_id text NOT NULL,
  user_id text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (provider, customer_id)
);
CREATE INDEX billing_customers_user_idx ON billing_customers (user_id);

-- A subscription as its provider last described it. `provider_version` orders the descriptions (the
-- provider's own: Paddle's updated_at, FastSpring's changed, Chargebee's resource_version, Discord's
-- event time), so an older one arriving late never overwrites a newer one. `premium`: whether the
-- status grants premium; `access_ends_at`: when that ends on its own (a period already paid for);
-- `grace_until`: premium kept this long after a failed payment. What a server's premium is, from
-- these, is `grants_premium` below: one definition, read by every query that asks.
ALTER TABLE subscriptions
  ADD COLUMN plan_id text,
  ADD COLUMN billing_interval text CHECK (billing_interval IN ('month', 'year')),
  ADD COLUMN slots integer NOT NULL DEFAULT 1 CHECK (slots >= 0),
  ADD COLUMN customer_id text,
  ADD COLUMN cancel_at_period_end boolean NOT NULL DEFAULT false,
  ADD COLUMN payment_method text,
  ADD COLUMN payment_method_at timestamptz,   -- when the provider charged it (a later charge's method wins)
  ADD COLUMN access_ends_at timestamptz,
  ADD COLUMN grace_until timestamptz,
  ADD COLUMN provider_version numeric;

CREATE FUNCTION grants_premium(premium boolean, access_ends_at timestamptz, grace_until timestamptz, at timestamptz)
RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT (premium AND (access_ends_at IS NULL OR access_ends_at > at)) OR coalesce(grace_until > at, false)
$$;

-- The premium slots of a subscription (1 to its `slots`; rows beyond it, after a downgrade, cover
-- nothing) and the server each covers. `assigned_at` is when the slot last got its server: moving it
-- again waits for the cooldown.
CREATE TABLE premium_slots (
  subscription_id text NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
  slot integer NOT NULL CHECK (slot >= 1),
  guild_id text,
  assigned_at timestamptz,
  PRIMARY KEY (subscription_id, slot)
);
CREATE INDEX premium_slots_guild_idx ON premium_slots (guild_id) WHERE guild_id IS NOT NULL;

-- The servers subscriptions covered so far become their slots.
INSERT INTO premium_slots (subscription_id, slot, guild_id, assigned_at)
SELECT s.id, g.n, g.guild_id, s.updated_at FROM subscriptions s, unnest(s.servers) WITH ORDINALITY AS g(guild_id, n);
UPDATE subscriptions s SET slots = greatest(s.slots, cardinality(s.servers));
ALTER TABLE subscriptions DROP COLUMN servers;

-- The webhook inbox. One row per provider event (`event_key`: the provider's event id, or what
-- identifies an event where the provider gives none), written before the provider gets its answer;
-- `state` pending until a worker applies it (`applied`), or gives up after its attempts (`dead`: staff
-- see and replay these). `subject` and `version`: the provider's subscription and its ordering key.
CREATE TABLE webhook_events (
  id bigserial PRIMARY KEY,
  provider text NOT NULL CHECK (provider IN ('paddle', 'fastspring', 'discord', 'chargebee')),
  event_key text NOT NULL,
  event_type text NOT NULL,
  subject text,
  occurred_at timestamptz,
  payload jsonb NOT NULL,
  received_at timestamptz NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'applied', 'dead')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_error text,
  applied_at timestamptz,
  outcome text,
  UNIQUE (provider, event_key)
);
CREATE INDEX webhook_events_due_idx ON webhook_events (next_attempt_at, id) WHERE state = 'pending';
-- "Where does my purchase stand": a transaction's completed event, by Paddle's transaction id.
CREATE INDEX webhook_events_transaction_idx ON webhook_events ((payload->'data'->>'id')) WHERE event_type = 'transaction.completed';
CREATE INDEX webhook_events_dead_idx ON webhook_events (provider, received_at DESC) WHERE state = 'dead';
