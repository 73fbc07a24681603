import { screen, within } from '@testing-library/react';
import { botInviteUrl } from '@tickety/shared';
import { renderPage, signedInMe, TEST_CONFIG } from '@tickety/shared/testing';
import { describe, expect, it } from 'vitest';
import HomePage from './home';

describe('HomePage', () => {
  it('points "Add to Discord" at the bot invite and "Open dashboard" at /dashboard', () => {
    renderPage(<HomePage />);
    const invite = botInviteUrl(TEST_CONFIG);
    const adds = screen.getAllByRole('link', { name: /add to discord/i });
    expect(adds.length).toBeGreaterThanOrEqual(2); // hero and final call to action
    for (const a of adds) expect(a).toHaveAttribute('href', invite);
    expect(screen.getByRole('link', { name: /open dashboard/i })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('link', { name: /compare plans/i })).toHaveAttribute('href', '/premium');
  });

  it('uses the configured product name and never the default one', () => {
    const { container } = renderPage(<HomePage />, { config: { productName: 'Helpdesk' } });
    expect(container.textContent).toContain('Helpdesk turns every question into a private ticket channel');
    expect(container.textContent).not.toMatch(/Tickety/);
  });

  it('has one h1 and the sections the header links to, and no page chrome of its own', () => {
    const { container } = renderPage(<HomePage />, { me: signedInMe() });
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(container.querySelector('#features')).not.toBeNull();
    expect(screen.getByRole('heading', { level: 2, name: /everything a support team needs/i })).toBeInTheDocument();
    expect(within(container.querySelector('#how-it-works') as HTMLElement).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByRole('heading', { level: 3, name: /transcripts on the web, with search/i })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: /config versions with restore/i })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: /sign-in you can trust/i })).toBeInTheDocument();
    expect(container.querySelector('main, header, footer')).toBeNull();
  });
});
