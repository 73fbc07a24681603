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
const harness = useBrowser({ baseURL: () => server!.url });

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
    await signInContext(harness.context, harness.baseURL, 'ava');
    const failed = harness.page.waitForResponse((r) => r.url().includes('/remotes/billing/') && !r.ok());
    await harness.page.goto('/billing');
    expect((await failed).status()).toBe(404);
    await retryButton(harness.page).waitFor();
    await harness.page.getByText(/failed|could not be loaded|went wrong/i).first().waitFor();
    await shot(harness.page, 'billing-remote-missing');
    // Retry tries again (and fails again: the files are still gone), the overlay comes back.
    const again = harness.page.waitForRequest((r) => r.url().includes('/remotes/billing/'));
    await retryButton(harness.page).click();
    await again;
    await retryButton(harness.page).waitFor();
  });

  test('/ and /dashboard still work', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    await harness.page.goto('/');
    await main(harness.page).getByRole('heading').first().waitFor();
    expect(await retryButton(harness.page).count()).toBe(0);
    await harness.page.goto('/dashboard');
    await main(harness.page).getByText(DEMO_GUILDS.avasArcade.name).first().waitFor();
    expect(await retryButton(harness.page).count()).toBe(0);
    expect(harness.requests.some((u) => u.includes('/remotes/billing/'))).toBe(false);
  });
});
