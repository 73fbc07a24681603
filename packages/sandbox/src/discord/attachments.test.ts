import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ATTACHMENT_LINK_TTL_MS, DEMO_LEGACY_TRANSCRIPTS, signAttachment } from './attachments';
import { API, BOT_AUTH, type Harness, harness, PREFIX, START } from './test-helpers';

let sandbox: Harness;
beforeAll(async () => {
  sandbox = await harness();
});
afterAll(async () => {
  await sandbox.app.close();
});

const [file] = DEMO_LEGACY_TRANSCRIPTS;
const BASE = `http://localhost:3000${PREFIX}/cdn`;
const link = (issued: number, over: Partial<{ hm: string; filename: string }> = {}) => {
  const session = signAttachment(file.channelId, file.id, file.filename, issued);
  return `/attachments/${file.channelId}/${file.id}/${over.filename ?? file.filename}?ex=${session.ex}&is=${session.is}&hm=${over.hm ?? session.hm}`;
};
const get = (path: string) => sandbox.app.inject({ method: 'GET', url: `${PREFIX}/cdn${path}` });

describe('signed attachment links', () => {
  test('a valid link serves the file, sandboxed; expired, tampered or unknown ones are 404 as on Discord', async () => {
    const ok = await get(link(START));
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/html/);
    expect(ok.headers['content-security-policy']).toBe('sandbox');
    expect(ok.body).toContain('season pass');
    for (const bad of [link(START - ATTACHMENT_LINK_TTL_MS - 1000), link(START, { hm: 'b'.repeat(64) }), link(START, { filename: 'x.html' }), `/attachments/${file.channelId}/${file.id}/${file.filename}`]) {
      const res = await get(bad);
      expect(res.statusCode, bad).toBe(404);
      expect(res.body).toBe('This content is no longer available.');
    }
  });

  test('the bot refreshes expired links (known files only); anyone else is refused', async () => {
    const expired = `${BASE}${link(START - 3 * ATTACHMENT_LINK_TTL_MS)}`;
    const refresh = (auth: string | null, body: unknown) =>
      sandbox.app.inject({ method: 'POST', url: `${API}/attachments/refresh-urls`, headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) }, payload: JSON.stringify(body) });
    expect((await refresh(null, { attachment_urls: [expired] })).statusCode).toBe(401);
    expect((await refresh(BOT_AUTH, { attachment_urls: [] })).statusCode).toBe(400);
    const res = await refresh(BOT_AUTH, { attachment_urls: [expired, `${BASE}/attachments/1/2/nope.html`] });
    expect(res.statusCode).toBe(200);
    const { refreshed_urls } = res.json() as { refreshed_urls: Array<{ original: string; refreshed: string }> };
    expect(refreshed_urls).toHaveLength(1);
    expect(refreshed_urls[0]!.original).toBe(expired);
    const fresh = new URL(refreshed_urls[0]!.refreshed);
    expect(fresh.pathname).toBe(`${PREFIX}/cdn/attachments/${file.channelId}/${file.id}/${file.filename}`);
    expect((await get(`${fresh.pathname.slice(`${PREFIX}/cdn`.length)}${fresh.search}`)).statusCode).toBe(200);
    // A day later the refreshed link has expired too.
    sandbox.tick(ATTACHMENT_LINK_TTL_MS + 1000);
    expect((await get(`${fresh.pathname.slice(`${PREFIX}/cdn`.length)}${fresh.search}`)).statusCode).toBe(404);
  });
});
