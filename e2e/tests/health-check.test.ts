import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shot, useBrowser } from '../src/browser';
import { main, waitForPath } from '../src/pages';
import { type RunningServer, startServer } from '../src/server';
import { DEMO_GUILDS, signInContext } from '../src/session';

/**
 * The configuration health check: the demo's Ava's Arcade has two problems (a role deleted in Discord
 * still among the purchases panel's support roles, a log channel the bot cannot see). Its own server:
 * fixing one changes the demo configuration other files read.
 */
let server: RunningServer | undefined;
const harness = useBrowser({ baseURL: () => server!.url });

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const ARCADE = DEMO_GUILDS.avasArcade;
const DELETED_ROLE = '1400000000000001006';

/** The count on the Panel Menu's sidebar entry. */
const badge = () => harness.page.getByRole('navigation', { name: 'Server' }).getByRole('link', { name: /Panel Menu/ }).locator('[data-sidebar-badge]');

describe('configuration health check, end to end', () => {
  test('the demo server shows its two problems in the sidebar and the Panel Menu; a link opens the setting; fixing one leaves one', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');

    // Any server page sets the count on the Panel Menu's entry.
    await harness.page.goto(`/dashboard/${ARCADE.id}/statistics`);
    await badge().waitFor();
    expect(await badge().getAttribute('title')).toBe('2 configuration problems');
    expect((await badge().locator('[aria-hidden="true"]').innerText()).trim()).toBe('2');

    // The Panel Menu's summary opens into the list, each problem with its setting and a link to it.
    await harness.page.goto(`/dashboard/${ARCADE.id}/configs`);
    await main(harness.page).getByText('2 configuration problems').waitFor();
    const show = main(harness.page).getByRole('button', { name: 'Show', exact: true });
    await show.focus();
    await harness.page.keyboard.press('Enter');
    const list = main(harness.page).getByRole('list').filter({ hasText: 'General settings: log channel' });
    await list.waitFor();
    expect(await list.getByRole('listitem').count()).toBe(2);
    await list.getByText("The bot can't post in #mod-log: it lacks View Channel and Send Messages.").waitFor();
    await list.getByText(`Role ${DELETED_ROLE} was deleted in Discord but is still named here.`).waitFor();
    await shot(harness.page, 'health-check-list');

    // The link opens the purchases panel's editor (reached with the keyboard).
    const fix = list.getByRole('link', { name: 'Open the setting: Panel “Purchases & refunds”: support roles' });
    await fix.focus();
    await harness.page.keyboard.press('Enter');
    expect(await waitForPath(harness.page, `/dashboard/${ARCADE.id}/configs?edit=panel&id=purchases`)).toBe(`/dashboard/${ARCADE.id}/configs?edit=panel&id=purchases`);

    // Take the deleted role out and save: one problem is left.
    const remove = harness.page.getByRole('button', { name: `Remove Role ${DELETED_ROLE} (no longer on the server)` });
    await remove.waitFor({ timeout: 20_000 });
    await remove.click();
    await harness.page.getByRole('button', { name: 'Save', exact: true }).click();
    await harness.page.getByText(/Saved: this is version \d+ of the configuration\./).waitFor();
    await harness.page.waitForFunction(() => document.querySelector('[data-sidebar-badge]')?.getAttribute('title') === '1 configuration problem');
    expect((await badge().locator('[aria-hidden="true"]').innerText()).trim()).toBe('1');
    await shot(harness.page, 'health-check-one-left');

    await harness.page.getByRole('link', { name: 'Back to the panels' }).click();
    await main(harness.page).getByText('1 configuration problem', { exact: true }).waitFor();
  });
});
