import { gunzipSync } from 'node:zlib';
import { TicketEventBatch, TranscriptList, TranscriptV2 } from '@tickety/api-contract';
import { DEMO_BOT_API_KEY, DEMO_GUILDS, DEMO_USERS, demoServer, demoTranscript, dueEvents, history, startDemoBot } from '@tickety/sandbox';
import { describe, expect, it } from 'vitest';
import { seedDemo } from '../../demo/seed';
import { useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { DAY } from '../helpers/clock';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';

const ARCADE = DEMO_GUILDS.avasArcade.id;
const PIXEL = DEMO_GUILDS.pixelPals.id;

describe('the demo bot’s data', () => {
  const server = demoServer(ARCADE, "Ava's Arcade", [
    { id: 'support', name: 'Support', supportRoleIds: ['1400000000000001002'], question: 'What do you need help with?' },
    { id: 'purchases', name: 'Purchases', supportRoleIds: ['1400000000000001002'], question: 'Order number' },
  ]);
  const now = Date.UTC(2026, 10, 20, 15, 0, 0);

  it('is the same on the same day, and valid for the bot API', () => {
    const fromNow = dueEvents(history(server, now, 30), now);
    const aMinuteLater = dueEvents(history(server, now + 60_000, 30), now);
    expect(fromNow).toEqual(aMinuteLater);
    expect(fromNow.length).toBeGreaterThan(500);
    for (let i = 0; i < fromNow.length; i += 1000) TicketEventBatch.parse({ events: fromNow.slice(i, i + 1000) });
    expect(fromNow.every((e) => Date.parse(e.at) <= now)).toBe(true);
  });

  it('has the shape of a real support team: some reopened, some abandoned, ratings skewed high, some still open', () => {
    const tickets = history(server, now, 90);
    const share = (f: (t: (typeof tickets)[number]) => boolean) => tickets.filter(f).length / tickets.length;
    expect(share((t) => t.abandoned)).toBeGreaterThan(0.03);
    expect(share((t) => t.abandoned)).toBeLessThan(0.15);
    expect(share((t) => t.reopenedAt !== null)).toBeGreaterThan(0.05);
    expect(share((t) => t.reopenedAt !== null)).toBeLessThan(0.16);
    const rated = tickets.filter((t) => t.rating !== null);
    expect(rated.filter((t) => t.rating! >= 4).length / rated.length).toBeGreaterThan(0.65);
    expect(tickets.some((t) => t.closedAt === null || t.closedAt > now)).toBe(true);
  });

  it('makes valid transcripts, up to 50,000 messages', () => {
    const ticket = history(server, now, 10).find((t) => t.finalClosedAt !== null && t.finalClosedAt < now)!;
    const small = TranscriptV2.parse(demoTranscript(server, ticket, { cdnBase: 'http://x/cdn' }));
    expect(small.messages.some((m) => m.embeds.length > 0 && m.embeds[0]!.fields[0]!.value === ticket.answer)).toBe(true);
    // The welcome embed as a ticket bot sends it: the opener as author (picture, profile link), the
    // title linking to the channel, the form's short answers as inline fields.
    const welcome = small.messages.find((m) => m.embeds.length > 0)!.embeds[0]!;
    expect(welcome.author).toEqual({ name: expect.any(String), url: `https://discord.com/users/${ticket.openerId}`, iconUrl: expect.stringMatching(/^http:\/\/x\/cdn\/embed\/avatars\/[0-5]\.png$/) });
    expect(welcome.url).toBe(`https://discord.com/channels/${server.id}/${small.channel.id}`);
    expect(welcome.fields.map((f) => [f.name, f.inline])).toEqual([
      [expect.any(String), false],
      ['In-game name', true],
      ['Platform', true],
      ['Region', true],
    ]);
    expect(small.messages.some((m) => m.content.includes('```js'))).toBe(true);
    expect(small.messages.some((m) => m.replyTo !== null)).toBe(true);
    const huge = TranscriptV2.parse(demoTranscript(server, ticket, { cdnBase: 'http://x/cdn', messages: 50_000 }));
    expect(huge.messages).toHaveLength(50_000);
    expect(new Set(huge.messages.map((m) => m.id)).size).toBe(50_000);
  });
});

describe.each(databases())('the demo bot against the API on $name', (database) => {
  const t = useTestApp(database);

  /** The bot's HTTP calls, answered by the app in process (the same requests, headers and bodies). */
  const appFetch = async (input: string, init: RequestInit = {}) => {
    const url = new URL(input);
    const res = await t.app.inject({
      method: (init.method ?? 'GET') as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: init.headers as Record<string, string>,
      ...(init.body ? { payload: init.body as Buffer | string } : {}),
    });
    return new Response(res.statusCode === 204 || res.statusCode === 304 ? null : res.rawPayload, { status: res.statusCode, headers: res.headers as Record<string, string> });
  };

  it('seeds the history, shards and transcripts through the bot API, once', async () => {
    await seedDemo(t.app, t.sandbox);
    const start = () => startDemoBot({ apiBase: 'http://localhost:3000', key: DEMO_BOT_API_KEY, cdnBase: t.config.discord.cdnBase, clock: () => t.clock.now, fetch: appFetch, days: 14, longTranscripts: false, transcriptsPerServer: 4, liveIntervalMs: 3_600_000 });
    const bot = start();
    const report = await bot.ready;
    await bot.stop();
    expect(report.servers).toBeGreaterThanOrEqual(2);
    expect(report.accepted).toBe(report.events);
    const tickets = Number((await t.db.query<{ n: string }>('SELECT count(*)::text AS n FROM tickets WHERE opened_at IS NOT NULL')).rows[0]!.n);
    expect(tickets).toBe(report.tickets);
    const shards = await t.db.query<{ id: number; state: string }>('SELECT id, state FROM bot_shards ORDER BY id');
    expect(shards.rows.map((s) => [Number(s.id), s.state])).toEqual([
      [0, 'ready'],
      [1, 'ready'],
      [2, 'resuming'],
      [3, 'ready'],
    ]);
    expect(report.transcripts).toBe(report.servers * 4);
    // The bytes sit in the blob store (BLOB_STORE=database here: the blobs table), the rows name them.
    const stored = await t.db.query<{ guild_id: string; file_id: string }>('SELECT guild_id, file_id FROM transcripts LIMIT 1');
    const content = await t.app.transcripts.content(stored.rows[0]!.guild_id, stored.rows[0]!.file_id);
    TranscriptV2.parse(JSON.parse(gunzipSync(content!).toString('utf8')));
    // The files people attached were copied from the sandbox CDN: the order log and a real PNG.
    const files = await t.db.query<{ guild_id: string; file_id: string; attachment_id: string; filename: string; content_type: string }>(
      'SELECT DISTINCT ON (filename) guild_id, file_id, attachment_id, filename, content_type FROM transcript_attachments ORDER BY filename',
    );
    expect(files.rows.map((f) => [f.filename, f.content_type])).toEqual([
      ['inventory.png', 'image/png'],
      ['order-log.txt', 'text/plain'],
    ]);
    const bytesOf = async (f: (typeof files.rows)[number]) => (await t.app.transcripts.attachment(f.guild_id, f.file_id, f.attachment_id))!.content;
    expect((await bytesOf(files.rows[0]!)).subarray(1, 4).toString('ascii')).toBe('PNG');
    expect((await bytesOf(files.rows[1]!)).toString('utf8')).toContain('order AA-12345 created');

    // Cleo, a member of Pixel Pals, finds her tickets there.
    const cleo = new Browser(t.app);
    await signIn(cleo, DEMO_USERS.cleo.id);
    const mine = TranscriptList.parse((await cleo.get('/api/transcripts/mine')).json());
    expect(mine.items.length).toBeGreaterThan(0);
    expect(mine.items.every((i) => i.serverId === PIXEL && i.opener.id === DEMO_USERS.cleo.id)).toBe(true);

    // Started again the same day: nothing new.
    const again = start();
    const second = await again.ready;
    await again.stop();
    expect(second.accepted).toBe(0);

    // A day later: only the new day's events.
    t.clock.advance(DAY);
    const later = start();
    const third = await later.ready;
    await later.stop();
    expect(third.accepted).toBeGreaterThan(0);
    expect(third.accepted).toBeLessThan(report.accepted / 3);
  });
});
