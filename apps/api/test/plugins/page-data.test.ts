import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAGE_DATA_ID, type PageData } from '@tickety/api-contract';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { NOTICES_MAX_AGE_MS, NOTICES_WAIT_MS } from '../../src/app';
import { STATUS_SNAPSHOT_MAX_AGE_MS, STATUS_SNAPSHOT_REFRESH_AFTER_MS, STATUS_SNAPSHOT_WAIT_MS } from '../../src/services/system-health';
import { useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';
import { entry, writeFile, writeSite } from '../helpers/site';

const BOOT = '(()=>{document.documentElement.dataset.booted="1"})()';
const BOOT_HASH = `'sha256-${createHash('sha256').update(BOOT).digest('base64')}'`;
const MARKETING = {
  schema: 1,
  remote: 'marketing',
  mounts: ['/', '/premium', '/status'],
  routes: [
    { path: '/', layout: 'public', page: 'home' },
    { path: '/premium', layout: 'public', page: 'premium', title: 'Premium' },
    { path: '/status', layout: 'public', page: 'status', title: 'Status' },
  ],
};
const html = { accept: 'text/html,application/xhtml+xml' };

/** The JSON a page carries for the app's takeover. */
function embedded(body: string): PageData {
  const match = new RegExp(`<script type="application/json" id="${PAGE_DATA_ID}">([\\s\\S]*?)</script>`).exec(body);
  expect(match, 'the page data element').not.toBeNull();
  return JSON.parse(match![1]!) as PageData;
}

describe.each(databases())('pages with their data in the HTML on $name', (database) => {
  const site = mkdtempSync(join(tmpdir(), 'tickety-site-data-'));
  afterAll(() => rmSync(site, { recursive: true, force: true }));
  writeSite(site, {
    shell: 'eeeeeeeeeee4',
    html: `<!doctype html><html><head><title>Tickety</title><script>${BOOT}</script></head><body><div id="root"></div>\n<noscript>JS</noscript></body></html>`,
    remotes: { marketing: entry('marketing', 'aaaaaaaaaaa4', MARKETING) },
  });
  writeFile(
    join(site, 'shell/eeeeeeeeeee4/prerender.mjs'),
    `export const PAGE_SLOT = '<div data-tk-page=""></div>';
     export function renderFrame() { return '<main>' + PAGE_SLOT + '</main>'; }`,
  );
  // A stand-in of marketing's renderer: the status and the plans as it was given them, in the locale.
  writeFile(
    join(site, 'remotes/marketing/aaaaaaaaaaa4/prerender.mjs'),
    `export function renderPage(path, config, locale, data) {
       if (path === '/status') return { html: data?.status ? '<p class="status">' + (locale === 'de' ? 'Zustand: ' : 'Status: ') + data.status.status + ' ' + data.status.services.map((s) => s.name + '=' + s.status).join(',') + '</p>' : '<p aria-busy="true">…</p>', layout: 'public' };
       if (path === '/premium') return { html: '<ul>' + (data?.plans ?? []).map((p) => '<li>' + p.name + '</li>').join('') + '</ul>', layout: 'public' };
       return path === '/' ? { html: '<h1>Home</h1>', layout: 'public' } : null;
     }`,
  );
  const t = useTestApp(database, { env: { ALL_IN_ONE: '1', STATIC_ROOT: site } });
  afterEach(() => {
    vi.restoreAllMocks();
    // The next test starts with an expired snapshot.
    t.clock.advance(STATUS_SNAPSHOT_MAX_AGE_MS);
  });

  it('serves /status with the current status rendered and embedded, the app to start after load to refresh it; the CSP still allows only the boot script', async () => {
    const res = await new Browser(t.app).get('/status', { headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<p class="status">Status: operational api=operational,database=operational</p>');
    const data = embedded(res.body);
    expect(data.status?.services.map((s) => s.name)).toEqual(['api', 'database']);
    expect(data.status?.checkedAt).toBe(new Date(t.clock.now).toISOString());
    // The app starts once the page has loaded, to refresh it in place (apps/shell/src/boot).
    expect(res.body).toContain('<div id="root" data-prerendered="/status" data-refresh="" data-notices="">');
    const csp = String(res.headers['content-security-policy']);
    expect(csp.split('; ').find((d) => d.startsWith('script-src '))).toBe(`script-src 'self' ${BOOT_HASH}`);
    // In the reader's language.
    const german = await new Browser(t.app).get('/status', { headers: { ...html, 'accept-language': 'de' } });
    expect(german.body).toContain('<p class="status">Zustand: operational');
  });

  it('sends a page compressed as the browser accepts it, the same bytes for the same page, with Vary', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/premium', headers: { ...html, 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const first = await t.app.inject({ method: 'GET', url: '/premium', headers: { ...html, 'accept-encoding': 'gzip, deflate, br, zstd' } });
    const second = await t.app.inject({ method: 'GET', url: '/premium', headers: { ...html, 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(first.headers['content-encoding']).toBe('br');
    expect(String(first.headers.vary)).toMatch(/accept-encoding/i);
    expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(brotliDecompressSync(first.rawPayload).toString()).toBe(plain.body);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    const gzipped = await t.app.inject({ method: 'GET', url: '/premium', headers: { ...html, 'accept-encoding': 'gzip' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(plain.body);
  });

  it('serves /premium with the plan catalogue rendered and embedded, and a page without data with none', async () => {
    const res = await new Browser(t.app).get('/premium', { headers: html });
    expect(res.statusCode).toBe(200);
    const names = t.config.plans.map((p) => p.name);
    expect(names.length).toBeGreaterThan(0);
    expect(res.body).toContain(`<ul>${names.map((n) => `<li>${n}</li>`).join('')}</ul>`);
    expect(embedded(res.body).plans).toEqual(JSON.parse(JSON.stringify(t.config.plans)));
    // Static data: the page waits for the visitor like any other.
    expect(res.body).not.toMatch(/data-start|data-refresh/);
    const home = await new Browser(t.app).get('/', { headers: html });
    expect(home.body).not.toContain(PAGE_DATA_ID);
  });

  it('checks the status once for a crowd of visitors, refreshes it behind a visitor once it is half its age, and never serves one older than its age', async () => {
    const check = vi.spyOn(t.app.systemHealth, 'status');
    const pages = await Promise.all(Array.from({ length: 25 }, () => new Browser(t.app).get('/status', { headers: html })));
    for (const page of pages) expect(page.body).toContain('Status: operational');
    expect(check).toHaveBeenCalledTimes(1);
    t.clock.advance(STATUS_SNAPSHOT_REFRESH_AFTER_MS - 1);
    await new Browser(t.app).get('/status', { headers: html });
    expect(check).toHaveBeenCalledTimes(1);
    // Half its age: the visitors get the cached status, and one check starts behind them.
    t.clock.advance(1);
    const before = embedded((await new Browser(t.app).get('/status', { headers: html })).body).status?.checkedAt;
    await Promise.all(Array.from({ length: 5 }, () => new Browser(t.app).get('/status', { headers: html })));
    expect(check).toHaveBeenCalledTimes(2);
    await vi.waitFor(async () => expect(embedded((await new Browser(t.app).get('/status', { headers: html })).body).status?.checkedAt).not.toBe(before));
    expect(check).toHaveBeenCalledTimes(2);
    // No visitor for longer than its age: the next one waits for a new check.
    t.clock.advance(STATUS_SNAPSHOT_MAX_AGE_MS);
    await Promise.all(Array.from({ length: 5 }, () => new Browser(t.app).get('/status', { headers: html })));
    expect(check).toHaveBeenCalledTimes(3);
  });

  it('does not keep visitors waiting on a check that hangs: the page says the status is unknown, and one check runs for all', async () => {
    let finish: () => void = () => undefined;
    const check = vi.spyOn(t.app.systemHealth, 'ping').mockImplementation(
      () =>
        new Promise((resolve) => {
          finish = () => resolve(5);
        }),
    );
    const started = performance.now();
    const pages = await Promise.all(Array.from({ length: 10 }, () => new Browser(t.app).get('/status', { headers: html })));
    const waited = performance.now() - started;
    expect(waited).toBeLessThan(STATUS_SNAPSHOT_WAIT_MS + 1_500);
    for (const page of pages) {
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Status: degraded api=operational,database=degraded');
      expect(embedded(page.body).status?.services[1]).toMatchObject({ reason: 'check_timeout', detail: expect.stringMatching(/did not finish in time/) });
    }
    expect(check).toHaveBeenCalledTimes(1);
    // The check ends: the next visitor gets its answer from the cache.
    finish();
    await vi.waitFor(async () => expect((await new Browser(t.app).get('/status', { headers: html })).body).toContain('Status: operational'));
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('names the visitor notices from one read for a crowd, and holds no page on a read that hangs', async () => {
    t.clock.advance(NOTICES_MAX_AGE_MS);
    const active = vi.spyOn(t.app.announcements, 'active');
    const crowd = await Promise.all(Array.from({ length: 10 }, () => new Browser(t.app).get('/', { headers: html })));
    for (const page of crowd) expect(page.body).toContain('<div id="root" data-prerendered="/" data-notices="">');
    expect(active).toHaveBeenCalledTimes(1);

    // Once the read is older than its age, a read that never answers (a hung database): pages go out
    // within the wait without the mark (their boot script asks once idle), and share that one read.
    t.clock.advance(NOTICES_MAX_AGE_MS);
    let finish: () => void = () => undefined;
    active.mockImplementation(() => new Promise((resolve) => { finish = () => resolve([]); }));
    const started = performance.now();
    const waiting = await Promise.all(Array.from({ length: 5 }, () => new Browser(t.app).get('/', { headers: html })));
    expect(performance.now() - started).toBeLessThan(NOTICES_WAIT_MS + 1_500);
    for (const page of waiting) {
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<div id="root" data-prerendered="/">');
    }
    expect(active).toHaveBeenCalledTimes(2);
    finish();
    await vi.waitFor(async () => expect((await new Browser(t.app).get('/', { headers: html })).body).toContain('data-notices=""'));
    expect(active).toHaveBeenCalledTimes(2);
  });

  it('answers a clear degraded page, not an error, while the database is down', async () => {
    await t.db.kill();
    const res = await new Browser(t.app).get('/status', { headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Status: degraded api=operational,database=down');
    expect(embedded(res.body).status?.services.find((s) => s.name === 'database')).toMatchObject({ reason: 'database_down', detail: 'The database is not answering.' });
  });
});
