import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { accessibilityProblems } from '../src/a11y';
import { shot, titleOf, useBrowser } from '../src/browser';
import { loginRequired, main, waitForPath } from '../src/pages';
import { type RunningServer, startServer } from '../src/server';
import { DEMO_GUILDS, DEMO_USERS, type DemoUserKey, signInContext } from '../src/session';

/**
 * The staff tools, as people do them in demo mode: Sam (a staff owner) adds Ben to the
 * staff with DASHBOARD_SUPPORT_SEARCH_READ; Ben finds Ava by a partial name and opens Ava's Arcade
 * read-only; Sam takes the flag back and Ben is refused at once; Sam triggers every overlay state on
 * /test, and reads System and System Update. The tests run in order on a server of their own: each
 * team change is the starting point of the next test.
 */
let server: RunningServer | undefined;
const harness = useBrowser({ baseURL: () => server!.url });

beforeAll(async () => {
  server = await startServer({ env: { DEMO_BOT: 'off' } });
});
afterAll(async () => {
  await server?.stop();
});

const BEN = DEMO_USERS.ben;
const ARCADE = DEMO_GUILDS.avasArcade;
const FLAG = 'DASHBOARD_SUPPORT_SEARCH_READ';

/** A page driven in a context of its own: checked with axe here (the harness checks only its own page). */
async function expectAccessible(page: Page): Promise<void> {
  expect(await accessibilityProblems(page)).toEqual([]);
}

/** Another signed-in person, in a browser context of their own (the caller closes it). */
async function person(user: DemoUserKey): Promise<{ context: BrowserContext; page: Page }> {
  const context = await harness.browser.newContext({ baseURL: harness.baseURL, viewport: { width: 1280, height: 800 } });
  await signInContext(context, harness.baseURL, user);
  return { context, page: await context.newPage() };
}

/** A staff member's card in the team manager's list (the list item with their name as its heading). */
function memberCard(page: Page, name: string): Locator {
  return main(page)
    .getByRole('list', { name: 'Staff members' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name, exact: true }) });
}

/** The staff audit log's table. */
function auditTable(page: Page): Locator {
  return main(page).getByRole('table', { name: 'Staff audit log, newest first' });
}

/** The shell's error overlay, by its title. */
function overlay(page: Page, title: string): Locator {
  return page.getByRole('alertdialog', { name: title });
}

/** The shell's loading overlay ("Loading…" once a request has waited OVERLAY.loadingDelayMs). */
function loadingOverlay(page: Page): Locator {
  return page.getByRole('status').filter({ hasText: /^Loading…$/ });
}

/**
 * A screenshot of the page as it has settled: scrolled to the top (a full-page capture of a scrolled
 * page draws the sticky header half-way down) and with no transition running (a theme switch fades
 * colours for a moment).
 */
async function snap(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY));
  await shot(page, name);
}

/** Switches the page to the dark (or light) scheme through the system preference and waits for it. */
async function scheme(page: Page, dark: boolean): Promise<void> {
  await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
  await page.waitForFunction((d) => document.documentElement.classList.contains('dark') === d, dark);
}

describe('staff tools', () => {
  test('Sam adds Ben by his Discord id with Support search: looked up, confirmed, listed with the flag, and in the audit log', async () => {
    const sam = await person('sam');
    try {
      const page = sam.page;
      await page.goto('/team-manager');
      expect(await titleOf(page, 'Tickety - Team Manager')).toBe('Tickety - Team Manager');
      await memberCard(page, 'Sam').waitFor();
      await auditTable(page).waitFor();
      // Ben is not on the staff yet.
      expect(await memberCard(page, 'Ben').count()).toBe(0);
      await snap(page, 'staff-team-manager');

      await main(page).getByLabel('Discord user id').fill(BEN.id);
      await main(page).getByRole('button', { name: 'Look up' }).click();
      // The page looks him up and shows who he is before anything can be granted.
      const found = main(page).getByRole('region', { name: 'The user found' });
      await found.waitFor();
      await found.getByText('Ben', { exact: true }).waitFor();
      expect(await found.getByText(BEN.id).isVisible()).toBe(true);
      const add = main(page).getByRole('button', { name: 'Add Ben…' });
      expect(await add.isDisabled()).toBe(true);
      await main(page).getByRole('group', { name: 'Flags to grant Ben' }).getByRole('checkbox', { name: new RegExp(FLAG) }).check();
      await snap(page, 'staff-team-manager-add-lookup');
      await add.click();

      const confirm = page.getByRole('alertdialog', { name: 'Add Ben to the staff?' });
      await confirm.waitFor();
      expect(await confirm.getByText(FLAG).isVisible()).toBe(true);
      await snap(page, 'staff-team-manager-add-confirm');
      await confirm.getByRole('button', { name: 'Add', exact: true }).click();
      await confirm.waitFor({ state: 'hidden' });
      await main(page).getByText('Ben was added with 1 flag.').waitFor();

      // The list shows Ben with exactly that flag, granted by Sam.
      const ben = memberCard(page, 'Ben');
      await ben.waitFor();
      const benFlags = ben.getByRole('list', { name: 'Flags of Ben' });
      expect(await benFlags.getByRole('listitem').count()).toBe(1);
      expect(await benFlags.getByText(FLAG, { exact: true }).isVisible()).toBe(true);
      expect(await benFlags.getByText(/Granted by Sam on/).isVisible()).toBe(true);

      // The audit log has the change: Sam added Ben, granting Support search.
      const row = auditTable(page).getByRole('row').filter({ hasText: 'Added a member' }).filter({ hasText: BEN.id }).first();
      await row.waitFor();
      expect(await row.getByRole('cell').nth(1).textContent()).toContain('Sam');
      expect(await row.textContent()).toContain('Granted: Support search');
      await snap(page, 'staff-team-manager-ben-added');

      await scheme(page, true);
      await snap(page, 'staff-team-manager-ben-added-dark');
      await expectAccessible(page);
    } finally {
      await sam.context.close();
    }
  });

  test('Ben finds Ava by a partial name, opens her card, then Ava’s Arcade’s, then its dashboard read-only: nothing can be saved', async () => {
    await signInContext(harness.context, harness.baseURL, 'ben');
    await harness.page.goto('/support-team');
    expect(await titleOf(harness.page, 'Tickety - Support Team')).toBe('Tickety - Support Team');
    const box = main(harness.page).getByRole('combobox', { name: 'Search users and servers' });
    await box.click();
    await box.pressSequentially('av', { delay: 80 });
    const results = main(harness.page).getByRole('listbox', { name: 'Results' });
    const ava = results.getByRole('option').filter({ hasText: '@ava ·' });
    const arcade = results.getByRole('option').filter({ hasText: ARCADE.name });
    await ava.waitFor();
    await arcade.waitFor();
    expect(await waitForPath(harness.page, /[?&]q=av(&|$)/)).toMatch(/q=av/);
    await snap(harness.page, 'staff-support-search-results');

    // Ava's card: the servers she manages, Ava's Arcade among them.
    await ava.click();
    await waitForPath(harness.page, new RegExp(`[?&]user=${DEMO_USERS.ava.id}`));
    await main(harness.page).getByRole('heading', { level: 2, name: 'Ava', exact: true }).waitFor();
    await main(harness.page).getByRole('heading', { name: 'Servers they manage' }).waitFor();
    await snap(harness.page, 'staff-support-user-card');
    await main(harness.page).getByRole('link', { name: ARCADE.name, exact: true }).first().click();

    // Ava's Arcade's card, with the way to its dashboard.
    await waitForPath(harness.page, new RegExp(`[?&]server=${ARCADE.id}`));
    await main(harness.page).getByRole('heading', { level: 2, name: ARCADE.name, exact: true }).waitFor();
    await main(harness.page).getByText('It opens read-only for staff: nothing can be saved.').waitFor();
    await snap(harness.page, 'staff-support-server-card');
    await scheme(harness.page, true);
    await snap(harness.page, 'staff-support-server-card-dark');
    await scheme(harness.page, false);
    await main(harness.page).getByRole('link', { name: 'Open the server dashboard' }).click();

    // The server's own dashboard, read-only, with the staff banner.
    expect(await waitForPath(harness.page, `/dashboard/${ARCADE.id}/configs`)).toBe(`/dashboard/${ARCADE.id}/configs`);
    await main(harness.page).getByText('Viewing as staff, read-only').waitFor();
    await main(harness.page).getByText(`You see ${ARCADE.name} through your staff access`).waitFor();
    await main(harness.page).getByText('You are viewing as staff: read-only.').first().waitFor();
    await main(harness.page).getByRole('heading', { name: 'Panels', exact: true }).waitFor();
    await snap(harness.page, 'staff-read-server-panels');

    // Creating a panel is off (a focusable button that says why and does nothing).
    const create = main(harness.page).getByRole('button', { name: 'Create panel' });
    expect(await create.getAttribute('aria-disabled')).toBe('true');
    await create.press('Enter');
    expect(await waitForPath(harness.page, `/dashboard/${ARCADE.id}/configs`, 2_000)).toBe(`/dashboard/${ARCADE.id}/configs`);

    // A panel opens read-only: every field off and no Save at all.
    await main(harness.page).getByRole('link', { name: /^View/ }).first().click();
    const name = main(harness.page).getByRole('textbox', { name: /Panel name/ });
    await name.waitFor();
    expect(await name.isDisabled()).toBe(true);
    await main(harness.page).getByText('You are viewing as staff: read-only.').first().waitFor();
    expect(await main(harness.page).getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    await snap(harness.page, 'staff-read-panel-editor');

    // What Save would send, sent by hand from Ben's session: the API refuses it too.
    const refused = await harness.page.evaluate(async (id) => {
      const headers = { 'x-requested-with': 'tickety' };
      const current = (await (await fetch(`/api/guilds/${id}/config`, { credentials: 'include', headers })).json()) as { version: number; config: unknown };
      const res = await fetch(`/api/guilds/${id}/config`, {
        method: 'PUT',
        credentials: 'include',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ expectedVersion: current.version, config: current.config }),
      });
      return res.status;
    }, ARCADE.id);
    expect(refused).toBe(403);
  });

  test('Sam takes Ben’s flag back: Ben’s next request for Support Team, and for Ava’s Arcade, is refused', async () => {
    // Ben, on the staff, with Support Team open in this session.
    await signInContext(harness.context, harness.baseURL, 'ben');
    await harness.page.goto('/support-team');
    await main(harness.page).getByRole('combobox', { name: 'Search users and servers' }).waitFor();
    await harness.page.getByRole('banner').getByRole('link', { name: 'Servers' }).click();
    await waitForPath(harness.page, '/dashboard');

    // Sam, in his own browser, takes Ben's only flag (a member holds at least one: he removes Ben).
    const sam = await person('sam');
    try {
      const page = sam.page;
      await page.goto('/team-manager');
      const ben = memberCard(page, 'Ben');
      await ben.waitFor();
      await ben.getByRole('button', { name: 'Remove Ben from the staff' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Remove Ben from the staff?' });
      await confirm.waitFor();
      expect(await confirm.getByText('Revokes').isVisible()).toBe(true);
      expect(await confirm.getByText(FLAG).isVisible()).toBe(true);
      await snap(page, 'staff-team-manager-remove-confirm');
      await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
      await confirm.waitFor({ state: 'hidden' });
      await main(page).getByText('Ben was removed from the staff.').waitFor();
      await memberCard(page, 'Ben').waitFor({ state: 'detached' });
      const row = auditTable(page).getByRole('row').filter({ hasText: 'Removed a member' }).filter({ hasText: BEN.id }).first();
      await row.waitFor();
      expect(await row.textContent()).toContain('Revoked: Support search');
      await snap(page, 'staff-team-manager-ben-removed');
    } finally {
      await sam.context.close();
    }

    // Ben's next navigation to Support Team: the guard refuses it, naming the flag.
    await harness.page.goto('/support-team');
    await main(harness.page).getByRole('heading', { name: "You don't have permission to view this page" }).waitFor();
    expect(await main(harness.page).getByText(new RegExp(`holding the permission ${FLAG}`)).isVisible()).toBe(true);
    expect(await main(harness.page).getByRole('combobox').count()).toBe(0);
    await snap(harness.page, 'staff-ben-support-team-refused');

    // Ava's Arcade's dashboard again: no staff read any more, the no-access overlay.
    await harness.page.goto(`/dashboard/${ARCADE.id}`);
    const refused = overlay(harness.page, "You don't have access to this server.");
    await refused.waitFor();
    expect(await refused.getByRole('button', { name: 'Select Another Server' }).isVisible()).toBe(true);
    expect(await harness.page.getByText('Viewing as staff, read-only').count()).toBe(0);
    await snap(harness.page, 'staff-ben-arcade-refused');
  });

  test('Ben, already in the app when the flag goes, is refused at his next navigation to a staff page (fresh flags), not only by the API', async () => {
    // Ben gets the flag back (Sam, through the API as the page does it), opens Support Team, and keeps the page.
    const sam = await person('sam');
    try {
      await sam.page.goto('/team-manager');
      const status = await sam.page.evaluate(async (user) => {
        const res = await fetch(`/api/staff/team/${user}`, {
          method: 'PUT',
          credentials: 'include',
          headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety' },
          body: JSON.stringify({ permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] }),
        });
        return res.status;
      }, BEN.id);
      expect(status).toBe(200);

      await signInContext(harness.context, harness.baseURL, 'ben');
      await harness.page.goto('/dashboard');
      await harness.page.getByRole('banner').getByRole('link', { name: 'Support Team' }).waitFor();

      const removed = await sam.page.evaluate(async (user) => {
        const res = await fetch(`/api/staff/team/${user}`, {
          method: 'DELETE',
          credentials: 'include',
          headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety' },
          body: '{}',
        });
        return res.status;
      }, BEN.id);
      expect(removed).toBeLessThan(300);
    } finally {
      await sam.context.close();
    }

    // In-app navigation (no reload): the guard reloads the user for a staff page and refuses it.
    await harness.page.getByRole('banner').getByRole('link', { name: 'Support Team' }).click();
    await waitForPath(harness.page, '/support-team');
    await main(harness.page).getByRole('heading', { name: "You don't have permission to view this page" }).waitFor();
    expect(await main(harness.page).getByRole('combobox', { name: 'Search users and servers' }).count()).toBe(0);
    // The header follows the fresh flags.
    await harness.page.getByRole('banner').getByRole('link', { name: 'Support Team' }).waitFor({ state: 'detached' });
    await snap(harness.page, 'staff-ben-client-nav-after-revoke');
  });

  test('Sam triggers every overlay state on /test, and the last result reports each', async () => {
    const sam = await person('sam');
    try {
    const page = sam.page;
    await page.goto('/test');
    expect(await titleOf(page, 'Tickety - Test')).toBe('Tickety - Test');
    const mainRegion = main(page);
    const last = mainRegion.getByRole('region', { name: 'Last result' });
    const outcome = last.getByRole('status');
    await outcome.getByText('Nothing triggered yet.').waitFor();
    // The catalogue's codes (read from the API) are in.
    const busy = mainRegion.getByRole('button', { name: '1011 HTTP 503: answer OVERLOADED' });
    await busy.waitFor();
    await snap(page, 'staff-test-playground');

    // 1. The loading overlay after its delay: a success after 1 s.
    await mainRegion.getByRole('button', { name: 'Success after 1 s' }).click();
    await loadingOverlay(page).waitFor();
    await shot(page, 'staff-test-loading-overlay');
    await outcome.getByText(/^Success after 1 s: answered successfully after [\d.]+ s\.$/).waitFor({ timeout: 15_000 });
    await loadingOverlay(page).waitFor({ state: 'hidden' });
    const shownAfter = await last.getByText(/^Shown after [\d.]+ s$/).textContent();
    expect(Number(/([\d.]+)/.exec(shownAfter ?? '')?.[1])).toBeGreaterThanOrEqual(0.25);
    expect(await last.getByText('None', { exact: true }).isVisible()).toBe(true);

    // 2. Login required: the overlay with 'Login with discord' (and Cancel, offered by the page's option).
    await mainRegion.getByRole('button', { name: 'Answer 401: login required' }).click();
    const login = overlay(page, 'Login Required');
    await login.waitFor();
    expect(await login.getByRole('button', { name: 'Login with discord' }).isVisible()).toBe(true);
    expect(await login.getByText('You need to log in with Discord to do this.').isVisible()).toBe(true);
    await snap(page, 'staff-test-login-required');
    await login.getByRole('button', { name: 'Cancel' }).click();
    await login.waitFor({ state: 'hidden' });
    await outcome.getByText(/^Answer 401: login required: ended after [\d.]+ s: /).waitFor();
    await last.getByRole('listitem').filter({ hasText: 'Login Required' }).waitFor();

    // 3. No access to a server (403): Home, Retry, Select Another Server.
    await mainRegion.getByRole('button', { name: '403 HTTP 403: answer NO_SERVER_ACCESS' }).click();
    const noAccess = overlay(page, "You don't have access to this server.");
    await noAccess.waitFor();
    for (const name of ['Retry', 'Home', 'Select Another Server', 'Cancel']) expect(await noAccess.getByRole('button', { name, exact: true }).isVisible()).toBe(true);
    await snap(page, 'staff-test-no-access');
    await noAccess.getByRole('button', { name: 'Cancel' }).click();
    await noAccess.waitFor({ state: 'hidden' });
    await outcome.getByText(/^403 HTTP 403: answer NO_SERVER_ACCESS: ended after [\d.]+ s: /).waitFor();
    await last.getByRole('listitem').filter({ hasText: "You don't have access to this server." }).waitFor();

    // 4. A catalogued error with Retry: 1011 (HTTP 503); Retry sends it again and it fails again.
    await busy.click();
    const failed = overlay(page, 'Request Failed');
    await failed.waitFor();
    expect(await failed.getByText('The service is busy right now. Try again in a few seconds.').isVisible()).toBe(true);
    expect(await failed.getByText('1011 - 503', { exact: true }).isVisible()).toBe(true);
    await snap(page, 'staff-test-request-failed');
    await failed.getByRole('button', { name: 'Retry' }).click();
    await last.getByRole('listitem').filter({ hasText: 'after retry 1' }).waitFor();
    await failed.waitFor();
    expect(await last.getByRole('listitem').filter({ hasText: 'Request Failed (1011 - 503)' }).count()).toBe(2);
    await failed.getByRole('button', { name: 'Cancel' }).click();
    await failed.waitFor({ state: 'hidden' });
    await outcome.getByText(/^1011 HTTP 503: answer OVERLOADED: ended after [\d.]+ s: /).waitFor();

    // 5. A short timeout: the client gives up after 5 s (the loading overlay meanwhile), then '408 - 0'.
    await mainRegion.getByRole('button', { name: 'Time out after 5 s (shortened for this request)' }).click();
    await loadingOverlay(page).waitFor();
    const timedOut = overlay(page, 'Request Failed');
    await timedOut.waitFor({ timeout: 20_000 });
    expect(await timedOut.getByText('Tickety did not answer within 5 seconds. Try again in a moment.').isVisible()).toBe(true);
    expect(await timedOut.getByText('408 - 0', { exact: true }).isVisible()).toBe(true);
    await snap(page, 'staff-test-timeout');
    await scheme(page, true);
    await snap(page, 'staff-test-timeout-dark');
    await scheme(page, false);
    await timedOut.getByRole('button', { name: 'Cancel' }).click();
    await timedOut.waitFor({ state: 'hidden' });
    await outcome.getByText(/^Time out after 5 s \(shortened for this request\): ended after [\d.]+ s: /).waitFor();
    await last.getByRole('listitem').filter({ hasText: 'Request Failed (408 - 0)' }).waitFor();

    // 6. A network failure: the API drops the connection, '0 - 0'.
    await mainRegion.getByRole('button', { name: 'Drop the connection' }).click();
    const dropped = overlay(page, 'Request Failed');
    await dropped.waitFor();
    expect(await dropped.getByText('Could not reach Tickety. Check your internet connection, then try again.').isVisible()).toBe(true);
    expect(await dropped.getByText('0 - 0', { exact: true }).isVisible()).toBe(true);
    await snap(page, 'staff-test-network');
    await dropped.getByRole('button', { name: 'Cancel' }).click();
    await dropped.waitFor({ state: 'hidden' });
    await outcome.getByText(/^Drop the connection: ended after [\d.]+ s: /).waitFor();
    await last.getByRole('listitem').filter({ hasText: 'Request Failed (0 - 0)' }).waitFor();

    // 7. A slow success: 5 s under the loading overlay, then answered, no error overlay.
    await mainRegion.getByRole('button', { name: 'Success after 5 s' }).click();
    await loadingOverlay(page).waitFor();
    await outcome.getByText(/^Success after 5 s: answered successfully after [\d.]+ s\.$/).waitFor({ timeout: 20_000 });
    await loadingOverlay(page).waitFor({ state: 'hidden' });
    expect(await overlay(page, 'Request Failed').count()).toBe(0);
    await last.getByText(/^Shown after [\d.]+ s$/).waitFor();
    await snap(page, 'staff-test-slow-success');
    await expectAccessible(page);
    } finally {
      await sam.context.close();
    }
  });

  test('Sam reads System (database reachable, the payment webhook queues) and System Update (the seeded announcements)', async () => {
    await signInContext(harness.context, harness.baseURL, 'sam');
    await harness.page.goto('/system');
    expect(await titleOf(harness.page, 'Tickety - System')).toBe('Tickety - System');
    const database = main(harness.page).getByRole('region', { name: 'Database' });
    await database.waitFor();
    await database.getByText('Reachable', { exact: true }).waitFor();
    expect(await database.getByText('PGlite (embedded)').isVisible()).toBe(true);
    const queues = main(harness.page).getByRole('list', { name: 'Queue of each provider' });
    await queues.waitFor();
    for (const provider of ['Paddle', 'FastSpring', 'Discord', 'Chargebee']) {
      expect(await queues.getByRole('heading', { name: provider, exact: true }).isVisible()).toBe(true);
    }
    await main(harness.page).getByRole('heading', { name: 'Dead letters', exact: true }).waitFor();
    await snap(harness.page, 'staff-system');
    await scheme(harness.page, true);
    await snap(harness.page, 'staff-system-dark');
    await scheme(harness.page, false);

    await harness.page.getByRole('banner').getByRole('link', { name: 'System Update' }).click();
    await waitForPath(harness.page, '/systemUpdate');
    expect(await titleOf(harness.page, 'Tickety - System Update')).toBe('Tickety - System Update');
    const list = main(harness.page).getByRole('table', { name: 'Announcements, newest first' });
    await list.waitFor();
    const row = (text: string) => list.getByRole('row').filter({ hasText: text });
    await row('Welcome to the').waitFor();
    expect(await row('Welcome to the').textContent()).toContain('Active');
    expect(await row('Planned maintenance').textContent()).toContain('Scheduled');
    expect(await row('Transcripts are slow to load').textContent()).toContain('Withdrawn');
    await snap(harness.page, 'staff-system-update');
  });

  test('Sam signs Ava out everywhere from her card: her open dashboard asks her to log in again', async () => {
    const ava = await person('ava');
    try {
      await ava.page.goto('/dashboard');
      await ava.page.getByRole('heading', { name: 'Manage Servers' }).waitFor();

      await signInContext(harness.context, harness.baseURL, 'sam');
      await harness.page.goto(`/support-team?user=${DEMO_USERS.ava.id}`);
      const sessions = main(harness.page).getByText(/^Signed in on \d+ devices? or browsers?\.$/);
      await sessions.waitFor();
      await main(harness.page).getByRole('button', { name: 'Sign out everywhere…' }).click();
      const dialog = harness.page.getByRole('alertdialog', { name: 'Sign Ava out everywhere?' });
      await dialog.waitFor();
      await snap(harness.page, 'staff-sign-out-everywhere');
      await dialog.getByRole('button', { name: 'Sign out everywhere', exact: true }).click();
      await main(harness.page).getByRole('status').filter({ hasText: /of Ava ended\./ }).waitFor();
      await main(harness.page).getByText('Signed in nowhere right now.').waitFor();
      expect(await main(harness.page).getByRole('button', { name: 'Sign out everywhere…' }).isDisabled()).toBe(true);

      // Ava's next page load finds her signed out.
      await ava.page.reload();
      await loginRequired(ava.page).waitFor();
      await expectAccessible(harness.page);
    } finally {
      await ava.context.close();
    }
  });
});
