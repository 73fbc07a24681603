import { createServer } from 'node:net';
import { gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import { createSandboxControl, type SandboxControl } from '../discord/control';
import { DEMO_APP, DEMO_CHANNELS, DEMO_GUILDS, DEMO_PEOPLE, DEMO_ROLES } from '../discord/demo-data';
import { discordSandbox } from '../discord/plugin';
import { replyNonce } from './commands';
import { startDemoBot } from './index';
import { DAY_MS, dayOf, demoServer, dueEvents, history, prng, ticketsOfDay } from './history';
import { type LiveDesk, runningDesk, startLiveDesk } from './live';

const ARCADE = DEMO_GUILDS.avasArcade.id;
const KEY = 'tk_bot_testbot01_test-key-of-the-fake-bot-api-000000001';
const JULES = { id: DEMO_PEOPLE.jules.id, name: 'Jules', avatarUrl: 'http://127.0.0.1/cdn/avatars/jules.png' };

// biome-ignore lint/suspicious/noExplicitAny: test payloads are read freely
type Json = Record<string, any>;

/**
 * A small fake of the product's bot API over HTTP (the real one is apps/api's; its tests drive the
 * demo bot against it): events, live messages, transcripts, and a command queue handing out each
 * command again (same id, next attempt) when a test asks, as the API does once a lease runs out.
 */
class FakeBotApi {
  events: Json[] = [];
  messages: Json[] = [];
  transcripts = new Map<string, Json>();
  reports: Array<{ id: string; body: Json }> = [];
  queue: Json[] = [];
  /** Answer the next polls with this status (the API being down). */
  failPolls = 0;
  polls = 0;
  /** Reply files staff uploaded (`GET /api/bot/v1/attachments/:id`), and how often the bot fetched one. */
  files = new Map<string, { type: string; data: Buffer }>();
  downloads = 0;
  /** The server's tags (`GET .../tags?q=`: those whose name contains `q`). */
  tags: Json[] = [];
  /** Added to the configuration the bot reads (auto-close's rules). */
  extraConfig: Json = {};

  #count = 0;

  /** Mounts the fake's routes in a scope of their own (its JSON parser takes gzip bodies). */
  async mount(root: FastifyInstance): Promise<void> {
    await root.register(async (app) => {
    const authed = (req: { headers: Record<string, unknown> }) => req.headers.authorization === `Bearer ${KEY}`;
    app.post('/api/bot/v1/events', async (req, reply) => {
      if (!authed(req)) return reply.code(401).send({});
      const batch = (req.body as { events: Json[] }).events;
      for (const event of batch) expect(event).toMatchObject({ id: expect.stringMatching(/^[A-Za-z0-9_.:-]{1,64}$/), serverId: ARCADE, ticketId: expect.any(String), at: expect.any(String), type: expect.any(String) });
      const fresh = batch.filter((e) => !this.events.some((x) => x.id === e.id));
      this.events.push(...fresh);
      return { accepted: fresh.length, duplicates: batch.length - fresh.length, tickets: 1 };
    });
    app.post('/api/bot/v1/messages', async (req, reply) => {
      if (!authed(req)) return reply.code(401).send({});
      const batch = (req.body as { messages: Json[] }).messages;
      const fresh = batch.filter((e) => !this.messages.some((x) => x.id === e.id));
      this.messages.push(...fresh);
      return { changed: fresh.length, unchanged: batch.length - fresh.length };
    });
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body: Buffer, done) => {
      try {
        done(null, JSON.parse((req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString('utf8')));
      } catch (error) {
        done(error as Error);
      }
    });
    app.put('/api/bot/v1/servers/:server/transcripts/:fileId', async (req) => {
      const { fileId } = req.params as { fileId: string };
      this.transcripts.set(fileId, req.body as Json);
      return { fileId, messages: (req.body as Json).messages.length, attachmentsCopied: 0, bytes: 1, storedBytes: 1, url: `/transcript/v2/${ARCADE}/${fileId}` };
    });
    app.get('/api/bot/v1/attachments/:id', async (req, reply) => {
      if (!authed(req)) return reply.code(401).send({});
      this.downloads++;
      const id = (req.params as { id: string }).id;
      if (id === 'att_moved') return reply.code(302).header('location', '/api/bot/v1/attachments/att_log').send();
      if (id === 'att_huge') return reply.type('application/octet-stream').send(Buffer.alloc(10 * 1024 * 1024 + 1));
      const file = this.files.get(id);
      if (!file) return reply.code(404).send({ code: 1002, message: 'Not found' });
      return reply.type(file.type).header('content-disposition', 'attachment').send(file.data);
    });
    app.get('/api/bot/v1/servers/:server/tags', async (req) => ({ version: 1, tags: this.tags.filter((tag) => tag.name.includes((req.query as { q?: string }).q ?? '')) }));
    app.put('/api/bot/v1/shards', async (_req, reply) => reply.code(204).send());
    app.get('/api/bot/v1/servers/:server/config', async (req, reply) => {
      if ((req.params as { server: string }).server !== ARCADE) return reply.code(404).send({ code: 1002, message: 'Not found' });
      const general = { defaultCategoryId: DEMO_CHANNELS.avasArcade.supportCategory, ticketNameScheme: 'help-{count}' };
      return { config: { general, panels: [{ id: 'support', name: 'General support', supportRoleIds: [DEMO_ROLES.avasArcade.supportTeam], categoryId: null, namingScheme: null, form: [{ label: 'What do you need help with?' }] }], ...this.extraConfig } };
    });
    app.get('/api/bot/v1/commands', async (req, reply) => {
      if (!authed(req)) return reply.code(401).send({});
      this.polls++;
      if (this.failPolls > 0) {
        this.failPolls--;
        return reply.code(503).header('retry-after', '0').send({ code: 1030, message: 'down' });
      }
      for (let waited = 0; this.queue.length === 0 && waited < 300; waited += 20) await new Promise((ok) => setTimeout(ok, 20));
      const commands = this.queue.splice(0, this.queue.length);
      return { commands };
    });
    app.post('/api/bot/v1/commands/:id/result', async (req) => {
      const { id } = req.params as { id: string };
      this.reports.push({ id, body: req.body as Json });
      return { id, state: (req.body as Json).outcome };
    });
    });
  }

  /** Queues a command (`attempt` 1 unless given). */
  command(kind: string, ticketId: string, fields: Json = {}, attempt = 1): Json {
    // Real ids are random; here the part that differs comes first (the reply nonce keeps 25 of the 26).
    const id = fields.id ?? `cmd_${String(++this.#count).padStart(6, 'a')}${'q'.repeat(20)}`;
    const command = { id, kind, serverId: ARCADE, ticketId, requestedBy: JULES, requestedAt: new Date().toISOString(), attempt, leaseUntil: new Date(Date.now() + 30_000).toISOString(), ...fields };
    this.queue.push(command);
    return command;
  }

  async reportOf(id: string, count = 1): Promise<Json> {
    await until(() => this.reports.filter((r) => r.id === id).length >= count);
    return this.reports.filter((r) => r.id === id)[count - 1]!.body;
  }
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((ok) => setTimeout(ok, 10));
  }
}

interface World {
  app: FastifyInstance;
  api: FakeBotApi;
  control: SandboxControl;
  base: string;
  desk: LiveDesk;
  /** A channel's messages as the bot reads them (oldest first). */
  read(channelId: string): Promise<Json[]>;
}

let world: World | null = null;
afterEach(async () => {
  await world?.desk.stop();
  await world?.app.close();
  world = null;
});

const server = () =>
  demoServer(ARCADE, "Ava's Arcade", [
    { id: 'support', name: 'General support', supportRoleIds: [DEMO_ROLES.avasArcade.supportTeam], question: 'What do you need help with?', categoryId: DEMO_CHANNELS.avasArcade.supportCategory, namingScheme: 'ticket-{count}', questions: ['What do you need help with?'] },
  ]);

/** A free port (the sandbox's links are absolute: its base must be known before it listens). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  await new Promise((ok) => server.close(ok));
  return port;
}

async function start(options: { startTickets?: number; failPolls?: number; extraConfig?: Json } = {}): Promise<World> {
  // Keep-alive connections of the bot's fetch are closed with the server.
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const control = createSandboxControl();
  const port = await freePort();
  await app.register(discordSandbox, { prefix: '/sandbox/discord', control, controlRoutes: true, baseUrl: `http://127.0.0.1:${port}/sandbox/discord` });
  const api = new FakeBotApi();
  await api.mount(app);
  api.failPolls = options.failPolls ?? 0;
  api.extraConfig = options.extraConfig ?? {};
  const base = await app.listen({ host: '127.0.0.1', port });
  const botApi = (method: string, path: string, body?: unknown, gzip = false) =>
    fetch(`${base}/api/bot/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${KEY}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(gzip ? { 'content-encoding': 'gzip' } : {}) },
      ...(body !== undefined ? { body: gzip ? gzipSync(JSON.stringify(body)) : JSON.stringify(body) } : {}),
    });
  const desk = startLiveDesk(
    {
      apiBase: base,
      key: KEY,
      sandboxBase: `${base}/sandbox/discord`,
      discordApiBase: `${base}/sandbox/discord/api/v10`,
      botToken: DEMO_APP.botToken,
      cdnBase: `${base}/sandbox/discord/cdn`,
      servers: [server()],
      startTickets: options.startTickets ?? 3,
      every: null,
      random: prng(7),
      waitSeconds: 1,
      backoffMs: { first: 20, max: 100 },
    },
    botApi,
  );
  await desk.started;
  const read = async (channelId: string) => {
    const res = await fetch(`${base}/sandbox/discord/api/v10/channels/${channelId}/messages?limit=100`, { headers: { authorization: `Bot ${DEMO_APP.botToken}` } });
    return ((await res.json()) as Json[]).reverse();
  };
  world = { app, api, control, base, desk, read };
  return world;
}

describe('tags at the desk', () => {
  test('/tag posts the tag as the bot and reports tag_used; refused for a member or an unknown name; a reply from a tag carries its embed', async () => {
    const { api, desk, read } = await start({ startTickets: 1 });
    api.tags = [{ id: 'refund', name: 'refund', content: 'Refunds take 5 days.', embed: { title: 'Refunds', description: '', colour: 0x10b981, imageUrl: null, thumbnailUrl: null, footer: '' }, keywords: [] }];
    const ticket = desk.tickets()[0]!;
    const wrote = await desk.staffWrites(ticket.ticketId, '/tag Refund', DEMO_PEOPLE.jules.id);
    expect(wrote.tagId).toBe('refund');
    const posted = (await read(ticket.channelId)).at(-1)!;
    expect(posted).toMatchObject({ content: 'Refunds take 5 days.', embeds: [{ title: 'Refunds', color: 0x10b981 }], author: { id: DEMO_APP.clientId } });
    expect(api.events.find((event) => event.type === 'tag_used')).toMatchObject({ tagId: 'refund', staffId: DEMO_PEOPLE.jules.id, ticketId: ticket.ticketId });
    await expect(desk.staffWrites(ticket.ticketId, '/tag nope', DEMO_PEOPLE.jules.id)).rejects.toThrow(/no tag called "nope"/);
    await expect(desk.staffWrites(ticket.ticketId, '/tag refund', ticket.openerId!)).rejects.toThrow(/Only the support team/);
    expect(api.events.filter((event) => event.type === 'tag_used')).toHaveLength(1);
    // A dashboard reply from a tag of an embed alone: that embed, with the staff member as its author.
    const command = api.command('reply', ticket.ticketId, { content: '', tagId: 'refund', embed: { title: 'Refunds', color: 0x10b981 } });
    expect(await api.reportOf(command.id)).toMatchObject({ outcome: 'done' });
    const reply = (await read(ticket.channelId)).at(-1)!;
    expect(reply.embeds).toEqual([expect.objectContaining({ title: 'Refunds', author: expect.objectContaining({ name: 'Jules' }) })]);
  });
});

describe('the desk opens tickets in the sandbox’s Discord and tells the bot API', () => {
  test('at start: channels in the panel’s category with the welcome embed, the opener’s words, one answered by staff', async () => {
    const { api, desk, read, base } = await start();
    const tickets = desk.tickets();
    expect(tickets).toHaveLength(3);
    const channels = (await (await fetch(`${base}/sandbox/discord/api/v10/guilds/${ARCADE}/channels`, { headers: { authorization: `Bot ${DEMO_APP.botToken}` } })).json()) as Json[];
    for (const ticket of tickets) {
      const channel = channels.find((c) => c.id === ticket.channelId)!;
      expect(channel).toMatchObject({ parent_id: DEMO_CHANNELS.avasArcade.supportCategory, name: expect.stringMatching(/^ticket-\d{4,}$/) });
      // Hidden from @everyone, open to the opener, the support team and the bot.
      expect(channel.permission_overwrites.map((o: Json) => o.id).sort()).toEqual([ARCADE, ticket.openerId, DEMO_ROLES.avasArcade.supportTeam, DEMO_APP.clientId].sort());
      const [welcome, first] = await read(ticket.channelId);
      expect(welcome!.author.id).toBe(DEMO_APP.clientId);
      expect(welcome!.embeds[0]).toMatchObject({ title: 'General support', fields: [{ name: 'What do you need help with?', value: first!.content }] });
      expect(first!.author.id).toBe(ticket.openerId);
      const opened = api.events.find((e) => e.ticketId === ticket.ticketId && e.type === 'opened')!;
      expect(opened).toMatchObject({ panelId: 'support', openerId: ticket.openerId, number: ticket.number, answers: [{ question: 'What do you need help with?', answer: first!.content }] });
    }
    // Every message went to the API as message_created, with its author.
    const created = api.messages.filter((m) => m.type === 'message_created');
    expect(created).toHaveLength(tickets.reduce((n, t) => n + t.messages, 0));
    expect(created.every((m) => m.author.id === m.message.authorId)).toBe(true);
    // The second ticket was answered by a support member: staff wrote last, first_response sent.
    const answered = tickets[1]!;
    const last = (await read(answered.channelId)).at(-1)!;
    expect(last.author.id).toBe(DEMO_PEOPLE.jules.id);
    expect(api.events.filter((e) => e.ticketId === answered.ticketId).map((e) => e.type)).toContain('first_response');
    const counts = api.events.filter((e) => e.ticketId === answered.ticketId && e.type === 'messages').at(-1)!;
    expect(counts).toMatchObject({ total: answered.messages, staff: 1 });
  });

  test('controls: a ticket opens now, a member writes now; the sandbox’s control routes do the same', async () => {
    const { api, desk, read, base } = await start({ startTickets: 0 });
    expect(runningDesk()).toBe(desk);
    const opened = await desk.openTicket(ARCADE);
    const wrote = await desk.memberWrites(opened.ticketId);
    const messages = await read(opened.channelId);
    expect(messages.at(-1)).toMatchObject({ id: wrote.messageId, author: { id: opened.openerId } });
    expect(api.messages.some((m) => m.message.id === wrote.messageId)).toBe(true);
    const control = (name: string, body: Json) => fetch(`${base}/sandbox/discord/_control/demo-bot/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const viaHttp = (await (await control('open-ticket', {})).json()) as { ticket: Json };
    expect(viaHttp.ticket.serverId).toBe(ARCADE);
    expect((await control('member-writes', { ticketId: viaHttp.ticket.ticketId })).status).toBe(200);
    expect(((await (await control('tickets', {})).json()) as { tickets: Json[] }).tickets).toHaveLength(2);
    const unknown = await control('member-writes', { ticketId: 'nope' });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as Json).message).toBe('No open ticket nope.');
  });
});

describe('the desk carries out the dashboard’s commands', () => {
  test('a reply is posted once under the staff member’s name and avatar, even when delivered twice', async () => {
    const { api, desk, read } = await start({ startTickets: 1 });
    const ticket = desk.tickets()[0]!;
    const command = api.command('reply', ticket.ticketId, { content: 'Hi! I am **on it**.' });
    const first = await api.reportOf(command.id);
    expect(first).toMatchObject({ outcome: 'done', attempt: 1, messageId: expect.any(String) });
    // The lease ran out before the report arrived (say): the API hands it out again, attempt 2.
    api.queue.push({ ...command, attempt: 2 });
    const second = await api.reportOf(command.id, 2);
    expect(second).toEqual({ outcome: 'done', attempt: 2, messageId: first.messageId });
    const replies = (await read(ticket.channelId)).filter((m) => m.embeds[0]?.description === 'Hi! I am **on it**.');
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ id: first.messageId, nonce: replyNonce(command.id), author: { id: DEMO_APP.clientId } });
    expect(replies[0]!.embeds[0].author).toEqual({ name: 'Jules', icon_url: JULES.avatarUrl });
    expect(replyNonce(command.id)).toHaveLength(25);
    // The sandbox's page of the channel shows it under Jules's name (the embed's author).
    const page = await (await fetch(`${world!.base}/sandbox/discord/channels/${ticket.channelId}`)).text();
    expect(page).toMatch(/class="embed-author"><img src="http:\/\/127\.0\.0\.1\/cdn\/avatars\/jules\.png" alt="">Jules<\/div>/);
    expect(page).toContain('Hi! I am <strong>on it</strong>.');
    // message_created once, and it counts as the staff's first response.
    expect(api.messages.filter((m) => m.message.id === first.messageId)).toHaveLength(1);
    expect(api.events.find((e) => e.ticketId === ticket.ticketId && e.type === 'first_response')).toMatchObject({ staffId: JULES.id });
  });

  test('claim, unclaim, add_member and set_labels change the channel and send the events', async () => {
    const { api, desk, read, base } = await start({ startTickets: 1 });
    const ticket = desk.tickets()[0]!;
    const claim = api.command('claim', ticket.ticketId);
    expect(await api.reportOf(claim.id)).toEqual({ outcome: 'done', attempt: 1 });
    expect(api.events.find((e) => e.type === 'claimed')).toMatchObject({ staffId: JULES.id });
    expect((await read(ticket.channelId)).at(-1)!.content).toContain('claimed this ticket');
    const unclaim = api.command('unclaim', ticket.ticketId);
    expect(await api.reportOf(unclaim.id)).toEqual({ outcome: 'done', attempt: 1 });
    expect(api.events.find((e) => e.type === 'unclaimed')).toMatchObject({ staffId: JULES.id });
    const add = api.command('add_member', ticket.ticketId, { userId: DEMO_PEOPLE.mika.id });
    expect(await api.reportOf(add.id)).toEqual({ outcome: 'done', attempt: 1 });
    const channel = (await (await fetch(`${base}/sandbox/discord/api/v10/channels/${ticket.channelId}`, { headers: { authorization: `Bot ${DEMO_APP.botToken}` } })).json()) as Json;
    expect(channel.permission_overwrites.find((o: Json) => o.id === DEMO_PEOPLE.mika.id)).toMatchObject({ type: 1 });
    const labels = api.command('set_labels', ticket.ticketId, { labels: ['billing', 'urgent'] });
    expect(await api.reportOf(labels.id)).toEqual({ outcome: 'done', attempt: 1 });
    expect(desk.tickets()[0]!.labels).toEqual(['billing', 'urgent']);
    const topic = ((await (await fetch(`${base}/sandbox/discord/api/v10/channels/${ticket.channelId}`, { headers: { authorization: `Bot ${DEMO_APP.botToken}` } })).json()) as Json).topic;
    expect(topic).toContain('labels: billing, urgent');
  });

  test('close: the closing line, closed, the transcript with every message, transcript_stored, the channel gone', async () => {
    const { api, desk, read, base } = await start({ startTickets: 1 });
    const ticket = desk.tickets()[0]!;
    const reply = api.command('reply', ticket.ticketId, { content: 'Sorted, enjoy!' });
    await api.reportOf(reply.id);
    const before = await read(ticket.channelId);
    const close = api.command('close', ticket.ticketId, { reason: 'Resolved' });
    expect(await api.reportOf(close.id)).toEqual({ outcome: 'done', attempt: 1 });
    const types = api.events.filter((e) => e.ticketId === ticket.ticketId).map((e) => e.type);
    expect(types.indexOf('closed')).toBeLessThan(types.indexOf('transcript_stored'));
    expect(api.events.find((e) => e.type === 'closed')).toMatchObject({ closedBy: JULES.id, reason: 'Resolved' });
    const transcript = api.transcripts.get(`t-${ticket.ticketId}`)!;
    expect(api.events.find((e) => e.type === 'transcript_stored')).toMatchObject({ fileId: `t-${ticket.ticketId}` });
    expect(transcript).toMatchObject({ version: 2, channel: { id: ticket.channelId }, ticket: { id: ticket.ticketId, number: ticket.number, openerId: ticket.openerId, closedBy: JULES.id, reason: 'Resolved' } });
    // Every message the channel had, and the closing line, each author among the users.
    expect(transcript.messages.map((m: Json) => m.id)).toEqual(expect.arrayContaining(before.map((m) => m.id)));
    expect(transcript.messages).toHaveLength(before.length + 1);
    const users = new Set(transcript.users.map((u: Json) => u.id));
    expect(transcript.messages.every((m: Json) => users.has(m.authorId))).toBe(true);
    const gone = await fetch(`${base}/sandbox/discord/api/v10/channels/${ticket.channelId}`, { headers: { authorization: `Bot ${DEMO_APP.botToken}` } });
    expect(((await gone.json()) as Json).code).toBe(10003);
    // Delivered again: nothing more happens, and it is done.
    api.queue.push({ ...close, attempt: 2 });
    expect(await api.reportOf(close.id, 2)).toEqual({ outcome: 'done', attempt: 2 });
    expect(api.events.filter((e) => e.type === 'closed')).toHaveLength(1);
    // A reply to the closed ticket.
    const late = api.command('reply', ticket.ticketId, { content: 'one more thing' });
    expect(await api.reportOf(late.id)).toMatchObject({ outcome: 'failed', reason: 'ticket_closed' });
  });

  test('failures name the contract’s reasons', async () => {
    const { api, desk, control } = await start({ startTickets: 2 });
    const [one, two] = desk.tickets();
    const unknownKind = api.command('pin_message', one!.ticketId);
    expect(await api.reportOf(unknownKind.id)).toMatchObject({ outcome: 'failed', reason: 'unsupported' });
    const stranger = api.command('add_member', one!.ticketId, { userId: '1000000000000199999' });
    expect(await api.reportOf(stranger.id)).toMatchObject({ outcome: 'failed', reason: 'member_gone' });
    // Someone took Send Messages from the bot in the channel.
    control.setChannelOverwrites(one!.channelId, [{ id: DEMO_APP.clientId, type: 1, allow: String(1n << 10n), deny: String(1n << 11n) }]);
    const denied = api.command('reply', one!.ticketId, { content: 'hello' });
    expect(await api.reportOf(denied.id)).toMatchObject({ outcome: 'failed', reason: 'missing_permission', message: expect.stringContaining('50013') });
    // Someone deleted the channel in Discord.
    await fetch(`${world!.base}/sandbox/discord/api/v10/channels/${two!.channelId}`, { method: 'DELETE', headers: { authorization: `Bot ${DEMO_APP.botToken}` } });
    const gone = api.command('reply', two!.ticketId, { content: 'hello' });
    expect(await api.reportOf(gone.id)).toMatchObject({ outcome: 'failed', reason: 'channel_gone', message: expect.stringContaining('10003') });
    // A file elsewhere than the API is not fetched (the key goes to the API only); one the API lost fails.
    const foreign = api.command('reply', one!.ticketId, { content: 'see file', attachments: [{ filename: 'a.txt', contentType: 'text/plain', size: 1, url: 'http://example.test/a.txt' }] });
    expect(await api.reportOf(foreign.id)).toMatchObject({ outcome: 'failed', reason: 'other', message: expect.stringContaining('from the API only') });
    const lost = api.command('reply', one!.ticketId, { content: 'see file', attachments: [{ filename: 'a.txt', contentType: 'text/plain', size: 1, url: '/api/bot/v1/attachments/att_gone' }] });
    expect(await api.reportOf(lost.id)).toMatchObject({ outcome: 'failed', reason: 'other', message: expect.stringContaining('404') });
    expect(api.downloads).toBe(1);
    // Elsewhere on the API (the key only goes to reply files), a redirect, a file past 10 MB: refused.
    const notAFile = api.command('reply', one!.ticketId, { content: 'see file', attachments: [{ filename: 'a.txt', contentType: 'text/plain', size: 1, url: '/api/bot/v1/commands' }] });
    expect(await api.reportOf(notAFile.id)).toMatchObject({ outcome: 'failed', reason: 'other', message: expect.stringContaining('from the API only') });
    expect(api.downloads).toBe(1);
    const moved = api.command('reply', one!.ticketId, { content: 'see file', attachments: [{ filename: 'a.txt', contentType: 'text/plain', size: 1, url: '/api/bot/v1/attachments/att_moved' }] });
    expect(await api.reportOf(moved.id)).toMatchObject({ outcome: 'failed', reason: 'other', message: expect.stringContaining('could not be downloaded') });
    expect(api.downloads).toBe(2);
    const huge = api.command('reply', one!.ticketId, { content: 'see file', attachments: [{ filename: 'a.bin', contentType: 'application/octet-stream', size: 1, url: '/api/bot/v1/attachments/att_huge' }] });
    expect(await api.reportOf(huge.id)).toMatchObject({ outcome: 'failed', reason: 'other', message: expect.stringContaining('larger than 10 MB') });
  });

  test('a ticket of the history it has no channel for is adopted: a channel, the line saying so, then the reply and the close', async () => {
    const { api, desk, read, base } = await start({ startTickets: 1 });
    const past = history(server(), Date.now(), 2).at(-1)!;
    const reply = api.command('reply', past.ticketId, { content: 'Sorry for the wait, looking now.' });
    const report = await api.reportOf(reply.id);
    expect(report).toMatchObject({ outcome: 'done', messageId: expect.any(String) });
    const adopted = desk.tickets().find((t) => t.ticketId === past.ticketId)!;
    // Named by the panel's scheme with the history's number; open to the opener the history gave it.
    expect(adopted).toMatchObject({ adopted: true, number: past.number, openerId: past.openerId, channelName: `ticket-${String(past.number).padStart(4, '0')}`, closed: false });
    const channel = (await (await fetch(`${base}/sandbox/discord/api/v10/channels/${adopted.channelId}`, { headers: { authorization: `Bot ${DEMO_APP.botToken}` } })).json()) as Json;
    expect(channel).toMatchObject({ parent_id: DEMO_CHANNELS.avasArcade.supportCategory, name: adopted.channelName });
    expect(channel.permission_overwrites.map((o: Json) => o.id).sort()).toEqual([ARCADE, past.openerId, DEMO_ROLES.avasArcade.supportTeam, DEMO_APP.clientId].sort());
    const [line, posted] = await read(adopted.channelId);
    expect(line).toMatchObject({ author: { id: DEMO_APP.clientId }, content: expect.stringContaining('recreated this ticket’s channel') });
    expect(posted).toMatchObject({ id: report.messageId, embeds: [expect.objectContaining({ description: 'Sorry for the wait, looking now.' })] });
    // The API hears of both messages, but no `opened` (it has the ticket) and no counts (it saw more).
    expect(api.messages.filter((m) => m.ticketId === past.ticketId).map((m) => m.message.id)).toEqual([line!.id, posted!.id]);
    expect(api.events.filter((e) => e.ticketId === past.ticketId && ['opened', 'messages'].includes(e.type))).toEqual([]);
    const close = api.command('close', past.ticketId, { reason: 'Resolved' });
    expect(await api.reportOf(close.id)).toEqual({ outcome: 'done', attempt: 1 });
    expect(api.events.find((e) => e.ticketId === past.ticketId && e.type === 'closed')).toMatchObject({ closedBy: JULES.id, reason: 'Resolved' });
    const transcript = api.transcripts.get(`t-${past.ticketId}`)!;
    expect(transcript).toMatchObject({ channel: { id: adopted.channelId }, ticket: { id: past.ticketId, number: past.number, openerId: past.openerId, panelId: 'support', closedBy: JULES.id } });
    expect(transcript.messages.map((m: Json) => m.id)).toEqual(expect.arrayContaining([line!.id, posted!.id]));
    expect(transcript.messages).toHaveLength(3);
    const gone = await fetch(`${base}/sandbox/discord/api/v10/channels/${adopted.channelId}`, { headers: { authorization: `Bot ${DEMO_APP.botToken}` } });
    expect(((await gone.json()) as Json).code).toBe(10003);
    // Adopted once: closed now, not adopted again.
    const late = api.command('reply', past.ticketId, { content: 'one more thing' });
    expect(await api.reportOf(late.id)).toMatchObject({ outcome: 'failed', reason: 'ticket_closed' });
    expect(desk.tickets().filter((t) => t.ticketId === past.ticketId)).toHaveLength(1);
  });

  test('a ticket from before a restart is adopted under its id; its deleted channel is then channel_gone, not adopted again', async () => {
    const { api, desk, read, base } = await start({ startTickets: 1 });
    const before = '1000000000000999999';
    const claim = api.command('claim', before);
    expect(await api.reportOf(claim.id)).toEqual({ outcome: 'done', attempt: 1 });
    const adopted = desk.tickets().find((t) => t.ticketId === before)!;
    expect(adopted).toMatchObject({ adopted: true, number: null, openerId: null, channelName: `ticket-${before}`, claimedBy: JULES.id });
    expect((await read(adopted.channelId)).map((m) => m.content)).toEqual([expect.stringContaining('recreated'), expect.stringContaining(`<@${JULES.id}> claimed`)]);
    expect(api.events.find((e) => e.ticketId === before && e.type === 'claimed')).toMatchObject({ staffId: JULES.id });
    // Someone deletes the channel it made: the ticket is known now, so a reply fails as channel_gone.
    await fetch(`${base}/sandbox/discord/api/v10/channels/${adopted.channelId}`, { method: 'DELETE', headers: { authorization: `Bot ${DEMO_APP.botToken}` } });
    const reply = api.command('reply', before, { content: 'hello?' });
    expect(await api.reportOf(reply.id)).toMatchObject({ outcome: 'failed', reason: 'channel_gone', message: expect.stringContaining('10003') });
    expect(desk.tickets().filter((t) => t.ticketId === before)).toHaveLength(1);
  });

  test('closing an adopted ticket it cannot place sends closed without a transcript (it knows no opener or number)', async () => {
    const { api, desk } = await start({ startTickets: 1 });
    const before = '1000000000000999998';
    const close = api.command('close', before, { reason: null });
    expect(await api.reportOf(close.id)).toEqual({ outcome: 'done', attempt: 1 });
    expect(desk.tickets().find((t) => t.ticketId === before)).toMatchObject({ adopted: true, closed: true });
    expect(api.events.filter((e) => e.ticketId === before).map((e) => e.type)).toEqual(['closed']);
    expect(api.transcripts.has(`t-${before}`)).toBe(false);
  });

  test('a reply’s files are downloaded from the API with the key, uploaded with it, and kept in the transcript', async () => {
    const { api, desk, read, base } = await start({ startTickets: 1 });
    const ticket = desk.tickets()[0]!;
    api.files.set('att_log', { type: 'text/plain', data: Buffer.from('order AA-12345 refunded') });
    const command = api.command('reply', ticket.ticketId, { content: 'Refund done, here is the log.', attachments: [{ filename: 'refund.txt', contentType: 'text/plain', size: 23, url: `${base}/api/bot/v1/attachments/att_log` }] });
    const report = await api.reportOf(command.id);
    expect(report).toMatchObject({ outcome: 'done', messageId: expect.any(String) });
    const posted = (await read(ticket.channelId)).find((m) => m.id === report.messageId)!;
    expect(posted.attachments).toEqual([expect.objectContaining({ filename: 'refund.txt', size: 23, content_type: 'text/plain' })]);
    const file = await fetch(posted.attachments[0].url);
    expect(await file.text()).toBe('order AA-12345 refunded');
    // Delivered again: one message, one file.
    api.queue.push({ ...command, attempt: 2 });
    expect(await api.reportOf(command.id, 2)).toEqual({ outcome: 'done', attempt: 2, messageId: report.messageId });
    expect((await read(ticket.channelId)).filter((m) => m.attachments.length > 0)).toHaveLength(1);
    const created = api.messages.find((m) => m.message.id === report.messageId)!;
    expect(created.message.attachments).toEqual([{ id: posted.attachments[0].id, filename: 'refund.txt', contentType: 'text/plain', size: 23, url: posted.attachments[0].url, width: null, height: null }]);
    const close = api.command('close', ticket.ticketId, { reason: null });
    await api.reportOf(close.id);
    const kept = api.transcripts.get(`t-${ticket.ticketId}`)!.messages.find((m: Json) => m.id === report.messageId);
    expect(kept.attachments[0]).toMatchObject({ filename: 'refund.txt', url: expect.stringMatching(/\/sandbox\/discord\/cdn\/attachments\/\d+\/\d+\/refund\.txt\?ex=/) });
  });

  test('the poll loop waits out an API that is down, then carries on; stop ends it at once', async () => {
    const { api, desk } = await start({ startTickets: 1, failPolls: 3 });
    const ticket = desk.tickets()[0]!;
    const claim = api.command('claim', ticket.ticketId);
    expect(await api.reportOf(claim.id)).toEqual({ outcome: 'done', attempt: 1 });
    expect(api.polls).toBeGreaterThanOrEqual(4);
    const started = Date.now();
    await desk.stop();
    expect(Date.now() - started).toBeLessThan(250);
    // A poll sent just before may still land; none after it.
    await new Promise((ok) => setTimeout(ok, 50));
    const polls = api.polls;
    await new Promise((ok) => setTimeout(ok, 200));
    expect(api.polls).toBe(polls);
  });
});

describe('startDemoBot opens the desk', () => {
  test('after the history, in the sandbox on its own origin, with the panels of the configuration it read', async () => {
    const app = Fastify({ logger: false, forceCloseConnections: true });
    await app.register(discordSandbox, { prefix: '/sandbox/discord' });
    const api = new FakeBotApi();
    await api.mount(app);
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const bot = startDemoBot({ apiBase: base, key: KEY, cdnBase: `${base}/sandbox/discord/cdn`, days: 1, transcriptsPerServer: 0, longTranscripts: false, liveIntervalMs: 3_600_000, desk: { startAfterMs: 0, startTickets: 2, every: null, waitSeconds: 1 } });
    try {
      const report = await bot.ready;
      expect(report.servers).toBe(1);
      const live = (await bot.live)!;
      await live.started;
      const tickets = live.tickets();
      expect(tickets.map((t) => t.channelName)).toEqual([expect.stringMatching(/^help-\d{4,}$/), expect.stringMatching(/^help-\d{4,}$/)]);
      // The server's default category, as the panel names none.
      const res = await fetch(`${base}/sandbox/discord/api/v10/channels/${tickets[0]!.channelId}`, { headers: { authorization: `Bot ${DEMO_APP.botToken}` } });
      expect(((await res.json()) as Json).parent_id).toBe(DEMO_CHANNELS.avasArcade.supportCategory);
      const claim = api.command('claim', tickets[0]!.ticketId);
      expect(await api.reportOf(claim.id)).toEqual({ outcome: 'done', attempt: 1 });
    } finally {
      await bot.stop();
      await app.close();
    }
    expect(await bot.live.then((live) => live?.tickets().length)).toBe(2);
  });

  test('a history ticket the desk adopted is the desk’s: the history sends no more of its events', async () => {
    const arcade = demoServer(ARCADE, DEMO_GUILDS.avasArcade.name, [{ id: 'support', name: 'General support', supportRoleIds: [DEMO_ROLES.avasArcade.supportTeam], question: 'What do you need help with?' }]);
    // A day with a ticket that closes (once) within 12 hours of opening, and other events meanwhile.
    const day = Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS;
    const tickets = ticketsOfDay(arcade, day);
    const ticket = tickets.find((t) => t.closedAt !== null && t.reopenedAt === null && t.closedAt - t.openedAt < 12 * 3_600_000)!;
    const before = ticket.openedAt + 1;
    const after = ticket.closedAt! + 60_000;
    const others = dueEvents(tickets.filter((t) => t !== ticket), after).filter((e) => Date.parse(e.at) > before);
    expect(others.length).toBeGreaterThan(0);
    let now = before;
    const app = Fastify({ logger: false, forceCloseConnections: true });
    await app.register(discordSandbox, { prefix: '/sandbox/discord' });
    const api = new FakeBotApi();
    await api.mount(app);
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const bot = startDemoBot({ apiBase: base, key: KEY, cdnBase: `${base}/sandbox/discord/cdn`, clock: () => now, days: 1, transcriptsPerServer: 0, longTranscripts: false, liveIntervalMs: 50, desk: { startAfterMs: 0, startTickets: 0, every: null, waitSeconds: 1 } });
    try {
      await bot.ready;
      await (await bot.live)!.started;
      expect(api.events.filter((e) => e.ticketId === ticket.ticketId).map((e) => e.type)).toEqual(['opened']);
      const claim = api.command('claim', ticket.ticketId);
      expect(await api.reportOf(claim.id)).toEqual({ outcome: 'done', attempt: 1 });
      now = after;
      await until(() => others.every((e) => api.events.some((x) => x.id === e.id)));
      // Its scripted claim, answer, count and close never came: only the desk's claim.
      expect(api.events.filter((e) => e.ticketId === ticket.ticketId).map((e) => e.type)).toEqual(['opened', 'claimed']);
      expect(api.events.find((e) => e.ticketId === ticket.ticketId && e.type === 'claimed')).toMatchObject({ staffId: JULES.id });
    } finally {
      await bot.stop();
      await app.close();
    }
  });

  test('desk: false leaves it out', async () => {
    const bot = startDemoBot({ apiBase: 'http://127.0.0.1:9', key: KEY, cdnBase: 'http://127.0.0.1:9/cdn', desk: false, fetch: async () => new Response(null, { status: 204 }) });
    expect(await bot.live).toBeNull();
    await bot.stop();
  });
});

describe('auto-close (auto-close.ts)', () => {
  const rules = (fields: Json) => ({ memberSilentHours: null, staffSilentHours: null, onOpenerLeave: false, warningHours: 0, warningMessage: '', ...fields });

  test('warns with a Keep open button, counts again after Keep open, then closes when due with the rule in the reason', async () => {
    const { api, desk, read } = await start({ startTickets: 0, extraConfig: { autoClose: rules({ staffSilentHours: 4, warningHours: 2, warningMessage: '{user}: this closes {time}.' }) } });
    expect(desk.hourMs()).toBe(3_600_000);
    expect(desk.hourMs(250)).toBe(250);
    expect(() => desk.hourMs(5)).toThrow(/100 to 3600000 ms/);
    const ticket = await desk.openTicket();
    await until(() => api.messages.some((m) => m.ticketId === ticket.ticketId && m.message.components === undefined && /this closes <t:\d+:R>/.test(m.message.content)), 3000);
    const warning = (await read(ticket.channelId)).find((m) => m.content.includes('this closes'))!;
    expect(warning.content).toContain(`<@${ticket.openerId}>: this closes <t:`);
    expect(warning.content).toContain('Demo clock: one hour lasts 250 ms.');
    expect(warning.components[0].components[0]).toMatchObject({ type: 2, label: 'Keep open', custom_id: 'autoclose:keep-open' });
    const kept = Date.now();
    await desk.keepOpen(ticket.ticketId);
    expect(api.events.find((e) => e.type === 'kept_open')).toMatchObject({ ticketId: ticket.ticketId, by: ticket.openerId });
    await until(() => api.events.some((e) => e.type === 'closed' && e.ticketId === ticket.ticketId), 5000);
    // 4 hours of 250 ms from the press, not from the member's message.
    expect(Date.now() - kept).toBeGreaterThanOrEqual(900);
    expect(api.events.find((e) => e.type === 'closed' && e.ticketId === ticket.ticketId)).toMatchObject({ closedBy: DEMO_APP.clientId, reason: 'Auto-close (staff_silent): no answer from staff for 4 hours.' });
    // The history's open tickets (no channel, no messages) close by the same rule from their opening, by the event alone.
    const history = api.events.filter((e) => e.type === 'closed' && String(e.id).endsWith(':auto-close'));
    const now = Date.now();
    const open = [...ticketsOfDay(server(), dayOf(now) - DAY_MS), ...ticketsOfDay(server(), dayOf(now))].filter((t) => t.openedAt < now - 5000 && (t.closedAt === null || t.closedAt > now) && t.reopenedAt === null);
    expect(history.map((e) => e.ticketId)).toEqual(expect.arrayContaining(open.map((t) => t.ticketId)));
    for (const event of history) expect(event).toMatchObject({ ticketId: expect.stringMatching(/^d\d+n\d+$/), closedBy: DEMO_APP.clientId, reason: 'Auto-close (staff_silent): no answer from staff for 4 hours.' });
    expect(desk.autoClosedHistory()).toEqual(history.map((e) => `${ARCADE}:${e.ticketId}`));
    await until(() => api.transcripts.has(`t-${ticket.ticketId}`));
    const lines = api.transcripts.get(`t-${ticket.ticketId}`)!.messages.map((m: Json) => m.content);
    expect(lines.filter((line: string) => line.includes('this closes'))).toHaveLength(2);
    expect(lines.at(-1)).toBe('🔒 This ticket was closed automatically: no answer from the support team for 4 hours. The conversation is kept as a transcript.');
    expect(desk.tickets().find((t) => t.ticketId === ticket.ticketId)?.closed).toBe(true);
  });

  test('a close that came due before its warning (the clock or the rules changed) warns first and closes the warning’s hours later', async () => {
    const { api, desk } = await start({ startTickets: 0, extraConfig: {} });
    api.extraConfig = { autoClose: rules({ staffSilentHours: 2, warningHours: 1, warningMessage: 'Closing {time}.' }) };
    const ticket = await desk.openTicket();
    await new Promise((ok) => setTimeout(ok, 700));
    const switched = Date.now();
    desk.hourMs(300);
    await until(() => api.events.some((e) => e.type === 'closed' && e.ticketId === ticket.ticketId), 5000);
    expect(Date.now() - switched).toBeGreaterThanOrEqual(280);
    await until(() => api.transcripts.has(`t-${ticket.ticketId}`));
    const lines = api.transcripts.get(`t-${ticket.ticketId}`)!.messages.map((m: Json) => m.content as string);
    expect(lines.at(-2)).toMatch(/^Closing <t:\d+:R>\.\n-# Demo clock: one hour lasts 300 ms\.$/);
    expect(lines.at(-1)).toMatch(/closed automatically: no answer from the support team for 2 hours/);
  });

  test('a panel’s own rules win; the opener leaving closes only when the rules say so', async () => {
    const { api, desk, base } = await start({ startTickets: 0, extraConfig: { autoClose: rules({ onOpenerLeave: false }) } });
    const first = await desk.openTicket();
    const left = await fetch(`${base}/sandbox/discord/_control/demo-bot/member-leaves`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ticketId: first.ticketId }) });
    expect(await left.json()).toMatchObject({ ticket: { ticketId: first.ticketId, closed: false, autoClosed: false } });
    api.extraConfig = {
      autoClose: rules({ onOpenerLeave: false }),
      panels: [{ id: 'support', name: 'General support', supportRoleIds: [DEMO_ROLES.avasArcade.supportTeam], categoryId: null, namingScheme: null, form: [], autoClose: rules({ onOpenerLeave: true }) }],
    };
    const closed = await desk.openerLeaves(first.ticketId);
    expect(closed).toMatchObject({ closed: true, autoClosed: true });
    expect(api.events.find((e) => e.type === 'closed' && e.ticketId === first.ticketId)).toMatchObject({ reason: 'Auto-close (opener_left): the member who opened this ticket left the server.' });
    const unknown = await fetch(`${base}/sandbox/discord/_control/demo-bot/keep-open`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ticketId: 'nope' }) });
    expect(unknown.status).toBe(400);
    const clock = await fetch(`${base}/sandbox/discord/_control/demo-bot/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hourMs: 1000 }) });
    expect(await clock.json()).toEqual({ hourMs: 1000 });
  });
});
