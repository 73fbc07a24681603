import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shot, titleOf, useBrowser } from '../src/browser';
import { main } from '../src/pages';
import { type RunningServer, startServer } from '../src/server';
import { DEMO_GUILDS, signInContext } from '../src/session';

/** Its own server: adding the bot changes the sandbox's demo state, which other files rely on. */
let server: RunningServer | undefined;
const harness = useBrowser({ baseURL: () => server!.url });

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('inviting the bot, end to end', () => {
  test('Ben adds the bot to his server, refreshes, and opens its dashboard', async () => {
    await signInContext(harness.context, harness.baseURL, 'ben');
    await harness.page.goto('/dashboard');
    const workshop = DEMO_GUILDS.bensWorkshop;
    const notAdded = main(harness.page).locator('section').filter({ has: harness.page.getByRole('heading', { name: /not added/i }) });
    await notAdded.getByText(workshop.name, { exact: true }).waitFor();

    // The invite opens Discord (the sandbox) in a new tab, with the server chosen.
    const tab = harness.context.waitForEvent('page');
    await notAdded.getByRole('link', { name: /invite/i }).first().click();
    const discord = await tab;
    await discord.getByRole('button', { name: `Add to ${workshop.name}` }).click();
    await discord.waitForLoadState();
    await discord.close();

    // Back on Manage Servers: Refresh moves the server to "Bot added".
    await harness.page.getByRole('button', { name: /refresh/i }).first().click();
    const added = main(harness.page).locator('section').filter({ has: harness.page.getByRole('heading', { name: /bot added/i }) });
    const link = added.getByRole('link').filter({ hasText: workshop.name }).first();
    await link.waitFor();
    await shot(harness.page, 'manage-servers-ben-after-invite');
    await link.click();
    expect(await titleOf(harness.page, 'Tickety - Panel Menu')).toBe('Tickety - Panel Menu');
    await main(harness.page).getByRole('heading', { name: 'Panel Menu' }).waitFor();
    expect(new URL(harness.page.url()).pathname).toBe(`/dashboard/${workshop.id}/configs`);
  });
});
