import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shot, useBrowser } from '../src/browser';
import { main, retryButton } from '../src/pages';
import { deploySite, type RunningServer, startServer } from '../src/server';
import { DEMO_GUILDS, signInContext } from '../src/session';

/**
 * A deployment where the billing remote's bundle is gone: every app deployed into a temporary site,
 * then billing's files deleted (config.json still lists billing and its routes, so /billing is a
 * page whose remote fails), served by its own all-in-one server.
 */
let server: RunningServer | undefined;
let staticRoot = '';
const b = useBrowser({ baseURL: () => server!.url });

beforeAll(async () => {
  staticRoot = mkdtempSync(join(tmpdir(), 'tickety-e2e-site-'));
  deploySite(staticRoot);
  rmSync(join(staticRoot, 'remotes', 'billing'), { recursive: true, force: true });
  server = await startServer({ staticRoot });
});

afterAll(async () => {
  await server?.stop();
  if (staticRoot) rmSync(staticRoot, { recursive: true, force: true });
});

describe('a missing remote bundle', () => {
  test('/billing shows the error overlay with Retry', async () => {
    await signInContext(b.context, b.baseURL, 'ava');
    const failed = b.page.waitForResponse((r) => r.url().includes('/remotes/billing/') && !r.ok());
    await b.page.goto('/billing');
    expect((await failed).status()).toBe(404);
    await retryButton(b.page).waitFor();
    await b.page.getByText(/failed|could not be loaded|went wrong/i).first().waitFor();
    await shot(b.page, 'billing-remote-missing');
    // Retry tries again (and fails again: the files are still gone), the overlay comes back.
    const again = b.page.waitForRequest((r) => r.url().includes('/remotes/billing/'));
    await retryButton(b.page).click();
    await again;
    await retryButton(b.page).waitFor();
  });

  test('/ and /dashboard still work', async () => {
    await signInContext(b.context, b.baseURL, 'ava');
    await b.page.goto('/');
    await main(b.page).getByRole('heading').first().waitFor();
    expect(await retryButton(b.page).count()).toBe(0);
    await b.page.goto('/dashboard');
    await main(b.page).getByText(DEMO_GUILDS.avasArcade.name).first().waitFor();
    expect(await retryButton(b.page).count()).toBe(0);
    expect(b.requests.some((u) => u.includes('/remotes/billing/'))).toBe(false);
  });
});
