import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { VISITOR_ROOT } from '../src/announcements';
import { shot, useBrowser } from '../src/browser';
import { main } from '../src/pages';
import { type RunningServer, startServer } from '../src/server';
import { signInContext } from '../src/session';

/**
 * Sam publishes a maintenance notice and a visitor sees the banner on `/`. A visitor's `/` arrives
 * prerendered and the app starts at their first interaction; with a notice to show, the boot script
 * starts it on its own once the page has loaded and the browser is idle (docs/architecture.md,
 * "Announcements on a prerendered page"). The demo seed has an active "welcome" notice of its own, for signed-in users:
 * a visitor never sees it, and without this test's notice their prerendered page stays as it is.
 * Its own server: the notice it publishes is seen by every visitor of that server.
 */
let server: RunningServer | undefined;
const harness = useBrowser({ baseURL: () => server!.url });

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const TEXT = 'Planned maintenance on **Sunday** from 02:00 to 03:00 UTC: the dashboard is read-only meanwhile.';
/** How the banner shows the text (the markdown rendered). */
const SHOWN = 'Planned maintenance on Sunday from 02:00 to 03:00 UTC';
const WELCOME = 'Welcome to the Tickety demo';

/** The id of the notice Sam published (the page says "Announcement #<id> published"). */
let published: string | undefined;

const banner = (page: Page) => page.getByRole('region', { name: 'Announcements' });
const ours = (page: Page) => banner(page).getByRole('listitem').filter({ hasText: SHOWN });

/** Opens `/` as a visitor, with no notice for them: the page names the notices, nothing is read, and it stays prerendered. */
async function openHomeWithoutNotice(page: Page) {
  const reads: string[] = [];
  const onRequest = (request: { url: () => string }) => {
    if (/\/config\.json|\/api\/announcements/.test(request.url())) reads.push(request.url());
  };
  page.on('request', onRequest);
  try {
    const res = await page.goto('/');
    const html = (await res?.text()) ?? '';
    expect(html).toMatch(VISITOR_ROOT);
    await page.waitForTimeout(1_500);
    expect(reads).toEqual([]);
  } finally {
    page.off('request', onRequest);
  }
  expect(await page.locator('[data-prerendered]').count()).toBe(1);
  expect(await banner(page).count()).toBe(0);
}

/** Opens `/` as a visitor and waits for the banner without touching the page. */
async function openHome(page: Page) {
  const res = await page.goto('/');
  // The page arrived prerendered (the app is not in it), naming the notice.
  const html = (await res?.text()) ?? '';
  expect(html).toMatch(VISITOR_ROOT);
  expect(html.match(VISITOR_ROOT)?.[0]).toContain(`${published}:1`);
  await banner(page).getByRole('listitem').first().waitFor({ timeout: 20_000 });
  // Nobody reached for the page: it was the boot script that started the app.
  expect(await page.evaluate(() => (window as { __tickety?: { pressed: unknown[] } }).__tickety?.pressed.length)).toBe(0);
}

describe('announcements', () => {
  test('Sam publishes a maintenance notice through the System Update form', async () => {
    await signInContext(harness.context, harness.baseURL, 'sam');
    await harness.page.goto('/systemUpdate');
    await main(harness.page).getByRole('button', { name: 'New announcement' }).click();
    const form = main(harness.page).getByRole('form', { name: 'New announcement' });
    await form.getByRole('radio', { name: /Maintenance/ }).check();
    await form.getByRole('textbox', { name: 'Text' }).fill(TEXT);
    expect(await form.getByRole('combobox', { name: 'Audience' }).inputValue()).toBe('everyone');
    await form.getByRole('button', { name: 'Publish' }).click();
    const done = main(harness.page).getByText(/Announcement #\d+ published/);
    await done.waitFor();
    published = (await done.textContent())?.match(/#(\d+)/)?.[1];
    expect(published).toBeTruthy();
    const row = main(harness.page).getByRole('row').filter({ hasText: SHOWN });
    await row.getByText('Active', { exact: true }).waitFor();
    await shot(harness.page, 'announcements-published');
  });

  test('a visitor sees the banner on / without any interaction, dismisses it, and it stays dismissed', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await harness.page.emulateMedia({ colorScheme: scheme });
      await openHome(harness.page);
      const notice = ours(harness.page);
      await notice.waitFor();
      await notice.getByText('Maintenance', { exact: true }).waitFor();
      expect(await harness.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');
      await harness.page.waitForTimeout(400); // the banner's slide-in
      await shot(harness.page, `announcements-banner-${scheme}`);
    }

    await ours(harness.page)
      .getByRole('button', { name: /^Dismiss the announcement: Planned maintenance/ })
      .click();
    await ours(harness.page).waitFor({ state: 'detached' });
    expect(await harness.page.evaluate(() => localStorage.getItem('tickety-dismissed-announcements'))).toContain(`"${published}:1"`);

    // Reloaded: dismissed in this browser, it does not come back, and with nothing else for a
    // visitor the page stays prerendered (no app started).
    await openHomeWithoutNotice(harness.page);
  });

  test('Sam withdraws it: a visitor no longer sees it', async () => {
    expect(published).toBeTruthy();
    await signInContext(harness.context, harness.baseURL, 'sam');
    await harness.page.goto('/systemUpdate');
    await main(harness.page).getByRole('button', { name: `Withdraw announcement #${published}` }).click();
    const dialog = harness.page.getByRole('alertdialog', { name: 'Withdraw this announcement?' });
    await dialog.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await main(harness.page).getByText(`Announcement #${published} withdrawn`).waitFor();
    await main(harness.page).getByRole('row').filter({ hasText: SHOWN }).getByText('Withdrawn', { exact: true }).waitFor();

    const visitor = await harness.browser.newContext({ baseURL: harness.baseURL, viewport: { width: 1280, height: 800 } });
    try {
      const page = await visitor.newPage();
      await openHomeWithoutNotice(page);
    } finally {
      await visitor.close();
    }
    // The demo's welcome is for signed-in users: Ava sees it on her dashboard, and not the withdrawn one.
    const ava = await harness.browser.newContext({ baseURL: harness.baseURL, viewport: { width: 1280, height: 800 } });
    try {
      await signInContext(ava, harness.baseURL, 'ava');
      const page = await ava.newPage();
      await page.goto('/dashboard');
      await banner(page).getByText(WELCOME).waitFor({ timeout: 20_000 });
      expect(await ours(page).count()).toBe(0);
    } finally {
      await ava.close();
    }
  });
});
