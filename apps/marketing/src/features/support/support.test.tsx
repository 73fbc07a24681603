import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage, signedInMe, testGuild } from '@tickety/shared/testing';
import { describe, expect, it } from 'vitest';
import SupportPage from './support';

describe('SupportPage', () => {
  it('links to the support server, the docs and the status page', () => {
    renderPage(<SupportPage />, { url: '/support' });
    expect(screen.getByRole('heading', { level: 1, name: 'Support' })).toBeInTheDocument();
    const server = screen.getByRole('link', { name: /join the support server/i });
    expect(server).toHaveAttribute('href', 'https://discord.gg/tickety-test');
    expect(server).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: /read the docs/i })).toHaveAttribute('href', 'https://docs.tickety.test');
    expect(screen.getByRole('link', { name: /check the status/i })).toHaveAttribute('href', '/status');
  });

  it("answers why a server is missing: owner, Administrator or Manage Server, then refresh", async () => {
    const user = userEvent.setup();
    renderPage(<SupportPage />, { url: '/support' });
    const question = screen.getByRole('button', { name: "Why can't I see my server in the dashboard?" });
    await user.click(question);
    const answer = document.getElementById(question.getAttribute('aria-controls')!)!;
    expect(answer).toBeVisible();
    expect(answer).toHaveTextContent('Administrator');
    expect(answer).toHaveTextContent('Manage Server');
    expect(answer).toHaveTextContent('press Refresh on Manage Servers');
    expect(within(answer).getByRole('link', { name: 'Manage Servers' })).toHaveAttribute('href', '/dashboard');
  });

  it('does not link to itself when the support server is not configured', () => {
    renderPage(<SupportPage />, { url: '/support', config: { supportUrl: `${window.location.origin}/support` } });
    expect(screen.queryByRole('link', { name: /join the support server/i })).not.toBeInTheDocument();
    expect(screen.getByText(/no support server invite configured/i)).toBeInTheDocument();
  });

  it('tells a signed-in user who can manage no server why', () => {
    const guilds = [testGuild({ id: '1100000000000000009', name: 'Fan Club', permissions: '0', canManage: false, botInGuild: true })];
    renderPage(<SupportPage />, { url: '/support', me: signedInMe({ guilds }) });
    expect(screen.getByText('None of your servers can be managed with this account')).toBeInTheDocument();
    expect(screen.getByText(/You are in 1 server/)).toBeInTheDocument();
  });

  it('says nothing of the kind to a user who manages a server', () => {
    renderPage(<SupportPage />, { url: '/support', me: signedInMe() });
    expect(screen.queryByText('None of your servers can be managed with this account')).not.toBeInTheDocument();
  });
});
