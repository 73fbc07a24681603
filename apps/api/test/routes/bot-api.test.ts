import { gunzipSync, gzipSync } from 'node:zlib';
import {
  ApiError,
  BotKeyRotateResponse,
  defaultServerConfig,
  newPanel,
  ServerConfigAnswer,
  StatusResponse,
  type TicketEvent,
  TicketEventBatchResult,
  TranscriptList,
  type TranscriptV2,
  WebLogPage,
} from '@tickety/api-contract';
import { DEMO_APP, DEMO_GUILDS, DEMO_LEGACY_TRANSCRIPTS, DEMO_ROLES, DEMO_USERS, signAttachment } from '@tickety/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { isCdnAttachment } from '../../src/services/transcripts';
import { DASHBOARD_ORIGIN, FOREIGN_ORIGIN, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { HOUR, MINUTE } from '../helpers/clock';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';

const { ava, ben, cleo, nico } = DEMO_USERS;
const ARCADE = DEMO_GUILDS.avasArcade.id;
const PIXEL = DEMO_GUILDS.pixelPals.id;
const KEY = `tk_bot_testkey1_${'k'.repeat(43)}`;
const OTHER_KEY = `tk_bot_otherbot1_${'o'.repeat(43)}`;
const FROM_DASHBOARD = { 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN };

const at = (minutes: number) => new Date(Date.UTC(2026, 2, 1, 9, 0, 0) + minutes * MINUTE).toISOString();

function opened(id: string, ticketId: string, minutes: number, openerId: string = cleo.id, serverId: string = ARCADE): TicketEvent {
  return { id, serverId, ticketId, at: at(minutes), type: 'opened', panelId: 'support', openerId, number: Number(ticketId.replace(/\D/g, '')) || 1, answers: [{ question: 'What happened?', answer: 'It broke.' }] };
}

function transcript(overrides: Partial<TranscriptV2['ticket']> = {}, serverId = ARCADE): TranscriptV2 {
  return {
    version: 2,
    server: { id: serverId, name: 'Ava’s Arcade', iconUrl: null },
    channel: { id: '1200000000000009001', name: 'ticket-0007' },
    ticket: { id: 't7', number: 7, panelId: 'support', openerId: cleo.id, openedAt: at(0), closedAt: at(90), closedBy: ava.id, reason: 'Solved', ...overrides },
    users: [
      { id: cleo.id, username: 'cleo', displayName: 'Cleo', avatarUrl: null, bot: false, staff: false, colour: null },
      { id: ava.id, username: 'ava', displayName: 'Ava', avatarUrl: null, bot: false, staff: true, colour: 0x10b981 },
    ],
    roles: [],
    channels: [],
    messages: [
      { id: '1300000000000009001', authorId: cleo.id, content: `Hello <@${ava.id}>, **help**`, createdAt: at(1), editedAt: null, system: null, replyTo: null, embeds: [], attachments: [], reactions: [], stickers: [] },
      { id: '1300000000000009002', authorId: ava.id, content: 'On it.', createdAt: at(5), editedAt: null, system: null, replyTo: '1300000000000009001', embeds: [], attachments: [], reactions: [{ emoji: { name: '👍' }, count: 1 }], stickers: [] },
    ],
  };
}

describe.each(databases())('the bot API (/api/bot/v1) on $name', (database) => {
  // Staff owner: Nico (who manages Ava's Arcade anyway), so Sam is a stranger here, not a staff reader
  // (staff read of transcripts: test/routes/staff-server-read.test.ts).
  const t = useTestApp(database, { env: { BOT_API_KEY: KEY, STAFF_OWNER_IDS: DEMO_USERS.nico.id } });

  const bot = (method: 'GET' | 'POST' | 'PUT', url: string, options: { key?: string | null; body?: unknown; gzip?: boolean; headers?: Record<string, string> } = {}) => {
    const key = options.key === undefined ? KEY : options.key;
    const json = options.body === undefined ? undefined : JSON.stringify(options.body);
    return t.app.inject({
      method,
      url: `/api/bot/v1${url}`,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.gzip ? { 'content-encoding': 'gzip' } : {}),
        ...options.headers,
      },
      ...(json !== undefined ? { payload: options.gzip ? gzipSync(json) : json } : {}),
    });
  };
  const events = (list: TicketEvent[], key?: string) => bot('POST', '/events', { body: { events: list }, ...(key ? { key } : {}) });
  const ticket = async (ticketId: string, botId: string = DEMO_APP.clientId) =>
    (await t.db.query<Record<string, unknown>>('SELECT * FROM tickets WHERE bot_id = $1 AND guild_id = $2 AND ticket_id = $3', [botId, ARCADE, ticketId])).rows[0];
  const count = async (table: string) => Number((await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`)).rows[0]!.n);

  async function as(userId: string) {
    const browser = new Browser(t.app);
    await signIn(browser, userId);
    return browser;
  }

  beforeAll(async () => {
    // A second bot application with its own key (another bot's data must stay its own).
    await t.app.botKeys.ensure(OTHER_KEY, '999000000000000001', 'other bot');
  });

  describe('keys', () => {
    it('refuses a missing, malformed, unknown or wrong key with 401 1018, before reading the body', async () => {
      for (const key of [null, 'nope', `tk_bot_unknown1_${'x'.repeat(43)}`, `tk_bot_testkey1_${'y'.repeat(43)}`]) {
        const res = await bot('POST', '/events', { key, body: { events: [opened('k1', 'k1', 0)] } });
        expect(res.statusCode, `${key}: ${res.body}`).toBe(401);
        expect(ApiError.parse(res.json()).code).toBe(1018);
      }
      expect(await count('ticket_events')).toBe(0);
    });

    it('names the caller, and a rotated key keeps working for the overlap window only', async () => {
      const me = await bot('GET', '/me');
      expect(me.json()).toMatchObject({ botId: DEMO_APP.clientId, keyId: 'testkey1', expiresAt: null });

      const rotated = await bot('POST', '/keys/rotate', { body: { overlapSeconds: 3600 } });
      expect(rotated.statusCode, rotated.body).toBe(200);
      const fresh = BotKeyRotateResponse.parse(rotated.json());
      expect(fresh.key).not.toBe(KEY);
      expect((await t.db.query<{ key_hash: string }>('SELECT key_hash FROM bot_keys WHERE id = $1', [fresh.keyId])).rows[0]!.key_hash).not.toContain(fresh.key);

      // Both work during the overlap; the new one names the same bot.
      expect((await bot('GET', '/me')).statusCode).toBe(200);
      expect((await bot('GET', '/me', { key: fresh.key })).json()).toMatchObject({ botId: DEMO_APP.clientId, expiresAt: null });
      t.clock.advance(HOUR + 1000);
      expect((await bot('GET', '/me')).statusCode).toBe(401);
      expect((await bot('GET', '/me', { key: fresh.key })).statusCode).toBe(200);
      // The configured key, written again at a restart, does not come back to life.
      await t.app.botKeys.ensure(KEY, DEMO_APP.clientId, 'again');
      expect((await bot('GET', '/me')).statusCode).toBe(401);
      // The rest of the suite goes on with KEY.
      await t.db.query('UPDATE bot_keys SET expires_at = NULL WHERE id = $1', ['testkey1']);
      await t.db.query('DELETE FROM bot_keys WHERE id = $1', [fresh.keyId]);
    });

    it('lets only the newest key rotate, and a rotation ends every other key of the bot (a stolen key goes with it)', async () => {
      const stolen = `tk_bot_stolen01_${'s'.repeat(43)}`;
      await t.app.botKeys.ensure(stolen, DEMO_APP.clientId, 'copied by a thief');
      const owner = BotKeyRotateResponse.parse((await bot('POST', '/keys/rotate', { body: { overlapSeconds: 60 } })).json());
      // The thief's key and the configured one both end with the overlap.
      expect((await bot('GET', '/me', { key: stolen })).json()).toMatchObject({ expiresAt: owner.previousKeyExpiresAt });
      // A key that has been rotated away cannot make another: 409 1021, no key written.
      const before = await count('bot_keys');
      const again = await bot('POST', '/keys/rotate', { key: stolen, body: { overlapSeconds: 60 } });
      expect(again.statusCode).toBe(409);
      expect(ApiError.parse(again.json()).code).toBe(1021);
      expect(await count('bot_keys')).toBe(before);
      t.clock.advance(61_000);
      expect((await bot('GET', '/me', { key: stolen })).statusCode).toBe(401);
      expect((await bot('GET', '/me')).statusCode).toBe(401);
      expect((await bot('GET', '/me', { key: owner.key })).statusCode).toBe(200);
      // The rest of the suite goes on with KEY.
      await t.db.query('UPDATE bot_keys SET expires_at = NULL WHERE id = $1', ['testkey1']);
      await t.db.query('DELETE FROM bot_keys WHERE id IN ($1, $2)', [owner.keyId, 'stolen01']);
    });

    it('answers 429 to an address that keeps sending refused keys; a valid key from there is never held back', async () => {
      const other = new Browser(t.app, { ip: '203.0.113.77' });
      const codes: number[] = [];
      for (let i = 0; i < t.config.rateLimit.botKeyFailuresMax + 2; i++) {
        const madeUp = `tk_bot_guess${String(i).padStart(4, '0')}_${'g'.repeat(43)}`;
        codes.push((await other.get('/api/bot/v1/me', { headers: { authorization: `Bearer ${madeUp}` } })).statusCode);
      }
      expect(codes.slice(0, t.config.rateLimit.botKeyFailuresMax)).toEqual(Array(t.config.rateLimit.botKeyFailuresMax).fill(401));
      expect(codes.at(-1)).toBe(429);
      const limited = await other.get('/api/bot/v1/me', { headers: { authorization: `Bearer tk_bot_guess9999_${'g'.repeat(43)}` } });
      expect(limited.statusCode).toBe(429);
      expect(ApiError.parse(limited.json()).code).toBe(1003);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // A stale shard on the bot's host must not lock the bot out: its valid key still works from there.
      expect((await other.get('/api/bot/v1/me', { headers: { authorization: `Bearer ${KEY}` } })).statusCode).toBe(200);
      expect((await bot('GET', '/me')).statusCode).toBe(200);
      t.clock.advance(61_000);
    });
  });

  describe('servers a bot serves', () => {
    it('refuses another application’s key on a server it does not serve (403 1020), reading and storing nothing', async () => {
      const config = await bot('GET', `/servers/${ARCADE}/config`, { key: OTHER_KEY });
      expect(config.statusCode).toBe(403);
      expect(ApiError.parse(config.json()).code).toBe(1020);
      const before = await count('ticket_events');
      const batch = await events([opened('x1', 'tk9', 0, ben.id, PIXEL), opened('x2', 'tk9', 0, ben.id)], OTHER_KEY);
      expect(batch.statusCode).toBe(403);
      expect(ApiError.parse(batch.json()).message).toContain(ARCADE);
      expect(await count('ticket_events')).toBe(before);
      const upload = await bot('PUT', `/servers/${ARCADE}/transcripts/foreign1`, { body: transcript(), key: OTHER_KEY });
      expect(upload.statusCode).toBe(403);
      expect(await count("transcripts WHERE file_id = 'foreign1'")).toBe(0);
    });

    it('serves the servers given to it, and the product’s application then no longer serves them', async () => {
      await t.db.query('INSERT INTO bot_servers (guild_id, bot_id, created_at) VALUES ($1, $2, now())', [PIXEL, '999000000000000001']);
      try {
        expect((await bot('GET', `/servers/${PIXEL}/config`, { key: OTHER_KEY })).statusCode).toBe(200);
        const ok = await events([opened('p1', 'tk1', 0, ben.id, PIXEL)], OTHER_KEY);
        expect(ok.statusCode, ok.body).toBe(200);
        const mine = await events([opened('p2', 'tk1', 0, ben.id, PIXEL)]);
        expect(mine.statusCode).toBe(403);
        expect(ApiError.parse(mine.json()).code).toBe(1020);
        // Its ticket is its own: the product's bot's tickets with the same id are untouched.
        const row = (await t.db.query<{ opener_id: string }>('SELECT opener_id FROM tickets WHERE bot_id = $1 AND guild_id = $2 AND ticket_id = $3', ['999000000000000001', PIXEL, 'tk1'])).rows[0];
        expect(row?.opener_id).toBe(ben.id);
      } finally {
        await t.db.query('DELETE FROM bot_servers WHERE guild_id = $1', [PIXEL]);
      }
    });
  });

  describe('configuration', () => {
    it('reads what the Panel Menu saved, with an ETag; 304 while unchanged', async () => {
      const first = await bot('GET', `/servers/${ARCADE}/config`);
      expect(first.statusCode, first.body).toBe(200);
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^W\/"0-/);
      expect(first.json()).toMatchObject({ version: 0 });

      const again = await bot('GET', `/servers/${ARCADE}/config`, { headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');

      const browser = await as(ava.id);
      const config = { ...defaultServerConfig(), panels: [{ ...newPanel('support', { name: 'Support', title: 'Support', description: 'Ask us.', button: 'Open' }), supportRoleIds: [DEMO_ROLES.avasArcade.member] }] };
      const saved = await browser.request('PUT', `/api/guilds/${ARCADE}/config`, {
        headers: { 'content-type': 'application/json', ...FROM_DASHBOARD },
        payload: { expectedVersion: 0, config },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(ServerConfigAnswer.parse(saved.json()).version).toBe(1);

      const changed = await bot('GET', `/servers/${ARCADE}/config`, { headers: { 'if-none-match': etag } });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect(changed.json().config.panels[0].name).toBe('Support');
    });
  });

  describe('ticket events', () => {
    it('stores a batch; the same batch again has no second effect', async () => {
      const batch = [opened('e1', 'tk1', 0), { id: 'e2', serverId: ARCADE, ticketId: 'tk1', at: at(12), type: 'first_response', staffId: ava.id } as TicketEvent];
      const first = TicketEventBatchResult.parse((await events(batch)).json());
      expect(first).toEqual({ accepted: 2, duplicates: 0, tickets: 1 });
      const second = TicketEventBatchResult.parse((await events(batch)).json());
      expect(second).toEqual({ accepted: 0, duplicates: 2, tickets: 0 });
      expect(await count("ticket_events WHERE event_id IN ('e1', 'e2')")).toBe(2);
      const row = await ticket('tk1');
      expect(row).toMatchObject({ opener_id: cleo.id, panel_id: 'support', first_response_by: ava.id, closed_at: null });
      expect(new Date(String(row!.first_response_at)).getTime() - new Date(String(row!.opened_at)).getTime()).toBe(12 * MINUTE);
    });

    it('applies events arriving out of order as if in order (close before open, reopen, claims)', async () => {
      const eventAt = (id: string, minutes: number, rest: Record<string, unknown>) => ({ id, serverId: ARCADE, ticketId: 'tk2', at: at(minutes), ...rest }) as TicketEvent;
      const all = [
        opened('o1', 'tk2', 0),
        eventAt('o2', 5, { type: 'claimed', staffId: ava.id }),
        eventAt('o3', 6, { type: 'first_response', staffId: ava.id }),
        eventAt('o4', 30, { type: 'closed', closedBy: ava.id, reason: 'first' }),
        eventAt('o5', 40, { type: 'reopened', by: cleo.id }),
        eventAt('o6', 41, { type: 'unclaimed', staffId: ava.id }),
        eventAt('o7', 42, { type: 'claimed', staffId: nico.id }),
        eventAt('o8', 60, { type: 'messages', total: 14, staff: 6 }),
        eventAt('o9', 50, { type: 'messages', total: 9, staff: 4 }),
        eventAt('o10', 90, { type: 'closed', closedBy: nico.id, reason: 'done' }),
        eventAt('o11', 95, { type: 'rated', rating: 4, feedback: 'Quick!' }),
      ];
      // Newest first, in two batches.
      const reversed = [...all].reverse();
      await events(reversed.slice(0, 5));
      const partial = await ticket('tk2');
      expect(partial).toMatchObject({ opened_at: null, closed_by: nico.id, rating: 4 });
      await events(reversed.slice(5));
      const row = await ticket('tk2');
      expect(row).toMatchObject({ opener_id: cleo.id, claimed_by: nico.id, first_response_by: ava.id, closed_by: nico.id, close_reason: 'done', reopen_count: 1, messages: 14, staff_messages: 6, rating: 4, feedback: 'Quick!' });
      expect(new Date(String(row!.closed_at)).toISOString()).toBe(at(90));

      // A reopen arriving last (the newest event): open again.
      await events([eventAt('o12', 120, { type: 'reopened', by: cleo.id })]);
      expect(await ticket('tk2')).toMatchObject({ closed_at: null, closed_by: null, reopen_count: 2 });
    });

    it('refuses a bad batch whole with a clear error, storing nothing', async () => {
      const before = await count('ticket_events');
      const bad = [opened('b1', 'tk3', 0), { id: 'b2', serverId: ARCADE, ticketId: 'tk3', at: at(3), type: 'rated', rating: 9, feedback: null }];
      const res = await bot('POST', '/events', { body: { events: bad } });
      expect(res.statusCode).toBe(400);
      const body = ApiError.parse(res.json());
      expect(body.code).toBe(1001);
      expect(body.message).toMatch(/events\.1\.rating/);
      for (const body of [
        { events: [] },
        { events: [opened('d1', 'tk3', 0), opened('d1', 'tk3', 1)] },
        { events: [{ ...opened('x1', 'tk3', 0), at: 'yesterday' }] },
        { events: [{ ...opened('x2', 'tk3', 0), type: 'exploded' }] },
        { events: [{ ...opened('x3', 'tk3', 0), extra: true }] },
        { events: Array.from({ length: 1001 }, (_, i) => opened(`m${i}`, 'tk3', i)) },
      ]) {
        const response = await bot('POST', '/events', { body });
        expect(response.statusCode, response.body).toBe(400);
        expect(ApiError.parse(response.json()).code).toBe(1001);
      }
      expect(await count('ticket_events')).toBe(before);
    });

    it('takes gzip, refuses an oversized body (413 1016) and a gzip bomb', async () => {
      const zipped = await bot('POST', '/events', { body: { events: [opened('g1', 'tk4', 0)] }, gzip: true });
      expect(zipped.statusCode, zipped.body).toBe(200);
      const huge = await t.app.inject({
        method: 'POST',
        url: '/api/bot/v1/events',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ events: [], pad: 'x'.repeat(5 * 1024 * 1024) }),
      });
      expect(huge.statusCode).toBe(413);
      expect(ApiError.parse(huge.json()).code).toBe(1016);
      // Gzipped, it is small as sent, and still too large as JSON (1 MiB at most: split the batch).
      const inflated = await t.app.inject({
        method: 'POST',
        url: '/api/bot/v1/events',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
        payload: gzipSync(Buffer.from(JSON.stringify({ events: [], pad: 'x'.repeat(1024 * 1024 + 1) }))),
      });
      expect(inflated.statusCode).toBe(413);
      expect(ApiError.parse(inflated.json())).toMatchObject({ code: 1016, message: expect.stringMatching(/more than 1 MiB/) });
      const bomb = await t.app.inject({
        method: 'POST',
        url: '/api/bot/v1/events',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
        payload: gzipSync(Buffer.alloc(40 * 1024 * 1024, 32)),
      });
      expect(bomb.statusCode).toBe(413);
      const wrong = await bot('POST', '/events', { body: { events: [] }, headers: { 'content-encoding': 'br' } });
      expect(wrong.statusCode).toBe(415);
    });

    it('lists what members did in Web Logs', async () => {
      const browser = await as(ava.id);
      const res = await browser.get(`/api/guilds/${ARCADE}/logs?action=ticket.opened`);
      expect(res.statusCode, res.body).toBe(200);
      const page = WebLogPage.parse(res.json());
      expect(page.entries.length).toBeGreaterThan(0);
      expect(page.entries.every((e) => e.action === 'ticket.opened')).toBe(true);
      expect(page.entries.some((e) => e.actor.id === cleo.id && e.target === 'Ticket #1')).toBe(true);
    });
  });

  describe('shard heartbeats', () => {
    it('show on the public status', async () => {
      const res = await bot('PUT', '/shards', {
        body: {
          shards: [
            { id: 0, state: 'ready', latencyMs: 42, guilds: 1200 },
            { id: 1, state: 'resuming', latencyMs: 900, guilds: 1100 },
          ],
        },
      });
      expect(res.statusCode, res.body).toBe(204);
      const status = StatusResponse.parse((await t.app.inject({ method: 'GET', url: '/api/status' })).json());
      expect(status.shards.map((s) => [s.id, s.state, s.latencyMs, s.guilds])).toEqual([
        [0, 'ready', 42, 1200],
        [1, 'resuming', 900, 1100],
      ]);
      expect(status.services.find((s) => s.name === 'bot')?.status).toBe('degraded');
      const dup = await bot('PUT', '/shards', { body: { shards: [{ id: 0, state: 'ready', latencyMs: 1, guilds: 1 }, { id: 0, state: 'ready', latencyMs: 1, guilds: 1 }] } });
      expect(dup.statusCode).toBe(400);
    });

    it('are each bot’s own: another application’s heartbeats neither overwrite the product’s shards nor show on the status', async () => {
      const res = await bot('PUT', '/shards', { key: OTHER_KEY, body: { shards: [{ id: 0, state: 'disconnected', latencyMs: null, guilds: 0 }, { id: 7, state: 'disconnected', latencyMs: null, guilds: 0 }] } });
      expect(res.statusCode, res.body).toBe(204);
      const status = StatusResponse.parse((await t.app.inject({ method: 'GET', url: '/api/status' })).json());
      expect(status.shards.map((s) => [s.id, s.state])).toEqual([
        [0, 'ready'],
        [1, 'resuming'],
      ]);
      expect(await count("bot_shards WHERE bot_id = '999000000000000001'")).toBe(2);
    });
  });

  describe('transcripts', () => {
    it('stores a gzipped upload compressed; the opener, managers and support roles read it, others get 403', async () => {
      const put = await bot('PUT', `/servers/${ARCADE}/transcripts/file7`, { body: transcript(), gzip: true });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json()).toMatchObject({ fileId: 'file7', messages: 2, url: `/transcript/v2/${ARCADE}/file7` });
      // The gzip sits in the blob store (here the database's blobs table) under the row's prefix.
      const stored = (
        await t.db.query<{ content: Uint8Array }>("SELECT b.content FROM transcripts t JOIN blobs b ON b.key = t.blob_prefix || '/content.json.gz' WHERE t.file_id = $1", ['file7'])
      ).rows[0]!;
      expect(Buffer.from(stored.content).subarray(0, 2).toString('hex')).toBe('1f8b');

      const read = async (userId: string) => (await as(userId)).get(`/api/transcripts/v2/${ARCADE}/file7`, { headers: FROM_DASHBOARD });
      const opener = await read(cleo.id);
      expect(opener.statusCode, opener.body).toBe(200);
      expect(opener.headers['x-transcript-access']).toBe('opener');
      expect(opener.json().messages[0].content).toContain('**help**');
      // The dashboard takes the stored gzip as it is and inflates it in the page.
      const raw = await (await as(cleo.id)).get(`/api/transcripts/v2/${ARCADE}/file7`, { headers: { ...FROM_DASHBOARD, accept: 'application/gzip, application/json;q=0.9', 'accept-encoding': 'br, gzip' } });
      expect(raw.statusCode).toBe(200);
      expect(raw.headers['content-type']).toBe('application/gzip');
      expect(raw.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(gunzipSync(raw.rawPayload).toString('utf8')).messages[0].content).toContain('**help**');
      expect((await read(ava.id)).headers['x-transcript-access']).toBe('manager');
      // Ben holds the member role, which the saved configuration made the panel's support role.
      expect((await read(ben.id)).headers['x-transcript-access']).toBe('support');

      const browser = await as(ava.id);
      const stranger = await (await as(DEMO_USERS.sam.id)).get(`/api/transcripts/v2/${ARCADE}/file7`, { headers: FROM_DASHBOARD });
      expect(stranger.statusCode).toBe(403);
      expect(ApiError.parse(stranger.json()).code).toBe(403);

      // From another site (no dashboard header): refused, no view logged.
      const views = async () => WebLogPage.parse((await browser.get(`/api/guilds/${ARCADE}/logs?action=transcript.view`)).json()).entries.length;
      const before = await views();
      const foreign = await (await as(cleo.id)).get(`/api/transcripts/v2/${ARCADE}/file7`, { headers: { origin: FOREIGN_ORIGIN } });
      expect(foreign.statusCode).toBe(403);
      expect(ApiError.parse(foreign.json()).code).toBe(1005);
      expect(await views()).toBe(before);
      expect(before).toBe(3); // Cleo (JSON, then gzip within the minute: one view), Ava, Ben
    });

    it('answers the head (first messages, totalMessages) for the first paint; head and whole within a minute are one view', async () => {
      const long = transcript({ id: 't8', number: 8 });
      const base = long.messages[0]!;
      long.messages = Array.from({ length: 200 }, (_, i) => ({ ...base, id: String(1300000000000010000n + BigInt(i)), content: `message ${i}`, createdAt: at(1 + i / 10) }));
      expect((await bot('PUT', `/servers/${ARCADE}/transcripts/file8`, { body: long, gzip: true })).statusCode).toBe(200);
      const cleoBrowser = await as(cleo.id);
      const viewsOfFile8 = async () => (await t.db.query("SELECT 1 FROM web_logs WHERE action = 'transcript.view' AND target LIKE 'Transcript of ticket #8 %'")).rows.length;
      const head = await cleoBrowser.get(`/api/transcripts/v2/${ARCADE}/file8?part=head`, { headers: { ...FROM_DASHBOARD, accept: 'application/gzip' } });
      expect(head.statusCode, head.body).toBe(200);
      const parsed = JSON.parse(gunzipSync(head.rawPayload).toString('utf8'));
      expect(parsed.totalMessages).toBe(200);
      expect(parsed.messages.map((m: { content: string }) => m.content)).toEqual(Array.from({ length: 150 }, (_, i) => `message ${i}`));
      expect(parsed.users.map((u: { id: string }) => u.id)).toContain(cleo.id);
      const whole = await cleoBrowser.get(`/api/transcripts/v2/${ARCADE}/file8`, { headers: FROM_DASHBOARD });
      expect(whole.json().messages).toHaveLength(200);
      expect(await viewsOfFile8()).toBe(1);
      t.clock.advance(61_000);
      await cleoBrowser.get(`/api/transcripts/v2/${ARCADE}/file8?part=head`, { headers: FROM_DASHBOARD });
      expect(await viewsOfFile8()).toBe(2);
      // A transcript stored before heads were (and before the blob store: its gzip in its row): made from the whole one.
      await t.db.query(
        "UPDATE transcripts SET content = (SELECT content FROM blobs WHERE key = blob_prefix || '/content.json.gz'), blob_prefix = NULL, head = NULL WHERE file_id = 'file8'",
      );
      const derived = await cleoBrowser.get(`/api/transcripts/v2/${ARCADE}/file8?part=head`, { headers: FROM_DASHBOARD });
      expect(derived.json()).toMatchObject({ totalMessages: 200 });
      expect(derived.json().messages).toHaveLength(150);
      expect((await cleoBrowser.get(`/api/transcripts/v2/${ARCADE}/file8?part=tail`, { headers: FROM_DASHBOARD })).statusCode).toBe(400);
    });

    it('refuses a non-member of the panel’s support team with the reason (403 code 403)', async () => {
      // Make the panel's support role one Ben does not hold.
      const browser = await as(ava.id);
      const live = ServerConfigAnswer.parse((await browser.get(`/api/guilds/${ARCADE}/config`)).json());
      const config = live.config as ReturnType<typeof defaultServerConfig>;
      const next = { ...config, panels: config.panels.map((p) => ({ ...p, supportRoleIds: [DEMO_ROLES.avasArcade.supportTeam] })) };
      const saved = await browser.request('PUT', `/api/guilds/${ARCADE}/config`, { headers: { 'content-type': 'application/json', ...FROM_DASHBOARD }, payload: { expectedVersion: live.version, config: next } });
      expect(saved.statusCode, saved.body).toBe(200);
      t.app.serverAccess.forget(ARCADE, ben.id);
      const res = await (await as(ben.id)).get(`/api/transcripts/v2/${ARCADE}/file7`, { headers: FROM_DASHBOARD });
      expect(res.statusCode).toBe(403);
      const body = ApiError.parse(res.json());
      expect(body.code).toBe(403);
      expect(body.message).toMatch(/opener.*managers.*support team of the panel “Support”/);
    });

    it('lists transcripts for managers (filters) and "Your tickets" for the opener', async () => {
      await bot('PUT', `/servers/${ARCADE}/transcripts/file8`, { body: { ...transcript({ id: 't8', number: 8, openerId: ava.id, closedAt: at(200) }) } });
      const ava_ = await as(ava.id);
      const all = TranscriptList.parse((await ava_.get(`/api/guilds/${ARCADE}/transcripts`)).json());
      expect(all.items.map((i) => i.fileId)).toEqual(['file8', 'file7']);
      const byOpener = TranscriptList.parse((await ava_.get(`/api/guilds/${ARCADE}/transcripts?opener=${cleo.id}`)).json());
      expect(byOpener.items.map((i) => i.fileId)).toEqual(['file7']);
      const byText = TranscriptList.parse((await ava_.get(`/api/guilds/${ARCADE}/transcripts?q=HELP`)).json());
      expect(byText.items).toHaveLength(2);
      const none = TranscriptList.parse((await ava_.get(`/api/guilds/${ARCADE}/transcripts?q=nothing-like-this`)).json());
      expect(none.items).toHaveLength(0);
      // The form's answers in the welcome embed's fields (and its author) are found too.
      const welcome = transcript({ id: 't9', number: 9, openerId: ava.id, closedAt: at(300) });
      welcome.messages[0]!.embeds = [
        {
          title: 'Support',
          description: null,
          url: null,
          colour: null,
          author: { name: 'Ava the Opener', url: null, iconUrl: null },
          fields: [{ name: 'Order number', value: 'AA-77731', inline: true }],
          footer: null,
          imageUrl: null,
          thumbnailUrl: null,
          timestamp: null,
        },
      ];
      await bot('PUT', `/servers/${ARCADE}/transcripts/file9`, { body: welcome });
      for (const q of ['aa-77731', 'ORDER NUMBER', 'the opener']) {
        const found = TranscriptList.parse((await ava_.get(`/api/guilds/${ARCADE}/transcripts?q=${encodeURIComponent(q)}`)).json());
        expect(found.items.map((i) => i.fileId), q).toEqual(['file9']);
      }
      expect((await ava_.get(`/api/guilds/${ARCADE}/transcripts?cursor=bad!`)).statusCode).toBe(400);
      // Cleo has no Web Logs access on Ava's Arcade.
      expect((await (await as(cleo.id)).get(`/api/guilds/${ARCADE}/transcripts`)).statusCode).toBeGreaterThanOrEqual(403);
      const mine = TranscriptList.parse((await (await as(cleo.id)).get('/api/transcripts/mine')).json());
      expect(mine.items.map((i) => [i.fileId, i.serverName])).toEqual([['file7', DEMO_GUILDS.avasArcade.name]]);
    });

    it('stores a transcript with a NUL character in its text (a PostgreSQL text cannot hold one), and finds its words', async () => {
      const nul = transcript({ id: 't10', number: 10, openerId: ava.id, closedAt: at(400) });
      nul.users = nul.users.map((u) => (u.id === ava.id ? { ...u, displayName: 'Ava\u0000' } : u));
      nul.messages[0]!.content = 'Order\u0000 ZZ-4242 is gone';
      nul.messages[0]!.embeds = [
        { title: null, description: null, url: '\u0000javascript:top.__xss=1', colour: null, author: { name: 'Ava\u0000', url: null, iconUrl: null }, fields: [{ name: 'Link', value: '[x](\u0000javascript:top.__xss=1)', inline: true }], footer: null, imageUrl: null, thumbnailUrl: null, timestamp: null },
      ];
      const res = await bot('PUT', `/servers/${ARCADE}/transcripts/file10`, { body: nul });
      expect(res.statusCode, res.body).toBe(200);
      const ava_ = await as(ava.id);
      const found = TranscriptList.parse((await ava_.get(`/api/guilds/${ARCADE}/transcripts?q=zz-4242`)).json());
      expect(found.items.map((i) => [i.fileId, i.opener.name])).toEqual([['file10', 'Ava']]);
      // The transcript itself is served as it was uploaded.
      const read = await ava_.get(`/api/transcripts/v2/${ARCADE}/file10`, { headers: FROM_DASHBOARD });
      expect(read.statusCode).toBe(200);
      expect((read.json() as TranscriptV2).messages[0]!.content).toBe('Order\u0000 ZZ-4242 is gone');
    });

    it('copies attachments from Discord’s CDN (and nothing else), serving the copy to readers only', async () => {
      const file = DEMO_LEGACY_TRANSCRIPTS[0];
      const signature = signAttachment(file.channelId, file.id, file.filename, t.clock.now);
      const cdn = t.config.discord.cdnBase;
      const url = `${cdn}/attachments/${file.channelId}/${file.id}/${file.filename}?ex=${signature.ex}&is=${signature.is}&hm=${signature.hm}&`;
      const sneaky = `${cdn}/attachments/../../../api/health`;
      const body = transcript({ id: 't9', number: 9 });
      body.messages[0]!.attachments = [
        { id: '1900000000000000901', filename: 'log.html', contentType: 'text/html', size: 1, url, width: null, height: null },
        { id: '1900000000000000902', filename: 'x.txt', contentType: 'text/plain', size: 1, url: sneaky, width: null, height: null },
      ];
      const put = await bot('PUT', `/servers/${ARCADE}/transcripts/file9`, { body, gzip: true });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json().attachmentsCopied).toBe(1);
      const cleo_ = await as(cleo.id);
      const stored = (await cleo_.get(`/api/transcripts/v2/${ARCADE}/file9`, { headers: FROM_DASHBOARD })).json();
      const [copied, left] = stored.messages[0].attachments;
      expect(copied.url).toBe(`/api/transcripts/v2/${ARCADE}/file9/attachments/1900000000000000901`);
      expect(left.url).toBe(sneaky);
      const res = await cleo_.get(copied.url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('season pass');
      // HTML is never shown inline: a download, sandboxed.
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename\*=UTF-8''log.html$/);
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect((await (await as(DEMO_USERS.sam.id)).get(copied.url)).statusCode).toBe(403);
    });

    it('knows Discord’s CDN from anything else', () => {
      const cdn = 'https://cdn.discordapp.com';
      expect(isCdnAttachment(`${cdn}/attachments/1/2/a.png?ex=1`, cdn)).toBe(true);
      for (const url of [`${cdn}/attachments/../avatars/1.png`, `${cdn}/attachments/%2e%2e/x`, 'https://cdn.discordapp.com.evil.example/attachments/1/2/a', 'https://evil.example/attachments/1/2/a', `https://u:p@cdn.discordapp.com/attachments/1/2/a`, 'javascript:alert(1)', 'not a url']) {
        expect(isCdnAttachment(url, cdn), url).toBe(false);
      }
    });

    it('refuses another bot’s transcript id, a mismatched server and a bad transcript, storing nothing', async () => {
      // A server given to another application after this bot stored file7 there: the id stays the first bot's.
      await t.db.query('INSERT INTO bot_servers (guild_id, bot_id, created_at) VALUES ($1, $2, now())', [ARCADE, '999000000000000001']);
      const taken = await bot('PUT', `/servers/${ARCADE}/transcripts/file7`, { body: transcript(), key: OTHER_KEY });
      await t.db.query('DELETE FROM bot_servers WHERE guild_id = $1', [ARCADE]);
      expect(taken.statusCode).toBe(409);
      expect(ApiError.parse(taken.json()).code).toBe(1019);
      const mismatch = await bot('PUT', `/servers/${PIXEL}/transcripts/fileX`, { body: transcript() });
      expect(mismatch.statusCode).toBe(400);
      const stranger = transcript();
      stranger.messages[0]!.authorId = ben.id;
      const bad = await bot('PUT', `/servers/${ARCADE}/transcripts/fileY`, { body: stranger });
      expect(bad.statusCode).toBe(400);
      expect(ApiError.parse(bad.json()).message).toMatch(/author/);
      // An attachment pointing at another transcript's copy on this service: refused.
      const borrowing = transcript();
      borrowing.messages[0]!.attachments = [{ id: '1900000000000000777', filename: 'x.png', contentType: 'image/png', size: 1, url: `/api/transcripts/v2/${ARCADE}/file7/attachments/1900000000000000001`, width: null, height: null }];
      const borrowed = await bot('PUT', `/servers/${ARCADE}/transcripts/fileY`, { body: borrowing });
      expect(borrowed.statusCode).toBe(400);
      expect(ApiError.parse(borrowed.json()).message).toMatch(/a path on this service/);
      expect(await count("transcripts WHERE file_id IN ('fileX', 'fileY')")).toBe(0);
    });
  });
});
