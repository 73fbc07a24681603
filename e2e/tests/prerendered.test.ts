import { describe, expect, test } from 'vitest';
import { DISMISSED_KEY } from '../../apps/shell/src/announcements/dismissals';
import { publishNotice, VISITOR_ROOT } from '../src/announcements';
import { shot, useBrowser } from '../src/browser';
import { main } from '../src/pages';

const harness = useBrowser();

/**
 * The active notices (the demo seed has one, for signed-in users; a test may publish one) dismissed in this test's browser: with a notice to show,
 * the boot script starts the app on its own once the page has loaded and the browser is idle (the
 * banner is the app's); without one, a prerendered page waits for the visitor.
 */
async function dismissTheNotices(): Promise<void> {
  const answer = (await (await fetch(`${harness.baseURL}/api/announcements`)).json()) as { announcements: Array<{ id: string; revision: number }> };
  const keys = answer.announcements.map((n) => `${n.id}:${n.revision}`);
  await harness.context.addInitScript(([key, value]) => localStorage.setItem(key, value), [DISMISSED_KEY, JSON.stringify(keys)] as const);
}

/** Layout shifts recorded from the first paint on (the page's own PerformanceObserver, buffered). */
async function layoutShift(page: import('playwright-core').Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) if (!e.hadRecentInput) total += e.value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 300);
      }),
  );
}

describe('public pages arrive as HTML', () => {
  test.each(['/', '/premium', '/support', '/privacy-policy', '/premium-purchase'])('%s is readable with JavaScript off', async (path) => {
    const context = await harness.browser.newContext({ baseURL: harness.baseURL, javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      const res = await page.goto(path);
      expect(res?.status()).toBe(200);
      // The header, the page's heading and (public layout) the footer are in the HTML itself.
      await page.getByRole('banner').getByRole('link', { name: /Tickety/ }).first().waitFor();
      await main(page).getByRole('heading', { level: 1 }).first().waitFor();
      if (path !== '/premium-purchase') await page.getByRole('contentinfo').waitFor();
      if (path === '/') await shot(page, 'home-no-javascript');
    } finally {
      await context.close();
    }
  });

  test.each(['light', 'dark'] as const)('the app takes the page over, at the first interaction, without a layout shift (%s)', async (scheme) => {
    // Nothing dismissed: the demo's active notice is for signed-in users, so a visitor has none.
    await harness.page.emulateMedia({ colorScheme: scheme });
    const scripts: string[] = [];
    const reads: string[] = [];
    harness.page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
      if (/\/config\.json|\/api\//.test(request.url())) reads.push(request.url());
    });
    const res = await harness.page.goto('/', { waitUntil: 'networkidle' });
    // The server marked the visitor's notices on the page: the boot script asks for nothing.
    expect(await res?.text()).toMatch(VISITOR_ROOT);
    // HTML first: in the right scheme from the first paint, and, with every notice dismissed, no
    // script fetched at all while the visitor reads, nor config.json or the notices.
    expect(await harness.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');
    await harness.page.waitForTimeout(1_500);
    expect(scripts).toEqual([]);
    expect(reads).toEqual([]);
    // The visitor reaches for the page (a synthetic event: a real one would exempt the shifts that
    // follow it from the count below, and none may happen either way).
    await harness.page.evaluate(() => window.dispatchEvent(new Event('pointerdown')));
    // The app is in charge: the prerendered copy is gone and the Login button works.
    await harness.page.waitForFunction(() => !document.querySelector('[data-prerendered]'));
    await harness.page.getByRole('button', { name: 'Login' }).first().waitFor();
    expect(await harness.page.locator('#root').count()).toBe(1);
    expect(await harness.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');
    expect(await layoutShift(harness.page)).toBeLessThan(0.01);
    expect(harness.errors).toEqual([]);
  });

  test('with a notice not dismissed here, the app starts on its own after the page has loaded, and shows the banner without a layout shift', async () => {
    // The demo's own active notice is for signed-in users: one for everyone, withdrawn afterwards.
    const notice = await publishNotice(harness.baseURL, { text: 'A notice for **every visitor** of the prerendered page.' });
    try {
      await visitorSeesTheNotice();
    } finally {
      await notice.withdraw();
    }
  });

  async function visitorSeesTheNotice(): Promise<void> {
    const res = await harness.page.goto('/');
    expect(await res?.text()).toMatch(VISITOR_ROOT);
    // Nobody touches the page: the notice is in the banner once the app has taken over.
    await harness.page.getByRole('region', { name: 'Announcements' }).getByText('A notice for every visitor').waitFor({ timeout: 20_000 });
    expect(await harness.page.locator('[data-prerendered]').count()).toBe(0);
    // Not one script (nor the notices) before the page had loaded: the first paint never waited for them.
    const timing = await harness.page.evaluate(() => {
      const [nav] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
      const fetched = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) => /(\.js|\/config\.json|\/api\/announcements)(\?|$)/.test(r.name));
      return { loaded: nav?.loadEventEnd ?? 0, first: Math.min(...fetched.map((r) => r.startTime)), scripts: fetched.filter((r) => r.name.endsWith('.js')).length };
    });
    expect(timing.scripts).toBeGreaterThan(1);
    expect(timing.loaded).toBeGreaterThan(0);
    expect(timing.first).toBeGreaterThanOrEqual(timing.loaded);
    expect(await layoutShift(harness.page)).toBeLessThan(0.01);
    expect(harness.errors).toEqual([]);
  }

  test('Login pressed on the prerendered page, before the app has taken over, still opens the sign-in popup', async () => {
    await dismissTheNotices();
    // Hold the app back: its bootstrap chunk arrives 2 s late.
    await harness.page.route(/\/assets\/bootstrap\.[0-9a-f]+\.js$/, async (route) => {
      await new Promise((ok) => setTimeout(ok, 2_000));
      await route.continue();
    });
    await harness.page.goto('/');
    expect(await harness.page.locator('[data-prerendered]').count()).toBe(1);
    const popupOpened = harness.context.waitForEvent('page');
    await harness.page.getByRole('banner').getByRole('button', { name: 'Login' }).click();
    const popup = await popupOpened;
    await popup.getByRole('button', { name: /Sign in as Ava/ }).waitFor();
    await popup.close();
  });

  test.each([
    ['/status', /All systems operational|Some systems are degraded/],
    ['/premium-display', /\$4\.99/],
    ['/premium', /\$4\.99/],
  ] as const)('%s arrives with its data in the HTML: shown before any script, nothing loading', async (path, data) => {
    const res = await harness.page.goto(path);
    const html = (await res?.text()) ?? '';
    // (The boot script itself names the selector: only the page is looked at.)
    expect(html.slice(html.indexOf('<div id="root"'))).not.toContain('aria-busy="true"');
    expect(html).toMatch(data);
    expect(html).toContain('<script type="application/json" id="tk-page-data">');
    await harness.page.getByText(data).first().waitFor();
    expect(harness.errors).toEqual([]);
  });

  test('/status: the app takes it over on its own once loaded, with the status it carried (no second read), and refreshes it in place', async () => {
    const reads: string[] = [];
    harness.page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/status') reads.push(request.url());
    });
    await harness.page.goto('/status');
    expect(await harness.page.locator('[data-refresh]').count()).toBe(1);
    // Nobody touches the page: the boot script starts the app after load and idle.
    await harness.page.waitForFunction(() => !document.querySelector('[data-prerendered]'), undefined, { timeout: 20_000 });
    await harness.page.getByText(/All systems operational|Some systems are degraded/).waitFor();
    expect(reads).toEqual([]);
    // The app's own refresh (the 30 s poll, or the button) reads the status again, in place.
    const refreshed = harness.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/status' && r.ok());
    await harness.page.getByRole('button', { name: 'Refresh' }).click();
    await refreshed;
    await harness.page.getByText(/Last checked/).waitFor();
    expect(harness.errors).toEqual([]);
  });

  test('a signed-in page is not prerendered', async () => {
    const res = await harness.page.goto('/dashboard');
    expect(await res?.text()).not.toContain('<div id="root" data-prerendered');
  });

  test('the theme toggle works on the prerendered page before the app is in, and the app keeps the pick', async () => {
    await dismissTheNotices();
    await harness.page.emulateMedia({ colorScheme: 'light' });
    await harness.page.goto('/premium', { waitUntil: 'networkidle' });
    // No interaction has started the app; a click on the toggle does (and toggles at once).
    await harness.page.getByRole('banner').getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(await harness.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await harness.page.waitForFunction(() => !document.querySelector('[data-prerendered]'));
    await harness.page.getByRole('banner').getByRole('button', { name: 'Switch to light theme' }).waitFor();
    expect(await harness.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await harness.page.reload();
    expect(await harness.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(harness.errors).toEqual([]);
  });
});
