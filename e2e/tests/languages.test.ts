import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { shot, useBrowser } from '../src/browser';
import { main } from '../src/pages';
import { REPO_DIR } from '../src/server';

const harness = useBrowser();

/** The marketing remote's catalogue in a language (what the page must say). */
function catalogue(locale: 'en' | 'de'): Record<string, string> {
  return JSON.parse(readFileSync(resolve(REPO_DIR, 'apps', 'marketing', 'src', 'locales', `${locale}.json`), 'utf8'));
}

describe('languages', () => {
  test("a German browser gets the public pages in German, prerendered, and a pick of English is remembered", async () => {
    const de = catalogue('de');
    const en = catalogue('en');
    const context = await harness.browser.newContext({ baseURL: harness.baseURL, locale: 'de-DE', viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      const res = await page.goto('/', { waitUntil: 'networkidle' });
      const html = (await res?.text()) ?? '';
      // The server rendered it in the reader's language (Accept-Language), marked for the boot script.
      expect(html).toContain('<html lang="de">');
      expect(html).toContain('data-prerendered="/"');
      const heading = main(page).getByRole('heading', { level: 1 });
      await expect.poll(() => heading.textContent()).toBe(de['home.hero.title']);
      // The app takes over in the same language.
      await page.evaluate(() => window.dispatchEvent(new Event('pointerdown')));
      await page.waitForFunction(() => !document.querySelector('[data-prerendered]'));
      expect(await heading.textContent()).toBe(de['home.hero.title']);
      await page.getByRole('button', { name: 'Anmelden' }).first().waitFor();
      await shot(page, 'home-german');

      // The reader picks English in the footer: the page switches at once and <html lang> follows...
      await page.getByRole('contentinfo').getByRole('combobox').selectOption('en');
      await expect.poll(() => heading.textContent()).toBe(en['home.hero.title']);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
      // ...and the server renders the next page in it (the pick's cookie beats Accept-Language).
      const next = await page.goto('/premium', { waitUntil: 'networkidle' });
      expect(await next?.text()).toContain('<html lang="en">');
      await expect.poll(() => main(page).getByRole('heading', { level: 1 }).first().textContent()).toBe(en['premium.title']!.replace('{product}', 'Tickety'));
    } finally {
      await context.close();
    }
  });
});
