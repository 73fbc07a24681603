import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { subscription } from '../../test/fixtures';
import BillingPage from './billing';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => {
  cleanup();
  resetShared(store);
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('billing page', () => {
  it('lists every subscription with its status, renewal, covered servers and a way to open it', async () => {
    const { unexpected } = mockApi({
      'GET /api/billing/subscriptions': {
        subscriptions: [
          subscription(),
          subscription({ provider: 'chargebee', id: 'cb_1', status: 'cancelled', premium: false, actions: [], slots: [{ slot: 1, guildId: null, guildName: null, assignedAt: null, movableAt: null }] }),
        ],
      },
    });
    ({ store } = renderPage(<BillingPage />, { url: '/billing', me: signedInMe() }));
    await screen.findByRole('heading', { name: 'Premium through Paddle' });
    const cards = screen.getAllByRole('heading', { level: 2 }).map((h) => h.closest('li')!);
    expect(within(cards[0]!).getByRole('heading', { name: 'Premium through Paddle' })).toBeInTheDocument();
    expect(within(cards[0]!).getByText('Active')).toBeInTheDocument();
    expect(within(cards[0]!).getByText(/Renews on/)).toBeInTheDocument();
    expect(within(cards[0]!).getByText("Ava's Arcade")).toBeInTheDocument();
    expect(within(cards[0]!).getByRole('link', { name: 'Open the Premium subscription through Paddle' })).toHaveAttribute('href', '/billing/paddle/sub_01');
    expect(within(cards[1]!).getByRole('heading', { name: 'Premium through Chargebee' })).toBeInTheDocument();
    expect(within(cards[1]!).getByText('cancelled')).toBeInTheDocument();
    expect(within(cards[1]!).getByRole('link', { name: /Chargebee/ })).toHaveAttribute('href', '/billing/chargebee/cb_1');
    expect(unexpected).toEqual([]);
  });

  it('shows the empty state with a way to the plans (Cleo, no subscription)', async () => {
    mockApi({ 'GET /api/billing/subscriptions': { subscriptions: [] } });
    ({ store } = renderPage(<BillingPage />, { url: '/billing', me: signedInMe() }));
    expect(await screen.findByRole('heading', { name: 'No subscriptions yet' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'See premium plans' })[0]).toHaveAttribute('href', '/premium-purchase');
  });

  it('a failed read says what failed, with Try again', async () => {
    let fail = true;
    mockApi({ 'GET /api/billing/subscriptions': () => (fail ? json({ code: 1500, message: 'Something went wrong on our side. Try again shortly.', isAuthenticated: true }, 500) : json({ subscriptions: [] })) });
    ({ store } = renderPage(<BillingPage />, { url: '/billing', me: signedInMe() }));
    expect(await screen.findByText('The subscriptions could not be loaded')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'No subscriptions yet' })).toBeInTheDocument();
  });

  it('shows staff another user’s billing, read-only, from the staff route, linking to the staff detail pages', async () => {
    const { calls } = mockApi({ 'GET /api/billing/users/1000000000000000777/subscriptions': { subscriptions: [subscription({ userId: '1000000000000000777' })] } });
    ({ store } = renderPage(<BillingPage />, {
      url: '/billing/1000000000000000777',
      path: '/billing/:user',
      me: signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ'] } }),
    }));
    expect(await screen.findByText(/You are reading the billing of user 1000000000000000777, read-only/)).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: /Open the Premium subscription/ })).toHaveAttribute('href', '/billing/1000000000000000777/paddle/sub_01');
    expect(screen.queryByRole('link', { name: 'See plans' })).not.toBeInTheDocument();
    expect(calls('/api/billing/subscriptions')).toEqual([]);
  });

  it('treats /billing/<own id> as the own billing page', async () => {
    const me = signedInMe();
    const { calls } = mockApi({ 'GET /api/billing/subscriptions': { subscriptions: [] } });
    ({ store } = renderPage(<BillingPage />, { url: `/billing/${me.user!.id}`, path: '/billing/:user', me }));
    expect(await screen.findByRole('heading', { name: 'No subscriptions yet' })).toBeInTheDocument();
    expect(calls('/api/billing/subscriptions')).toHaveLength(1);
  });
});
