import { describe, expect, test } from 'vitest';
import { useBrowser } from '../src/browser';
import { waitForPath } from '../src/pages';
import { DEMO_GUILDS, signInContext } from '../src/session';

const b = useBrowser();

describe('redirects', () => {
  test('/subscriptions goes to /billing after login', async () => {
    await signInContext(b.context, b.baseURL, 'ava');
    await b.page.goto('/subscriptions');
    expect(await waitForPath(b.page, '/billing')).toBe('/billing');
  });

  test('/manage-servers goes to /dashboard', async () => {
    await signInContext(b.context, b.baseURL, 'ava');
    await b.page.goto('/manage-servers');
    expect(await waitForPath(b.page, '/dashboard')).toBe('/dashboard');
    await b.page.getByText(DEMO_GUILDS.avasArcade.name).first().waitFor();
  });

  test('/docs sends the browser to the external documentation site', async () => {
    const config = (await (await fetch(`${b.baseURL}/config.json`)).json()) as { docsUrl: string };
    const docs = new URL(config.docsUrl);
    expect(docs.origin).not.toBe(new URL(b.baseURL).origin);
    // No network here: answer the external site ourselves and record that the browser went there.
    const visited: string[] = [];
    await b.context.route(`${docs.origin}/**`, (route) => {
      visited.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Docs</title><h1>Docs</h1>' });
    });
    await b.page.goto('/docs');
    await b.page.waitForURL((u) => u.origin === docs.origin);
    expect(new URL(b.page.url()).origin).toBe(docs.origin);
    expect(visited.length).toBeGreaterThan(0);
  });

  test('/dashboard/server-id/statistics#x goes to /dashboard?page=statistics#x', async () => {
    await signInContext(b.context, b.baseURL, 'ava');
    await b.page.goto('/dashboard/server-id/statistics#x');
    expect(await waitForPath(b.page, '/dashboard?page=statistics#x')).toBe('/dashboard?page=statistics#x');
  });

  test('/dashboard/<id> goes to /dashboard/<id>/configs', async () => {
    await signInContext(b.context, b.baseURL, 'ava');
    const id = DEMO_GUILDS.avasArcade.id;
    await b.page.goto(`/dashboard/${id}`);
    expect(await waitForPath(b.page, `/dashboard/${id}/configs`)).toBe(`/dashboard/${id}/configs`);
  });
});
