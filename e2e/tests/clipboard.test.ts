import { describe, expect, test } from 'vitest';
import { shot, useBrowser } from '../src/browser';
import { main } from '../src/pages';

const harness = useBrowser();

/**
 * `/clipboard?text=…` (a display page the bot links to for long ids): the server prerenders it once
 * for every address, without the query, so the HTML cannot hold the text. It arrives busy, the boot
 * script starts the app at once, and the app shows the text and copies it, with no interaction.
 */
describe('the clipboard page', () => {
  test('shows and copies the text of its address without the visitor touching the page', async () => {
    await harness.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.baseURL });
    const text = '1100000000000000001';
    const res = await harness.page.goto(`/clipboard?text=${text}`);
    // The HTML itself: one page for every text, busy, never "Nothing to copy".
    const html = (await res?.text()) ?? '';
    expect(html).toContain('data-prerendered="/clipboard"');
    expect(html).toContain('aria-busy="true"');
    expect(html).not.toContain('Nothing to copy');

    await main(harness.page).getByRole('heading', { level: 1, name: 'Copied to your clipboard' }).waitFor();
    expect(await harness.page.locator('[data-prerendered]').count()).toBe(0);
    expect(await main(harness.page).getByLabel('Text to copy').inputValue()).toBe(text);
    expect(await harness.page.evaluate(() => navigator.clipboard.readText())).toBe(text);
    expect(harness.errors).toEqual([]);
    await shot(harness.page, 'clipboard-copied');
  });

  test('a long text with a line break comes in a multi-line field; Copy again copies it again', async () => {
    await harness.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.baseURL });
    await harness.page.setViewportSize({ width: 390, height: 844 });
    await harness.page.emulateMedia({ colorScheme: 'dark' });
    const text = 'Ticket #42 · Ava’s Arcade\nhttps://tickety.example/transcript/v2/1100000000000000001/t-42';
    await harness.page.goto(`/clipboard?text=${encodeURIComponent(text)}`);
    await main(harness.page).getByRole('heading', { level: 1, name: 'Copied to your clipboard' }).waitFor();
    const field = main(harness.page).getByLabel('Text to copy');
    expect(await field.evaluate((el) => el.tagName)).toBe('TEXTAREA');
    expect(await field.inputValue()).toBe(text);
    await harness.page.evaluate(() => navigator.clipboard.writeText('something else'));
    await main(harness.page).getByRole('button', { name: 'Copy again' }).click();
    await expect.poll(() => harness.page.evaluate(() => navigator.clipboard.readText())).toBe(text);
    await shot(harness.page, 'clipboard-phone-dark');
  });

  test('without a text it says there is nothing to copy (once the app has read the address)', async () => {
    await harness.page.goto('/clipboard');
    await main(harness.page).getByRole('heading', { level: 1, name: 'Nothing to copy' }).waitFor();
    expect(await harness.page.locator('[data-prerendered]').count()).toBe(0);
  });
});
