import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, test } from 'vitest';
import { DEMO_APP, DEMO_CHANNELS, DEMO_GUILDS } from './demo-data';
import { PREFIX, postMessage, useHarness } from './test-helpers';

const session = useHarness();
const CHANNELS = DEMO_CHANNELS;
const GUILDS = DEMO_GUILDS;

const page = (path: string) => session.app.inject({ method: 'GET', url: `${PREFIX}${path}` });

/** The page runs no script, and its one stylesheet is exactly the one its CSP allows. */
function expectLockedDown(res: LightMyRequestResponse): void {
  expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
  const csp = String(res.headers['content-security-policy']);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("img-src 'self' data:");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|script-src/);
  const styles = [...res.body.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
  expect(styles).toHaveLength(1);
  const hash = createHash('sha256').update(styles[0]!).digest('base64');
  expect(csp).toContain(`style-src 'sha256-${hash}'`);
  expect(res.body).not.toMatch(/<script|\son[a-z]+=|style="/i);
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['x-ratelimit-limit']).toBeUndefined();
}

const HOSTILE = '<script>alert(1)</script>';

describe('GET /channels/{id} (the channel page)', () => {
  test('shows a panel the bot sent as Discord would: embed with colour bar, fields, footer, buttons, select', async () => {
    const sent = await postMessage(session.app, CHANNELS.avasArcade.support, {
      content: `Hello <@${DEMO_APP.clientId}>, see <#${CHANNELS.avasArcade.faq}>`,
      embeds: [
        {
          title: 'Need help?',
          description: 'Press **Open a ticket** below.\n- fast\n- friendly',
          color: 0x5865f2,
          fields: [{ name: 'Hours', value: '9-17', inline: true }],
          footer: { text: 'Tickety support' },
          image: { url: 'https://images.example/banner.png' },
        },
      ],
      components: [
        {
          type: 1,
          components: [
            { type: 2, style: 1, label: 'Open a ticket', custom_id: 'open', emoji: { id: '1500000000000001001', name: 'ticket' } },
            { type: 2, style: 4, label: 'Close', custom_id: 'close', disabled: true },
            { type: 2, style: 5, label: 'Docs', url: 'https://docs.example/' },
          ],
        },
        { type: 1, components: [{ type: 3, custom_id: 'topic', placeholder: 'Pick a topic', options: [{ label: 'Billing', value: 'b', description: 'Payments', emoji: { name: '💳' } }] }] },
      ],
    });
    expect(sent.statusCode).toBe(200);
    const res = await page(`/channels/${CHANNELS.avasArcade.support}`);
    expect(res.statusCode).toBe(200);
    expectLockedDown(res);
    const body = res.body;
    expect(body).toContain('<h1>support</h1>');
    expect(body).toContain('<span class="tag">APP</span>');
    expect(body).toContain(`<a class="mention" href="../channels/${CHANNELS.avasArcade.faq}">#faq</a>`);
    expect(body).toContain(`<span class="mention">@${DEMO_APP.name}</span>`);
    expect(body).toMatch(/<article class="embed k-5865f2"/);
    expect(body).toContain('.k-5865f2{--k:#5865f2}');
    expect(body).toContain('<div class="embed-title">Need help?</div>');
    expect(body).toContain('Press <strong>Open a ticket</strong> below.');
    expect(body).toContain('<ul><li>fast</li><li>friendly</li></ul>');
    expect(body).toContain('<div class="field inline"><div class="field-name">Hours</div>');
    expect(body).toContain('<span>Tickety support</span>');
    expect(body).toContain('<img src="https://images.example/banner.png" alt="Image: https://images.example/banner.png">');
    expect(body).toContain('<span class="btn s1" title="custom_id: open"><img class="emoji" src="../cdn/emojis/1500000000000001001.png?size=64" alt=":ticket:"');
    expect(body).toContain('<span class="btn s4 off"');
    expect(body).toContain('<a class="btn s5" href="https://docs.example/" rel="noopener noreferrer nofollow" target="_blank">');
    expect(body).toContain('<details class="select"><summary>Pick a topic</summary><ul><li><span class="emoji-text" aria-hidden="true">💳</span>');
    expect(body).toContain('<span class="opt-desc">Payments</span>');
    expect(body).toContain('The bot can post here.');
  });

  test('escapes a message containing <script> everywhere it can appear', async () => {
    const res = await postMessage(session.app, CHANNELS.avasArcade.support, {
      content: `${HOSTILE} **${HOSTILE}** [x](https://e.example/"><script>alert(2)</script>)`,
      embeds: [
        {
          title: HOSTILE,
          description: `${HOSTILE}\n\`\`\`\n${HOSTILE}\n\`\`\``,
          fields: [{ name: HOSTILE, value: HOSTILE }],
          footer: { text: HOSTILE },
          author: { name: HOSTILE, url: 'https://e.example/?q="onmouseover="alert(3)' },
          url: 'https://e.example/"><script>alert(4)</script>',
        },
      ],
      components: [
        { type: 1, components: [{ type: 2, style: 2, label: HOSTILE, custom_id: `"><script>alert(5)</script>`, emoji: { name: HOSTILE.slice(0, 30) } }] },
        { type: 1, components: [{ type: 3, custom_id: 'sel', placeholder: HOSTILE, options: [{ label: HOSTILE, value: 'v', description: HOSTILE }] }] },
      ],
    });
    expect(res.statusCode).toBe(200);
    const view = await page(`/channels/${CHANNELS.avasArcade.support}`);
    expectLockedDown(view);
    expect(view.body).not.toContain('<script>');
    expect(view.body).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(view.body.match(/&#60;script&#62;/g)!.length).toBeGreaterThanOrEqual(10);
  });

  test("the bot's situation in the channel: cannot see, cannot post, no embeds", async () => {
    expect((await page(`/channels/${CHANNELS.avasArcade.staffOnly}`)).body).toContain('The bot cannot post here (no Send Messages).');
    expect((await page(`/channels/${CHANNELS.avasArcade.faq}`)).body).toContain('The bot can post text here, but not embeds (no Embed Links).');
    expect((await page(`/channels/${CHANNELS.avasArcade.modLog}`)).body).toContain('The bot cannot see this channel (no View Channel).');
    expect((await page(`/channels/${CHANNELS.bensWorkshop.general}`)).body).toContain('The bot is not in this server.');
    // The sidebar flags them too.
    const body = (await page(`/channels/${CHANNELS.avasArcade.support}`)).body;
    expect(body).toMatch(/staff-only<\/span><span class="flag" title="[^"]+">read-only<\/span>/);
    expect(body).toMatch(/faq<\/span><span class="flag warn" title="[^"]+">no embeds<\/span>/);
    expect(body).toMatch(/mod-log<\/span><span class="flag" title="[^"]+">hidden<\/span>/);
    expect(body).toContain(`href="../channels/${CHANNELS.avasArcade.support}" aria-current="page"`);
  });

  test('the seeded welcome message, by Ava, with its markdown', async () => {
    const res = await page(`/channels/${CHANNELS.avasArcade.welcome}`);
    expect(res.body).toContain('<span class="name">Ava</span>');
    expect(res.body).toContain('Welcome to <strong>Ava&#39;s Arcade</strong>!');
    expect(res.body).toContain(`<a class="mention" href="../channels/${CHANNELS.avasArcade.support}">#support</a>`);
  });

  test('an empty channel, a category, unknown channels', async () => {
    expect((await page(`/channels/${CHANNELS.avasArcade.transcripts}`)).body).toContain('No messages in #transcripts yet.');
    const category = await page(`/channels/${CHANNELS.avasArcade.supportCategory}`);
    expect(category.statusCode).toBe(200);
    expect(category.body).toContain(`<a href="../channels/${CHANNELS.avasArcade.support}">#support</a>`);
    for (const id of ['1299999999999999999', 'abc', `${'9'.repeat(30)}`]) {
      const res = await page(`/channels/${id}`);
      expect(res.statusCode).toBe(404);
      expectLockedDown(res);
    }
  });
});

describe('GET /guilds/{id} and GET /guilds', () => {
  test("a server's page lists its channels (linking to their pages) with what the bot can do, its roles, emojis and members", async () => {
    const res = await page(`/guilds/${GUILDS.avasArcade.id}`);
    expect(res.statusCode).toBe(200);
    expectLockedDown(res);
    const textChannels = Object.values(CHANNELS.avasArcade).filter((id) => id !== CHANNELS.avasArcade.supportCategory && id !== CHANNELS.avasArcade.archiveCategory);
    for (const id of textChannels) expect(res.body).toContain(`href="../channels/${id}"`);
    expect(res.body).toContain(`<td><a href="../channels/${CHANNELS.avasArcade.staffOnly}">#staff-only</a></td><td class="st-bad">The bot cannot post here (no Send Messages).</td>`);
    expect(res.body).toContain('<th colspan="2" scope="rowgroup">SUPPORT</th>');
    expect(res.body).toContain('Tickety (the bot)');
    expect(res.body).toContain(':arcade_coin:');
    expect(res.body).toContain('Jules | Support');
    expect(res.body).toContain('The bot is in this server.');
  });

  test('Retro Modders shows Ben with Dashboard Readers', async () => {
    const res = await page(`/guilds/${GUILDS.modGuild.id}`);
    expect(res.body).toMatch(/<td>Ben<\/td><td><span class="chips"><span class="chip k-9b59b6"><span class="dot" aria-hidden="true"><\/span>Dashboard Readers<\/span>/);
  });

  test('the index lists every demo server; unknown servers are a 404 page', async () => {
    const res = await page('/guilds');
    expect(res.statusCode).toBe(200);
    expectLockedDown(res);
    for (const guild of Object.values(GUILDS)) expect(res.body).toContain(`href="guilds/${guild.id}"`);
    expect((await page('/guilds/1199999999999999999')).statusCode).toBe(404);
    expect((await page('/guilds/nope')).statusCode).toBe(404);
  });

  test("the bot invite page links the servers the bot is in to their pages", async () => {
    const res = await page(`/oauth2/authorize?client_id=${DEMO_APP.clientId}&scope=bot&permissions=2048`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<a class="view" href="../guilds/${GUILDS.avasArcade.id}">`);
    expect(res.body).not.toContain(`href="../guilds/${GUILDS.bensWorkshop.id}"`);
  });
});

describe('every picture of the pages is served by the sandbox', () => {
  test('icons, avatars and emojis answer 200', async () => {
    await postMessage(session.app, CHANNELS.avasArcade.support, { content: 'hi <:gg:1500000000000001003>', components: [{ type: 1, components: [{ type: 2, style: 2, label: 'x', custom_id: 'x', emoji: { id: '1500000000000001002', name: 'arcade_coin', animated: true } }] }] });
    for (const path of ['/guilds', `/guilds/${GUILDS.avasArcade.id}`, `/channels/${CHANNELS.avasArcade.support}`, `/channels/${CHANNELS.avasArcade.welcome}`]) {
      const body = (await page(path)).body;
      const sources = [...body.matchAll(/src="([^"]+)"/g)].map((m) => m[1]!.replace(/&#38;/g, '&'));
      expect(sources.length, path).toBeGreaterThan(0);
      for (const src of sources) {
        const url = new URL(src, `http://sandbox.test${PREFIX}${path}`);
        const res = await session.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
        expect(res.statusCode, `${path}: ${src}`).toBe(200);
        expect(res.headers['content-type']).toBe('image/svg+xml');
      }
    }
  });
});

describe('the CDN serves custom emojis', () => {
  test('known and unknown ids, Discord\'s path', async () => {
    const known = await page('/cdn/emojis/1500000000000001002.gif?size=64');
    expect(known.statusCode).toBe(200);
    expect(known.headers['content-type']).toBe('image/svg+xml');
    expect(known.body).toContain('>AC</text>');
    expect((await page('/cdn/emojis/1.png')).statusCode).toBe(200);
    expect((await page('/cdn/emojis/x.png')).statusCode).toBe(404);
    expect((await page('/cdn/emojis/1.png?size=7')).statusCode).toBe(400);
  });
});
