import type { ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import {
  ApiError,
  type Guild,
  BotCommandBatch,
  ERROR_CODES,
  type ServerConfig,
  StatisticsAnswer,
  type TicketEvent,
  TicketCommandView,
  TicketDetail,
  type TicketMessageEvent,
  TicketQueue,
  type TranscriptUser,
} from '@tickety/api-contract';
import { DEMO_APP, DEMO_GUILDS, DEMO_ROLES, DEMO_USERS } from '@tickety/sandbox';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { seedDemo } from '../../demo/seed';
import { safeFilename, UNSENT_MAX_BYTES_PER_SERVER, UNSENT_MAX_BYTES_PER_USER } from '../../src/services/ticket-actions';
import { QUEUE_TICKETS_MAX } from '../../src/services/ticket-queue';
import { TicketStreams } from '../../src/services/ticket-stream';
import { createTestApp, DASHBOARD_ORIGIN, type TestApp, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { DAY, MINUTE } from '../helpers/clock';
import { databases, openSuiteDb } from '../helpers/db';
import { signIn } from '../helpers/oauth';
import { listen, rawExchange } from '../helpers/raw-http';
import { canRunRedisServer, OwnRedis } from '../helpers/redis-server';
import { openSse } from '../helpers/sse';

const KEY = `tk_bot_testkey1_${'k'.repeat(43)}`;
const BOT: string = DEMO_APP.clientId;
const ARCADE: string = DEMO_GUILDS.avasArcade.id;
const MODS = DEMO_GUILDS.modGuild.id;
const PIXEL = DEMO_GUILDS.pixelPals.id;
const { ava, ben, cleo, nico, sam } = DEMO_USERS;
const DASHBOARD = { 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN };
const MUTATION = { 'content-type': 'application/json', ...DASHBOARD };
const LABELS = [
  { id: 'urgent', name: 'Urgent', colour: 0xff0000 },
  { id: 'billing', name: 'Billing', colour: 0x00ff00 },
];

/** The test clock's morning (2026-03-02, before its 10:00). */
const at = (time: string) => `2026-03-02T${time}:00.000Z`;
const person = (id: string, name: string, bot = false): TranscriptUser => ({ id, username: name.toLowerCase(), displayName: name, avatarUrl: null, bot, staff: false, colour: null });
let eventCount = 0;
let messageCount = 0;

function opened(ticketId: string, number: number, openerId: string, time: string, server = ARCADE): TicketEvent {
  return { id: `e${++eventCount}`, serverId: server, ticketId, at: at(time), type: 'opened', panelId: 'support', openerId, number, answers: [{ question: 'what', answer: 'It is broken' }] };
}
function said(ticketId: string, author: TranscriptUser, time: string, content: string, server = ARCADE): TicketMessageEvent {
  const id = `13000000000000${String(++messageCount).padStart(5, '0')}`;
  return {
    id: `m${messageCount}`,
    serverId: server,
    ticketId,
    at: at(time),
    type: 'message_created',
    message: { id, authorId: author.id, content, createdAt: at(time), editedAt: null, system: null, replyTo: null, embeds: [], attachments: [], reactions: [], stickers: [] },
    author,
  };
}

async function botPost(app: TestApp['app'], path: string, body: unknown): Promise<LightMyRequestResponse> {
  const res = await app.inject({ method: 'POST', url: `/api/bot/v1/${path}`, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

describe.each(databases())('the Tickets page (/api/guilds/:server/tickets) on $name', (database) => {
  const t = useTestApp(database, { env: { BOT_API_KEY: KEY } });
  const browsers = new Map<string, Browser>();
  async function as(userId: string): Promise<Browser> {
    let browser = browsers.get(userId);
    if (!browser) {
      browser = new Browser(t.app);
      await signIn(browser, userId);
      browsers.set(userId, browser);
    }
    return browser;
  }
  const base = `/api/guilds/${ARCADE}/tickets`;
  const command = async (userId: string, ticket: string, body: unknown, server = ARCADE) =>
    (await as(userId)).request('POST', `/api/guilds/${server}/tickets/${ticket}/commands`, { headers: MUTATION, payload: body });
  const queue = async (query = '', userId: string = ava.id) => {
    const res = await (await as(userId)).get(`${base}${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return TicketQueue.parse(res.json());
  };
  const poll = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/bot/v1/commands?wait=0', headers: { authorization: `Bearer ${KEY}` } });
    return BotCommandBatch.parse(res.json()).commands;
  };
  const upload = async (userId: string | null, ticket: string, bytes: Buffer, server = ARCADE, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/guilds/${server}/tickets/${ticket}/attachments`,
      headers: { ...DASHBOARD, 'content-type': 'image/png', 'x-filename': 'screen%20shot.png', ...(userId ? { cookie: (await as(userId)).cookieHeader() } : {}), ...headers },
      payload: bytes,
    });

  /** The app listening on a loopback port (for raw and streamed exchanges), once. */
  let listening: Promise<number> | null = null;
  const portOf = () => {
    listening ??= listen(t.app);
    return listening;
  };

  let config: ServerConfig;
  beforeAll(async () => {
    await seedDemo(t.app, t.sandbox);
    const live = await t.app.serverConfigs.live(ARCADE);
    const saved = await (await as(ava.id)).request('PUT', `${base}/labels`, { headers: MUTATION, payload: { labels: LABELS, version: live.version } });
    expect(saved.statusCode, saved.body).toBe(200);
    config = (await t.app.serverConfigs.live(ARCADE)).config;
    // t1: Cleo waits since 09:00 (nobody answered); t2: Ben's, claimed by Ava, who answered last;
    // t3: Cleo answered by Nico at 08:40, and Cleo spoke again at 08:50; t4: closed; another server's.
    await botPost(t.app, 'events', {
      events: [
        opened('t1', 1, cleo.id, '09:00'),
        opened('t2', 2, ben.id, '08:00'),
        { id: 'c2', serverId: ARCADE, ticketId: 't2', at: at('08:06'), type: 'claimed', staffId: ava.id },
        opened('t3', 3, cleo.id, '08:30'),
        opened('t4', 4, cleo.id, '07:00'),
        { id: 'x4', serverId: ARCADE, ticketId: 't4', at: at('07:30'), type: 'closed', closedBy: ava.id, reason: 'Done' },
        opened('p1', 1, cleo.id, '07:00', PIXEL),
      ],
    });
    const CLEO = person(cleo.id, 'Cleo');
    await botPost(t.app, 'messages', {
      messages: [
        said('t1', CLEO, '09:01', 'My printer is on fire'),
        said('t1', person(BOT, 'Tickety', true), '09:00', 'Welcome! Staff will be with you shortly.'),
        said('t2', person(ben.id, 'Ben'), '08:05', 'Hello?'),
        said('t2', person(ava.id, 'Ava'), '08:10', 'On it, 100% sure'),
        said('t3', CLEO, '08:35', 'Refund please'),
        said('t3', person(nico.id, 'Nico'), '08:40', 'Which order?'),
        said('t3', CLEO, '08:50', 'AA-12345'),
      ],
    });
  });
  beforeEach(async () => {
    await t.db.query(`UPDATE bot_commands SET state = 'done' WHERE state IN ('queued', 'taken')`);
  });

  it('lists the open tickets, waiting for staff first (longest first), then the oldest, with names, last messages and counts', async () => {
    const answer = await queue();
    expect(answer.tickets.map((ticket) => ticket.id)).toEqual(['t3', 't1', 't2']);
    const [t3, t1, t2] = answer.tickets;
    expect(t3).toMatchObject({ number: 3, panelId: 'support', panelName: config.panels.find((p) => p.id === 'support')!.name, waitingForStaff: true, waitingSince: at('08:50') });
    expect(t3!.opener).toEqual({ id: cleo.id, name: 'Cleo', avatarUrl: null });
    expect(t3!.lastMessage).toEqual({ author: { id: cleo.id, name: 'Cleo', avatarUrl: null }, excerpt: 'AA-12345', at: at('08:50'), fromMember: true });
    // The bot's welcome is no answer: t1 waits since it opened.
    expect(t1).toMatchObject({ waitingForStaff: true, waitingSince: at('09:00'), claimer: null });
    expect(t1!.lastMessage?.excerpt).toBe('My printer is on fire');
    expect(t2).toMatchObject({ waitingForStaff: false, waitingSince: null, claimer: { id: ava.id, name: 'Ava' }, opener: { id: ben.id, name: 'Ben' } });
    expect(answer.counts).toEqual({ open: 3, mine: 1, unclaimed: 2, waiting: 2 });
    expect(answer.labels).toEqual(LABELS);
    expect(answer.panels.map((p) => p.id)).toEqual(config.panels.map((p) => p.id));
  });

  it('filters (mine, unclaimed, waiting, panel, label) and searches numbers, openers and message text; counts stay over all', async () => {
    const ids = async (query: string, userId: string = ava.id) => (await queue(query, userId)).tickets.map((ticket) => ticket.id);
    expect(await ids('?filter=mine')).toEqual(['t2']);
    expect(await ids('?filter=mine', nico.id)).toEqual([]);
    expect(await ids('?filter=unclaimed')).toEqual(['t3', 't1']);
    expect(await ids('?filter=waiting')).toEqual(['t3', 't1']);
    expect(await ids('?panel=purchases')).toEqual([]);
    expect(await ids('?panel=support')).toEqual(['t3', 't1', 't2']);
    expect(await ids('?q=%232')).toEqual(['t2']);
    expect(await ids('?q=3')).toEqual(['t3']);
    expect(await ids('?q=printer')).toEqual(['t1']);
    expect(await ids('?q=100%25')).toEqual(['t2']);
    expect(await ids('?q=ben')).toEqual(['t2']);
    expect(await ids(`?q=${cleo.id}`)).toEqual(['t3', 't1']);
    expect(await ids('?q=nothing-like-this')).toEqual([]);
    expect((await queue('?q=printer')).counts.open).toBe(3);
    for (const bad of ['?filter=everything', '?label=Not%20an%20id!', '?unknown=1']) {
      const res = await (await as(ava.id)).get(`${base}${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(ApiError.parse(res.json()).code).toBe(ERROR_CODES.VALIDATION_FAILED.code);
    }
  });

  it('answers one ticket: summary, form answers by their question, messages oldest first, commands, a cursor; closed ones say so; others are 404', async () => {
    const res = await (await as(ava.id)).get(`${base}/t3`);
    expect(res.statusCode, res.body).toBe(200);
    const detail = TicketDetail.parse(res.json());
    expect(detail.ticket.id).toBe('t3');
    expect(detail.answers).toEqual([{ question: 'What do you need help with?', answer: 'It is broken' }]);
    expect(detail.messages.map((m) => m.message.content)).toEqual(['Refund please', 'Which order?', 'AA-12345']);
    expect(detail).toMatchObject({ truncated: false, closed: false });
    expect(Number(detail.cursor)).toBeGreaterThan(0);
    const closed = TicketDetail.parse((await (await as(ava.id)).get(`${base}/t4`)).json());
    expect(closed.closed).toBe(true);
    for (const path of [`${base}/nope`, `${base}/p1`]) {
      const missing = await (await as(ava.id)).get(path);
      expect(missing.statusCode, path).toBe(404);
      expect(ApiError.parse(missing.json()).code).toBe(ERROR_CODES.NOT_FOUND.code);
    }
  });

  it('names the conversation’s people: authors, the opener, the claimer and those mentioned; an opener nobody knows is unknown', async () => {
    const stranger = '1999999999999999001';
    const opener = '1999999999999999002';
    await botPost(t.app, 'events', {
      events: [opened('mt', 7, opener, '09:20', MODS), { id: 'mt-c', serverId: MODS, ticketId: 'mt', at: at('09:21'), type: 'claimed', staffId: ava.id }],
    });
    await botPost(t.app, 'messages', {
      messages: [
        said('mt', person(BOT, 'Tickety', true), '09:21', `🙋 <@${ava.id}> claimed this ticket and will help you.`, MODS),
        said('mt', person(nico.id, 'Nico'), '09:22', `Looping in <@!${stranger}> and <@${nico.id}>`, MODS),
      ],
    });
    const res = await (await as(ava.id)).get(`/api/guilds/${MODS}/tickets/mt`);
    expect(res.statusCode, res.body).toBe(200);
    const detail = TicketDetail.parse(res.json());
    expect(detail.ticket.opener).toEqual({ id: opener, name: opener, avatarUrl: null, unknown: true });
    const users = new Map(detail.users.map((user) => [user.id, user]));
    expect([...users.keys()].sort()).toEqual([BOT, nico.id, ava.id, opener, stranger].sort());
    // Ava never wrote here: named by her sign-in; Nico by his message; the stranger by nothing.
    expect(users.get(ava.id)).toMatchObject({ name: ava.globalName, avatarUrl: expect.stringContaining(ava.avatar) });
    expect(users.get(ava.id)!.unknown).toBeUndefined();
    expect(users.get(nico.id)).toEqual({ id: nico.id, name: 'Nico', avatarUrl: null });
    expect(users.get(stranger)).toEqual({ id: stranger, name: stranger, avatarUrl: null, unknown: true });
    expect(users.get(opener)).toEqual({ id: opener, name: opener, avatarUrl: null, unknown: true });
    const queued = TicketQueue.parse((await (await as(ava.id)).get(`/api/guilds/${MODS}/tickets`)).json());
    expect(queued.tickets.find((ticket) => ticket.id === 'mt')!.opener).toEqual({ id: opener, name: opener, avatarUrl: null, unknown: true });
  });

  it('shows a deleted message as deleted, without its content, and an edit as its newest text', async () => {
    const message = said('t1', person(cleo.id, 'Cleo'), '09:02', 'secret oops');
    const messageId = (message as { message: { id: string } }).message.id;
    await botPost(t.app, 'messages', { messages: [message] });
    await botPost(t.app, 'messages', { messages: [{ id: 'del-1', serverId: ARCADE, ticketId: 't1', at: at('09:03'), type: 'message_deleted', messageId }] });
    const detail = TicketDetail.parse((await (await as(ava.id)).get(`${base}/t1`)).json());
    const shown = detail.messages.find((m) => m.message.id === messageId)!;
    expect(shown).toMatchObject({ deleted: true, message: { content: '' } });
  });

  it('queues a claim for the bot as the signed-in user (202), logs it, and the bot takes it', async () => {
    const res = await command(nico.id, 't1', { kind: 'claim' });
    expect(res.statusCode, res.body).toBe(202);
    const view = TicketCommandView.parse(res.json());
    expect(view).toMatchObject({ kind: 'claim', state: 'queued', requestedBy: { id: nico.id }, failure: null, content: null });
    const [taken] = await poll();
    expect(taken).toMatchObject({ id: view.id, kind: 'claim', serverId: ARCADE, ticketId: 't1', requestedBy: { id: nico.id } });
    const logs = (await t.db.query<{ action: string; target: string; actor_id: string }>(`SELECT action, target, actor_id FROM web_logs WHERE guild_id = $1 AND action LIKE 'ticket.claim'`, [ARCADE])).rows;
    expect(logs).toEqual([{ action: 'ticket.claim', target: 'Ticket #1', actor_id: nico.id }]);
    const detail = TicketDetail.parse((await (await as(ava.id)).get(`${base}/t1`)).json());
    expect(detail.commands.map((c) => [c.id, c.state])).toEqual([[view.id, 'taken']]);
  });

  it('refuses a closed ticket (409 1033), an unknown one (404) and bad requests (400), queueing nothing', async () => {
    const before = (await t.db.query('SELECT count(*)::int AS n FROM bot_commands')).rows[0];
    const closed = await command(ava.id, 't4', { kind: 'reply', content: 'Hello?', attachmentIds: [] });
    expect(closed.statusCode).toBe(409);
    expect(ApiError.parse(closed.json()).code).toBe(ERROR_CODES.TICKET_CLOSED.code);
    expect((await command(ava.id, 'p1', { kind: 'claim' })).statusCode).toBe(404);
    for (const body of [{ kind: 'dance' }, { kind: 'reply', content: '   ' }, { kind: 'reply', content: 'x'.repeat(2001) }, { kind: 'claim', extra: 1 }, { kind: 'add_member', userId: 'me' }]) {
      const res = await command(ava.id, 't1', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(ApiError.parse(res.json()).code).toBe(ERROR_CODES.VALIDATION_FAILED.code);
    }
    const unknownLabel = await command(ava.id, 't1', { kind: 'set_labels', labels: ['urgent', 'vip'] });
    expect(unknownLabel.statusCode).toBe(400);
    expect(ApiError.parse(unknownLabel.json()).message).toContain('“vip” is not a label of this server');
    expect((await t.db.query('SELECT count(*)::int AS n FROM bot_commands')).rows[0]).toEqual(before);
    expect((await queue()).tickets.find((ticket) => ticket.id === 't1')!.labels).toEqual([]);
  });

  it('stores labels at once (configuration order), queues set_labels for the bot, filters by them, and Statistics counts by label', async () => {
    const res = await command(ava.id, 't2', { kind: 'set_labels', labels: ['billing', 'urgent', 'billing'] });
    expect(res.statusCode, res.body).toBe(202);
    const [taken] = await poll();
    expect(taken).toMatchObject({ kind: 'set_labels', labels: ['urgent', 'billing'], ticketId: 't2' });
    expect((await queue('?label=urgent')).tickets.map((ticket) => ticket.id)).toEqual(['t2']);
    expect((await queue()).tickets.find((ticket) => ticket.id === 't2')!.labels).toEqual(['urgent', 'billing']);
    const log = (await t.db.query<{ changes: unknown }>(`SELECT changes FROM web_logs WHERE guild_id = $1 AND action = 'ticket.labels'`, [ARCADE])).rows;
    expect(log).toEqual([{ changes: [{ path: 'labels', before: [], after: ['urgent', 'billing'] }] }]);
    const stats = async (query: string) => StatisticsAnswer.parse((await (await as(ava.id)).get(`/api/guilds/${ARCADE}/statistics${query}`)).json());
    expect((await stats('')).totals.opened).toBe(4);
    expect((await stats('?label=urgent')).totals).toMatchObject({ opened: 1, backlog: 1 });
    expect((await stats('?label=urgent')).daily.reduce((sum, day) => sum + day.opened, 0)).toBe(1);
    expect((await stats('?label=vip')).totals.opened).toBe(0);
  });

  it('saves the labels as a configuration version (Web Logs, conflicts), and the Panel Menu save and export keep them', async () => {
    const owner = await as(ava.id);
    const live = await t.app.serverConfigs.live(ARCADE);
    const stale = await owner.request('PUT', `${base}/labels`, { headers: MUTATION, payload: { labels: [], version: live.version - 1 } });
    expect(stale.statusCode).toBe(409);
    expect(ApiError.parse(stale.json()).code).toBe(ERROR_CODES.CONFIG_CONFLICT.code);
    const dup = await owner.request('PUT', `${base}/labels`, { headers: MUTATION, payload: { labels: [LABELS[0], LABELS[0]], version: live.version } });
    expect(dup.statusCode).toBe(400);
    const withVip = [...LABELS, { id: 'vip', name: 'VIP', colour: 0x0000ff }];
    const saved = await owner.request('PUT', `${base}/labels`, { headers: MUTATION, payload: { labels: withVip, version: live.version } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ labels: withVip, version: live.version + 1 });
    const entry = (await owner.get(`/api/guilds/${ARCADE}/logs`)).json().entries[0];
    expect(entry).toMatchObject({ action: 'config.update', target: 'Ticket labels', version: live.version + 1 });
    expect(entry.changes).toEqual([{ path: 'labels[vip]', after: withVip[2] }]);
    // The Panel Menu saves the whole configuration it read: the labels stay.
    const read = (await owner.get(`/api/guilds/${ARCADE}/config`)).json() as { version: number; config: ServerConfig };
    expect(read.config.labels).toEqual(withVip);
    const panelSave = await owner.request('PUT', `/api/guilds/${ARCADE}/config`, { headers: MUTATION, payload: { expectedVersion: read.version, config: { ...read.config, general: { ...read.config.general, claiming: !read.config.general.claiming } } } });
    expect(panelSave.statusCode, panelSave.body).toBe(200);
    expect((await t.app.serverConfigs.live(ARCADE)).config.labels).toEqual(withVip);
    const exported = (await owner.get(`/api/guilds/${ARCADE}/config/export`)).json() as { config: ServerConfig };
    expect(exported.config.labels).toEqual(withVip);
    // Imported elsewhere in time: the labels come back with the file.
    const cleared = await owner.request('PUT', `${base}/labels`, { headers: MUTATION, payload: { labels: [], version: (await t.app.serverConfigs.live(ARCADE)).version } });
    expect(cleared.json()).toMatchObject({ labels: [] });
    const imported = await owner.request('POST', `/api/guilds/${ARCADE}/config/import`, { headers: MUTATION, payload: { file: exported, expectedVersion: (await t.app.serverConfigs.live(ARCADE)).version } });
    expect(imported.statusCode, imported.body).toBe(200);
    expect((await t.app.serverConfigs.live(ARCADE)).config.labels).toEqual(withVip);
    // A version saved before labels existed reads as none (no change to describe).
    const versionOne = (await owner.get(`/api/guilds/${ARCADE}/config/versions/1`)).json() as { config: ServerConfig; changes: Array<{ path: string }> };
    expect(versionOne.config.labels).toEqual([]);
    expect(versionOne.changes.filter((c) => c.path.startsWith('labels')).map((c) => c.path)).toEqual(['labels[urgent]', 'labels[billing]', 'labels[vip]']);
  });

  it('saves labels without a version (a member who cannot read the configuration) over the live one', async () => {
    const owner = await as(ava.id);
    const live = await t.app.serverConfigs.live(ARCADE);
    const saved = await owner.request('PUT', `${base}/labels`, { headers: MUTATION, payload: { labels: LABELS, version: null } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ labels: LABELS, version: live.version + 1 });
    expect((await t.app.serverConfigs.live(ARCADE)).config.panels).toEqual(live.config.panels);
  });

  it('takes a reply file (raw body), sends it with a reply as a download link the bot fetches with its key', async () => {
    const bytes = Buffer.from('\x89PNG fake image bytes');
    const res = await upload(ava.id, 't1', bytes);
    expect(res.statusCode, res.body).toBe(200);
    const file = res.json() as { id: string; filename: string; contentType: string; size: number };
    expect(file).toMatchObject({ filename: 'screen shot.png', contentType: 'image/png', size: bytes.length });
    // Another user's upload, or this one on another server, cannot be sent.
    const notHers = await command(nico.id, 't1', { kind: 'reply', content: 'Look', attachmentIds: [file.id] });
    expect(notHers.statusCode).toBe(400);
    await botPost(t.app, 'events', { events: [opened('elsewhere', 1, cleo.id, '09:00', MODS)] });
    const otherServer = await command(ava.id, 'elsewhere', { kind: 'reply', content: 'Look', attachmentIds: [file.id] }, MODS);
    expect(otherServer.statusCode, otherServer.body).toBe(400);
    const sent = await command(ava.id, 't1', { kind: 'reply', content: 'See attached', attachmentIds: [file.id] });
    expect(sent.statusCode, sent.body).toBe(202);
    expect(TicketCommandView.parse(sent.json())).toMatchObject({ kind: 'reply', content: 'See attached' });
    const [taken] = await poll();
    expect(taken).toMatchObject({ kind: 'reply', content: 'See attached', attachments: [{ filename: 'screen shot.png', contentType: 'image/png', size: bytes.length }] });
    const url = new URL((taken as { attachments: Array<{ url: string }> }).attachments[0]!.url);
    const fetched = await t.app.inject({ method: 'GET', url: url.pathname, headers: { authorization: `Bearer ${KEY}` } });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.rawPayload.equals(bytes)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: url.pathname })).statusCode).toBe(401);
    // Sent once: not again.
    expect((await command(ava.id, 't1', { kind: 'reply', content: 'Again', attachmentIds: [file.id] })).statusCode).toBe(400);
  });

  it('refuses files too large (413), without a session (401), on a closed ticket (409), and deletes unused ones after a day', async () => {
    const big = await upload(ava.id, 't1', Buffer.alloc(10 * 1024 * 1024 + 1));
    expect(big.statusCode).toBe(413);
    expect(ApiError.parse(big.json()).code).toBe(ERROR_CODES.PAYLOAD_TOO_LARGE.code);
    const anonymous = await upload(null, 't1', Buffer.from('x'));
    expect(anonymous.statusCode).toBe(401);
    // Refused before the body is read: the answer comes though the announced 5 MB never do.
    const port = await portOf();
    for (const [cookie, status] of [
      ['', '401'],
      [(await as(ben.id)).cookieHeader(), '403'],
    ] as const) {
      const answer = await rawExchange(
        port,
        (socket) =>
          socket.write(
            `POST ${base}/t1/attachments HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/png\r\nContent-Length: 5000000\r\nX-Requested-With: tickety\r\nOrigin: ${DASHBOARD_ORIGIN}\r\n${cookie ? `Cookie: ${cookie}\r\n` : ''}\r\nabc`,
          ),
        3_000,
        (text) => text.includes('\r\n\r\n'),
      );
      expect(answer.text.slice(0, 12), answer.text).toBe(`HTTP/1.1 ${status}`);
      expect(answer.ms).toBeLessThan(2_000);
    }
    const closed = await upload(ava.id, 't4', Buffer.from('x'));
    expect(closed.statusCode).toBe(409);
    const noHeader = await t.app.inject({ method: 'POST', url: `${base}/t1/attachments`, headers: { cookie: (await as(ava.id)).cookieHeader(), 'content-type': 'image/png' }, payload: Buffer.from('x') });
    expect(noHeader.statusCode).toBe(403);
    const old = (await upload(ava.id, 't1', Buffer.from('old'))).json() as { id: string };
    await t.db.query(`UPDATE ticket_attachments SET created_at = created_at - interval '1 day 1 second' WHERE id = $1`, [old.id]);
    expect(await t.app.ticketActions.prune()).toBeGreaterThanOrEqual(1);
    expect((await t.db.query('SELECT 1 FROM ticket_attachments WHERE id = $1', [old.id])).rows).toEqual([]);
    expect(await t.app.blobStore.head(`ticket-attachments/${old.id}`)).toBeNull();
  });

  it('sends a file only with a reply in the ticket it was uploaded in', async () => {
    const file = (await upload(ava.id, 't1', Buffer.from('for t1'))).json() as { id: string };
    const elsewhere = await command(ava.id, 't3', { kind: 'reply', content: 'Look', attachmentIds: [file.id] });
    expect(elsewhere.statusCode, elsewhere.body).toBe(400);
    expect(ApiError.parse(elsewhere.json()).message).toContain('in this ticket');
    expect((await t.db.query('SELECT command_id FROM ticket_attachments WHERE id = $1', [file.id])).rows).toEqual([{ command_id: null }]);
    expect((await command(ava.id, 't1', { kind: 'reply', content: 'Look', attachmentIds: [file.id] })).statusCode).toBe(202);
  });

  it('serves a reply file to the bot only once sent, only to the bot it was queued for, always as bytes to save', async () => {
    const name = encodeURIComponent("it's (1)*.html");
    const file = (await upload(ava.id, 't1', Buffer.from('<script>alert(1)</script>'), ARCADE, { 'content-type': 'text/html', 'x-filename': name })).json() as { id: string; filename: string };
    expect(file.filename).toBe("it's (1)*.html");
    const download = () => t.app.inject({ method: 'GET', url: `/api/bot/v1/attachments/${file.id}`, headers: { authorization: `Bearer ${KEY}` } });
    // Not sent yet: the bot has no business with it.
    const unsent = await download();
    expect(unsent.statusCode).toBe(404);
    expect(ApiError.parse(unsent.json()).code).toBe(ERROR_CODES.NOT_FOUND.code);
    const sent = await command(ava.id, 't1', { kind: 'reply', content: 'Here', attachmentIds: [file.id] });
    expect(sent.statusCode, sent.body).toBe(202);
    const fetched = await download();
    expect(fetched.statusCode).toBe(200);
    expect(fetched.headers['content-type']).toBe('application/octet-stream');
    expect(fetched.headers['content-security-policy']).toBe('sandbox');
    expect(fetched.headers['x-content-type-options']).toBe('nosniff');
    expect(fetched.headers['content-disposition']).toBe(`attachment; filename="it's (1)*.html"; filename*=UTF-8''it%27s%20%281%29%2A.html`);
    // The command queued for another bot (the server moved to it): not this bot's file.
    const { id } = sent.json() as { id: string };
    await t.db.query(`UPDATE bot_commands SET bot_id = 'another-bot' WHERE id = $1`, [id]);
    expect((await download()).statusCode).toBe(404);
    await t.db.query('UPDATE bot_commands SET bot_id = $2 WHERE id = $1', [id, BOT]);
  });

  it('names files safely: no C1 controls, bidirectional overrides or separators; `.` and `..` become `file`', async () => {
    expect(safeFilename('a\u0085b\u009f.txt')).toBe('ab.txt');
    expect(safeFilename('invoice\u202Egnp.exe')).toBe('invoicegnp.exe');
    expect(safeFilename('\u2066x\u2069\u202Ay\u2028z\u2029.png')).toBe('xyz.png');
    expect(safeFilename('..')).toBe('file');
    expect(safeFilename('.')).toBe('file');
    expect(safeFilename('%2E%2E')).toBe('file');
    expect(safeFilename('a/..')).toBe('file');
    expect(safeFilename('')).toBe('file');
    const res = await upload(nico.id, 't1', Buffer.from('x'), ARCADE, { 'x-filename': encodeURIComponent('\u202Etxt.exe') });
    expect(res.json()).toMatchObject({ filename: 'txt.exe' });
    expect((await upload(nico.id, 't1', Buffer.from('x'), ARCADE, { 'x-filename': '..' })).json()).toMatchObject({ filename: 'file' });
  });

  it('refuses an upload past the room for files not sent (50 MB a user, 200 MB a server, of the last day), storing nothing', async () => {
    const now = new Date(t.clock()).toISOString();
    const filler = (id: string, userId: string, size: number) =>
      t.db.query(`INSERT INTO ticket_attachments (id, guild_id, ticket_id, user_id, filename, content_type, size, created_at) VALUES ($1, $2, 't1', $3, 'f', 'text/plain', $4, $5)`, [id, ARCADE, userId, size, now]);
    const rows = async () => Number((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ticket_attachments')).rows[0]!.n);
    try {
      const unsent = async (column: 'user_id' | 'guild_id', value: string) =>
        Number((await t.db.query<{ n: string }>(`SELECT coalesce(sum(size), 0)::text AS n FROM ticket_attachments WHERE ${column} = $1 AND command_id IS NULL AND created_at > $2::timestamptz - interval '1 day'`, [value, now])).rows[0]!.n);
      await filler('att_filleruser', nico.id, UNSENT_MAX_BYTES_PER_USER - (await unsent('user_id', nico.id)) - 2);
      expect((await upload(nico.id, 't1', Buffer.from('ok'))).statusCode).toBe(200);
      const before = await rows();
      const mine = await upload(nico.id, 't1', Buffer.from('x'));
      expect(mine.statusCode, mine.body).toBe(429);
      expect(ApiError.parse(mine.json())).toMatchObject({ code: ERROR_CODES.RATE_LIMITED.code, message: expect.stringContaining('50 MB') });
      expect(await rows()).toBe(before);
      // Sent files do not count.
      await t.db.query(`UPDATE ticket_attachments SET command_id = 'sent' WHERE id = 'att_filleruser'`);
      expect((await upload(nico.id, 't1', Buffer.from('x'))).statusCode).toBe(200);
      // Others' unsent files on the server count towards its room.
      await filler('att_fillerserver', '10000000000009001', UNSENT_MAX_BYTES_PER_SERVER - (await unsent('guild_id', ARCADE)));
      const server = await upload(nico.id, 't1', Buffer.from('x'));
      expect(server.statusCode, server.body).toBe(429);
      expect(ApiError.parse(server.json()).message).toContain('200 MB');
    } finally {
      await t.db.query(`DELETE FROM ticket_attachments WHERE id LIKE 'att_filler%'`);
    }
  });

  it('checks the ticket of an upload before its body: a bad id (400) or an unknown ticket (404) is answered though the bytes never come', async () => {
    const port = await portOf();
    const cookie = (await as(ava.id)).cookieHeader();
    for (const [ticket, status] of [
      ['bad.id', '400'],
      ['nope', '404'],
      ['t4', '409'],
    ] as const) {
      const answer = await rawExchange(
        port,
        (socket) =>
          socket.write(
            `POST ${base}/${ticket}/attachments HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/png\r\nContent-Length: 5000000\r\nX-Requested-With: tickety\r\nOrigin: ${DASHBOARD_ORIGIN}\r\nCookie: ${cookie}\r\n\r\nabc`,
          ),
        3_000,
        (text) => text.includes('\r\n\r\n'),
      );
      expect(answer.text.slice(0, 12), answer.text).toBe(`HTTP/1.1 ${status}`);
      expect(answer.ms).toBeLessThan(2_000);
    }
  });

  it('prunes through the deferred deletions: a blob store that fails keeps the keys queued until a later pass', async () => {
    const old = (await upload(ava.id, 't1', Buffer.from('old'))).json() as { id: string };
    const key = `ticket-attachments/${old.id}`;
    await t.db.query(`UPDATE ticket_attachments SET created_at = created_at - interval '1 day 1 second' WHERE id = $1`, [old.id]);
    const store = t.app.blobStore;
    const original = store.delete.bind(store);
    store.delete = async () => {
      throw new Error('store down');
    };
    try {
      expect(await t.app.ticketActions.prune()).toBeGreaterThanOrEqual(1);
    } finally {
      store.delete = original;
    }
    expect((await t.db.query('SELECT 1 FROM ticket_attachments WHERE id = $1', [old.id])).rows).toEqual([]);
    expect((await t.db.query('SELECT key FROM blob_deletions WHERE key = $1', [key])).rows).toEqual([{ key }]);
    expect(await store.head(key)).not.toBeNull();
    await t.app.ticketActions.prune();
    expect((await t.db.query('SELECT key FROM blob_deletions WHERE key = $1', [key])).rows).toEqual([]);
    expect(await store.head(key)).toBeNull();
  });

  it('prunes every 15 minutes on its own, until the instance stops it', async () => {
    const actions = t.app.ticketActions;
    await actions.stop();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const prune = vi.spyOn(actions, 'prune').mockResolvedValue(0);
    try {
      actions.start();
      vi.advanceTimersByTime(15 * 60_000 - 1);
      expect(prune).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(prune).toHaveBeenCalledTimes(1);
      await actions.stop();
      vi.advanceTimersByTime(60 * 60_000);
      expect(prune).toHaveBeenCalledTimes(1);
    } finally {
      prune.mockRestore();
      vi.useRealTimers();
      actions.start();
    }
  });

  it('reads at most 500 open tickets for the queue and says so (truncated); the counts stay over all', async () => {
    const before = (await queue()).counts.open;
    await t.db.query(
      `INSERT INTO tickets (bot_id, guild_id, ticket_id, number, panel_id, opener_id, opened_at, updated_at)
       SELECT $1, $2, 'bulk' || n, 1000 + n, 'support', $3, $4::timestamptz + n * interval '1 second', $4::timestamptz FROM generate_series(1, $5::int) AS n`,
      [BOT, ARCADE, cleo.id, at('09:30'), QUEUE_TICKETS_MAX],
    );
    try {
      const full = await queue();
      expect(full.counts.open).toBe(before + QUEUE_TICKETS_MAX);
      expect(full.truncated).toBe(true);
      expect(full.tickets.length).toBe(QUEUE_TICKETS_MAX);
    } finally {
      await t.db.query(`DELETE FROM tickets WHERE ticket_id LIKE 'bulk%'`);
    }
    expect((await queue()).truncated).toBe(false);
  });

  it('counts commands and staff answers of the bot that serves the server only', async () => {
    // tb: opened, and the bot's line last; another bot's reply command names that line as its message.
    await botPost(t.app, 'events', { events: [opened('tb', 90, cleo.id, '09:10')] });
    await botPost(t.app, 'messages', { messages: [said('tb', person(cleo.id, 'Cleo'), '09:11', 'Hi'), said('tb', person(BOT, 'Tickety', true), '09:12', 'Posted for staff')] });
    const line = (await t.db.query<{ message_id: string }>(`SELECT message_id FROM ticket_messages WHERE ticket_id = 'tb' AND author->>'bot' = 'true'`)).rows[0]!.message_id;
    await t.db.query(
      `INSERT INTO bot_commands (id, bot_id, guild_id, ticket_id, kind, payload, requested_by, requested_at, expires_at, state, outcome)
       VALUES ('cmd_otherbot', 'another-bot', $1, 'tb', 'reply', '{"kind":"reply","content":"x"}', '{"id":"1","name":"x","avatarUrl":null}', $2, $2, 'done', $3)`,
      [ARCADE, new Date(t.clock()).toISOString(), JSON.stringify({ messageId: line })],
    );
    try {
      const detail = TicketDetail.parse((await (await as(ava.id)).get(`${base}/tb`)).json());
      expect(detail.commands.map((c) => c.id)).not.toContain('cmd_otherbot');
      expect(detail.ticket.waitingForStaff).toBe(true);
    } finally {
      await t.db.query(`DELETE FROM bot_commands WHERE id = 'cmd_otherbot'`);
      await botPost(t.app, 'events', { events: [{ id: 'xb', serverId: ARCADE, ticketId: 'tb', at: at('09:20'), type: 'closed', closedBy: ava.id, reason: 'Done' }] });
    }
  });

  it('limits one user to 30 actions a minute (429 with the catalogue)', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 32; i++) answers.push((await command(nico.id, 't1', { kind: 'unclaim' })).statusCode);
    expect(answers.filter((code) => code === 202).length).toBeLessThanOrEqual(30);
    const limited = await command(nico.id, 't1', { kind: 'unclaim' });
    expect(limited.statusCode).toBe(429);
    expect(ApiError.parse(limited.json()).code).toBe(ERROR_CODES.RATE_LIMITED.code);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  describe('who may', () => {
    const routes = [
      { name: 'GET queue', write: false, run: (b: Browser, s: string) => b.get(`/api/guilds/${s}/tickets`, { headers: DASHBOARD }) },
      { name: 'GET ticket', write: false, run: (b: Browser, s: string) => b.get(`/api/guilds/${s}/tickets/t2`, { headers: DASHBOARD }) },
      { name: 'POST command', write: true, run: (b: Browser, s: string) => b.request('POST', `/api/guilds/${s}/tickets/t2/commands`, { headers: MUTATION, payload: { kind: 'claim' } }) },
      { name: 'PUT labels', write: true, run: (b: Browser, s: string) => b.request('PUT', `/api/guilds/${s}/tickets/labels`, { headers: MUTATION, payload: { labels: [], version: 1 } }) },
      {
        name: 'POST attachment',
        write: true,
        run: (b: Browser, s: string) => b.request('POST', `/api/guilds/${s}/tickets/t2/attachments`, { headers: { ...DASHBOARD, 'content-type': 'text/plain' }, payload: 'hello' }),
      },
    ];
    const commandsNow = async () => Number((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM bot_commands')).rows[0]!.n);

    it('no session: 401 everywhere', async () => {
      for (const route of routes) expect((await route.run(new Browser(t.app), ARCADE)).statusCode, route.name).toBe(401);
    });

    it('a member without access, even the ticket’s opener (Ben on t2), and a member of no access (Cleo on Pixel Pals): 403', async () => {
      const before = await commandsNow();
      for (const [userId, server] of [
        [ben.id, ARCADE],
        [cleo.id, PIXEL],
      ] as const) {
        for (const route of routes) {
          const res = await route.run(await as(userId), server);
          expect(res.statusCode, `${route.name} ${userId}`).toBe(403);
          expect(ApiError.parse(res.json()).code).toBe(ERROR_CODES.NO_SERVER_ACCESS.code);
        }
      }
      expect(await commandsNow()).toBe(before);
    });

    it('a role with tickets read (Ben on Retro Modders): reads, never writes (1017)', async () => {
      const owner = await as(ava.id);
      const live = await t.app.serverConfigs.live(MODS);
      const access = live.config.access.map((rule) => (rule.roleId === DEMO_ROLES.modGuild.dashboardReaders ? { ...rule, areas: { ...rule.areas, tickets: 'read' as const } } : rule));
      const saved = await owner.request('PUT', `/api/guilds/${MODS}/config`, { headers: MUTATION, payload: { expectedVersion: live.version, config: { ...live.config, access } } });
      expect(saved.statusCode, saved.body).toBe(200);
      await botPost(t.app, 'events', { events: [opened('t2', 9, cleo.id, '09:00', MODS)] });
      for (const route of routes) {
        const res = await route.run(await as(ben.id), MODS);
        if (!route.write) expect(res.statusCode, `${route.name}: ${res.body}`).toBe(200);
        else {
          expect(res.statusCode, route.name).toBe(403);
          expect(ApiError.parse(res.json()).code).toBe(ERROR_CODES.AREA_ACCESS_REQUIRED.code);
        }
      }
      const stream = await openSse(await portOf(), `/api/guilds/${MODS}/tickets/stream?ticket=t2`, { cookie: (await as(ben.id)).cookieHeader() });
      expect(stream.status).toBe(200);
      stream.close();
    });

    it('staff read (Sam, no access of his own): reads from the dashboard, never writes', async () => {
      const before = await commandsNow();
      for (const route of routes) {
        const res = await route.run(await as(sam.id), ARCADE);
        if (!route.write) expect(res.statusCode, `${route.name}: ${res.body}`).toBe(200);
        else expect(res.statusCode, route.name).toBeGreaterThanOrEqual(400);
      }
      expect(await commandsNow()).toBe(before);
      const stream = await openSse(await portOf(), `${base}/stream`, { cookie: (await as(sam.id)).cookieHeader(), ...DASHBOARD });
      expect(stream.status).toBe(200);
      stream.close();
    });
  });

  describe('the live stream (SSE)', () => {
    let port: number;
    beforeAll(async () => {
      port = await portOf();
    });
    const open = async (userId: string, query: string, headers: Record<string, string> = {}) =>
      openSse(port, `${base}/stream${query}`, { cookie: (await as(userId)).cookieHeader(), ...headers });

    it('sends the first state, then a message the bot posts, a command and the queue, each with the cursor; resuming loses and doubles nothing', async () => {
      const detail = TicketDetail.parse((await (await as(ava.id)).get(`${base}/t3`)).json());
      const stream = await open(ava.id, `?ticket=t3&cursor=${detail.cursor}`, { 'accept-encoding': 'gzip, br', origin: DASHBOARD_ORIGIN });
      try {
        expect(stream.status).toBe(200);
        // The dashboard on its own origin reads it (EventSource withCredentials).
        expect(stream.headers['access-control-allow-origin']).toBe(DASHBOARD_ORIGIN);
        expect(stream.headers['access-control-allow-credentials']).toBe('true');
        expect(stream.headers['x-content-type-options']).toBe('nosniff');
        expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
        expect(stream.headers['content-encoding']).toBeUndefined();
        await stream.next((f) => f.event === 'ticket');
        const counts = await stream.next((f) => f.event === 'queue');
        expect(counts.data).toEqual({ type: 'queue', counts: (await queue()).counts });
        const first = stream.frames.length;
        await botPost(t.app, 'messages', { messages: [said('t3', person(cleo.id, 'Cleo'), '09:10', 'live one')] });
        const live = await stream.next((f) => f.event === 'messages', 5_000, first);
        expect((live.data as { messages: Array<{ message: { content: string } }> }).messages.map((m) => m.message.content)).toEqual(['live one']);
        expect(Number(live.id)).toBeGreaterThan(Number(detail.cursor));
        await stream.next((f) => f.event === 'queue', 5_000, first);
        const claimed = await command(ava.id, 't3', { kind: 'claim' });
        const commands = await stream.next((f) => f.event === 'commands' && JSON.stringify(f.data).includes((claimed.json() as { id: string }).id), 5_000, first);
        expect(commands.id).toBe(live.id);

        // The client drops; two messages arrive meanwhile; it comes back with Last-Event-ID.
        stream.close();
        await botPost(t.app, 'messages', { messages: [said('t3', person(cleo.id, 'Cleo'), '09:11', 'gap one'), said('t3', person(nico.id, 'Nico'), '09:12', 'gap two')] });
        const again = await open(ava.id, `?ticket=t3&cursor=${detail.cursor}`, { 'last-event-id': live.id! });
        try {
          const resumed = await again.next((f) => f.event === 'messages');
          const contents = (resumed.data as { messages: Array<{ message: { content: string } }> }).messages.map((m) => m.message.content);
          expect(contents.sort()).toEqual(['gap one', 'gap two']);
          // The bot closes the ticket: the page hears it.
          const before = again.frames.length;
          await botPost(t.app, 'events', { events: [{ id: 'close-t3', serverId: ARCADE, ticketId: 't3', at: at('09:20'), type: 'closed', closedBy: nico.id, reason: null }] });
          const closed = await again.next((f) => f.event === 'ticket' && (f.data as { closed: boolean }).closed, 5_000, before);
          expect(closed.data).toMatchObject({ type: 'ticket', closed: true, ticket: { id: 't3' } });
        } finally {
          again.close();
        }
      } finally {
        stream.close();
      }
    });

    it('shares one read per signal among the streams of a ticket; a stream joining while messages arrive misses and doubles none; an empty feed is dropped', async () => {
      const detail = TicketDetail.parse((await (await as(ava.id)).get(`${base}/t1`)).json());
      const streams = await Promise.all(Array.from({ length: 6 }, () => open(ava.id, `?ticket=t1&cursor=${detail.cursor}`)));
      const contents = (stream: (typeof streams)[number]) =>
        stream.frames.filter((f) => f.event === 'messages').flatMap((f) => (f.data as { messages: Array<{ message: { content: string } }> }).messages.map((m) => m.message.content));
      try {
        for (const stream of streams) await stream.next((f) => f.event === 'queue');
        expect(t.app.ticketStreams.feeds).toBe(2);
        const reads = vi.spyOn(t.app.ticketQueue, 'changedSince');
        const summaries = vi.spyOn(t.app.ticketQueue, 'summary');
        const counts = vi.spyOn(t.app.ticketQueue, 'countsOfAll');
        try {
          const marks = streams.map((stream) => stream.frames.length);
          await botPost(t.app, 'messages', { messages: [said('t1', person(cleo.id, 'Cleo'), '09:30', 'shared one')] });
          const got = await Promise.all(streams.map((stream, i) => stream.next((f) => f.event === 'messages', 5_000, marks[i])));
          await Promise.all(streams.map((stream, i) => stream.next((f) => f.event === 'queue', 5_000, marks[i])));
          // Six streams, one feed: the same frame for all, read once (a second signal of the same post may add one read).
          expect(new Set(got.map((frame) => JSON.stringify(frame))).size).toBe(1);
          expect(reads.mock.calls.length).toBeGreaterThanOrEqual(1);
          expect(reads.mock.calls.length).toBeLessThanOrEqual(2);
          expect(summaries.mock.calls.length).toBeLessThanOrEqual(2);
          expect(counts.mock.calls.length).toBeLessThanOrEqual(2);
        } finally {
          reads.mockRestore();
          summaries.mockRestore();
          counts.mockRestore();
        }

        // A seventh stream joins from the detail's cursor while ten batches arrive: its own catch-up, then the feed.
        const posts = Array.from({ length: 10 }, (_, i) => botPost(t.app, 'messages', { messages: [said('t1', person(cleo.id, 'Cleo'), '09:31', `join ${i}`)] }));
        const joiner = await open(ava.id, `?ticket=t1&cursor=${detail.cursor}`);
        streams.push(joiner);
        await Promise.all(posts);
        const expected = ['shared one', ...Array.from({ length: 10 }, (_, i) => `join ${i}`)];
        const deadline = Date.now() + 10_000;
        const complete = (stream: (typeof streams)[number]) => expected.every((text) => contents(stream).includes(text));
        while (!streams.every(complete) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        for (const stream of streams) {
          const seen = contents(stream).filter((text) => expected.includes(text));
          expect(seen.sort()).toEqual([...expected].sort());
          const ids = stream.frames.filter((f) => f.event === 'messages').map((f) => Number(f.id));
          expect(ids).toEqual([...ids].sort((left, right) => left - right));
        }
      } finally {
        for (const stream of streams) stream.close();
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(t.app.ticketStreams.size).toBe(0);
      expect(t.app.ticketStreams.feeds).toBe(0);
    });

    it('a stream resumed past its feed (the feed still reading, or behind another instance) skips the messages it has', async () => {
      const first = await open(ava.id, '?ticket=t2');
      await first.next((f) => f.event === 'queue');
      const realRead = t.app.ticketQueue.changedSince.bind(t.app.ticketQueue);
      let letGo: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        letGo = resolve;
      });
      // The feed's reads (no upper bound) wait; a joining stream's own catch-up (bounded) does not.
      const reads = vi.spyOn(t.app.ticketQueue, 'changedSince').mockImplementation(async (...args) => {
        if (args[5] === undefined || args[5] === null) await held;
        return realRead(...args);
      });
      let resumed: Awaited<ReturnType<typeof open>> | null = null;
      try {
        await botPost(t.app, 'messages', { messages: [said('t2', person(ben.id, 'Ben'), '09:50', 'seen elsewhere')] });
        const seen = TicketDetail.parse((await (await as(ava.id)).get(`${base}/t2`)).json()).cursor;
        resumed = await open(ava.id, '?ticket=t2', { 'last-event-id': seen });
        await resumed.next((f) => f.event === 'queue');
        await botPost(t.app, 'messages', { messages: [said('t2', person(ben.id, 'Ben'), '09:51', 'new to both')] });
        letGo();
        const texts = (stream: Awaited<ReturnType<typeof open>>) =>
          stream.frames.filter((f) => f.event === 'messages').flatMap((f) => (f.data as { messages: Array<{ message: { content: string } }> }).messages.map((m) => m.message.content));
        await first.next((f) => f.event === 'messages' && JSON.stringify(f.data).includes('new to both'));
        await resumed.next((f) => f.event === 'messages' && JSON.stringify(f.data).includes('new to both'));
        expect(texts(first)).toEqual(['seen elsewhere', 'new to both']);
        expect(texts(resumed)).toEqual(['new to both']);
        const ids = resumed.frames.filter((f) => f.id !== undefined).map((f) => BigInt(f.id!));
        expect(ids.every((id) => id >= BigInt(seen))).toBe(true);
      } finally {
        letGo();
        reads.mockRestore();
        first.close();
        resumed?.close();
      }
    });

    it('ends a stream whose client reads nothing once more than its bound waits unsent, releasing its slot and feeds', async () => {
      const streams = new TicketStreams({ signals: t.app.signals, queue: t.app.ticketQueue, log: t.app.log, perUser: 10, maxBuffered: 64 * 1024 });
      // A socket that never drains: every byte written stays buffered.
      const stuck = new Writable({ highWaterMark: 1024, write() {} });
      let released = false;
      const guild = { id: ARCADE, name: 'Ava’s Arcade', icon: null, iconUrl: null, owner: true, permissions: '8' } as unknown as Guild;
      await streams.open(
        {
          res: stuck as unknown as ServerResponse,
          userId: ava.id,
          guild,
          botId: await t.app.ticketQueue.botOf(ARCADE),
          ticketId: 't1',
          cursor: null,
          config: async () => (await t.app.serverConfigs.read(ARCADE)).config,
          stillAllowed: async () => true,
          log: t.app.log,
        },
        () => {
          released = true;
        },
      );
      expect(streams.size).toBe(1);
      const long = 'x'.repeat(1_900);
      for (let i = 0; i < 60 && streams.size > 0; i++) {
        await botPost(t.app, 'messages', { messages: [said('t1', person(cleo.id, 'Cleo'), '09:40', `${long} ${i}`)] });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(streams.size).toBe(0);
      expect(streams.feeds).toBe(0);
      expect(released).toBe(true);
      expect(stuck.destroyed).toBe(true);
    });

    it('ends a stream when its access is gone (signed out), at the next check', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, nico.id);
      const stream = await openSse(port, `${base}/stream?ticket=t1`, { cookie: browser.cookieHeader() });
      expect(stream.status).toBe(200);
      await stream.next((f) => f.event === 'queue');
      await t.app.ticketStreams.recheckAll();
      expect(stream.ended).toBe(false);
      expect((await browser.logout()).statusCode).toBeLessThan(400);
      await t.app.ticketStreams.recheckAll();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(stream.ended).toBe(true);
      expect(t.app.ticketStreams.size).toBe(0);
    });

    it('ends every stream when the instance shuts down (preClose), so its connections can close', async () => {
      const stream = await open(nico.id, '');
      await stream.next((f) => f.event === 'queue');
      t.app.ticketStreams.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(stream.ended).toBe(true);
      expect(t.app.ticketStreams.size).toBe(0);
    });

    it('refuses without access (403) or a session (401), a ticket of another server (404), and a user past the cap (429); hanging up frees the slot', async () => {
      const denied = await open(ben.id, '');
      expect(denied.status).toBe(403);
      const anonymous = await openSse(port, `${base}/stream`, {});
      expect(anonymous.status).toBe(401);
      expect((await open(ava.id, '?ticket=p1')).status).toBe(404);
      const streams = [];
      for (let i = 0; i < 10; i++) streams.push(await open(nico.id, ''));
      expect(streams.every((s) => s.status === 200)).toBe(true);
      const eleventh = await open(nico.id, '');
      expect(eleventh.status).toBe(429);
      for (const stream of streams) stream.close();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(t.app.ticketStreams.size).toBe(0);
      const later = await open(nico.id, '');
      expect(later.status).toBe(200);
      later.close();
    });

    it('a client that hangs up before the stream starts leaves nothing behind: no stream, no feed, no slot held', async () => {
      const cookie = (await as(ava.id)).cookieHeader();
      const realBotOf = t.app.ticketQueue.botOf.bind(t.app.ticketQueue);
      let reached: () => void = () => {};
      const inRoute = new Promise<void>((resolve) => {
        reached = resolve;
      });
      let letGo: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        letGo = resolve;
      });
      // The route waits (reading the ticket's bot) while the client connects, asks and hangs up.
      const botOf = vi.spyOn(t.app.ticketQueue, 'botOf').mockImplementation(async (...args) => {
        reached();
        await gate;
        return realBotOf(...args);
      });
      try {
        const socket = connect(port, '127.0.0.1');
        let answered = '';
        socket.on('data', (chunk) => {
          answered += chunk.toString('latin1');
        });
        const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
        await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
        socket.write(`GET ${base}/stream?ticket=t2 HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: text/event-stream\r\ncookie: ${cookie}\r\n\r\n`);
        await inRoute;
        socket.destroy();
        await closed;
        // The server sees the hang-up before the route goes on.
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(answered).toBe('');
        letGo();
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(t.app.ticketStreams.size).toBe(0);
        expect(t.app.ticketStreams.feeds).toBe(0);
        // All ten of the user's slots are free.
        const slots = Array.from({ length: 10 }, () => t.app.ticketStreams.reserve(ava.id));
        for (const release of slots) release();
      } finally {
        letGo();
        botOf.mockRestore();
      }
    });

    it('a stream that fails to start (its first read fails) is ended and dropped with its feeds', async () => {
      const cursor = vi.spyOn(t.app.ticketQueue, 'cursor').mockRejectedValueOnce(new Error('the database is away'));
      try {
        const stream = await open(ava.id, '?ticket=t2');
        expect(stream.status).toBe(200);
        const deadline = Date.now() + 2_000;
        while (!stream.ended && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        expect(stream.ended).toBe(true);
        expect(t.app.ticketStreams.size).toBe(0);
        expect(t.app.ticketStreams.feeds).toBe(0);
      } finally {
        cursor.mockRestore();
      }
    });

    it('refuses a cursor above the largest seq (400 from the catalogue); such a Last-Event-ID counts as absent', async () => {
      const browser = await as(ava.id);
      const refused = await open(ava.id, '?ticket=t1&cursor=9223372036854775808');
      refused.close();
      expect(refused.status).toBe(400);
      const tooLarge = await browser.get(`${base}/stream?ticket=t1&cursor=9223372036854775808`);
      expect(tooLarge.statusCode).toBe(400);
      expect(ApiError.parse(tooLarge.json()).code).toBe(ERROR_CODES.VALIDATION_FAILED.code);
      const largest = await open(ava.id, '?ticket=t1&cursor=9223372036854775807');
      expect(largest.status).toBe(200);
      largest.close();

      // The header past the largest seq is ignored: the stream resumes from the query's cursor and hears what comes.
      const detail = TicketDetail.parse((await browser.get(`${base}/t1`)).json());
      const stream = await open(ava.id, `?ticket=t1&cursor=${detail.cursor}`, { 'last-event-id': '9999999999999999999' });
      try {
        expect(stream.status).toBe(200);
        await stream.next((f) => f.event === 'queue');
        const ids = stream.frames.map((f) => f.id);
        expect(ids.every((id) => id === detail.cursor)).toBe(true);
        await botPost(t.app, 'messages', { messages: [said('t1', person(cleo.id, 'Cleo'), '09:45', 'after a bad header')] });
        const live = await stream.next((f) => f.event === 'messages' && JSON.stringify(f.data).includes('after a bad header'));
        expect(BigInt(live.id!)).toBeGreaterThan(BigInt(detail.cursor));
      } finally {
        stream.close();
      }
    });

    it('checking a staff read again is not staff activity (an open tab does not keep the session fresh); a lapsed one ends the stream', async () => {
      const staffSeen = async () =>
        (await t.db.query<{ staff_seen_at: unknown }>('SELECT staff_seen_at FROM sessions WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC LIMIT 1', [sam.id])).rows[0]
          ?.staff_seen_at;
      const started = t.clock.now;
      const stream = await openSse(port, `${base}/stream`, { cookie: (await as(sam.id)).cookieHeader(), ...DASHBOARD });
      try {
        expect(stream.status).toBe(200);
        await stream.next((f) => f.event === 'queue');
        const before = await staffSeen();
        expect(before).toBeTruthy();
        t.clock.advance(2 * MINUTE);
        await t.app.ticketStreams.recheckAll();
        expect(stream.ended).toBe(false);
        expect(t.app.ticketStreams.size).toBe(1);
        expect(await staffSeen()).toEqual(before);

        // Half a day on the stream stays open (its checks keep the session itself alive, not its staff powers);
        // past the staff idle limit (a day in these tests) the check refuses (1030) and the stream ends.
        t.clock.advance(DAY / 2);
        await t.app.ticketStreams.recheckAll();
        expect(stream.ended).toBe(false);
        expect(await staffSeen()).toEqual(before);
        t.clock.advance(DAY / 2);
        await t.app.ticketStreams.recheckAll();
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(stream.ended).toBe(true);
        expect(t.app.ticketStreams.size).toBe(0);
        const refused = await (await as(sam.id)).request('GET', `${base}/stream`, { headers: DASHBOARD });
        expect(refused.statusCode).toBe(401);
        expect(ApiError.parse(refused.json()).code).toBe(ERROR_CODES.STAFF_SIGN_IN_AGAIN.code);
      } finally {
        stream.close();
        t.clock.set(started);
      }
    });
  });

  it('limits one user to 120 queue reads (searches included) a minute (429 with the catalogue)', async () => {
    const browser = await as(nico.id);
    const answers: number[] = [];
    for (let i = 0; i < 122; i++) answers.push((await browser.get(`${base}?q=printer${i}`)).statusCode);
    expect(answers.filter((code) => code === 200).length).toBeLessThanOrEqual(120);
    const limited = await browser.get(`${base}?q=printer`);
    expect(limited.statusCode).toBe(429);
    expect(ApiError.parse(limited.json()).code).toBe(ERROR_CODES.RATE_LIMITED.code);
  });
});


/** A balancer sends the page's stream to one instance and the bot's messages to another. */
describe.skipIf(!canRunRedisServer).each(databases().filter((database) => database.name === 'postgres'))('the Tickets stream across two instances on $name with Redis', (database) => {
  let redis: OwnRedis;
  let first: TestApp;
  let second: TestApp;
  let drop: () => Promise<void>;
  let cookie: string;
  let port: number;

  beforeAll(async () => {
    redis = await OwnRedis.start();
    const suite = await openSuiteDb(database);
    drop = suite.drop;
    const env = { REDIS_URL: redis.url, BOT_API_KEY: KEY };
    first = await createTestApp(suite.db, { env });
    second = await createTestApp(suite.db, { env });
    await seedDemo(first.app, first.sandbox);
    const browser = new Browser(first.app);
    await signIn(browser, ava.id);
    cookie = browser.cookieHeader();
    port = await listen(first.app);
    await botPost(second.app, 'events', { events: [opened('two', 1, cleo.id, '09:00')] });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await drop?.();
    await redis?.kill();
  });

  it('delivers every message posted on the other instance, concurrent batches included, each once and in cursor order', async () => {
    const stream = await openSse(port, `/api/guilds/${ARCADE}/tickets/stream?ticket=two`, { cookie });
    try {
      expect(stream.status).toBe(200);
      await stream.next((f) => f.event === 'ticket');
      const started = performance.now();
      await botPost(second.app, 'messages', { messages: [said('two', person(cleo.id, 'Cleo'), '09:01', 'first')] });
      await stream.next((f) => f.event === 'messages');
      expect(performance.now() - started).toBeLessThan(2_000);
      // Twenty batches at once, half through each instance: the stream misses none and repeats none.
      const batches = Array.from({ length: 20 }, (_, i) => said('two', person(cleo.id, 'Cleo'), `09:${String(10 + i).padStart(2, '0')}`, `burst ${i}`));
      await Promise.all(batches.map((message, i) => botPost(i % 2 === 0 ? first.app : second.app, 'messages', { messages: [message] })));
      const seen = () => stream.frames.filter((f) => f.event === 'messages').flatMap((f) => (f.data as { messages: Array<{ message: { content: string } }> }).messages.map((m) => m.message.content));
      const deadline = Date.now() + 10_000;
      while (seen().filter((text) => text.startsWith('burst')).length < 20 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const burst = seen().filter((text) => text.startsWith('burst'));
      expect(burst.sort()).toEqual(batches.map((_, i) => `burst ${i}`).sort());
      const ids = stream.frames.filter((f) => f.event === 'messages').map((f) => Number(f.id));
      expect(ids).toEqual([...ids].sort((left, right) => left - right));
    } finally {
      stream.close();
    }
  });
});
