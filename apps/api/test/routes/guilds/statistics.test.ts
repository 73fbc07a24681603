import { ApiError, StatisticsAnswer } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverTimeZone } from '../../../src/services/statistics';
import { useTestApp } from '../../helpers/app';
import { Browser } from '../../helpers/browser';
import { databases } from '../../helpers/db';
import { signIn } from '../../helpers/oauth';

const { ava, nico, cleo } = DEMO_USERS;
const ARCADE = DEMO_GUILDS.avasArcade.id;
const MINUTE = 60;

/**
 * A fixture computed by hand (the test clock's today is 2026-03-02, 10:00 UTC; the 7-day range is
 * 02-24 to 03-02, the previous one 02-17 to 02-23):
 * T1 02-25 10:00 → answered 10 min → closed 12:00 (2 h), claimed by Ava, 5 stars, panel support
 * T2 02-26 23:30 → 30 min → closed 02-27 01:30 (2 h), answered by Nico, 3 stars, support
 * T3 02-27 08:00 → 60 min → closed 03-01 08:00 (48 h), claimed by Ava, 4 stars, billing
 * T4 03-01 20:00 → still open, support
 * T5 02-20 10:00 → 5 min → closed 11:00 (1 h), Ava, 1 star (previous range)
 * T6 02-23 22:00 → 20 min → closed 02-24 02:00 (4 h), Nico, not rated (opened before, closed within)
 */
const isoAt = (day: string, time: string) => `2026-${day}T${time}:00Z`;
const FIXTURE = [
  ['t1', 'support', isoAt('02-25', '10:00'), isoAt('02-25', '10:10'), ava.id, ava.id, isoAt('02-25', '12:00'), 5],
  ['t2', 'support', isoAt('02-26', '23:30'), isoAt('02-27', '00:00'), null, nico.id, isoAt('02-27', '01:30'), 3],
  ['t3', 'billing', isoAt('02-27', '08:00'), isoAt('02-27', '09:00'), ava.id, ava.id, isoAt('03-01', '08:00'), 4],
  ['t4', 'support', isoAt('03-01', '20:00'), null, null, null, null, null],
  ['t5', 'support', isoAt('02-20', '10:00'), isoAt('02-20', '10:05'), null, ava.id, isoAt('02-20', '11:00'), 1],
  ['t6', 'support', isoAt('02-23', '22:00'), isoAt('02-23', '22:20'), null, nico.id, isoAt('02-24', '02:00'), null],
] as const;

describe.each(databases())('Statistics (/api/guilds/:server/statistics) on $name', (database) => {
  const t = useTestApp(database);
  let browser: Browser;

  beforeAll(async () => {
    for (const [id, panel, opened, fr, claimed, frBy, closed, rating] of FIXTURE) {
      await t.db.query(
        `INSERT INTO tickets (bot_id, guild_id, ticket_id, number, panel_id, opener_id, opened_at, first_response_at, claimed_by, first_response_by, closed_at, rating, updated_at)
         VALUES ('bot', $1, $2, 1, $3, $4, $5, $6, $7, $8, $9, $10, now())`,
        [ARCADE, id, panel, cleo.id, opened, fr, claimed, frBy, closed, rating],
      );
    }
    // Another server's tickets never count here.
    await t.db.query(`INSERT INTO tickets (bot_id, guild_id, ticket_id, opened_at, updated_at) VALUES ('bot', '1100000000000000002', 'x', $1, now())`, [isoAt('02-25', '10:00')]);
    browser = new Browser(t.app);
    await signIn(browser, ava.id);
  });

  const read = async (query: string) => {
    const res = await browser.get(`/api/guilds/${ARCADE}/statistics${query}`);
    expect(res.statusCode, res.body).toBe(200);
    // Each of the seven queries' time, for devtools and bench/statistics.mjs.
    expect(String(res.headers['server-timing']).split(', ').map((t) => t.split(';')[0]).sort()).toEqual(['daily', 'hours', 'panels', 'previous', 'staff', 'tags', 'totals']);
    return StatisticsAnswer.parse(res.json());
  };

  it('computes the totals, medians and p90 of the range and the previous one', async () => {
    const answer = await read('');
    expect(answer).toMatchObject({ range: '7d', tz: 'UTC', serverTz: null, from: '2026-02-24', to: '2026-03-02', previousFrom: '2026-02-17', previousTo: '2026-02-23' });
    expect(answer.totals).toEqual({
      opened: 4,
      closed: 4,
      backlog: 1,
      firstResponseMedian: 30 * MINUTE,
      firstResponseP90: 3240, // 1800 + 0.8 × (3600 − 1800)
      resolutionMedian: 10_800, // (7200 + 14400) / 2
      resolutionP90: 125_280, // 14400 + 0.7 × (172800 − 14400)
      ratingAverage: 4,
      rated: 3,
    });
    expect(answer.previous).toMatchObject({ opened: 2, closed: 1, backlog: 1, firstResponseMedian: 750, rated: 1, ratingAverage: 1 });
    expect(answer.ratings).toEqual([0, 0, 1, 1, 1]);
    expect(answer.limits).toEqual({ premium: false, days: 7, export: false });
  });

  it('counts days, the backlog and hours in the time zone asked for', async () => {
    const utc = await read('?tz=UTC');
    expect(utc.daily).toEqual([
      { date: '2026-02-24', opened: 0, closed: 1, backlog: 0 },
      { date: '2026-02-25', opened: 1, closed: 1, backlog: 0 },
      { date: '2026-02-26', opened: 1, closed: 0, backlog: 1 },
      { date: '2026-02-27', opened: 1, closed: 1, backlog: 1 },
      { date: '2026-02-28', opened: 0, closed: 0, backlog: 1 },
      { date: '2026-03-01', opened: 1, closed: 1, backlog: 1 },
      { date: '2026-03-02', opened: 0, closed: 0, backlog: 1 },
    ]);
    const berlin = await read('?tz=Europe%2FBerlin');
    // 23:30 UTC on the 26th is 00:30 on the 27th in Berlin.
    expect(berlin.daily.find((d) => d.date === '2026-02-26')).toMatchObject({ opened: 0 });
    expect(berlin.daily.find((d) => d.date === '2026-02-27')).toMatchObject({ opened: 2, closed: 1 });
    expect(berlin.hours.map((n, h) => [h, n] as const).filter(([, n]) => n > 0)).toEqual([
      [0, 1],
      [9, 1],
      [11, 1],
      [21, 1],
    ]);
  });

  it('has the per-panel and per-staff tables', async () => {
    const answer = await read('');
    expect(answer.panels).toEqual([
      { panelId: 'support', opened: 3, closed: 2, firstResponseMedian: 1200, resolutionMedian: 7200, ratingAverage: 4 },
      { panelId: 'billing', opened: 1, closed: 1, firstResponseMedian: 3600, resolutionMedian: 172_800, ratingAverage: 4 },
    ]);
    expect(answer.staff).toEqual([
      { userId: ava.id, name: 'Ava', handled: 2, firstResponseMedian: 2100, resolutionMedian: 90_000, ratingAverage: 4.5 },
      // Nico never signed in to the dashboard: his nickname in the server, asked of Discord as the bot.
      { userId: nico.id, name: 'Nico | Co-Admin', handled: 2, firstResponseMedian: 1500, resolutionMedian: 10_800, ratingAverage: 3 },
    ]);
  });

  it('keeps to the plan: a free server sees 7 days; longer and custom ranges are Premium', async () => {
    for (const q of ['?range=30d', '?range=90d', '?range=custom&from=2026-02-01&to=2026-02-03']) {
      const res = await browser.get(`/api/guilds/${ARCADE}/statistics${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(ApiError.parse(res.json()).message).toMatch(/last 7 days.*Premium/);
    }
    for (const q of ['?range=year', '?tz=Mars%2FOlympus', '?range=custom&from=2026-03-02&to=2026-02-01', '?from=2026-02-01', '?range=custom&from=2026-02-30&to=2026-03-01', '?extra=1']) {
      const res = await browser.get(`/api/guilds/${ARCADE}/statistics${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(ApiError.parse(res.json()).code).toBe(1001);
    }
    // A day that does not exist is refused for what it is (before the plan; never a database error).
    const feb30 = await browser.get(`/api/guilds/${ARCADE}/statistics?range=custom&from=2026-02-30&to=2026-03-01`);
    expect(ApiError.parse(feb30.json()).message).toMatch(/calendar/);
  });

  it('is for members with Statistics access only', async () => {
    const other = new Browser(t.app);
    await signIn(other, cleo.id);
    const res = await other.get(`/api/guilds/${ARCADE}/statistics`);
    expect([403, 404]).toContain(res.statusCode);
    expect((await new Browser(t.app).get(`/api/guilds/${ARCADE}/statistics`)).statusCode).toBe(401);
  });
});

describe('the server\'s time zone for Statistics', () => {
  const panel = (zone: string | null) => ({ supportHours: zone ? { timeZone: zone } : undefined });
  it('is the zone most of its panels\' support hours use, the first on a tie, or none', () => {
    const of = (...zones: Array<string | null>) => serverTimeZone({ panels: zones.map(panel) } as never);
    expect(of('Asia/Tokyo', 'Europe/Berlin', 'Europe/Berlin', null)).toBe('Europe/Berlin');
    expect(of('Asia/Tokyo', 'Europe/Berlin')).toBe('Asia/Tokyo');
    expect(of(null, null)).toBeNull();
    expect(of()).toBeNull();
  });
});
