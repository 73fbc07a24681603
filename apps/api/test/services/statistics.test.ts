import type { Plan, TicketEvent } from '@tickety/api-contract';
import { describe, expect, it } from 'vitest';
import { Statistics } from '../../src/services/statistics';
import { Tickets } from '../../src/services/tickets';
import { DAY, HOUR, MINUTE, START } from '../helpers/clock';
import { databases } from '../helpers/db';
import { useServiceDeps } from './helpers';

const GUILD = '1100000000000000101';
const OTHER = '1100000000000000102';
const STAFF = ['1000000000000000001', '1000000000000000005'] as const;
/** Plans that let every range through (the plan rules are the route test's). */
const PLANS = [{ id: 'free', limits: { statisticsDays: 400, statisticsExport: true } }] as unknown as Plan[];

/** A small deterministic random source, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** The quarter-hour slots as the tickets say they should be (what migration 012's triggers keep). */
const EXPECTED_SLOTS = `
  SELECT x.guild_id, x.slot, sum(x.opened)::int AS opened, sum(x.closed)::int AS closed,
    sum(x.rated_1)::int AS r1, sum(x.rated_2)::int AS r2, sum(x.rated_3)::int AS r3, sum(x.rated_4)::int AS r4, sum(x.rated_5)::int AS r5
  FROM tickets t, ticket_slot_parts(1, t.guild_id, t.opened_at, t.closed_at, t.rating) x
  GROUP BY 1, 2 ORDER BY 1, 2`;
const STORED_SLOTS = `
  SELECT guild_id, slot, opened, closed, rated_1 AS r1, rated_2 AS r2, rated_3 AS r3, rated_4 AS r4, rated_5 AS r5 FROM ticket_slots
  WHERE opened <> 0 OR closed <> 0 OR rated_1 <> 0 OR rated_2 <> 0 OR rated_3 <> 0 OR rated_4 <> 0 OR rated_5 <> 0
  ORDER BY 1, 2`;

describe.each(databases())('Statistics\' quarter-hour roll-up on $name', (database) => {
  const deps = useServiceDeps(database);

  it('follows every change to the tickets: batches in any order, twice, at once, reopens, new ratings and deletions', async () => {
    const tickets = new Tickets(deps.db, deps.clock);
    const rnd = random(7);
    const events: TicketEvent[] = [];
    for (let n = 0; n < 120; n++) {
      const serverId = n % 5 === 0 ? OTHER : GUILD;
      const opened = START - 20 * DAY + Math.floor(rnd() * 19 * DAY);
      const at = (ms: number) => new Date(opened + ms).toISOString();
      const base = { serverId, ticketId: `t${n}` };
      const staffId = STAFF[n % 2]!;
      events.push({ ...base, id: `${n}-o`, type: 'opened', at: at(0), panelId: 'support', openerId: '1300000000000000001', number: n + 1, answers: [] });
      if (n % 7 === 3) continue; // still open
      events.push({ ...base, id: `${n}-c`, type: 'closed', at: at(Math.floor(rnd() * 3 * DAY)), closedBy: staffId, reason: null });
      if (n % 3 === 0) events.push({ ...base, id: `${n}-r`, type: 'rated', at: at(4 * DAY), rating: 1 + (n % 5), feedback: null });
      if (n % 4 === 0) {
        // Reopened a day after its first close and closed again later; rated again.
        events.push({ ...base, id: `${n}-ro`, type: 'reopened', at: at(3 * DAY + HOUR), by: staffId });
        events.push({ ...base, id: `${n}-c2`, type: 'closed', at: at(3 * DAY + 2 * HOUR + 7 * MINUTE), closedBy: staffId, reason: 'again' });
        events.push({ ...base, id: `${n}-r2`, type: 'rated', at: at(5 * DAY), rating: 5 - (n % 5), feedback: null });
      }
    }
    // Shuffled, in batches, some at once; then every batch again (no effect the second time).
    for (let i = events.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [events[i], events[j]] = [events[j]!, events[i]!];
    }
    const batches = Array.from({ length: Math.ceil(events.length / 40) }, (_, i) => events.slice(i * 40, i * 40 + 40));
    for (let i = 0; i < batches.length; i += 3) await Promise.all(batches.slice(i, i + 3).map((b) => tickets.ingest('bot', b)));
    for (const b of batches) expect((await tickets.ingest('bot', b)).accepted).toBe(0);

    // Each ticket as its events say, whatever order and concurrency they came in.
    const { rows: stored } = await deps.db.query<{ ticket_id: string; opened: boolean; closed: boolean; rating: number | null }>(
      'SELECT ticket_id, opened_at IS NOT NULL AS opened, closed_at IS NOT NULL AS closed, rating FROM tickets ORDER BY ticket_id',
    );
    expect(stored).toEqual(
      Array.from({ length: 120 }, (_, n) => ({ ticket_id: `t${n}`, opened: true, closed: n % 7 !== 3, rating: n % 7 === 3 ? null : n % 4 === 0 ? 5 - (n % 5) : n % 3 === 0 ? 1 + (n % 5) : null }))
        .sort((a, b) => (a.ticket_id < b.ticket_id ? -1 : 1)),
    );
    const expected = (await deps.db.query(EXPECTED_SLOTS)).rows;
    expect(expected.length).toBeGreaterThan(100);
    expect((await deps.db.query(STORED_SLOTS)).rows).toEqual(expected);

    // A reopen without a new close takes the ticket out of its closed slot; deleting tickets takes them away.
    await tickets.ingest('bot', [{ serverId: GUILD, ticketId: 't1', id: '1-ro', type: 'reopened', at: new Date(START - DAY).toISOString(), by: STAFF[0] }]);
    await deps.db.query(`DELETE FROM tickets WHERE ticket_id IN ('t2', 't6', 't7')`);
    const after = (await deps.db.query(EXPECTED_SLOTS)).rows;
    expect(after).not.toEqual(expected);
    expect((await deps.db.query(STORED_SLOTS)).rows).toEqual(after);
  });

  it('reads days and hours from the slots as the tickets say, in a zone with quarter-hour offsets', async () => {
    const statistics = new Statistics(deps.db, deps.clock, PLANS);
    // Kathmandu is UTC+5:45: its midnights and hours fall on quarter hours of UTC only.
    const tz = 'Asia/Kathmandu';
    const answer = await statistics.read(GUILD, { range: 'custom', from: '2026-02-08', to: '2026-03-02', tz });
    const { rows } = await deps.db.query<{ opened_at: Date; closed_at: Date | null }>(`SELECT opened_at, closed_at FROM tickets WHERE guild_id = $1`, [GUILD]);
    const local = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' }).formatToParts(d);
    const dayOf = (d: Date) => local(d).filter((p) => ['year', 'month', 'day'].includes(p.type)).map((p) => p.value).join('-');
    const hourOf = (d: Date) => Number(local(d).find((p) => p.type === 'hour')!.value);
    const inRange = (d: Date) => dayOf(d) >= answer.from && dayOf(d) <= answer.to;
    const daily = answer.daily.map((day) => ({
      date: day.date,
      opened: rows.filter((r) => dayOf(new Date(r.opened_at)) === day.date).length,
      closed: rows.filter((r) => r.closed_at && dayOf(new Date(r.closed_at)) === day.date).length,
    }));
    expect(answer.daily.map(({ date, opened, closed }) => ({ date, opened, closed }))).toEqual(daily);
    expect(daily.reduce((n, d) => n + d.opened, 0)).toBeGreaterThan(50);
    const hours = Array.from({ length: 24 }, (_, h) => rows.filter((r) => inRange(new Date(r.opened_at)) && hourOf(new Date(r.opened_at)) === h).length);
    expect(answer.hours).toEqual(hours);
    expect(answer.totals.opened).toBe(daily.reduce((n, d) => n + d.opened, 0));
  });

  it('counts from the tickets where a zone\'s midnights are not on quarter hours (Monrovia, UTC−0:44:30 until 1972)', async () => {
    const tickets = new Tickets(deps.db, deps.clock);
    // 00:44:35 UTC on 11 January 1971 was 00:00:05 on the 11th in Monrovia; its quarter hour (from
    // 00:30 UTC) began on the 10th there, so only counting the tickets themselves puts them on the right day.
    await tickets.ingest('bot', [
      { serverId: GUILD, ticketId: 'm1', id: 'm1-o', type: 'opened', at: '1971-01-11T00:44:35Z', panelId: 'support', openerId: '1300000000000000001', number: 900, answers: [] },
      { serverId: GUILD, ticketId: 'm1', id: 'm1-c', type: 'closed', at: '1971-01-11T00:44:50Z', closedBy: STAFF[0], reason: null },
      { serverId: GUILD, ticketId: 'm2', id: 'm2-o', type: 'opened', at: '1971-01-10T12:00:00Z', panelId: 'support', openerId: '1300000000000000001', number: 901, answers: [] },
      { serverId: GUILD, ticketId: 'm2', id: 'm2-c', type: 'closed', at: '1971-01-11T00:44:40Z', closedBy: STAFF[0], reason: null },
    ]);
    const statistics = new Statistics(deps.db, deps.clock, PLANS);
    const answer = await statistics.read(GUILD, { range: 'custom', from: '1971-01-10', to: '1971-01-11', tz: 'Africa/Monrovia' });
    expect(answer.daily.map(({ date, opened, closed }) => ({ date, opened, closed }))).toEqual([
      { date: '1971-01-10', opened: 1, closed: 0 },
      { date: '1971-01-11', opened: 1, closed: 2 },
    ]);
    expect(answer.hours[0]).toBe(1);
    expect(answer.hours[11]).toBe(1);
  });

  it('ends a range at its last day\'s local midnight, on a day of 25 hours too', async () => {
    const tickets = new Tickets(deps.db, deps.clock);
    // Berlin's clocks went back on 26 October 2025: the day lasted 25 hours, to 23:00 UTC.
    await tickets.ingest('bot', [
      { serverId: GUILD, ticketId: 'd1', id: 'd1-o', type: 'opened', at: '2025-10-26T22:30:00Z', panelId: 'support', openerId: '1300000000000000001', number: 950, answers: [] },
      { serverId: GUILD, ticketId: 'd2', id: 'd2-o', type: 'opened', at: '2025-10-26T23:00:00Z', panelId: 'support', openerId: '1300000000000000001', number: 951, answers: [] },
    ]);
    const statistics = new Statistics(deps.db, deps.clock, PLANS);
    const answer = await statistics.read(GUILD, { range: 'custom', from: '2025-10-26', to: '2025-10-26', tz: 'Europe/Berlin' });
    expect(answer.daily.map(({ date, opened }) => ({ date, opened }))).toEqual([{ date: '2025-10-26', opened: 1 }]);
    expect(answer.totals.opened).toBe(1);
    expect(answer.hours[23]).toBe(1);
  });
});
