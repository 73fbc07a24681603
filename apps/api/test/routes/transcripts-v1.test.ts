import { ApiError } from '@tickety/api-contract';
import { DEMO_LEGACY_TRANSCRIPTS, DEMO_USERS, LEGACY_ISSUED_MS, legacyTranscriptPath, signAttachment, xssVectors } from '@tickety/sandbox';
import { describe, expect, it } from 'vitest';
import { sanitizeLegacyTranscript } from '../../src/routes/transcripts/v1';
import { useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';

const [first] = DEMO_LEGACY_TRANSCRIPTS;

/** The API's address of a legacy transcript link (the viewer's path under /api/transcripts). */
function apiPath(issuedMs: number, over: Partial<{ hm: string; filename: string }> = {}): string {
  const s = signAttachment(first.channelId, first.id, first.filename, issuedMs);
  return `/api/transcripts/v1/${first.channelId}/${first.id}/${over.filename ?? first.filename}/${s.ex}/${s.is}/${over.hm ?? s.hm}`;
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

  async function ava() {
    const b = new Browser(t.app);
    await signIn(b, DEMO_USERS.ava.id);
    return b;
  }

  it('needs a session', async () => {
    const res = await new Browser(t.app).get(apiPath(t.clock.now));
    expect(res.statusCode).toBe(401);
    expect(ApiError.parse(res.json()).code).toBe(401);
  });

  it('serves a live link sanitised, as its own sandboxed document', async () => {
    const res = await (await ava()).get(apiPath(t.clock.now));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/; sandbox$/);
    expect(csp).toMatch(/frame-ancestors 'self' http:\/\/localhost:5173/);
    expect(csp).not.toMatch(/script-src/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toContain('season pass');
    expect(res.body).toContain('href="https://tickety.example/help"');
    for (const bad of ['<script', '__xss', 'onerror', 'onload', 'javascript:', '<iframe', '<form', '<svg', 'http-equiv', 'evil.example']) expect(res.body, bad).not.toContain(bad);
  });

  it('refreshes an expired link through the bot, then serves it', async () => {
    const before = t.discordCalls.length;
    const res = await (await ava()).get(apiPath(LEGACY_ISSUED_MS));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('season pass');
    expect(t.discordCalls.slice(before).some((c) => c.method === 'POST' && c.url.endsWith('/attachments/refresh-urls'))).toBe(true);
    // The demo's documented address is such an expired link.
    expect(legacyTranscriptPath(0)).toBe(apiPath(LEGACY_ISSUED_MS).replace('/api/transcripts/', '/transcript/'));
  });

  it('refreshes a link whose signature Discord refuses (as Discord’s refresh does), 404 for an unknown file, 400 for a malformed address', async () => {
    const browser = await ava();
    // Discord refreshes any link to an attachment the bot can see: the signature is the CDN's, not an access check.
    const tampered = await browser.get(apiPath(t.clock.now, { hm: 'a'.repeat(64) }));
    expect(tampered.statusCode).toBe(200);
    const unknown = await browser.get(apiPath(t.clock.now, { filename: 'other.html' }));
    expect(unknown.statusCode).toBe(404);
    expect(ApiError.parse(unknown.json())).toMatchObject({ code: 1002, message: expect.stringMatching(/no longer available/) });
    for (const path of [
      `/api/transcripts/v1/${first.channelId}/${first.id}/..%2F..%2Fapi%2Fusers/1/1/${'a'.repeat(64)}`,
      `/api/transcripts/v1/abc/${first.id}/${first.filename}/1/1/${'a'.repeat(64)}`,
      `/api/transcripts/v1/${first.channelId}/${first.id}/${first.filename}/zz/1/${'a'.repeat(64)}`,
      `/api/transcripts/v1/${first.channelId}/${first.id}/script.js/1/1/${'a'.repeat(64)}`,
    ]) {
      const res = await browser.get(path);
      expect(res.statusCode, path).toBe(400);
      expect(ApiError.parse(res.json()).code).toBe(1001);
    }
  });
});
