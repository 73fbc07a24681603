import { ConfigVersionList, PanelPostList, type ServerConfig, ServerConfigAnswer, WebLogPage } from '@tickety/api-contract';
import { DEMO_CHANNELS, DEMO_GUILDS, DEMO_ROLES, DEMO_USERS } from '@tickety/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_POSTS, DEMO_SUBSCRIPTION, seedDemo } from '../../demo/seed';
import { createTestApp, DASHBOARD_ORIGIN, type TestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases, openSuiteDb, type SuiteDb } from '../helpers/db';
import { signIn } from '../helpers/oauth';

const { ava, ben, nico } = DEMO_USERS;
const ARCADE = DEMO_GUILDS.avasArcade.id;
const PIXEL = DEMO_GUILDS.pixelPals.id;
const MODS = DEMO_GUILDS.modGuild.id;

describe.each(databases())('the demo seed (npm start) on $name', (database) => {
  let db: SuiteDb;
  let drop: () => Promise<void>;
  let first: TestApp;

  beforeAll(async () => {
    ({ db, drop } = await openSuiteDb(database));
    first = await createTestApp(db);
  });
  afterAll(async () => {
    await first?.close();
    await drop?.();
  });

  async function as(app: TestApp, userId: string) {
    const browser = new Browser(app.app);
    await signIn(browser, userId);
    return browser;
  }

  it('writes premium, the histories and the posts through the product, once', async () => {
    const report = await seedDemo(first.app, first.sandbox);
    expect(report.written).toEqual([
      "premium subscription for Ava's Arcade",
      "Ava's Arcade: 5 configuration versions",
      'Pixel Pals: 1 configuration version',
      'Retro Modders: 2 configuration versions',
      "Ava's Arcade: panel support posted",
      "Ava's Arcade: panel purchases posted",
      "Ava's Arcade: multiPanel help-desk posted",
      'announcements: one active, one scheduled, one withdrawn',
      'staff team: Nico (2 flags), 5 audit entries',
      'support search: 200 users and 150 servers',
      'webhook dead letters: 2',
    ]);
    const { rows } = await db.query<{ provider: string; status: string; servers: string[] }>(
      'SELECT s.provider, s.status, array_agg(p.guild_id) AS servers FROM subscriptions s JOIN premium_slots p ON p.subscription_id = s.id WHERE s.id = $1 GROUP BY 1, 2',
      [DEMO_SUBSCRIPTION.id],
    );
    expect(rows).toEqual([{ provider: 'discord', status: 'active', servers: [ARCADE] }]);

    const browser = await as(first, ava.id);
    // Ava's Arcade: premium, two panels and a multi-panel, versions by Ava and Nico.
    const config = ServerConfigAnswer.parse((await browser.get(`/api/guilds/${ARCADE}/config`)).json()) as ServerConfigAnswer & { config: ServerConfig };
    expect(config).toMatchObject({ version: 5, premium: true, savedBy: { id: ava.id, name: 'Ava' } });
    expect(config.panelLimit).toBeGreaterThan(3);
    expect(config.config.panels.map((p) => p.name)).toEqual(['General support', 'Purchases & refunds']);
    expect(config.config.multiPanels.map((m) => m.name)).toEqual(['Help desk']);
    const versions = ConfigVersionList.parse((await browser.get(`/api/guilds/${ARCADE}/config/versions`)).json()).versions;
    expect(versions.map((v) => [v.version, v.savedBy.name])).toEqual([
      [5, 'Ava'],
      [4, 'Nico'],
      [3, 'Ava'],
      [2, 'Nico'],
      [1, 'Ava'],
    ]);
    expect(versions.find((v) => v.savedBy.name === 'Nico')!.savedBy.avatarUrl).toMatch(new RegExp(`/avatars/${nico.id}/${nico.avatar}\\.png$`));
    // Dated over the days before the first start, oldest first.
    const times = versions.map((v) => Date.parse(v.savedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(first.clock() - times.at(-1)!).toBeGreaterThan(5 * 24 * 3_600_000);

    // Posted by the bot, in the sandbox's channels, current.
    const posts = PanelPostList.parse((await browser.get(`/api/guilds/${ARCADE}/posts`)).json()).posts;
    expect(posts.map((p) => [p.kind, p.id, p.channelId, p.state])).toEqual([
      ['multiPanel', 'help-desk', DEMO_CHANNELS.avasArcade.welcome, 'posted'],
      ['panel', 'purchases', DEMO_CHANNELS.avasArcade.support, 'posted'],
      ['panel', 'support', DEMO_CHANNELS.avasArcade.support, 'posted'],
    ]);
    for (const post of posts) expect(first.sandbox.messages(post.channelId).map((m) => m.id)).toContain(post.messageId);
    expect(first.sandbox.messages(DEMO_CHANNELS.avasArcade.support).map((m) => m.embeds[0]?.title)).toEqual(['🎮 Need a hand?', '🧾 Purchases & refunds']);

    // Web Logs: every save and every send, by who did it.
    // (newest written first, by id as a number: the list's own order is the Web Logs route's business)
    const logs = WebLogPage.parse((await browser.get(`/api/guilds/${ARCADE}/logs?limit=50`)).json()).entries.sort((a, b) => Number(b.id) - Number(a.id));
    expect(logs.map((e) => [e.action, e.actor.name])).toEqual([
      ['panel.send', 'Nico'],
      ['panel.send', 'Ava'],
      ['panel.send', 'Ava'],
      ['config.update', 'Ava'],
      ['config.update', 'Nico'],
      ['config.update', 'Ava'],
      ['config.update', 'Nico'],
      ['config.update', 'Ava'],
    ]);

    // Pixel Pals: free, at its limit of 3.
    const pixel = ServerConfigAnswer.parse((await browser.get(`/api/guilds/${PIXEL}/config`)).json());
    expect(pixel).toMatchObject({ premium: false, panelLimit: 3 });
    expect(pixel.config.panels).toHaveLength(3);

    // Retro Modders: its Dashboard Readers role reads the dashboard.
    const mods = ServerConfigAnswer.parse((await browser.get(`/api/guilds/${MODS}/config`)).json());
    expect(mods.config.access).toEqual([{ roleId: DEMO_ROLES.modGuild.dashboardReaders, areas: { panels: 'read', statistics: 'read', logs: 'read', configs: 'read' } }]);
  });

  it('a second run on the same start writes nothing', async () => {
    const before = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM web_logs');
    expect(await seedDemo(first.app, first.sandbox)).toEqual({ written: [], restoredMessages: 0 });
    expect((await db.query<{ n: string }>('SELECT count(*)::text AS n FROM web_logs')).rows).toEqual(before.rows);
  });

  it('a restart (same database, a fresh sandbox) writes nothing and puts the posted messages back; they update in place', async () => {
    await first.close();
    const restarted = await createTestApp(db);
    try {
      expect(restarted.sandbox.messages(DEMO_CHANNELS.avasArcade.support)).toEqual([]);
      const report = await seedDemo(restarted.app, restarted.sandbox);
      expect(report).toEqual({ written: [], restoredMessages: DEMO_POSTS.length });
      const support = restarted.sandbox.messages(DEMO_CHANNELS.avasArcade.support);
      expect(support.map((m) => [m.authorId, m.embeds[0]?.title])).toEqual([
        [restarted.config.discord.clientId, '🎮 Need a hand?'],
        [restarted.config.discord.clientId, '🧾 Purchases & refunds'],
      ]);
      expect(restarted.sandbox.messages(DEMO_CHANNELS.avasArcade.welcome).some((m) => m.embeds[0]?.title === 'How can we help?')).toBe(true);

      // The message Discord "kept" is the one the post names: an update edits it in place.
      const browser = await as(restarted, ava.id);
      const res = await browser.post(`/api/guilds/${ARCADE}/posts/panel/support/update`, undefined, { headers: { origin: DASHBOARD_ORIGIN } });
      expect(res.statusCode, res.body).toBe(200);
      expect(restarted.sandbox.messages(DEMO_CHANNELS.avasArcade.support)[0]!.editedAt).not.toBeNull();

      // Ben opens Retro Modders through his role (his list from sign-in says so too).
      const benBrowser = await as(restarted, ben.id);
      const me = (await benBrowser.get('/api/auth/@me')).json();
      expect(me.guilds.find((g: { id: string }) => g.id === MODS)).toMatchObject({ canManage: false, roleAccess: true });
    } finally {
      await restarted.close();
    }
  });
});
