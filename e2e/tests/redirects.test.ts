import { describe, expect, test } from 'vitest';
import { useBrowser } from '../src/browser';
import { waitForPath } from '../src/pages';
import { DEMO_GUILDS, signInContext } from '../src/session';

const harness = useBrowser();

describe('redirects', () => {
  test('/subscriptions goes to /billing after login', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    await harness.page.goto('/subscriptions');
    expect(await waitForPath(harness.page, '/billing')).toBe('/billing');
  });

  test('/manage-servers goes to /dashboard', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    await harness.page.goto('/manage-servers');
    expect(await waitForPath(harness.page, '/dashboard')).toBe('/dashboard');
    await harness.page.getByText(DEMO_GUILDS.avasArcade.name).first().waitFor();
  });

  test('/docs sends the browser to the external documentation site', async () => {
    const config = (await (await fetch(`${harness.baseURL}/config.json`)).json()) as { docsUrl: string };
    const docs = new URL(config.docsUrl);
    expect(docs.origin).not.toBe(new URL(harness.baseURL).origin);
    // No network here: answer the external site ourselves and record that the browser went there.
    const visited: string[] = [];
    await harness.context.route(`${docs.origin}/**`, (route) => {
      visited.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Docs</title><h1>Docs</h1>' });
    });
    await harness.page.goto('/docs');
    await harness.page.waitForURL((u) => u.origin === docs.origin);
    expect(new URL(harness.page.url()).origin).toBe(docs.origin);
    expect(visited.length).toBeGreaterThan(0);
  });

  test('/dashboard/server-id/statistics#x goes to /dashboard?page=statistics#x', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    await harness.page.goto('/dashboard/server-id/statistics#x');
    expect(await waitForPath(harness.page, '/dashboard?page=statistics#x')).toBe('/dashboard?page=statistics#x');
  });

  test('/dashboard/<id> goes to /dashboard/<id>/configs', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    const id = DEMO_GUILDS.avasArcade.id;
    await harness.page.goto(`/dashboard/${id}`);
    expect(await waitForPath(harness.page, `/dashboard/${id}/configs`)).toBe(`/dashboard/${id}/configs`);
  });
});
