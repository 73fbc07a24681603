import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { DEMO_APP, DEMO_CHANNELS, DEMO_GUILDS, DEMO_MESSAGES, DEMO_ROLES, DEMO_USERS } from './demo-data';
import { MAX_MESSAGES_PER_CHANNEL } from './guild-state';
import { BOT_AUTH, get, type Harness, harness, PREFIX, postMessage, START, send, signIn } from './test-helpers';

const CHANNELS = DEMO_CHANNELS;
const GUILDS = DEMO_GUILDS;

let sandbox: Harness;
afterEach(async () => {
  vi.useRealTimers();
  await sandbox?.app.close();
});
const start = async (options: Parameters<typeof harness>[0] = {}) => {
  sandbox = await harness(options);
  return sandbox;
};

const PANEL = {
  content: 'Need help? Press the button.',
  embeds: [
    {
      title: 'Support',
      description: 'Open a ticket and **our team** will answer.',
      color: 0x5865f2,
      fields: [{ name: 'Hours', value: '9-17 UTC', inline: true }, { name: 'Languages', value: 'English' }],
      footer: { text: 'Tickety' },
      timestamp: '2026-01-15T12:00:00Z',
    },
  ],
  components: [
    {
      type: 1,
      components: [
        { type: 2, style: 1, label: 'Open a ticket', custom_id: 'ticket:open', emoji: { name: '🎫' } },
        { type: 2, style: 5, label: 'Docs', url: 'https://docs.example.test/' },
      ],
    },
  ],
};

const error = (res: LightMyRequestResponse) => [res.statusCode, res.json()];

describe('POST /channels/{id}/messages', () => {
  test("creates the message in Discord's shape, authored by the bot, readable with GET", async () => {
    await start();
    const res = await postMessage(sandbox.app, CHANNELS.avasArcade.support, PANEL);
    expect(res.statusCode).toBe(200);
    const member = res.json();
    expect(member).toMatchObject({
      type: 0,
      channel_id: CHANNELS.avasArcade.support,
      content: PANEL.content,
      author: { id: DEMO_APP.clientId, bot: true, global_name: DEMO_APP.name },
      timestamp: '2026-01-15T12:00:00.000000+00:00',
      edited_timestamp: null,
      tts: false,
      pinned: false,
      flags: 0,
      mentions: [],
      attachments: [],
    });
    expect(member.id).toMatch(/^\d{17,20}$/);
    expect(member.embeds).toEqual([
      {
        type: 'rich',
        title: 'Support',
        description: 'Open a ticket and **our team** will answer.',
        color: 0x5865f2,
        timestamp: '2026-01-15T12:00:00.000000+00:00',
        footer: { text: 'Tickety' },
        fields: [
          { name: 'Hours', value: '9-17 UTC', inline: true },
          { name: 'Languages', value: 'English', inline: false },
        ],
      },
    ]);
    expect(member.components).toEqual([
      {
        type: 1,
        id: 1,
        components: [
          { type: 2, id: 2, style: 1, label: 'Open a ticket', custom_id: 'ticket:open', emoji: { id: null, name: '🎫' } },
          { type: 2, id: 3, style: 5, label: 'Docs', url: 'https://docs.example.test/' },
        ],
      },
    ]);
    const again = await get(sandbox.app, `/channels/${CHANNELS.avasArcade.support}/messages/${member.id}`, BOT_AUTH);
    expect(again.json()).toEqual(member);
    expect(sandbox.control.messages(CHANNELS.avasArcade.support)).toEqual([expect.objectContaining({ id: member.id, authorId: DEMO_APP.clientId, guildId: GUILDS.avasArcade.id })]);
  });

  test('ids are snowflakes of the sandbox clock, always increasing', async () => {
    await start();
    const first = (await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: 'a' })).json();
    const second = (await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: 'b' })).json();
    expect(BigInt(second.id)).toBeGreaterThan(BigInt(first.id));
    expect(Number((BigInt(first.id) >> 22n) + 1420070400000n)).toBe(START);
    expect(BigInt(first.id)).toBeGreaterThan(BigInt(DEMO_MESSAGES.at(-1)!.id));
  });

  test('401 without the bot token', async () => {
    await start();
    const ava = await signIn(sandbox.app, DEMO_USERS.ava.id);
    for (const auth of [null, `Bearer ${ava.access_token}`, 'Bot wrong']) {
      const res = await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: 'x' }, auth);
      expect(error(res)).toEqual([401, { message: '401: Unauthorized', code: 0 }]);
    }
  });

  test('10003 Unknown Channel, 50001 Missing Access, 50013 Missing Permissions, 50008 for a category', async () => {
    await start();
    expect(error(await postMessage(sandbox.app, '1299999999999999999', { content: 'x' }))).toEqual([404, { message: 'Unknown Channel', code: 10003 }]);
    expect(error(await postMessage(sandbox.app, 'general', { content: 'x' }))).toEqual([404, { message: 'Unknown Channel', code: 10003 }]);
    // No VIEW_CHANNEL, or a server without the bot.
    expect(error(await postMessage(sandbox.app, CHANNELS.avasArcade.modLog, { content: 'x' }))).toEqual([403, { message: 'Missing Access', code: 50001 }]);
    expect(error(await postMessage(sandbox.app, CHANNELS.bensWorkshop.general, { content: 'x' }))).toEqual([403, { message: 'Missing Access', code: 50001 }]);
    // VIEW_CHANNEL without SEND_MESSAGES.
    expect(error(await postMessage(sandbox.app, CHANNELS.avasArcade.staffOnly, { content: 'x' }))).toEqual([403, { message: 'Missing Permissions', code: 50013 }]);
    expect(error(await postMessage(sandbox.app, CHANNELS.modGuild.announcements, PANEL))).toEqual([403, { message: 'Missing Permissions', code: 50013 }]);
    // SEND_MESSAGES without EMBED_LINKS: text yes, embeds no.
    expect((await postMessage(sandbox.app, CHANNELS.avasArcade.faq, { content: 'plain text is fine' })).statusCode).toBe(200);
    expect(error(await postMessage(sandbox.app, CHANNELS.avasArcade.faq, PANEL))).toEqual([403, { message: 'Missing Permissions', code: 50013 }]);
    expect(error(await postMessage(sandbox.app, CHANNELS.avasArcade.supportCategory, { content: 'x' }))).toEqual([
      400,
      { message: 'Cannot send messages in a non-text channel', code: 50008 },
    ]);
    expect(sandbox.control.messages(CHANNELS.avasArcade.staffOnly)).toEqual([]);
  });

  test('50006 for an empty message, 50109 for invalid JSON, 50035 for a body that is not JSON, 40005 for a huge one', async () => {
    await start({ messageRateLimit: { limit: 100 } });
    for (const body of [{}, { content: '' }, { embeds: [] }, { content: null, components: [] }]) {
      expect(error(await postMessage(sandbox.app, CHANNELS.avasArcade.support, body)), JSON.stringify(body)).toEqual([400, { message: 'Cannot send an empty message', code: 50006 }]);
    }
    expect(error(await send(sandbox.app, 'POST', `/channels/${CHANNELS.avasArcade.support}/messages`))).toEqual([400, { message: 'Cannot send an empty message', code: 50006 }]);
    expect(error(await postMessage(sandbox.app, CHANNELS.avasArcade.support, '{"content": '))).toEqual([400, { message: 'The request body contains invalid JSON.', code: 50109 }]);
    const form = await sandbox.app.inject({
      method: 'POST',
      url: `${PREFIX}/api/v10/channels/${CHANNELS.avasArcade.support}/messages`,
      headers: { authorization: BOT_AUTH, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'content=hi',
    });
    expect(form.statusCode).toBe(400);
    expect(form.json()).toMatchObject({ code: 50035, errors: { _errors: [{ code: 'SANDBOX_UNSUPPORTED' }] } });
    const huge = await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: 'x'.repeat(70 * 1024) });
    expect(error(huge)).toEqual([413, { message: 'Request entity too large', code: 40005 }]);
    // A message with only components is not empty.
    expect((await postMessage(sandbox.app, CHANNELS.avasArcade.support, { components: PANEL.components })).statusCode).toBe(200);
  });

  test('a message id is kept per channel and capped (the oldest go first)', async () => {
    await start({ messageRateLimit: { limit: 1000 } });
    for (let i = 0; i < MAX_MESSAGES_PER_CHANNEL + 5; i++) await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: `#${i}` });
    const kept = sandbox.control.messages(CHANNELS.avasArcade.support);
    expect(kept).toHaveLength(MAX_MESSAGES_PER_CHANNEL);
    expect(kept[0]!.content).toBe('#5');
  });
});

describe('POST with enforce_nonce', () => {
  test('answers the message already posted with the same nonce for minutes, and posts anew without enforce_nonce or after that', async () => {
    await start();
    const channel = CHANNELS.avasArcade.support;
    const first = await postMessage(sandbox.app, channel, { content: 'On it.', nonce: 'cmd_a', enforce_nonce: true });
    expect(first.statusCode).toBe(200);
    const again = await postMessage(sandbox.app, channel, { content: 'On it (retry).', nonce: 'cmd_a', enforce_nonce: true });
    expect(again.json().id).toBe(first.json().id);
    expect(again.json().content).toBe('On it.');
    const other = await postMessage(sandbox.app, channel, { content: 'Another.', nonce: 'cmd_b', enforce_nonce: true });
    expect(other.json().id).not.toBe(first.json().id);
    const loose = await postMessage(sandbox.app, channel, { content: 'Without enforcing.', nonce: 'cmd_a' });
    expect(loose.json().id).not.toBe(first.json().id);
    sandbox.tick(5 * 60_000);
    const later = await postMessage(sandbox.app, channel, { content: 'Much later.', nonce: 'cmd_a', enforce_nonce: true });
    expect(later.json().id).not.toBe(first.json().id);
    expect(error(await postMessage(sandbox.app, channel, { content: 'x', nonce: 'n', enforce_nonce: 'yes' }))[0]).toBe(400);
  });
});

describe('PATCH /channels/{id}/messages/{id}', () => {
  test('edits content, embeds and components; sets edited_timestamp; null clears', async () => {
    await start();
    const member = (await postMessage(sandbox.app, CHANNELS.avasArcade.support, PANEL)).json();
    sandbox.tick(60_000);
    const edited = await send(sandbox.app, 'PATCH', `/channels/${CHANNELS.avasArcade.support}/messages/${member.id}`, { content: 'Updated', embeds: [{ title: 'New' }] });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      id: member.id,
      content: 'Updated',
      embeds: [{ type: 'rich', title: 'New' }],
      components: member.components,
      timestamp: member.timestamp,
      edited_timestamp: '2026-01-15T12:01:00.000000+00:00',
    });
    const cleared = await send(sandbox.app, 'PATCH', `/channels/${CHANNELS.avasArcade.support}/messages/${member.id}`, { content: null, components: [] });
    expect(cleared.json()).toMatchObject({ content: '', components: [], embeds: [{ title: 'New' }] });
    expect(error(await send(sandbox.app, 'PATCH', `/channels/${CHANNELS.avasArcade.support}/messages/${member.id}`, { embeds: null }))).toEqual([
      400,
      { message: 'Cannot send an empty message', code: 50006 },
    ]);
    const invalid = await send(sandbox.app, 'PATCH', `/channels/${CHANNELS.avasArcade.support}/messages/${member.id}`, { embeds: [{ title: 'x'.repeat(257) }] });
    expect(invalid.json()).toMatchObject({ code: 50035, errors: { embeds: { 0: { title: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } } } } });
  });

  test("50005 for someone else's message, 10008 for an unknown one, 50013 for embeds without EMBED_LINKS", async () => {
    await start();
    const welcome = DEMO_MESSAGES.find((m) => m.channelId === CHANNELS.avasArcade.welcome)!;
    expect(error(await send(sandbox.app, 'PATCH', `/channels/${CHANNELS.avasArcade.welcome}/messages/${welcome.id}`, { content: 'mine now' }))).toEqual([
      403,
      { message: 'Cannot edit a message authored by another user', code: 50005 },
    ]);
    expect(error(await send(sandbox.app, 'PATCH', `/channels/${CHANNELS.avasArcade.support}/messages/1`, { content: 'x' }))).toEqual([404, { message: 'Unknown Message', code: 10008 }]);
    // A message of another channel is unknown in this one.
    const member = (await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: 'x' })).json();
    expect((await send(sandbox.app, 'PATCH', `/channels/${CHANNELS.avasArcade.welcome}/messages/${member.id}`, { content: 'y' })).statusCode).toBe(404);
    const faq = (await postMessage(sandbox.app, CHANNELS.avasArcade.faq, { content: 'text' })).json();
    expect(error(await send(sandbox.app, 'PATCH', `/channels/${CHANNELS.avasArcade.faq}/messages/${faq.id}`, { embeds: [{ title: 'no' }] }))).toEqual([
      403,
      { message: 'Missing Permissions', code: 50013 },
    ]);
    expect((await send(sandbox.app, 'PATCH', `/channels/${CHANNELS.avasArcade.faq}/messages/${faq.id}`, { content: 'still text' })).statusCode).toBe(200);
  });
});

describe('GET /channels/{id}/messages', () => {
  test('newest first; limit, before, after and around', async () => {
    await start({ messageRateLimit: { limit: 100 } });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push((await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: `m${i}` })).json().id);
      sandbox.tick(1000);
    }
    const page = async (query = '') => {
      const res = await get(sandbox.app, `/channels/${CHANNELS.avasArcade.support}/messages${query}`, BOT_AUTH);
      expect(res.statusCode).toBe(200);
      return res.json<Array<{ id: string }>>().map((m) => m.id);
    };
    expect(await page()).toEqual([...ids].reverse());
    expect(await page('?limit=2')).toEqual([ids[5], ids[4]]);
    expect(await page(`?limit=2&before=${ids[3]}`)).toEqual([ids[2], ids[1]]);
    expect(await page(`?before=${ids[0]}`)).toEqual([]);
    expect(await page(`?limit=2&after=${ids[1]}`)).toEqual([ids[3], ids[2]]);
    expect(await page(`?limit=3&around=${ids[3]}`)).toEqual([ids[4], ids[3], ids[2]]);
  });

  test.each([
    ['limit=0', 'limit', 'NUMBER_TYPE_MIN'],
    ['limit=101', 'limit', 'NUMBER_TYPE_MAX'],
    ['limit=many', 'limit', 'NUMBER_TYPE_COERCE'],
    ['before=abc', 'before', 'NUMBER_TYPE_COERCE'],
  ])('%s: 400 Invalid Form Body', async (query, field, code) => {
    await start();
    const res = await get(sandbox.app, `/channels/${CHANNELS.avasArcade.support}/messages?${query}`, BOT_AUTH);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 50035, message: 'Invalid Form Body', errors: { [field]: { _errors: [{ code }] } } });
  });

  test('without READ_MESSAGE_HISTORY: an empty list, and 50013 for one message; 50001 without VIEW_CHANNEL', async () => {
    await start();
    const member = (await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: 'x' })).json();
    sandbox.control.setChannelOverwrites(CHANNELS.avasArcade.support, [{ id: DEMO_ROLES.avasArcade.tickety, type: 0, allow: '0', deny: String(1 << 16) }]);
    expect((await get(sandbox.app, `/channels/${CHANNELS.avasArcade.support}/messages`, BOT_AUTH)).json()).toEqual([]);
    expect(error(await get(sandbox.app, `/channels/${CHANNELS.avasArcade.support}/messages/${member.id}`, BOT_AUTH))).toEqual([403, { message: 'Missing Permissions', code: 50013 }]);
    expect(error(await get(sandbox.app, `/channels/${CHANNELS.avasArcade.modLog}/messages`, BOT_AUTH))).toEqual([403, { message: 'Missing Access', code: 50001 }]);
    expect(error(await get(sandbox.app, `/channels/${CHANNELS.avasArcade.welcome}/messages/1`, BOT_AUTH))).toEqual([404, { message: 'Unknown Message', code: 10008 }]);
  });

  test('the seeded welcome message is there, by Ava', async () => {
    await start();
    const [welcome] = (await get(sandbox.app, `/channels/${CHANNELS.avasArcade.welcome}/messages`, BOT_AUTH)).json();
    expect(welcome).toMatchObject({ author: { id: DEMO_USERS.ava.id, username: 'ava', global_name: 'Ava' }, content: expect.stringContaining("Ava's Arcade") });
  });
});

describe('DELETE /channels/{id}/messages/{id}', () => {
  test("deletes the bot's own message (204); another's needs MANAGE_MESSAGES (50013)", async () => {
    await start();
    const member = (await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: 'bye' })).json();
    const del = await send(sandbox.app, 'DELETE', `/channels/${CHANNELS.avasArcade.support}/messages/${member.id}`);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect(error(await get(sandbox.app, `/channels/${CHANNELS.avasArcade.support}/messages/${member.id}`, BOT_AUTH))).toEqual([404, { message: 'Unknown Message', code: 10008 }]);
    expect((await send(sandbox.app, 'DELETE', `/channels/${CHANNELS.avasArcade.support}/messages/${member.id}`)).statusCode).toBe(404);

    const welcome = DEMO_MESSAGES.find((x) => x.channelId === CHANNELS.avasArcade.welcome)!;
    expect(error(await send(sandbox.app, 'DELETE', `/channels/${CHANNELS.avasArcade.welcome}/messages/${welcome.id}`))).toEqual([
      403,
      { message: 'Missing Permissions', code: 50013 },
    ]);
    sandbox.control.setChannelOverwrites(CHANNELS.avasArcade.welcome, [{ id: DEMO_ROLES.avasArcade.tickety, type: 0, allow: String(1 << 13), deny: '0' }]);
    expect((await send(sandbox.app, 'DELETE', `/channels/${CHANNELS.avasArcade.welcome}/messages/${welcome.id}`)).statusCode).toBe(204);
    // reset() brings the seeded messages back.
    sandbox.control.reset();
    expect(sandbox.control.messages(CHANNELS.avasArcade.welcome).map((x) => x.id)).toEqual([welcome.id]);
  });
});

function limits(res: LightMyRequestResponse) {
  return {
    limit: Number(res.headers['x-ratelimit-limit']),
    remaining: Number(res.headers['x-ratelimit-remaining']),
    resetAfter: Number(res.headers['x-ratelimit-reset-after']),
    bucket: String(res.headers['x-ratelimit-bucket']),
  };
}

describe('rate limits', () => {
  test('every bot answer of the new routes has the bucket headers, one bucket per route', async () => {
    await start();
    const answers = [
      await get(sandbox.app, `/guilds/${GUILDS.avasArcade.id}/channels`, BOT_AUTH),
      await get(sandbox.app, `/guilds/${GUILDS.avasArcade.id}/roles`, BOT_AUTH),
      await get(sandbox.app, `/guilds/${GUILDS.avasArcade.id}/emojis`, BOT_AUTH),
      await get(sandbox.app, `/guilds/${GUILDS.avasArcade.id}/members/${DEMO_USERS.ava.id}`, BOT_AUTH),
      await get(sandbox.app, `/channels/${CHANNELS.avasArcade.support}`, BOT_AUTH),
      await get(sandbox.app, `/channels/${CHANNELS.avasArcade.support}/messages`, BOT_AUTH),
      await postMessage(sandbox.app, CHANNELS.avasArcade.modLog, { content: 'x' }),
    ];
    for (const res of answers) {
      expect(res.headers['x-ratelimit-bucket']).toMatch(/^[0-9a-f]{32}$/);
      expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+(\.\d+)?$/);
    }
    expect(new Set(answers.map((r) => r.headers['x-ratelimit-bucket'])).size).toBe(answers.length);
    expect(limits(answers.at(-1)!)).toMatchObject({ limit: 5, remaining: 4, resetAfter: 5 });
    expect(limits(answers[0]!)).toMatchObject({ limit: 100, remaining: 99 });
  });

  test('message creation: 5 per 5 s per channel, then 429 with retry_after; the bucket refills after the reset', async () => {
    await start();
    for (let i = 0; i < 5; i++) {
      const ok = await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: `${i}` });
      expect(ok.statusCode).toBe(200);
      expect(limits(ok).remaining).toBe(4 - i);
      sandbox.tick(500);
    }
    const limited = await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: 'too many' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: 'You are being rate limited.', retry_after: 2.5, global: false });
    expect(limited.headers['retry-after']).toBe('3');
    expect(limited.headers['x-ratelimit-scope']).toBe('user');
    expect(limits(limited)).toMatchObject({ limit: 5, remaining: 0, resetAfter: 2.5 });
    expect(sandbox.control.messages(CHANNELS.avasArcade.support)).toHaveLength(5);
    expect(sandbox.control.requests('POST /api/v10/channels/*').at(-1)).toMatchObject({ status: 429, rateLimited: true });

    // Another channel has its own bucket; reading is another route.
    expect((await postMessage(sandbox.app, CHANNELS.avasArcade.transcripts, { content: 'ok' })).statusCode).toBe(200);
    expect((await get(sandbox.app, `/channels/${CHANNELS.avasArcade.support}/messages`, BOT_AUTH)).statusCode).toBe(200);

    sandbox.tick(2499);
    expect((await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: 'still' })).statusCode).toBe(429);
    sandbox.tick(1);
    const recovered = await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: 'again' });
    expect(recovered.statusCode).toBe(200);
    expect(limits(recovered)).toMatchObject({ limit: 5, remaining: 4, resetAfter: 5 });
  });

  test('the messageRateLimit option, and setRateLimit overriding every bucket until reset', async () => {
    await start({ messageRateLimit: { limit: 1, windowSeconds: 10 } });
    expect((await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: '1' })).statusCode).toBe(200);
    expect((await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: '2' })).json().retry_after).toBe(10);
    sandbox.control.setRateLimit({ limit: 3, windowSeconds: 1 });
    expect(limits(await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: '3' }))).toMatchObject({ limit: 3, remaining: 2 });
    sandbox.control.reset();
    expect(limits(await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: '4' }))).toMatchObject({ limit: 1, remaining: 0 });
  });
});

describe('fault injection on the message routes', () => {
  test('the next N calls answer 429, 500 or 502, then the route works; nothing is created meanwhile', async () => {
    await start();
    const path = `POST /api/v10/channels/${CHANNELS.avasArcade.support}/messages`;
    sandbox.control.failNext(path, { status: 429, retryAfter: 2, times: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await postMessage(sandbox.app, CHANNELS.avasArcade.support, PANEL);
      expect(error(res)).toEqual([429, { message: 'You are being rate limited.', retry_after: 2, global: false }]);
      expect(res.headers['retry-after']).toBe('2');
    }
    sandbox.control.failNext(path, { status: 500 }).failNext(path, { status: 502 });
    expect(error(await postMessage(sandbox.app, CHANNELS.avasArcade.support, PANEL))).toEqual([500, { message: '500: Internal Server Error', code: 0 }]);
    expect(error(await postMessage(sandbox.app, CHANNELS.avasArcade.support, PANEL))).toEqual([502, { message: '502: Bad Gateway', code: 0 }]);
    expect(sandbox.control.messages(CHANNELS.avasArcade.support)).toEqual([]);
    expect((await postMessage(sandbox.app, CHANNELS.avasArcade.support, PANEL)).statusCode).toBe(200);
    // Other routes were never affected.
    expect(sandbox.control.requests().filter((r) => r.fault).every((r) => r.method === 'POST')).toBe(true);
  });

  test('delayNext: the next N matching calls wait, then answer normally (fake timers)', async () => {
    await start();
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    sandbox.control.delayNext(`GET /api/v10/channels/${CHANNELS.avasArcade.support}/messages`, { ms: 3000, times: 1 });
    expect(sandbox.control.pendingDelays()).toEqual([{ match: `GET /api/v10/channels/${CHANNELS.avasArcade.support}/messages`, ms: 3000, remaining: 1 }]);
    let done = false;
    const pending = get(sandbox.app, `/channels/${CHANNELS.avasArcade.support}/messages`, BOT_AUTH).then((res) => {
      done = true;
      return res;
    });
    await vi.advanceTimersByTimeAsync(2999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).statusCode).toBe(200);
    // Used up: the next call is immediate.
    expect((await get(sandbox.app, `/channels/${CHANNELS.avasArcade.support}/messages`, BOT_AUTH)).statusCode).toBe(200);
    expect(sandbox.control.pendingDelays()).toEqual([]);
  });

  test('a slow failure: failNext with delayMs', async () => {
    await start();
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    sandbox.control.failNext('POST /api/v10/channels/*', { status: 502, delayMs: 1000 });
    let status = 0;
    const pending = postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: 'x' }).then((res) => {
      status = res.statusCode;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(status).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(status).toBe(502);
  });

  test('over HTTP: fail, delay and messages', async () => {
    await start({ controlRoutes: true });
    const control = (action: string, body: object) => sandbox.app.inject({ method: 'POST', url: `${PREFIX}/_control/${action}`, payload: body });
    const armed = await control('fail', { match: `POST /api/v10/channels/${CHANNELS.avasArcade.support}/messages`, status: 502, times: 3 });
    expect(armed.json().pendingFaults).toEqual([{ match: `POST /api/v10/channels/${CHANNELS.avasArcade.support}/messages`, status: 502, remaining: 3 }]);
    for (let i = 0; i < 3; i++) expect((await postMessage(sandbox.app, CHANNELS.avasArcade.support, PANEL)).statusCode).toBe(502);
    const created = await postMessage(sandbox.app, CHANNELS.avasArcade.support, PANEL);
    expect(created.statusCode).toBe(200);

    const delayed = await control('delay', { match: 'GET /api/v10/channels/*', ms: 1, times: 2 });
    expect(delayed.json()).toEqual({ ok: true, pendingDelays: [{ match: 'GET /api/v10/channels/*', ms: 1, remaining: 2 }] });
    expect((await control('delay', { match: '*' })).statusCode).toBe(400);
    expect((await control('delay', { ms: 5 })).statusCode).toBe(400);
    expect((await control('fail', { match: '*', status: 500, delayMs: -1 })).statusCode).toBe(400);
    await control('clear-faults', {});
    expect(sandbox.control.pendingDelays()).toEqual([]);

    const messages = (await control('messages', { channelId: CHANNELS.avasArcade.support })).json().messages;
    expect(messages).toEqual([expect.objectContaining({ id: created.json().id, content: PANEL.content, authorId: DEMO_APP.clientId })]);
    const state = (await control('state', {})).json();
    expect(state).toMatchObject({ messageRateLimit: { limit: 5, windowSeconds: 5 }, pendingDelays: [] });
    expect(state.stored.messages).toBe(DEMO_MESSAGES.length + 1);
  });
});

describe('SandboxControl.restoreMessage', () => {
  test('puts a message back with its own id, in id order, readable and editable by the bot; once', async () => {
    await start();
    const first = (await postMessage(sandbox.app, CHANNELS.avasArcade.support, PANEL)).json();
    const second = (await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: 'later' })).json();
    // The first message is gone (a restart of the demo): put back with its id, before the second.
    await sandbox.app.close();
    sandbox = await harness();
    expect(sandbox.control.messages(CHANNELS.avasArcade.support)).toEqual([]);
    expect(sandbox.control.restoreMessage({ id: second.id, channelId: CHANNELS.avasArcade.support, body: { content: 'later' } })).toBe(true);
    expect(sandbox.control.restoreMessage({ id: first.id, channelId: CHANNELS.avasArcade.support, body: PANEL })).toBe(true);
    expect(sandbox.control.restoreMessage({ id: first.id, channelId: CHANNELS.avasArcade.support, body: PANEL })).toBe(false);
    expect(sandbox.control.messages(CHANNELS.avasArcade.support).map((m) => m.id)).toEqual([first.id, second.id]);
    const read = await get(sandbox.app, `/channels/${CHANNELS.avasArcade.support}/messages/${first.id}`, BOT_AUTH);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: first.id, author: { id: DEMO_APP.clientId }, embeds: [{ title: 'Support' }], timestamp: first.timestamp });
    const edit = await send(sandbox.app, 'PATCH', `/channels/${CHANNELS.avasArcade.support}/messages/${first.id}`, { content: 'edited' });
    expect(edit.statusCode).toBe(200);
    // A new message still gets a later id than every restored one.
    const third = (await postMessage(sandbox.app, CHANNELS.avasArcade.support, { content: 'new' })).json();
    expect(BigInt(third.id) > BigInt(second.id)).toBe(true);
  });

  test('refuses an unknown channel, a category and a body Discord would refuse', async () => {
    await start();
    const id = '1460000000000000001';
    expect(() => sandbox.control.restoreMessage({ id, channelId: '1200000000000009999', body: { content: 'x' } })).toThrow(/not a demo text channel/);
    expect(() => sandbox.control.restoreMessage({ id, channelId: CHANNELS.avasArcade.supportCategory, body: { content: 'x' } })).toThrow(/not a demo text channel/);
    expect(() => sandbox.control.restoreMessage({ id, channelId: CHANNELS.avasArcade.support, body: { content: 'x'.repeat(2001) } })).toThrow(/not a valid message/);
    expect(() => sandbox.control.restoreMessage({ id, channelId: CHANNELS.avasArcade.support, body: {} })).toThrow(/empty/);
  });
});
