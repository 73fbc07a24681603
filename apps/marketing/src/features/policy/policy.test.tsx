import { act, render, screen, within } from '@testing-library/react';
import { changeLocale } from '@tickety/shared';
import { renderPage } from '@tickety/shared/testing';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { t } from '../../lib/i18n';
import refundPolicyDe from './content/de/refund-policy.md';
import { DocumentMarkdown } from './markdown';
import { POLICIES, type PolicyId, tableOfContents } from './policies';
import PolicyPage from './policy';

function renderPolicy(policy: string, productName = 'Tickety') {
  return renderPage(<PolicyPage />, { url: `/${policy}`, handle: { data: { policy } }, config: { productName } });
}

describe('PolicyPage', () => {
  it.each(Object.keys(POLICIES) as PolicyId[])('renders the %s document from route data', async (policy) => {
    const { container } = renderPolicy(policy);
    expect(screen.getByRole('heading', { level: 1, name: t(POLICIES[policy].title) })).toBeInTheDocument();
    const article = screen.getByRole('article', { name: t(POLICIES[policy].title) });
    expect(await within(article).findAllByRole('heading', { level: 2 })).not.toHaveLength(0);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByText('Last updated')).toHaveTextContent(/Last updated \w+ \d{1,2}, \d{4}/);
    expect(container.textContent).not.toContain('{product}');
    expect(container.textContent).not.toContain('{supportUrl}');
  });

  it('substitutes the product name and builds a table of contents from the h2s', async () => {
    renderPolicy('privacy-policy', 'Helpdesk');
    const article = screen.getByRole('article', { name: 'Privacy Policy' });
    expect(await within(article).findByText(/This policy explains what personal data Helpdesk collects/)).toBeInTheDocument();
    expect(article.textContent).not.toMatch(/Tickety/);
    expect(within(article).getByRole('cell', { name: /Discord user ID, username, display name and avatar/ })).toBeInTheDocument();

    const toc = screen.getByRole('navigation', { name: 'On this page' });
    const rights = within(toc).getByRole('link', { name: 'Your rights' });
    expect(rights).toHaveAttribute('href', '#your-rights');
    expect(within(article).getByRole('heading', { level: 2, name: 'Your rights' })).toHaveAttribute('id', 'your-rights');
  });

  it('opens other origins in a new tab without a referrer and keeps site links in the router', async () => {
    renderPolicy('terms-of-service');
    const article = screen.getByRole('article', { name: 'Terms of Service' });
    const discord = await within(article).findByRole('link', { name: "Discord's Terms of Service" });
    expect(discord).toHaveAttribute('target', '_blank');
    expect(discord).toHaveAttribute('rel', 'noopener noreferrer');
    const support = within(article).getAllByRole('link', { name: 'support server' })[0]!;
    expect(support).toHaveAttribute('href', 'https://discord.gg/tickety-test');
    const aup = within(article).getByRole('link', { name: 'Acceptable Use Policy' });
    expect(aup).toHaveAttribute('href', '/aup-policy');
    expect(aup).not.toHaveAttribute('target');
  });

  it('links to the other documents', async () => {
    renderPolicy('legal');
    const nav = screen.getByRole('navigation', { name: 'Policies' });
    expect(within(nav).getAllByRole('link')).toHaveLength(4);
    expect(within(nav).getByRole('link', { name: 'Refund Policy' })).toHaveAttribute('href', '/refund-policy');
    await screen.findByRole('heading', { level: 2, name: /About Tickety/ });
  });

  it('says so for an unknown document', () => {
    renderPolicy('cookie-policy');
    expect(screen.getByRole('heading', { name: 'This document does not exist' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Policies' })).getAllByRole('link')).toHaveLength(5);
  });
});

describe('PolicyPage in German', () => {
  afterEach(async () => {
    await changeLocale('en');
  });

  it('shows the German document (content/de) with German chrome and a German date', async () => {
    await changeLocale('de');
    renderPolicy('privacy-policy', 'Helpdesk');
    expect(screen.getByRole('heading', { level: 1, name: 'Datenschutzerklärung' })).toBeInTheDocument();
    const article = screen.getByRole('article', { name: 'Datenschutzerklärung' });
    expect(await within(article).findByText(/welche personenbezogenen Daten Helpdesk erhebt/)).toBeInTheDocument();
    expect(article.textContent).not.toMatch(/Tickety|This policy explains/);
    expect(screen.getByText('Zuletzt aktualisiert am')).toHaveTextContent('Zuletzt aktualisiert am 22. November 2026');
    const toc = screen.getByRole('navigation', { name: 'Auf dieser Seite' });
    expect(within(toc).getByRole('link', { name: 'Zusammenfassung' })).toHaveAttribute('href', '#zusammenfassung');
    const nav = screen.getByRole('navigation', { name: 'Rechtliche Dokumente' });
    expect(within(nav).getByRole('link', { name: 'Rückerstattungsrichtlinie' })).toHaveAttribute('href', '/refund-policy');
    expect(within(nav).getByText('Weitere Dokumente', { exact: false, ignore: 'a' })).toBeInTheDocument();
  });

  it('loads the document again in the new language when the language changes, keeping the old text until then', async () => {
    renderPolicy('refund-policy');
    const article = screen.getByRole('article', { name: 'Refund Policy' });
    const englishSections = await within(article).findAllByRole('heading', { level: 2 });

    await act(() => changeLocale('de'));
    expect(screen.getByRole('heading', { level: 1, name: 'Rückerstattungsrichtlinie' })).toBeInTheDocument();
    const german = screen.getByRole('article', { name: 'Rückerstattungsrichtlinie' });
    // Never a skeleton in between: the English text stays until the German one is there.
    expect(within(german).queryByRole('status')).not.toBeInTheDocument();
    expect(within(german).getAllByRole('heading', { level: 2 }).length).toBeGreaterThan(0);
    const firstGerman = /^## (.+)$/m.exec(refundPolicyDe)![1]!.trim();
    expect(await within(german).findByRole('heading', { level: 2, name: firstGerman })).toBeInTheDocument();
    expect(within(german).queryByRole('heading', { level: 2, name: englishSections[0]!.textContent! })).not.toBeInTheDocument();
    expect(screen.getByText(/Zuletzt aktualisiert am/)).toBeInTheDocument();
  });

  it('says so in German for an unknown document', async () => {
    await changeLocale('de');
    renderPolicy('cookie-policy');
    expect(screen.getByRole('heading', { name: 'Dieses Dokument gibt es nicht' })).toBeInTheDocument();
  });
});

describe('DocumentMarkdown', () => {
  function renderMarkdown(source: string) {
    return render(
      <MemoryRouter>
        <DocumentMarkdown source={source} toc={tableOfContents(source)} />
      </MemoryRouter>,
    );
  }

  it('neutralises javascript: links and drops raw HTML', () => {
    const { container } = renderMarkdown(
      '[Click me](javascript:alert(1)) and [data](data:text/html;base64,PHNjcmlwdD4=) and [ok](https://example.com)\n\n<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">',
    );
    expect(screen.getByText('Click me').closest('a')).toBeNull();
    expect(screen.getByText('data').closest('a')).toBeNull();
    expect(container.querySelector('a[href^="javascript"], a[href^="data"], script, img, [onerror]')).toBeNull();
    expect(container.innerHTML).not.toContain('javascript:');
    expect(screen.getByRole('link', { name: 'ok' })).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('renders a # heading as an h2 so the page keeps a single h1', () => {
    renderMarkdown('# Title\n\nText');
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    expect(screen.getByRole('heading', { level: 2, name: 'Title' })).toHaveAttribute('id', 'title');
  });
});
