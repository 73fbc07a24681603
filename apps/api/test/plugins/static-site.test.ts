import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheControlFor } from '../../src/plugins/app/static-site';
import { FOREIGN_ORIGIN, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';

const root = mkdtempSync(join(tmpdir(), 'tickety-static-'));
const empty = mkdtempSync(join(tmpdir(), 'tickety-static-empty-'));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
});

function file(path: string, content: string) {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
}

file('shell/dist/index.html', '<!doctype html><title>Tickety</title><div id="root"></div>');
file('shell/dist/assets/main-3f9a2c1d7e.js', 'console.log(1)');
file('shell/dist/favicon.svg', '<svg/>');
file('marketing/dist/mf-manifest.json', '{"name":"marketing"}');
file('marketing/dist/remoteEntry.js', 'var marketing;');
file('marketing/dist/static/js/page.0123abcd.js', 'x');
// billing, dashboard and staff are not built.

const html = { accept: 'text/html,application/xhtml+xml' };

describe('cacheControlFor', () => {
  it('makes hashed assets immutable and entry points revalidate', () => {
    expect(cacheControlFor('/x/main-3f9a2c1d7e.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/x/page.0123abcd.css')).toBe('public, max-age=31536000, immutable');
    for (const f of ['/x/index.html', '/x/mf-manifest.json', '/x/remoteEntry.js', '/x/favicon.svg', '/x/about.html']) {
      expect(cacheControlFor(f), f).toBe('no-cache');
    }
  });
});

describe.each(databases())('all-in-one static site on $name', (database) => {
  describe('built front ends', () => {
    const t = useTestApp(database, { env: { ALL_IN_ONE: '1', STATIC_ROOT: root } });

    it('serves the shell at / with a CSP, no framing and a popup-friendly opener policy', async () => {
      const res = await new Browser(t.app).get('/', { headers: html });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('id="root"');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
      expect(res.headers['x-frame-options']).toBe('DENY');
      const csp = String(res.headers['content-security-policy']);
      for (const d of ["default-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "script-src 'self' https://cdn.paddle.com"]) {
        expect(csp).toContain(d);
      }
    });

    it('answers every page address with the shell (the client renders its routes and 404)', async () => {
      for (const path of ['/dashboard', '/dashboard/1100000000000000001/configs', '/billing/paddle/sub_1', '/no-such-page']) {
        // A browser navigation, a plain curl (*/*) and a crawler without Accept.
        for (const headers of [html, { accept: '*/*' }, {}]) {
          const res = await new Browser(t.app).get(path, { headers });
          expect(res.statusCode, path).toBe(200);
          expect(res.body, path).toContain('id="root"');
        }
        // An explicit non-HTML client gets the API's 404.
        expect((await new Browser(t.app).get(path, { headers: { accept: 'application/json' } })).json().code).toBe(1002);
      }
    });

    it('lets only the display pages be framed', async () => {
      for (const path of ['/home-display', '/premium-display', '/clipboard', '/clipboard/']) {
        const res = await new Browser(t.app).get(`${path}?text=1`, { headers: html });
        expect(String(res.headers['content-security-policy']), path).toContain('frame-ancestors *');
        expect(res.headers['x-frame-options'], path).toBeUndefined();
      }
      const other = await new Browser(t.app).get('/home', { headers: html });
      expect(String(other.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    });

    it('serves hashed assets as immutable and remote manifests as public, revalidated files', async () => {
      const asset = await new Browser(t.app).get('/assets/main-3f9a2c1d7e.js');
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const manifest = await new Browser(t.app).get('/remotes/marketing/mf-manifest.json', { headers: { origin: FOREIGN_ORIGIN } });
      expect(manifest.statusCode).toBe(200);
      expect(manifest.json()).toEqual({ name: 'marketing' });
      expect(manifest.headers['cache-control']).toBe('no-cache');
      expect(manifest.headers['access-control-allow-origin']).toBe('*');
      expect(manifest.headers['access-control-allow-credentials']).toBeUndefined();
      const chunk = await new Browser(t.app).get('/remotes/marketing/static/js/page.0123abcd.js');
      expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    });

    it('never answers the shell for the API, the sandbox, remotes or missing files', async () => {
      const api = await new Browser(t.app).get('/api/nope', { headers: html });
      expect(api.statusCode).toBe(404);
      expect(api.json().code).toBe(1002);
      const remote = await new Browser(t.app).get('/remotes/billing/mf-manifest.json', { headers: html });
      expect(remote.statusCode).toBe(404);
      expect(remote.headers['content-type']).toMatch(/^application\/json/);
      const script = await new Browser(t.app).get('/assets/missing.js', { headers: { accept: '*/*' } });
      expect(script.statusCode).toBe(404);
      expect(script.json().code).toBe(1002);
      const post = await new Browser(t.app).request('POST', '/dashboard', { headers: { ...html, 'content-type': 'application/json', 'x-requested-with': 'tickety', 'sec-fetch-site': 'same-origin' }, payload: '{}' });
      expect(post.statusCode).toBe(404);
    });

    it('answers an over-long path parameter under /api with the same 414 as the API-only shape, and shapes every error the same', async () => {
      // The static wildcard catches what a too-long parameter kept from matching its route.
      for (const path of [`/api/guilds/${'9'.repeat(500)}`, `/%61pi/guilds/${'9'.repeat(101)}`]) {
        const res = await new Browser(t.app).get(path);
        expect(res.statusCode, path).toBe(414);
        expect(res.json(), path).toEqual({ code: 1001, message: 'A part of the address is too long.', isAuthenticated: false });
      }
      // A parameter at the limit is fine (a well-formed id that is not one of the user's servers).
      expect((await new Browser(t.app).get(`/api/guilds/${'9'.repeat(100)}`)).statusCode).toBe(401);
    });

    it('picks up a rebuilt index.html without a restart', async () => {
      const path = join(root, 'shell/dist/index.html');
      writeFileSync(path, `<!doctype html><title>Tickety</title><div id="root" data-build="${database.name}"></div>`);
      const later = new Date(Date.now() + 5_000);
      utimesSync(path, later, later);
      const res = await new Browser(t.app).get('/settings', { headers: html });
      expect(res.body).toContain(`data-build="${database.name}"`);
    });
  });

  describe('front ends not built yet', () => {
    const t = useTestApp(database, { env: { ALL_IN_ONE: '1', STATIC_ROOT: empty } });

    it('says so on pages, warns in the logs, and keeps the API up', async () => {
      const res = await new Browser(t.app).get('/', { headers: html });
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('pnpm build');
      expect(t.logs.messages(/the shell is not built/)).toHaveLength(1);
      expect(t.logs.messages(/remote \w+ is not built/)).toHaveLength(4);
      expect((await new Browser(t.app).get('/api/auth/@me')).statusCode).toBe(200);
    });
  });
});
