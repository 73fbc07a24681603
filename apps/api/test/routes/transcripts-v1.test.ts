import { ApiError } from '@tickety/api-contract';
import { DEMO_LEGACY_TRANSCRIPTS, DEMO_USERS, LEGACY_ISSUED_MS, legacyTranscriptPath, signAttachment, xssVectors } from '@tickety/sandbox';
import { describe, expect, it } from 'vitest';
import { sanitizeLegacyTranscript } from '../../src/routes/transcripts/v1';
import { DASHBOARD_ORIGIN, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';

const [first] = DEMO_LEGACY_TRANSCRIPTS;
/** The viewer's own fetch (it writes the view to Web Logs), and its frame (same-site, as a frame). */
const FROM_DASHBOARD = { 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN };
const AS_FRAME = { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' };

/** The API's address of a legacy transcript link (the viewer's path under /api/transcripts). */
function apiPath(issuedMs: number, over: Partial<{ hm: string; filename: string }> = {}): string {
  const signature = signAttachment(first.channelId, first.id, first.filename, issuedMs);
  return `/api/transcripts/v1/${first.channelId}/${first.id}/${over.filename ?? first.filename}/${signature.ex}/${signature.is}/${over.hm ?? signature.hm}`;
}

describe('sanitizeLegacyTranscript', () => {
  it('keeps text structure and safe links, drops scripts, styles, frames, forms, handlers and bad schemes', () => {
    const out = sanitizeLegacyTranscript(
      '<h1>T</h1><p onclick="x()">Hi <b>there</b></p><script>alert(1)</script><style>*{}</style><iframe src="x"></iframe>' +
        '<a href="javascript:alert(1)">j</a><a href="https://ok.example/a">ok</a><img src=x onerror=alert(1)><img src="https://cdn.example/a.png">' +
        '<img src="data:text/html,<script>1</script>"><form action="x"><button>b</button></form><div style="color:red">s</div><svg onload=alert(1)></svg>' +
        '<meta http-equiv="refresh" content="0;url=javascript:1"><object data="javascript:1"></object><a href="  JaVaScRiPt:alert(1)">k</a>',
    );
    expect(out).toContain('<h1>T</h1>');
    expect(out).toContain('<p>Hi <b>there</b></p>');
    expect(out).toContain('<a href="https://ok.example/a" rel="noopener noreferrer nofollow" target="_blank">ok</a>');
    expect(out).toContain('<img src="https://cdn.example/a.png" />');
    for (const bad of ['<script', 'alert(1)</script', '<style', '<iframe', 'javascript:', 'onerror', 'onclick', 'onload', '<form', 'style=', '<svg', '<meta', '<object', 'data:text/html']) {
      expect(out.toLowerCase(), bad).not.toContain(bad.toLowerCase());
    }
  });
});

describe('sanitizeLegacyTranscript over the XSS corpus', () => {
  it.each(xssVectors())('vector $n leaves no script, handler, frame, style or javascript: behind', ({ payload }) => {
    const out = sanitizeLegacyTranscript(`<div>${payload}</div>`).toLowerCase();
    // What is left as text is inert; the tags and their attributes are what must be clean.
    const tags = (out.match(/<[^>]*>/g) ?? []).join(' ');
    for (const bad of ['<script', '<iframe', '<object', '<embed', '<svg', '<math', '<style', '<link', '<meta', '<base', '<form', '<input', '<textarea', '<select', '<details', '<video', '<audio', '<marquee', 'javascript:', 'data:text', 'style=']) {
      expect(tags, bad).not.toContain(bad);
    }
    expect(tags).not.toMatch(/\son[a-z]+\s*=/);
  });
});

describe.each(databases())('legacy transcripts (/api/transcripts/v1) on $name', (database) => {
  const t = useTestApp(database);

  async function as(userId: string) {
    const browser = new Browser(t.app);
    await signIn(browser, userId);
    return browser;
  }
  const ava = () => as(DEMO_USERS.ava.id);
  const views = async () =>
    (await t.db.query<{ actor_id: string; target: string }>("SELECT actor_id, target FROM web_logs WHERE action = 'transcript.view' AND target LIKE 'Legacy%' ORDER BY at")).rows;

  it('needs a session', async () => {
    const res = await new Browser(t.app).get(apiPath(t.clock.now));
    expect(res.statusCode).toBe(401);
    expect(ApiError.parse(res.json()).code).toBe(401);
  });

  it('serves a live link sanitised, as its own sandboxed document', async () => {
    const res = await (await ava()).get(apiPath(t.clock.now), { headers: FROM_DASHBOARD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/; sandbox$/);
    expect(csp).toMatch(/frame-ancestors 'self' http:\/\/localhost:5173/);
    expect(csp).not.toMatch(/script-src/);
    // Pictures from Discord's CDN only: no tracking pixel elsewhere learns who reads it.
    expect(csp).toMatch(/img-src https?:\/\/[^ ;]+ data:;/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toContain('season pass');
    expect(res.body).toContain('href="https://tickety.example/help"');
    for (const bad of ['<script', '__xss', 'onerror', 'onload', 'javascript:', '<iframe', '<form', '<svg', 'http-equiv', 'evil.example']) expect(res.body, bad).not.toContain(bad);
  });

  it('refreshes an expired link through the bot, then serves it', async () => {
    const before = t.discordCalls.length;
    const res = await (await ava()).get(apiPath(LEGACY_ISSUED_MS), { headers: FROM_DASHBOARD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('season pass');
    expect(t.discordCalls.slice(before).some((c) => c.method === 'POST' && c.url.endsWith('/attachments/refresh-urls'))).toBe(true);
    // The demo's documented address is such an expired link.
    expect(legacyTranscriptPath(0)).toBe(apiPath(LEGACY_ISSUED_MS).replace('/api/transcripts/', '/transcript/'));
  });

  it('refreshes a link whose signature Discord refuses (as Discord’s refresh does), 404 for an unknown file, 400 for a malformed address', async () => {
    const browser = await ava();
    // Discord refreshes any link to an attachment the bot can see: the signature is the CDN's, not an access check.
    const tampered = await browser.get(apiPath(t.clock.now, { hm: 'a'.repeat(64) }), { headers: FROM_DASHBOARD });
    expect(tampered.statusCode).toBe(200);
    const unknown = await browser.get(apiPath(t.clock.now, { filename: 'other.html' }), { headers: FROM_DASHBOARD });
    expect(unknown.statusCode).toBe(404);
    expect(ApiError.parse(unknown.json())).toMatchObject({ code: 1002, message: expect.stringMatching(/no longer available/) });
    for (const path of [
      `/api/transcripts/v1/${first.channelId}/${first.id}/..%2F..%2Fapi%2Fusers/1/1/${'a'.repeat(64)}`,
      `/api/transcripts/v1/abc/${first.id}/${first.filename}/1/1/${'a'.repeat(64)}`,
      `/api/transcripts/v1/${first.channelId}/${first.id}/${first.filename}/zz/1/${'a'.repeat(64)}`,
      `/api/transcripts/v1/${first.channelId}/${first.id}/script.js/1/1/${'a'.repeat(64)}`,
    ]) {
      const res = await browser.get(path, { headers: FROM_DASHBOARD });
      expect(res.statusCode, path).toBe(400);
      expect(ApiError.parse(res.json()).code).toBe(1001);
    }
  });
  it('opens for members of the server it was posted in only, decided on Discord’s answer (the signature is no access check)', async () => {
    // Sam is not a member of Ava's Arcade, whose #transcripts holds the file.
    const before = t.discordCalls.length;
    const stranger = await (await as(DEMO_USERS.sam.id)).get(apiPath(t.clock.now), { headers: FROM_DASHBOARD });
    expect(stranger.statusCode).toBe(403);
    expect(ApiError.parse(stranger.json())).toMatchObject({ code: 403, message: expect.stringMatching(/members of the server/) });
    // Refused before the CDN or the refresh was asked.
    expect(t.discordCalls.slice(before).some((c) => c.url.includes('/attachments/'))).toBe(false);
  });

  it('opens only for members whose roles let them read the channel it was posted in (Discord’s own rule)', async () => {
    // #transcripts is hidden from @everyone and shown to the Support Team: Ben is a plain member.
    const member = await (await as(DEMO_USERS.ben.id)).get(apiPath(t.clock.now), { headers: FROM_DASHBOARD });
    expect(member.statusCode).toBe(403);
    expect(ApiError.parse(member.json())).toMatchObject({ code: 403, message: expect.stringMatching(/#transcripts, which your roles do not let you read/) });
    // Nico, an administrator, reads it.
    expect((await (await as(DEMO_USERS.nico.id)).get(apiPath(t.clock.now), { headers: FROM_DASHBOARD })).statusCode).toBe(200);
  });

  it('writes every read to the server’s Web Logs, once a minute: the dashboard’s fetch and its frame are one view, the frame alone is one too', async () => {
    const browser = await ava();
    // Past the minute of the earlier tests' reads.
    t.clock.advance(61_000);
    const logged = (await views()).length;
    expect((await browser.get(apiPath(t.clock.now), { headers: FROM_DASHBOARD })).statusCode).toBe(200);
    expect((await browser.get(apiPath(t.clock.now), { headers: AS_FRAME })).statusCode).toBe(200);
    const after = await views();
    expect(after.length).toBe(logged + 1);
    expect(after.at(-1)).toMatchObject({ actor_id: DEMO_USERS.ava.id, target: `Legacy transcript ${first.filename} in #transcripts` });
    // A minute later the frame alone (someone sending the frame's headers by hand) is logged as well.
    t.clock.advance(61_000);
    expect((await browser.get(apiPath(t.clock.now), { headers: AS_FRAME })).statusCode).toBe(200);
    expect((await views()).length).toBe(logged + 2);
  });

  it('is not read for another site’s link or frame (nothing logged, no call to Discord)', async () => {
    const browser = await ava();
    const logged = (await views()).length;
    const before = t.discordCalls.length;
    for (const headers of [{} as Record<string, string>, { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' }, { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }]) {
      const res = await browser.get(apiPath(t.clock.now), { headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(ApiError.parse(res.json()).code).toBe(1005);
    }
    expect((await views()).length).toBe(logged);
    expect(t.discordCalls.length).toBe(before);
  });
});
