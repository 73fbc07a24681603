import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { shot, titleOf, useBrowser } from '../src/browser';
import { loginRequired, main } from '../src/pages';
import { DEMO_GUILDS, signInContext } from '../src/session';

const harness = useBrowser();

/** The group (a section with a heading) on Manage Servers whose heading matches. */
function group(page: Page, heading: RegExp): Locator {
  return main(page).locator('section').filter({ has: page.getByRole('heading', { name: heading }) });
}
const ADDED = /added|with (the )?bot|your servers|manage/i;
const NOT_ADDED = /not added|without (the )?bot|invite/i;

async function openDashboard(user: 'ava' | 'ben' | 'cleo') {
  await signInContext(harness.context, harness.baseURL, user);
  await harness.page.goto('/dashboard');
  expect(await titleOf(harness.page, 'Tickety - Manage Servers')).toBe('Tickety - Manage Servers');
}

describe('Manage Servers', () => {
  test('Ava: her servers split into bot added and not added', async () => {
    await openDashboard('ava');
    const notAdded = group(harness.page, NOT_ADDED);
    const added = group(harness.page, ADDED).filter({ hasNot: harness.page.getByRole('heading', { name: /not added|without/i }) });
    await added.getByText(DEMO_GUILDS.avasArcade.name).waitFor();
    await shot(harness.page, 'manage-servers-ava');
    // Owner of Arcade and Pixel Pals, MANAGE_GUILD on Retro Modders (all with the bot); admin of Study Hall (no bot).
    for (const g of [DEMO_GUILDS.avasArcade, DEMO_GUILDS.pixelPals, DEMO_GUILDS.modGuild]) {
      expect(await added.getByText(g.name, { exact: true }).count(), g.name).toBeGreaterThan(0);
      expect(await notAdded.getByText(g.name, { exact: true }).count(), g.name).toBe(0);
    }
    expect(await notAdded.getByText(DEMO_GUILDS.studyHall.name, { exact: true }).count()).toBeGreaterThan(0);
    expect(await added.getByText(DEMO_GUILDS.studyHall.name, { exact: true }).count()).toBe(0);
    // A plain member of Cozy Corner: not hers to manage.
    expect(await main(harness.page).getByText(DEMO_GUILDS.cozyCorner.name).count()).toBe(0);
    // A bot-added server opens its dashboard.
    const open = added.getByRole('link').filter({ hasText: DEMO_GUILDS.avasArcade.name }).first();
    const href = (await open.count()) ? await open.getAttribute('href') : await added.locator(`a[href*="${DEMO_GUILDS.avasArcade.id}"]`).first().getAttribute('href');
    expect(href).toContain(`/dashboard/${DEMO_GUILDS.avasArcade.id}`);
  });

  test('Ben: his server is under not added, with an Invite link for that server', async () => {
    await openDashboard('ben');
    const notAdded = group(harness.page, NOT_ADDED);
    await notAdded.getByText(DEMO_GUILDS.bensWorkshop.name, { exact: true }).waitFor();
    const invite = notAdded.getByRole('link', { name: /invite/i }).first();
    const href = await invite.getAttribute('href');
    expect(href).toBeTruthy();
    const url = new URL(href!, harness.baseURL);
    expect(url.searchParams.get('guild_id')).toBe(DEMO_GUILDS.bensWorkshop.id);
    // Only a member of Ava's Arcade: not listed.
    expect(await main(harness.page).getByText(DEMO_GUILDS.avasArcade.name).count()).toBe(0);
    await shot(harness.page, 'manage-servers-ben');
  });

  test('Cleo: a helpful empty state, not a login prompt', async () => {
    await openDashboard('cleo');
    const empty = main(harness.page).getByText(/no servers|don.t manage|manage none|nothing to manage/i).first();
    await empty.waitFor();
    expect(await loginRequired(harness.page).count()).toBe(0);
    expect(await harness.page.getByRole('button', { name: /login with discord/i }).count()).toBe(0);
    for (const g of [DEMO_GUILDS.pixelPals, DEMO_GUILDS.cozyCorner]) {
      expect(await main(harness.page).getByText(g.name).count(), g.name).toBe(0);
    }
    // The empty state offers a way forward (invite the bot / learn more), not a dead end.
    expect(await main(harness.page).getByRole('link').count()).toBeGreaterThan(0);
    await shot(harness.page, 'manage-servers-cleo');
  });
});
