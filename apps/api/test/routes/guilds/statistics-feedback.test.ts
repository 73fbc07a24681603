import { ApiError, FEEDBACK_COMMENTS_PAGE, FeedbackComments } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../helpers/app';
import { Browser } from '../../helpers/browser';
import { databases } from '../../helpers/db';
import { signIn } from '../../helpers/oauth';

const { ava, nico, cleo } = DEMO_USERS;
const ARCADE = DEMO_GUILDS.avasArcade.id;
const OPENER = '1300000000000000042';

/**
 * The test clock's today is 2026-03-02, 10:00 UTC: the 7-day range is 02-24 to 03-02. Rated tickets
 * with comments (c1–c25, closed one hour apart from 02-25 00:00), one rated without a comment, one
 * with a blank one, one closed before the range and one of another server: only c1–c25 are listed.
 */
const at = (hours: number) => new Date(Date.parse('2026-02-25T00:00:00Z') + hours * 3_600_000).toISOString();

describe.each(databases())('Feedback comments (/api/guilds/:server/statistics/feedback) on $name', (database) => {
  const t = useTestApp(database);
  let browser: Browser;

  const insert = (guild: string, id: string, closed: string, rating: number | null, feedback: string | null, extra: { claimedBy?: string; transcript?: string; panel?: string } = {}) =>
    t.db.query(
      `INSERT INTO tickets (bot_id, guild_id, ticket_id, number, panel_id, opener_id, opened_at, claimed_by, closed_at, rating, feedback, transcript_id, updated_at)
       VALUES ('bot', $1, $2, $3, $4, $5, $6::timestamptz - interval '1 hour', $7, $6, $8, $9, $10, now())`,
      [guild, id, Number(id.replace(/\D/g, '')) || 1, extra.panel ?? 'support', id === 'c1' ? ava.id : OPENER, closed, extra.claimedBy ?? null, rating, feedback, extra.transcript ?? null],
    );

  beforeAll(async () => {
    for (let n = 1; n <= 25; n++) {
      await insert(ARCADE, `c${n}`, at(n), 1 + (n % 5), `Comment ${n}`, { claimedBy: n % 2 === 0 ? ava.id : nico.id, panel: n % 3 === 0 ? 'billing' : 'support', ...(n === 25 ? { transcript: 't-c25' } : n === 24 ? { transcript: 't-gone' } : {}) });
    }
    await insert(ARCADE, 'n1', at(30), 4, null);
    await insert(ARCADE, 'n2', at(31), 2, '   ');
    await insert(ARCADE, 'old', '2026-02-20T10:00:00Z', 5, 'Before the range');
    await insert('1100000000000000002', 'x1', at(5), 5, 'Another server');
    // The transcript of c25 is stored (c24's named one is not: no link).
    await t.db.query(
      `INSERT INTO transcripts (guild_id, file_id, bot_id, ticket_id, number, opener_id, opener_name, opened_at, closed_at, message_count, search_text, json_bytes, content, created_at)
       VALUES ($1, 't-c25', 'bot', 'c25', 25, $2, 'Player Fortytwo', $3, $3, 3, '', 10, '\\x00'::bytea, now())`,
      [ARCADE, OPENER, at(25)],
    );
    browser = new Browser(t.app);
    await signIn(browser, ava.id);
  });

  const read = async (query = '') => {
    const res = await browser.get(`/api/guilds/${ARCADE}/statistics/feedback${query}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return FeedbackComments.parse(res.json());
  };

  it('lists the comments of tickets closed in the range, newest first, a page at a time with the total', async () => {
    const first = await read();
    expect(first.total).toBe(25);
    expect(first.items).toHaveLength(FEEDBACK_COMMENTS_PAGE);
    expect(first.items.map((c) => c.ticketId)).toEqual(Array.from({ length: FEEDBACK_COMMENTS_PAGE }, (_, i) => `c${25 - i}`));
    expect(first.items[0]).toEqual({
      ticketId: 'c25',
      number: 25,
      panelId: 'support',
      opener: { id: OPENER, name: 'Player Fortytwo' },
      handledBy: { id: nico.id, name: 'Nico | Co-Admin' },
      rating: 1,
      comment: 'Comment 25',
      closedAt: at(25),
      transcriptFileId: 't-c25',
    });
    // A transcript the ticket names but the server does not have is no link.
    expect(first.items[1]).toMatchObject({ ticketId: 'c24', transcriptFileId: null, handledBy: { id: ava.id, name: 'Ava' }, opener: { id: OPENER, name: null } });
    expect(first.nextCursor).not.toBeNull();
    const second = await read(`?cursor=${first.nextCursor}`);
    expect(second.total).toBe(25);
    expect(second.items.map((c) => c.ticketId)).toEqual(['c5', 'c4', 'c3', 'c2', 'c1']);
    // An opener the dashboard knows (who signed in) is named.
    expect(second.items.at(-1)?.opener).toEqual({ id: ava.id, name: 'Ava' });
    expect(second.nextCursor).toBeNull();
  });

  it('keeps to the range, the label and the plan', async () => {
    expect((await read('?tz=Pacific%2FKiritimati')).items.map((c) => c.ticketId)).not.toContain('old');
    // No ticket carries this label: nothing.
    expect(await read('?label=vip')).toEqual({ total: 0, items: [], nextCursor: null });
    const res = await browser.get(`/api/guilds/${ARCADE}/statistics/feedback?range=90d`);
    expect(res.statusCode).toBe(400);
    expect(ApiError.parse(res.json()).message).toMatch(/last 7 days.*Premium/);
  });

  it('refuses bad input with a clear message', async () => {
    for (const [query, message] of [
      ['?cursor=not%20a%20cursor', /cursor/],
      [`?cursor=${Buffer.from('yesterday|bot|c1').toString('base64url')}`, /not a cursor this list gave out/],
      ['?range=year', /range/],
      ['?range=custom&from=2026-02-30&to=2026-03-01', /calendar/],
      ['?page=2', /page/],
    ] as const) {
      const res = await browser.get(`/api/guilds/${ARCADE}/statistics/feedback${query}`);
      expect(res.statusCode, query).toBe(400);
      const error = ApiError.parse(res.json());
      expect(error.code, query).toBe(1001);
      expect(error.message, query).toMatch(message);
    }
  });

  it('is for members with Statistics access only', async () => {
    const other = new Browser(t.app);
    await signIn(other, cleo.id);
    expect([403, 404]).toContain((await other.get(`/api/guilds/${ARCADE}/statistics/feedback`)).statusCode);
    expect((await new Browser(t.app).get(`/api/guilds/${ARCADE}/statistics/feedback`)).statusCode).toBe(401);
  });
});
