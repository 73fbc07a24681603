import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { shot, useBrowser } from '../src/browser';
import { main } from '../src/pages';
import { REPO_DIR } from '../src/server';
import { DEMO_GUILDS, signInContext, userMenu } from '../src/session';

const harness = useBrowser();

/** The marketing remote's catalogue in a language (what the page must say). */
function catalogue(locale: 'en' | 'de'): Record<string, string> {
  return JSON.parse(readFileSync(resolve(REPO_DIR, 'apps', 'marketing', 'src', 'locales', `${locale}.json`), 'utf8'));
}

/** A catalogue of the dashboard remote in a language: its shared one, or a feature's own part. */
function dashboardCatalogue(locale: 'en' | 'de', feature?: string): Record<string, string> {
  const dir = feature ? ['features', feature, 'locales'] : ['locales'];
  return JSON.parse(readFileSync(resolve(REPO_DIR, 'apps', 'dashboard', 'src', ...dir, `${locale}.json`), 'utf8'));
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

  test("a server page switches language with its own messages, and the next page arrives in the reader's language", async () => {
    const shared = { en: dashboardCatalogue('en'), de: dashboardCatalogue('de') };
    const statistics = { en: dashboardCatalogue('en', 'statistics'), de: dashboardCatalogue('de', 'statistics') };
    const premium = { en: dashboardCatalogue('en', 'premium'), de: dashboardCatalogue('de', 'premium') };
    const context = await harness.browser.newContext({ baseURL: harness.baseURL, locale: 'en-US', viewport: { width: 1280, height: 800 } });
    try {
      await signInContext(context, harness.baseURL, 'ava');
      const page = await context.newPage();
      await page.goto(`/dashboard/${DEMO_GUILDS.avasArcade.id}/statistics`);
      // The page's own messages (its feature's part of the catalogue) came with it: no key shows.
      const week = main(page).getByRole('button', { name: statistics.en['statistics.range.7d'] });
      await week.waitFor();

      await userMenu(page, 'ava').click();
      await page.getByRole('banner').getByRole('combobox').selectOption('de');
      // The feature's part and the shared catalogue are both loaded in German before the switch.
      await main(page).getByRole('button', { name: statistics.de['statistics.range.7d'] }).waitFor();
      await page.getByRole('navigation', { name: 'Server' }).getByRole('link', { name: shared.de['sidebar.serverStatistics'] }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
      expect(await main(page).getByText(/^statistics\./).count()).toBe(0);
      await shot(page, 'statistics-german');

      // A page not visited yet: its part arrives in German with its code.
      await page.getByRole('navigation', { name: 'Server' }).getByRole('link', { name: shared.de['sidebar.serverPremium'] }).click();
      await main(page).getByRole('heading', { name: premium.de['server.premium.state.title'] }).first().waitFor();

      // And back to English: both parts that were asked for switch.
      await userMenu(page, 'ava').click();
      await page.getByRole('banner').getByRole('combobox').selectOption('en');
      await main(page).getByRole('heading', { name: premium.en['server.premium.state.title'] }).first().waitFor();
      await page.goBack();
      await main(page).getByRole('button', { name: statistics.en['statistics.range.7d'] }).waitFor();
      expect(await main(page).getByText(/^(statistics|server)\./).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
