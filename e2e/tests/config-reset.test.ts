import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shot, useBrowser } from '../src/browser';
import { main } from '../src/pages';
import { type RunningServer, startServer } from '../src/server';
import { DEMO_GUILDS, signInContext } from '../src/session';

/**
 * Reset to defaults (Restore Configs): Ava resets Ava's Arcade's configuration by typing its name,
 * sees the panels the seed posted listed as needing an update, then restores the version before.
 * Its own server: the flow changes the demo configuration other files read.
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

describe('reset to defaults, end to end', () => {
  test('Ava resets Ava’s Arcade’s configuration by typing its name, sees the posted panels needing an update, then restores the previous version', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    await harness.page.goto(`/dashboard/${ARCADE.id}/server-configs`);
    await main(harness.page).getByRole('heading', { name: 'Restore Configs' }).first().waitFor();
    const liveConfig = () =>
      harness.page.evaluate(
        async (id) => (await (await fetch(`/api/guilds/${id}/config`)).json()) as { version: number; config: { panels: Array<{ name: string }> } },
        ARCADE.id,
      );
    const before = await liveConfig();
    expect(before.config.panels.length).toBeGreaterThan(0);

    const section = main(harness.page).getByRole('region', { name: 'Reset to defaults' });
    await section.getByRole('button', { name: 'Reset to defaults…' }).click();
    const dialog = harness.page.getByRole('alertdialog', { name: `Reset ${ARCADE.name}’s configuration to the defaults?` });
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: 'Reset to defaults', exact: true });
    const field = dialog.getByRole('textbox', { name: 'Type the server’s name to confirm' });
    await field.fill(ARCADE.name.toLowerCase());
    expect(await confirm.isDisabled()).toBe(true);
    await field.fill(ARCADE.name);
    expect(await confirm.isEnabled()).toBe(true);
    await shot(harness.page, 'restore-configs-reset-dialog');
    await confirm.click();

    await main(harness.page).getByText(`The configuration was reset to the defaults as version ${before.version + 1}. Restore version ${before.version} to go back.`).waitFor();
    const posts = main(harness.page).getByRole('list', { name: 'Posted panels needing an update' });
    await posts.getByText('Panel “General support”').waitFor();
    await posts.getByText('Multi-panel “Help desk”').waitFor();
    expect(await main(harness.page).getByRole('link', { name: 'Panel Menu' }).first().getAttribute('href')).toContain(`/dashboard/${ARCADE.id}/configs`);
    await shot(harness.page, 'restore-configs-reset');
    const reset = await liveConfig();
    expect(reset.version).toBe(before.version + 1);
    expect(reset.config.panels).toEqual([]);

    // Restore the version before the reset: the panels are back.
    await harness.page.goto(`/dashboard/${ARCADE.id}/server-configs?version=${before.version}`);
    await main(harness.page).getByRole('button', { name: `Restore version ${before.version}` }).click();
    await harness.page.getByRole('dialog', { name: `Restore version ${before.version}?` }).getByRole('button', { name: `Restore version ${before.version}` }).click();
    await main(harness.page).getByText(`Version ${before.version} was restored as version ${before.version + 2}, now the current configuration.`).waitFor();
    const restored = await liveConfig();
    expect(restored.config).toEqual(before.config);
  });
});
