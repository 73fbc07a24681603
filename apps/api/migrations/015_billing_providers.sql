-- "Where does my purchase stand" for FastSpring: its activation event, by the order that bought it.
CREATE INDEX webhook_events_fastspring_order_idx ON webhook_events ((payload->'data'->>'initialOrderId')) WHERE event_type = 'subscription.activated';
-- The system page's queue figures: what is not applied yet, per provider.
CREATE INDEX webhook_events_open_idx ON webhook_events (provider, received_at) WHERE state <> 'applied';
