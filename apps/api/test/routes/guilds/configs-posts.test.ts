import { ApiError, defaultServerConfig, newPanel, PanelPost, PanelPostList, ServerConfigAnswer, WebLogPage } from '@tickety/api-contract';
import { DEMO_APP, DEMO_CHANNELS, DEMO_GUILDS, DEMO_ROLES, DEMO_USERS } from '@tickety/sandbox';
import { beforeEach, describe, expect, it } from 'vitest';
import { DASHBOARD_ORIGIN, useTestApp } from '../../helpers/app';
import { Browser } from '../../helpers/browser';
import { databases } from '../../helpers/db';
import { signIn } from '../../helpers/oauth';

const { ava, ben, cleo } = DEMO_USERS;
const ARCADE = DEMO_GUILDS.avasArcade.id;
const CHANNELS = DEMO_CHANNELS.avasArcade;
const SEND_MESSAGES = String(1 << 11);

function panel(id: string, name: string, title = name) {
  const item = newPanel(id, { name, title, description: 'Press the button to open a ticket.', button: `Open ${name}` });
  return { ...item, embed: { ...item.embed, colour: 0x10b981 }, namingScheme: 'ticket-{count}' };
}

function helpDesk(mode: 'buttons' | 'select' = 'buttons') {
  return {
    id: 'helpdesk',
    name: 'Help desk',
    embed: { title: 'How can we help?', description: 'Pick a topic.', colour: null, imageUrl: null, thumbnailUrl: null, footer: '' },
    mode,
    panelIds: ['support', 'billing'],
    selectPlaceholder: null,
  };
}

function configWith(support = panel('support', 'Support'), multi = helpDesk()) {
  return { ...defaultServerConfig(), panels: [support, panel('billing', 'Billing')], multiPanels: [multi] };
}

const DASHBOARD = { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN };

describe.each(databases())('posted panels (/api/guilds/:server/posts) on $name', (database) => {
  const t = useTestApp(database);
  const base = `/api/guilds/${ARCADE}`;
  let browser: Browser;

  async function as(userId: string) {
    const browser = new Browser(t.app);
    await signIn(browser, userId);
    return browser;
  }

  async function save(config: unknown) {
    const live = ServerConfigAnswer.parse((await browser.get(`${base}/config`)).json());
    const res = await browser.request('PUT', `${base}/config`, { headers: DASHBOARD, payload: { expectedVersion: live.version, config } });
    expect(res.statusCode, res.body).toBe(200);
    return ServerConfigAnswer.parse(res.json()).version;
  }

  const send = (body: unknown, b = browser) => b.post(`${base}/posts`, body);
  const update = (kind: string, id: string, b = browser) => b.post(`${base}/posts/${kind}/${id}/update`);
  const posts = async () => PanelPostList.parse((await browser.get(`${base}/posts`)).json()).posts;
  const postOf = async (kind: string, id: string) => (await posts()).find((p) => p.kind === kind && p.id === id);
  /** The bot's message calls to Discord since `from`. */
  const messageCalls = (from: number) => t.discordCalls.slice(from).filter((c) => /\/channels\/\d+\/messages/.test(c.url));
  const expectRefused = (res: { statusCode: number; body: string; json(): unknown }, message: string | RegExp) => {
    expect(res.statusCode, res.body).toBe(422);
    const body = ApiError.parse(res.json());
    expect(body.code).toBe(1014);
    if (typeof message === 'string') expect(body.message).toBe(message);
    else expect(body.message).toMatch(message);
  };

  beforeEach(async () => {
    browser = await as(ava.id);
    // A fresh window of the sandbox's message bucket (5 messages per 5 s per channel) for each test.
    t.sandbox.advanceTime(6_000);
  });

  it('lists nothing before anything is sent; refuses a visitor (401), Ben (403) and Cleo (405); needs the dashboard’s headers', async () => {
    expect(await posts()).toEqual([]);
    const visitor = new Browser(t.app);
    expect((await visitor.get(`${base}/posts`)).statusCode).toBe(401);
    expect((await send({ kind: 'panel', id: 'support', channelId: CHANNELS.support }, visitor)).statusCode).toBe(401);
    for (const who of [ben.id, cleo.id]) {
      const browser = await as(who);
      for (const res of [await browser.get(`${base}/posts`), await send({ kind: 'panel', id: 'support', channelId: CHANNELS.support }, browser), await update('panel', 'support', browser)]) {
        expect(ApiError.parse(res.json()).code).toBe(who === ben.id ? 403 : 405);
      }
    }
    // A cross-site request (no x-requested-with, another origin) is refused before anything else.
    const forged = await browser.request('POST', `${base}/posts`, {
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      payload: { kind: 'panel', id: 'support', channelId: CHANNELS.support },
    });
    expect(forged.statusCode).toBe(403);
    expect(ApiError.parse(forged.json()).code).toBe(1005);
    expect(t.sandbox.messages(CHANNELS.support)).toEqual([]);
  });

  it('refuses an item the live configuration does not have (1002) and a malformed body (1001)', async () => {
    const missing = await send({ kind: 'panel', id: 'support', channelId: CHANNELS.support });
    expect(missing.statusCode).toBe(404);
    expect(ApiError.parse(missing.json())).toMatchObject({ code: 1002, message: "This server's configuration has no panel “support”: save it first." });
    const bad = await send({ kind: 'poster', id: 'support', channelId: CHANNELS.support });
    expect(bad.statusCode).toBe(400);
    expect(ApiError.parse(bad.json()).code).toBe(1001);
    const notYet = await update('panel', 'support');
    expect(notYet.statusCode).toBe(404);
    expect(ApiError.parse(notYet.json()).code).toBe(1002);
  });

  it('sends a panel to #support: the bot posts its message, the post is stored and logged', async () => {
    const version = await save(configWith());
    const res = await send({ kind: 'panel', id: 'support', channelId: CHANNELS.support });
    expect(res.statusCode, res.body).toBe(200);
    const post = PanelPost.parse(res.json());
    expect(post).toMatchObject({ kind: 'panel', id: 'support', channelId: CHANNELS.support, postedVersion: version, state: 'posted' });

    const [message] = t.sandbox.messages(CHANNELS.support);
    expect(message).toMatchObject({ id: post.messageId, authorId: DEMO_APP.clientId, guildId: ARCADE });
    expect(message!.embeds[0]).toMatchObject({ title: 'Support', description: 'Press the button to open a ticket.', color: 0x10b981 });
    expect(message!.components[0]!.components[0]).toMatchObject({ type: 2, style: 1, label: 'Open Support', custom_id: 'tickety:panel:support', emoji: { name: '🎫' } });

    expect(await posts()).toEqual([post]);
    const log = WebLogPage.parse((await browser.get(`${base}/logs?action=panel.send`)).json()).entries;
    expect(log[0]).toMatchObject({ action: 'panel.send', target: 'Panel “Support” in #support', version, actor: { id: ava.id }, changes: [{ path: 'channel', after: '#support' }] });
  });

  it('sends a multi-panel with a button per panel (or one select menu)', async () => {
    const res = await send({ kind: 'multiPanel', id: 'helpdesk', channelId: CHANNELS.welcome });
    expect(res.statusCode, res.body).toBe(200);
    const message = t.sandbox.messages(CHANNELS.welcome).find((m) => m.id === PanelPost.parse(res.json()).messageId)!;
    expect(message.embeds[0]).toMatchObject({ title: 'How can we help?' });
    expect(message.components).toHaveLength(1);
    expect(message.components[0]!.components.map((c) => [c.type, (c as { custom_id?: string }).custom_id])).toEqual([
      [2, 'tickety:panel:support'],
      [2, 'tickety:panel:billing'],
    ]);
  });

  it('refuses, without asking Discord, a channel where the bot lacks a permission, a category, and a channel of another server', async () => {
    const before = t.discordCalls.length;
    expectRefused(await send({ kind: 'panel', id: 'support', channelId: CHANNELS.staffOnly }), 'The bot cannot post in #staff-only: it lacks Send Messages.');
    expectRefused(await send({ kind: 'panel', id: 'support', channelId: CHANNELS.faq }), 'The bot cannot post in #faq: it lacks Embed Links.');
    expectRefused(await send({ kind: 'panel', id: 'support', channelId: CHANNELS.modLog }), 'The bot cannot post in #mod-log: it lacks View Channel and Send Messages.');
    const category = await send({ kind: 'panel', id: 'support', channelId: CHANNELS.supportCategory });
    expect(category.statusCode).toBe(400);
    expect(ApiError.parse(category.json())).toMatchObject({ code: 1001, message: 'channelId: #Support is a category: a panel is posted in a text or announcement channel.' });
    expectRefused(await send({ kind: 'panel', id: 'support', channelId: DEMO_CHANNELS.pixelPals.general }), /not in this server/);
    expect(messageCalls(before)).toEqual([]);
    expect(t.sandbox.messages(CHANNELS.staffOnly)).toEqual([]);
  });

  it('marks a post outdated when the live configuration changes its message, and updates it in place', async () => {
    const sent = (await postOf('panel', 'support'))!;
    // A new title for Support: its panel's message changes; the multi-panel shows Support's button only, so it does not.
    const version = await save(configWith(panel('support', 'Support', 'Support (24/7)')));
    expect(await postOf('panel', 'support')).toMatchObject({ state: 'outdated', postedVersion: sent.postedVersion });
    expect(await postOf('multiPanel', 'helpdesk')).toMatchObject({ state: 'posted' });

    const before = t.discordCalls.length;
    const res = await update('panel', 'support');
    expect(res.statusCode, res.body).toBe(200);
    expect(PanelPost.parse(res.json())).toMatchObject({ messageId: sent.messageId, channelId: CHANNELS.support, postedVersion: version, state: 'posted' });
    expect(messageCalls(before).map((c) => c.method)).toEqual(['PATCH']);
    const message = t.sandbox.messages(CHANNELS.support).find((m) => m.id === sent.messageId)!;
    expect(message.embeds[0]).toMatchObject({ title: 'Support (24/7)' });
    expect(message.editedAt).not.toBeNull();
    expect(t.sandbox.messages(CHANNELS.support)).toHaveLength(1);
    expect(await postOf('panel', 'support')).toMatchObject({ state: 'posted', postedVersion: version });
    const log = WebLogPage.parse((await browser.get(`${base}/logs?action=panel.update`)).json()).entries;
    expect(log[0]).toMatchObject({ action: 'panel.update', target: 'Panel “Support” in #support', version, changes: [{ path: 'version', before: sent.postedVersion, after: version }] });
  });

  it('marks the post deleted when the message was deleted in Discord, answers 1014, and takes a new send', async () => {
    const sent = (await postOf('panel', 'support'))!;
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/sandbox/discord/api/v10/channels/${CHANNELS.support}/messages/${sent.messageId}`,
      headers: { authorization: `Bot ${DEMO_APP.botToken}` },
    });
    expect(deleted.statusCode).toBe(204);
    await save(configWith(panel('support', 'Support', 'Support (weekdays)')));
    expectRefused(await update('panel', 'support'), 'The message was deleted in Discord: send the panel again.');
    expect(await postOf('panel', 'support')).toMatchObject({ state: 'deleted', messageId: sent.messageId });
    // Known deleted: refused again without asking Discord.
    const before = t.discordCalls.length;
    expectRefused(await update('panel', 'support'), 'The message was deleted in Discord: send the panel again.');
    expect(messageCalls(before)).toEqual([]);

    const again = await send({ kind: 'panel', id: 'support', channelId: CHANNELS.transcripts });
    expect(again.statusCode, again.body).toBe(200);
    expect(await postOf('panel', 'support')).toMatchObject({ state: 'posted', channelId: CHANNELS.transcripts, messageId: PanelPost.parse(again.json()).messageId });
    const log = WebLogPage.parse((await browser.get(`${base}/logs?action=panel.send`)).json()).entries;
    expect(log[0]).toMatchObject({ target: 'Panel “Support” in #transcripts', changes: [{ path: 'channel', before: '#support', after: '#transcripts' }] });
  });

  it('marks the post deleted when Discord says its channel is gone (10003)', async () => {
    await save(configWith(panel('support', 'Support', 'Support (weekends)')));
    t.sandbox.failNext(`PATCH /api/v10/channels/${CHANNELS.transcripts}/messages/*`, { status: 404, body: { message: 'Unknown Channel', code: 10003 } });
    expectRefused(await update('panel', 'support'), 'The channel #transcripts was deleted in Discord: send the panel again.');
    expect(await postOf('panel', 'support')).toMatchObject({ state: 'deleted' });
    expect((await send({ kind: 'panel', id: 'support', channelId: CHANNELS.support })).statusCode).toBe(200);
  });

  it('names what the bot lacks when Discord refuses (50013) after the channel list was read', async () => {
    // The cached list says the bot can post in #welcome; Discord has just taken Send Messages away.
    expect((await browser.get(`${base}/resources`)).json().channels.find((c: { id: string }) => c.id === CHANNELS.welcome).botCanPost).toBe(true);
    t.sandbox.setChannelOverwrites(CHANNELS.welcome, [{ id: DEMO_ROLES.avasArcade.tickety, type: 0, allow: '0', deny: SEND_MESSAGES }]);
    try {
      expectRefused(await send({ kind: 'panel', id: 'billing', channelId: CHANNELS.welcome }), 'The bot cannot post in #welcome: it lacks Send Messages.');
      expect(await postOf('panel', 'billing')).toBeUndefined();
    } finally {
      t.sandbox.setChannelOverwrites(CHANNELS.welcome, null);
    }
    // Sending decides on the cached list, which now says the bot cannot post there: a send right away
    // is refused without asking Discord, until the list is read again (the picker's ?refresh=1).
    const before = t.discordCalls.length;
    expectRefused(await send({ kind: 'panel', id: 'billing', channelId: CHANNELS.welcome }), 'The bot cannot post in #welcome: it lacks Send Messages.');
    expect(t.discordCalls.length).toBe(before);
    expect((await browser.get(`${base}/resources?refresh=1`)).statusCode).toBe(200);
  });

  it('waits out a short 429 from Discord; a long one or a 5xx is 1008 with Retry-After, and nothing is stored', async () => {
    const route = `POST /api/v10/channels/${CHANNELS.welcome}/messages`;
    t.sandbox.failNext(route, { status: 429, retryAfter: 0.2 });
    const waited = await send({ kind: 'panel', id: 'billing', channelId: CHANNELS.welcome });
    expect(waited.statusCode, waited.body).toBe(200);
    expect(t.sandbox.requests(route).slice(-2).map((r) => r.status)).toEqual([429, 200]);
    const posted = (await postOf('panel', 'billing'))!;

    t.sandbox.failNext(route, { status: 429, retryAfter: 30 });
    const limited = await send({ kind: 'panel', id: 'billing', channelId: CHANNELS.welcome });
    expect(limited.statusCode).toBe(503);
    expect(ApiError.parse(limited.json()).code).toBe(1008);
    expect(limited.headers['retry-after']).toBe('30');

    // Discord said this route is limited for 30 s in #welcome: the bot keeps to it without asking again.
    const before = t.discordCalls.length;
    const still = await send({ kind: 'panel', id: 'billing', channelId: CHANNELS.welcome });
    expect(still.statusCode).toBe(503);
    expect(Number(still.headers['retry-after'])).toBeGreaterThanOrEqual(29);
    expect(Number(still.headers['retry-after'])).toBeLessThanOrEqual(31);
    expect(messageCalls(before)).toEqual([]);

    const other = `POST /api/v10/channels/${CHANNELS.transcripts}/messages`;
    t.sandbox.failNext(other, { status: 500 });
    const down = await send({ kind: 'panel', id: 'billing', channelId: CHANNELS.transcripts });
    expect(down.statusCode).toBe(503);
    expect(ApiError.parse(down.json()).code).toBe(1008);
    expect(down.headers['retry-after']).toBe('5');
    // A new message is never retried after a 5xx (it could post the panel twice).
    expect(messageCalls(before)).toHaveLength(1);
    expect(await postOf('panel', 'billing')).toEqual(posted);
  });

  it('retries an edit once after a 5xx', async () => {
    await save(configWith(panel('support', 'Support', 'Support (holidays)')));
    t.sandbox.failNext(`PATCH /api/v10/channels/${CHANNELS.support}/messages/*`, { status: 503 });
    const res = await update('panel', 'support');
    expect(res.statusCode, res.body).toBe(200);
    expect(await postOf('panel', 'support')).toMatchObject({ state: 'posted' });
  });

  it('passes on what else Discord refuses (50035 Invalid Form Body) as 1014, and leaves the post as it was', async () => {
    await save(configWith(panel('support', 'Support', 'Support (spring)')));
    t.sandbox.failNext(`PATCH /api/v10/channels/${CHANNELS.support}/messages/*`, {
      status: 400,
      body: { message: 'Invalid Form Body', code: 50035, errors: { components: { 0: { components: { 0: { emoji: { _errors: [{ code: 'COMPONENT_INVALID_EMOJI', message: 'Invalid emoji' }] } } } } } } },
    });
    expectRefused(await update('panel', 'support'), /^Discord refused the message: Invalid Form Body; components\[0\]\.components\[0\]\.emoji\[COMPONENT_INVALID_EMOJI\]: Invalid emoji \(code 50035\)\.$/);
    expect(await postOf('panel', 'support')).toMatchObject({ state: 'outdated' });
    expect((await update('panel', 'support')).statusCode).toBe(200);
  });

  it('leaves out a post whose item was removed from the configuration, and lists it again once restored', async () => {
    const version = await save({ ...defaultServerConfig(), panels: [panel('support', 'Support', 'Support (spring)')] });
    expect((await posts()).map((p) => `${p.kind}:${p.id}`)).toEqual(['panel:support']);
    const restore = await browser.post(`${base}/config/versions/${version - 1}/restore`, { expectedVersion: version });
    expect(restore.statusCode, restore.body).toBe(200);
    expect((await posts()).map((p) => `${p.kind}:${p.id}:${p.state}`)).toEqual(['multiPanel:helpdesk:posted', 'panel:billing:posted', 'panel:support:posted']);
  });
});
