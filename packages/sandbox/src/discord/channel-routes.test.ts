import { describe, expect, test } from 'vitest';
import { DEMO_APP, DEMO_CHANNELS, DEMO_GUILDS, DEMO_PEOPLE, DEMO_ROLES, DEMO_USERS } from './demo-data';
import { GUILD_CHANNELS_MAX } from './channel-routes';
import { BOT_AUTH, get, PREFIX, postMessage, send, useHarness } from './test-helpers';

const ARCADE = DEMO_GUILDS.avasArcade.id;
const CHANNELS = DEMO_CHANNELS.avasArcade;
const VIEW = 1n << 10n;
const SEND = 1n << 11n;
const HISTORY = 1n << 16n;
const ticketChannel = (extra: Record<string, unknown> = {}) => ({
  name: 'Ticket 0042',
  type: 0,
  parent_id: CHANNELS.supportCategory,
  topic: 'Ticket #42',
  permission_overwrites: [
    { id: ARCADE, type: 0, allow: '0', deny: String(VIEW) },
    { id: DEMO_USERS.ben.id, type: 1, allow: String(VIEW | SEND | HISTORY), deny: '0' },
    { id: DEMO_ROLES.avasArcade.supportTeam, type: 0, allow: String(VIEW | SEND | HISTORY), deny: '0' },
    // Without its own overwrite the bot would not see the channel it made (@everyone is denied).
    { id: DEMO_APP.clientId, type: 1, allow: String(VIEW | SEND | HISTORY), deny: '0' },
  ],
  ...extra,
});

describe('POST /guilds/{id}/channels', () => {
  const sandbox = useHarness();

  test('makes a text channel in the category, named as Discord stores it, listed and readable', async () => {
    const res = await send(sandbox.app, 'POST', `/guilds/${ARCADE}/channels`, ticketChannel());
    expect(res.statusCode).toBe(201);
    const channel = res.json();
    expect(channel).toMatchObject({ type: 0, guild_id: ARCADE, name: 'ticket-0042', parent_id: CHANNELS.supportCategory, topic: 'Ticket #42', last_message_id: null });
    expect(channel.permission_overwrites).toHaveLength(4);
    const listed = (await get(sandbox.app, `/guilds/${ARCADE}/channels`, BOT_AUTH)).json() as Array<{ id: string }>;
    expect(listed.map((c) => c.id)).toContain(channel.id);
    expect((await get(sandbox.app, `/channels/${channel.id}`, BOT_AUTH)).json()).toMatchObject({ id: channel.id, name: 'ticket-0042' });
    // The bot can post there, and the sandbox's page shows the channel and what was posted.
    expect((await postMessage(sandbox.app, channel.id, { content: 'Welcome!' })).statusCode).toBe(200);
    const page = await sandbox.app.inject({ method: 'GET', url: `${PREFIX}/channels/${channel.id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('ticket-0042');
    expect(page.body).toContain('Welcome!');
  });

  test('refuses bad bodies with 50035 naming each field, and writes nothing', async () => {
    const before = (await get(sandbox.app, `/guilds/${ARCADE}/channels`, BOT_AUTH)).json().length;
    const res = await send(sandbox.app, 'POST', `/guilds/${ARCADE}/channels`, {
      name: '',
      type: 2,
      topic: 'x'.repeat(1025),
      parent_id: CHANNELS.support,
      permission_overwrites: [{ id: 'nope', type: 3, allow: 'all' }],
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe(50035);
    expect(Object.keys(body.errors).sort()).toEqual(['name', 'parent_id', 'permission_overwrites.0.allow', 'permission_overwrites.0.id', 'permission_overwrites.0.type', 'topic', 'type']);
    expect(body.errors.parent_id._errors[0].code).toBe('CHANNEL_PARENT_INVALID_TYPE');
    expect((await send(sandbox.app, 'POST', `/guilds/${ARCADE}/channels`, {})).json().errors.name._errors[0].code).toBe('BASE_TYPE_REQUIRED');
    expect((await send(sandbox.app, 'POST', `/guilds/${ARCADE}/channels`, { name: 'a', parent_id: DEMO_CHANNELS.pixelPals.helpDeskCategory })).json().errors.parent_id._errors[0].code).toBe('CHANNEL_PARENT_INVALID');
    expect((await get(sandbox.app, `/guilds/${ARCADE}/channels`, BOT_AUTH)).json()).toHaveLength(before);
  });

  test('needs the bot token, a server the bot is in, and cannot grant what the bot does not hold', async () => {
    expect((await send(sandbox.app, 'POST', `/guilds/${ARCADE}/channels`, ticketChannel(), null)).statusCode).toBe(401);
    expect((await send(sandbox.app, 'POST', `/guilds/${DEMO_GUILDS.studyHall.id}/channels`, ticketChannel())).json()).toEqual({ message: 'Unknown Guild', code: 10004 });
    // MANAGE_MESSAGES (1 << 13) is not the bot's: Discord refuses to hand it out.
    const beyond = ticketChannel({ permission_overwrites: [{ id: DEMO_USERS.ben.id, type: 1, allow: String(1n << 13n), deny: '0' }] });
    const res = await send(sandbox.app, 'POST', `/guilds/${ARCADE}/channels`, beyond);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(50013);
  });

  test('a category takes no parent; a server holds at most 500 channels', async () => {
    const category = await send(sandbox.app, 'POST', `/guilds/${ARCADE}/channels`, { name: 'Tickets', type: 4 });
    expect(category.statusCode).toBe(201);
    expect(category.json()).toMatchObject({ type: 4, name: 'Tickets', parent_id: null });
    const nested = await send(sandbox.app, 'POST', `/guilds/${ARCADE}/channels`, { name: 'Inner', type: 4, parent_id: category.json().id });
    expect(nested.json().errors.parent_id._errors[0].message).toBe('A category cannot have a parent.');
    const existing = (await get(sandbox.app, `/guilds/${ARCADE}/channels`, BOT_AUTH)).json().length;
    sandbox.h.control.setRateLimit({ limit: 10_000 });
    for (let i = existing; i < GUILD_CHANNELS_MAX; i++) await send(sandbox.app, 'POST', `/guilds/${ARCADE}/channels`, { name: `c${i}` });
    const full = await send(sandbox.app, 'POST', `/guilds/${ARCADE}/channels`, { name: 'one-too-many' });
    expect(full.json()).toEqual({ message: 'Maximum number of guild channels reached (500)', code: 30013 });
  });
});

describe('PATCH, DELETE and PUT permissions on a channel', () => {
  const sandbox = useHarness();
  const create = async () => (await send(sandbox.app, 'POST', `/guilds/${ARCADE}/channels`, ticketChannel())).json() as { id: string };

  test('sets the topic, gives a member access, and deletes the channel and its messages', async () => {
    const channel = await create();
    const patched = await send(sandbox.app, 'PATCH', `/channels/${channel.id}`, { topic: 'labels: billing' });
    expect(patched.json()).toMatchObject({ id: channel.id, topic: 'labels: billing', name: 'ticket-0042' });
    const put = await sandbox.app.inject({
      method: 'PUT',
      url: `${PREFIX}/api/v10/channels/${channel.id}/permissions/${DEMO_PEOPLE.mika.id}`,
      headers: { authorization: BOT_AUTH, 'content-type': 'application/json' },
      payload: { type: 1, allow: String(VIEW | SEND), deny: '0' },
    });
    expect(put.statusCode).toBe(204);
    const overwrites = (await get(sandbox.app, `/channels/${channel.id}`, BOT_AUTH)).json().permission_overwrites as Array<{ id: string; allow: string }>;
    expect(overwrites.find((o) => o.id === DEMO_PEOPLE.mika.id)).toEqual({ id: DEMO_PEOPLE.mika.id, type: 1, allow: String(VIEW | SEND), deny: '0' });
    await postMessage(sandbox.app, channel.id, { content: 'bye' });
    const deleted = await send(sandbox.app, 'DELETE', `/channels/${channel.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().id).toBe(channel.id);
    expect((await get(sandbox.app, `/channels/${channel.id}`, BOT_AUTH)).json()).toEqual({ message: 'Unknown Channel', code: 10003 });
    expect((await postMessage(sandbox.app, channel.id, { content: 'again' })).json().code).toBe(10003);
    expect(sandbox.h.control.messages(channel.id)).toEqual([]);
  });

  test('an overwrite body is checked; the bot needs Manage Roles; the channel must exist', async () => {
    const channel = await create();
    const bad = await sandbox.app.inject({
      method: 'PUT',
      url: `${PREFIX}/api/v10/channels/${channel.id}/permissions/${DEMO_PEOPLE.mika.id}`,
      headers: { authorization: BOT_AUTH, 'content-type': 'application/json' },
      payload: { type: 7, allow: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['allow', 'type']);
    expect((await send(sandbox.app, 'DELETE', '/channels/1200000000000009999')).json().code).toBe(10003);
    // The bot lacks View Channel in #mod-log: Missing Access, as for every channel route.
    expect((await send(sandbox.app, 'PATCH', `/channels/${CHANNELS.modLog}`, { topic: 'x' })).json().code).toBe(50001);
  });
});

describe('the world route (a member writing in Discord)', () => {
  const sandbox = useHarness();
  const world = (channelId: string, body: unknown, authorization: string | null = BOT_AUTH) =>
    sandbox.app.inject({ method: 'POST', url: `${PREFIX}/_world/channels/${channelId}/messages`, headers: { ...(authorization ? { authorization } : {}), 'content-type': 'application/json' }, payload: JSON.stringify(body) });

  test('posts as the member who may write there, a made-up player included, and the page names them', async () => {
    const channel = (await send(sandbox.app, 'POST', `/guilds/${ARCADE}/channels`, ticketChannel())).json() as { id: string };
    const ben = await world(channel.id, { author: { id: DEMO_USERS.ben.id }, content: 'My pass is missing' });
    expect(ben.statusCode).toBe(200);
    expect(ben.json()).toMatchObject({ content: 'My pass is missing', author: { id: DEMO_USERS.ben.id, username: 'ben' } });
    // Someone the channel does not show: Missing Access.
    expect((await world(channel.id, { author: { id: DEMO_PEOPLE.mika.id }, content: 'hi' })).json().code).toBe(50001);
    const put = await sandbox.app.inject({
      method: 'PUT',
      url: `${PREFIX}/api/v10/channels/${channel.id}/permissions/1000000000000100007`,
      headers: { authorization: BOT_AUTH, 'content-type': 'application/json' },
      payload: { type: 1, allow: String(VIEW | SEND | HISTORY) },
    });
    expect(put.statusCode).toBe(204);
    const player = await world(channel.id, { author: { id: '1000000000000100007', username: 'player08', global_name: 'Liam' }, content: 'me too' });
    expect(player.json().author).toMatchObject({ id: '1000000000000100007', username: 'player08', global_name: 'Liam' });
    const page = await sandbox.app.inject({ method: 'GET', url: `${PREFIX}/channels/${channel.id}` });
    expect(page.body).toContain('Liam');
    expect(page.body).toContain('me too');
  });

  test('counts against the sandbox’s rate limit, per channel, like the REST routes', async () => {
    const channel = (await send(sandbox.app, 'POST', `/guilds/${ARCADE}/channels`, ticketChannel())).json() as { id: string };
    sandbox.h.control.setRateLimit({ limit: 2, windowSeconds: 60 });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await world(channel.id, { author: { id: DEMO_USERS.ben.id }, content: `hi ${i}` }));
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 429]);
    expect(answers[0]!.headers['x-ratelimit-bucket']).toMatch(/^[0-9a-f]{32}$/);
    expect(answers[2]!.json()).toMatchObject({ message: 'You are being rate limited.', global: false });
    sandbox.h.control.setRateLimit(null);
  });

  test('needs the bot token and a person, never the bot', async () => {
    expect((await world(CHANNELS.support, { author: { id: DEMO_USERS.ben.id }, content: 'x' }, null)).statusCode).toBe(401);
    expect((await world(CHANNELS.support, { author: { id: DEMO_APP.clientId }, content: 'x' })).statusCode).toBe(400);
    expect((await world(CHANNELS.support, { author: { id: '1000000000000199999' }, content: 'x' })).statusCode).toBe(400);
    expect((await world(CHANNELS.support, { author: { id: DEMO_USERS.ben.id }, content: '' })).json().code).toBe(50006);
  });
});
