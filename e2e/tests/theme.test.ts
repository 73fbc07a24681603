import { describe, expect, test } from 'vitest';
import { shot, useBrowser } from '../src/browser';
import { main } from '../src/pages';

const harness = useBrowser();

const isDark = () => harness.page.evaluate(() => document.documentElement.classList.contains('dark'));

describe('dark mode', () => {
  test('the toggle switches the scheme and the choice survives a reload', async () => {
    await harness.page.emulateMedia({ colorScheme: 'light' });
    await harness.page.goto('/');
    await main(harness.page).waitFor();
    const toggle = harness.page.getByRole('banner').getByRole('button', { name: /dark|light|theme/i }).first();
    await toggle.waitFor();
    const before = await isDark();
    await toggle.click();
    await harness.page.waitForFunction((was) => document.documentElement.classList.contains('dark') !== was, before);
    const after = await isDark();
    expect(after).toBe(!before);
    await shot(harness.page, after ? 'home-dark' : 'home-light');
    await harness.page.reload();
    await main(harness.page).waitFor();
    expect(await isDark()).toBe(after);
    // And back again, also persisted.
    await harness.page.getByRole('banner').getByRole('button', { name: /dark|light|theme/i }).first().click();
    await harness.page.waitForFunction((was) => document.documentElement.classList.contains('dark') !== was, after);
    await harness.page.reload();
    await main(harness.page).waitFor();
    expect(await isDark()).toBe(before);
  });
});
