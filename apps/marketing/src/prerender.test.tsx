// @vitest-environment node
// The server renders these pages in Node: no window, no document (a browser-only call would throw there).
import { changeLocale } from '@tickety/shared';
import { TEST_CONFIG, TEST_PLANS } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import privacyPolicyDe from './features/policy/content/de/privacy-policy.md';
import { renderPage } from './prerender';

/** The first `## ` heading of a Markdown document. */
function firstSection(markdown: string): string {
  return /^## (.+)$/m.exec(markdown)![1]!.trim();
}

describe('prerendered pages (dist/prerender.mjs, rendered by the server)', () => {
  it.each([
    ['/', 'public', /<h1[^>]*>[\s\S]*Support tickets/],
    ['/premium', 'public', /<h1[^>]*>/],
    ['/privacy-policy', 'public', /<h1[^>]*>/],
    ['/support', 'public', /<h1[^>]*>/],
    ['/home-display', 'display', /<h1[^>]*>/],
  ])('renders %s in the %s layout, signed out', (path, layout, heading) => {
    const page = renderPage(path, TEST_CONFIG);
    expect(page?.layout).toBe(layout);
    expect(page?.html).toMatch(heading);
    expect(page?.html).not.toContain('data-tk-page');
  });

  it('renders /clipboard busy, not "Nothing to copy": the text is in the query, which the server does not render', () => {
    // One HTML for every /clipboard?text=…: a busy page, which the boot script starts the app on at once.
    for (const locale of ['en', 'de'] as const) {
      const html = renderPage('/clipboard', TEST_CONFIG, locale)?.html ?? '';
      expect(html).toMatch(/role="status" aria-busy="true"/);
      expect(html).not.toMatch(/Nothing to copy|Nichts zu kopieren/);
    }
    const html = renderPage('/clipboard', TEST_CONFIG, 'en')?.html ?? '';
    expect(html).toMatch(/<h1[^>]*>Copying…<\/h1>/);
    expect(html).toMatch(/<noscript>.*This page needs JavaScript to show the text and copy it\./s);
  });

  it('renders nothing it does not own, and no address with a parameter', () => {
    expect(renderPage('/nope', TEST_CONFIG)).toBeNull();
    expect(renderPage('/dashboard', TEST_CONFIG)).toBeNull();
  });

  describe('in the requested language', () => {
    // Rendering activates the requested locale in the one language layer: give the other tests English back.
    afterEach(async () => {
      await changeLocale('en');
    });

    it.each(['/', '/support', '/invite', '/terms-of-service', '/privacy-policy', '/legal', '/refund-policy', '/aup-policy', '/premium', '/status', '/home-display', '/premium-display', '/clipboard'])(
      'renders %s in English and in German, each with one h1',
      (path) => {
        for (const locale of ['en', 'de'] as const) {
          const html = renderPage(path, TEST_CONFIG, locale)?.html ?? '';
          expect(html.match(/<h1[\s>]/g), `${path} in ${locale}`).toHaveLength(1);
        }
      },
    );

    it('renders the support page with its support server link (no browser to compare addresses with)', () => {
      const page = renderPage('/support', TEST_CONFIG, 'de')?.html ?? '';
      expect(page).toMatch(/<h1[^>]*>Support<\/h1>/);
      expect(page).toContain('href="https://discord.gg/tickety-test"');
      expect(page).toContain('Dem Support-Server beitreten');
      expect(page).toContain('(öffnet in einem neuen Tab)');
    });

    it('renders a page in German', () => {
      const page = renderPage('/', TEST_CONFIG, 'de');
      expect(page?.html).toMatch(/<h1[^>]*>[\s\S]*Support-Tickets, die deine Mitglieder/);
      expect(page?.html).toContain('Zu Discord hinzufügen');
    });

    it('renders the policy document itself, in the requested language, not a placeholder', () => {
      const english = renderPage('/privacy-policy', TEST_CONFIG, 'en')?.html ?? '';
      expect(english).toMatch(/<h1[^>]*>Privacy Policy<\/h1>/);
      expect(english).toContain('This policy explains what personal data Tickety collects');
      expect(english).toMatch(/Last updated <time[^>]*>November 22, 2026<\/time>/);
      expect(english).not.toContain('aria-busy');
      // Links to other origins open a new tab on the server too (it has no page origin to compare with).
      expect(english).toMatch(/<a href="https:\/\/discord\.gg\/tickety-test" target="_blank" rel="noopener noreferrer">/);

      const german = renderPage('/privacy-policy', TEST_CONFIG, 'de')?.html ?? '';
      expect(german).toMatch(/<h1[^>]*>Datenschutzerklärung<\/h1>/);
      expect(german).toContain(`>${firstSection(privacyPolicyDe)}</h2>`);
      expect(german).toMatch(/Zuletzt aktualisiert am <time[^>]*>22\. November 2026<\/time>/);
      expect(german).toContain('Weitere Dokumente');
      expect(german).not.toContain('This policy explains');
      expect(german).not.toContain('{product}');
    });
  });

  describe('with the data the server gives (the status, the plans)', () => {
    afterEach(async () => {
      await changeLocale('en');
    });
    const status = {
      status: 'degraded' as const,
      checkedAt: new Date().toISOString(),
      services: [
        { name: 'api', status: 'operational' as const, latencyMs: 0 },
        { name: 'database', status: 'down' as const, latencyMs: null, detail: 'The database is not answering.' },
      ],
      shards: [{ id: 0, state: 'ready', latencyMs: 42, guilds: 1234, lastHeartbeat: new Date().toISOString() }],
    };

    it('renders /status busy without it, and with it the status itself in either language, not busy (the app need not fetch it)', () => {
      expect(renderPage('/status', TEST_CONFIG, 'en')?.html).toMatch(/aria-busy="true"/);
      const english = renderPage('/status', TEST_CONFIG, 'en', { status })?.html ?? '';
      expect(english).not.toContain('aria-busy');
      expect(english).toContain('Some systems are degraded');
      expect(english).toContain('The database is not answering.');
      expect(english).toMatch(/#<!-- -->0|#0/);
      const german = renderPage('/status', TEST_CONFIG, 'de', { status })?.html ?? '';
      expect(german).toContain('Einige Systeme sind beeinträchtigt');
      expect(german).toContain('1.234');
      expect(german).not.toContain('aria-busy');
    });

    it('renders /premium and /premium-display with the plans, not skeletons', () => {
      for (const path of ['/premium', '/premium-display']) {
        expect(renderPage(path, TEST_CONFIG, 'en')?.html, path).toMatch(/aria-busy="true"/);
        const html = renderPage(path, TEST_CONFIG, 'en', { plans: TEST_PLANS })?.html ?? '';
        expect(html, path).not.toContain('aria-busy');
        for (const plan of TEST_PLANS) expect(html, path).toContain(plan.name);
      }
      expect(renderPage('/premium', TEST_CONFIG, 'de', { plans: TEST_PLANS })?.html).toContain('Monatlich');
    });
  });
});
