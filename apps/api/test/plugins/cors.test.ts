import { DEMO_USERS } from '@tickety/sandbox';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_ORIGIN, FOREIGN_ORIGIN, SECOND_DASHBOARD_ORIGIN, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';

describe.each(databases())('CORS on $name', (database) => {
  const t = useTestApp(database);

  it('gives each configured dashboard origin credentialed CORS', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, DEMO_USERS.ava.id);
    for (const origin of [DASHBOARD_ORIGIN, SECOND_DASHBOARD_ORIGIN]) {
      const res = await browser.get('/api/auth/@me', { headers: { origin } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['access-control-allow-credentials']).toBe('true');
      expect(String(res.headers.vary)).toMatch(/origin/i);
      expect(res.json().isAuthenticated).toBe(true);
    }
  });

  it('gives a foreign origin no Access-Control-Allow-Origin (the browser hides the answer)', async () => {
    for (const origin of [FOREIGN_ORIGIN, 'null', 'http://localhost:5173.evil.example', 'http://localhost:5174', 'https://localhost:5173']) {
      const res = await new Browser(t.app).get('/api/auth/@me', { headers: { origin } });
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(res.headers['access-control-allow-credentials'], origin).toBeUndefined();
    }
  });

  it('answers the dashboard preflight of a mutation, and not a foreign one', async () => {
    const preflight = (origin: string) =>
      new Browser(t.app).request('OPTIONS', '/api/auth/guilds/refresh', {
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-requested-with' },
      });
    const ok = await preflight(DASHBOARD_ORIGIN);
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(DASHBOARD_ORIGIN);
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    expect(String(ok.headers['access-control-allow-methods'])).toContain('POST');
    expect(String(ok.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/)).toEqual(['content-type', 'x-requested-with']);
    expect(ok.headers['access-control-max-age']).toBe('600');
    const foreign = await preflight(FOREIGN_ORIGIN);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets the dashboard read error answers too (401, 403 CSRF, 415, 404)', async () => {
    const visitor = new Browser(t.app);
    const answers = [
      await visitor.post('/api/auth/guilds/refresh'),
      await visitor.post('/api/auth/guilds/refresh', undefined, { headers: { 'x-requested-with': 'nope' } }),
      await visitor.request('POST', '/api/auth/guilds/refresh', { headers: { origin: DASHBOARD_ORIGIN } }),
      await visitor.get('/api/nope', { headers: { origin: DASHBOARD_ORIGIN } }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([401, 403, 415, 404]);
    for (const res of answers) {
      expect(res.headers['access-control-allow-origin']).toBe(DASHBOARD_ORIGIN);
      expect(res.headers['access-control-allow-credentials']).toBe('true');
    }
  });

  it('exposes Retry-After (the dashboard shows when to retry) and Content-Disposition (an export\'s file name)', async () => {
    const res = await new Browser(t.app).get('/api/auth/@me', { headers: { origin: DASHBOARD_ORIGIN } });
    expect(String(res.headers['access-control-expose-headers']).toLowerCase()).toContain('retry-after');
    expect(String(res.headers['access-control-expose-headers']).toLowerCase()).toContain('content-disposition');
  });
});
