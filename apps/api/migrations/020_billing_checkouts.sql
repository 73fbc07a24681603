-- Checkouts the API made for a signed-in user (docs/api.md, "Billing"): the one place a purchase's
-- buyer is read from. A subscription belongs to the user of the checkout it came from: Paddle's
-- transaction the API created (`reference`: its id, named by the subscription's `subscription.created`),
-- FastSpring's secure payload (`reference`: a random reference in its tags). Nothing the browser sends
-- (Paddle's custom data, FastSpring's tags) names a buyer any more.
CREATE TABLE billing_checkouts (
  provider text NOT NULL CHECK (provider IN ('paddle', 'fastspring', 'discord', 'chargebee')),
  reference text NOT NULL,
  user_id text NOT NULL,
  price_id text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (provider, reference)
);
CREATE INDEX billing_checkouts_user_idx ON billing_checkouts (user_id);
