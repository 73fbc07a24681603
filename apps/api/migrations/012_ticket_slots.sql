-- Statistics' counts per day and per hour (services/statistics.ts) read a roll-up instead of the
-- tickets: per server and quarter hour (UTC), how many tickets opened in it, how many closed in it
-- and their ratings. Every time zone in use today is offset from UTC by a whole number of quarter
-- hours, so a local day or hour is a whole number of these slots, and summing at most 35,040 slots
-- for a year replaces reading every ticket twice (over 365 days of a server with 166,000 tickets the
-- two queries took ~200 ms of the machine's time alone, bench/statistics.mjs). The queries check
-- that the range's boundaries fall on slots and read the tickets when they do not (an old offset).
--
-- Kept by statement triggers on tickets: each statement's old rows are taken away and its new rows
-- added, summed per slot and written in slot order (so two batches at once never lock the same slots
-- in opposite orders). A ticket counts as closed only when it has opened, as in the queries.
CREATE TABLE ticket_slots (
  guild_id text NOT NULL,
  slot timestamptz NOT NULL,            -- the quarter hour's start
  opened integer NOT NULL DEFAULT 0,    -- tickets whose opened_at is in the slot
  closed integer NOT NULL DEFAULT 0,    -- tickets (opened) whose closed_at is in the slot
  rated_1 integer NOT NULL DEFAULT 0,   -- of those closed, rated 1 to 5
  rated_2 integer NOT NULL DEFAULT 0,
  rated_3 integer NOT NULL DEFAULT 0,
  rated_4 integer NOT NULL DEFAULT 0,
  rated_5 integer NOT NULL DEFAULT 0,
  PRIMARY KEY (guild_id, slot)
);

-- What a row of tickets counts for: `sign` in its opened slot, and `sign` in its closed slot.
CREATE FUNCTION ticket_slot_parts(sign integer, g text, opened timestamptz, closed timestamptz, rating smallint)
RETURNS SETOF ticket_slots LANGUAGE sql IMMUTABLE AS $$
  SELECT g, date_bin('15 minutes', opened, timestamptz '2000-01-01 00:00:00+00'), sign, 0, 0, 0, 0, 0, 0
  WHERE opened IS NOT NULL
  UNION ALL
  SELECT g, date_bin('15 minutes', closed, timestamptz '2000-01-01 00:00:00+00'), 0, sign,
    CASE WHEN rating = 1 THEN sign ELSE 0 END, CASE WHEN rating = 2 THEN sign ELSE 0 END, CASE WHEN rating = 3 THEN sign ELSE 0 END,
    CASE WHEN rating = 4 THEN sign ELSE 0 END, CASE WHEN rating = 5 THEN sign ELSE 0 END
  WHERE opened IS NOT NULL AND closed IS NOT NULL
$$;

-- A statement's changes to tickets, applied to the slots.
CREATE FUNCTION ticket_slots_keep() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  parts ticket_slots[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    parts := ARRAY(SELECT x FROM new_rows n, ticket_slot_parts(1, n.guild_id, n.opened_at, n.closed_at, n.rating) x);
  ELSIF TG_OP = 'UPDATE' THEN
    parts := ARRAY(SELECT x FROM new_rows n, ticket_slot_parts(1, n.guild_id, n.opened_at, n.closed_at, n.rating) x
                   UNION ALL SELECT x FROM old_rows o, ticket_slot_parts(-1, o.guild_id, o.opened_at, o.closed_at, o.rating) x);
  ELSE
    parts := ARRAY(SELECT x FROM old_rows o, ticket_slot_parts(-1, o.guild_id, o.opened_at, o.closed_at, o.rating) x);
  END IF;
  INSERT INTO ticket_slots AS s (guild_id, slot, opened, closed, rated_1, rated_2, rated_3, rated_4, rated_5)
  SELECT p.guild_id, p.slot, sum(p.opened), sum(p.closed), sum(p.rated_1), sum(p.rated_2), sum(p.rated_3), sum(p.rated_4), sum(p.rated_5)
  FROM unnest(parts) p
  GROUP BY p.guild_id, p.slot
  HAVING sum(p.opened) <> 0 OR sum(p.closed) <> 0 OR sum(p.rated_1) <> 0 OR sum(p.rated_2) <> 0 OR sum(p.rated_3) <> 0 OR sum(p.rated_4) <> 0 OR sum(p.rated_5) <> 0
  ORDER BY p.guild_id, p.slot
  ON CONFLICT (guild_id, slot) DO UPDATE SET
    opened = s.opened + EXCLUDED.opened, closed = s.closed + EXCLUDED.closed,
    rated_1 = s.rated_1 + EXCLUDED.rated_1, rated_2 = s.rated_2 + EXCLUDED.rated_2, rated_3 = s.rated_3 + EXCLUDED.rated_3,
    rated_4 = s.rated_4 + EXCLUDED.rated_4, rated_5 = s.rated_5 + EXCLUDED.rated_5;
  RETURN NULL;
END
$$;

CREATE TRIGGER tickets_slots_insert AFTER INSERT ON tickets REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_slots_keep();
CREATE TRIGGER tickets_slots_update AFTER UPDATE ON tickets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_slots_keep();
CREATE TRIGGER tickets_slots_delete AFTER DELETE ON tickets REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_slots_keep();

-- The tickets already stored.
INSERT INTO ticket_slots (guild_id, slot, opened, closed, rated_1, rated_2, rated_3, rated_4, rated_5)
SELECT x.guild_id, x.slot, sum(x.opened), sum(x.closed), sum(x.rated_1), sum(x.rated_2), sum(x.rated_3), sum(x.rated_4), sum(x.rated_5)
FROM tickets t, ticket_slot_parts(1, t.guild_id, t.opened_at, t.closed_at, t.rating) x
GROUP BY x.guild_id, x.slot;
