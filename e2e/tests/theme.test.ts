import { describe, expect, test } from 'vitest';
import { shot, useBrowser } from '../src/browser';
import { main } from '../src/pages';

const b = useBrowser();

const isDark = () => b.page.evaluate(() => document.documentElement.classList.contains('dark'));

describe('dark mode', () => {
  test('the toggle switches the scheme and the choice survives a reload', async () => {
    await b.page.emulateMedia({ colorScheme: 'light' });
    await b.page.goto('/');
    await main(b.page).waitFor();
    const toggle = b.page.getByRole('banner').getByRole('button', { name: /dark|light|theme/i }).first();
    await toggle.waitFor();
    const before = await isDark();
    await toggle.click();
    await b.page.waitForFunction((was) => document.documentElement.classList.contains('dark') !== was, before);
    const after = await isDark();
    expect(after).toBe(!before);
    await shot(b.page, after ? 'home-dark' : 'home-light');
    await b.page.reload();
    await main(b.page).waitFor();
    expect(await isDark()).toBe(after);
    // And back again, also persisted.
    await b.page.getByRole('banner').getByRole('button', { name: /dark|light|theme/i }).first().click();
    await b.page.waitForFunction((was) => document.documentElement.classList.contains('dark') !== was, after);
    await b.page.reload();
    await main(b.page).waitFor();
    expect(await isDark()).toBe(before);
  });
});
