-- What staff looked at or did outside a server (a user's billing, for a start): who, when, what.
CREATE TABLE staff_audit (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL,
  staff_id text NOT NULL,
  action text NOT NULL,
  target text NOT NULL
);
CREATE INDEX staff_audit_at_idx ON staff_audit (at DESC);
CREATE INDEX staff_audit_staff_idx ON staff_audit (staff_id, at DESC);
