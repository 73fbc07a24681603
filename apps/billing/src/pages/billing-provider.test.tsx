import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { subscription } from '../test/fixtures';
import BillingProviderPage from './billing-provider';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => {
  cleanup();
  resetShared(store);
  vi.restoreAllMocks();
});

const page = (url = '/billing/paddle/sub_01', path = '/billing/paddle/:id', provider = 'paddle', me = signedInMe()) =>
  ({ store } = renderPage(<BillingProviderPage />, { url, path, handle: { data: { provider } }, me }));

describe('billing provider page', () => {
  it('shows the plan, status, renewal, payment method and the servers the slots cover', async () => {
    const { unexpected } = mockApi({ 'GET /api/billing/subscriptions/paddle/sub_01': subscription({ slots: [...subscription().slots, { slot: 2, guildId: null, guildName: null, assignedAt: null, movableAt: null }] }) });
    page();
    expect(await screen.findByRole('heading', { level: 1, name: 'Premium through Paddle' })).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText('Visa •••• 4242')).toBeInTheDocument();
    expect(screen.getByText(/Renews on/)).toBeInTheDocument();
    expect(screen.getByText("Slot 1: Ava's Arcade")).toBeInTheDocument();
    expect(screen.getByText('Slot 2: free')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Server premium' })).toHaveAttribute('href', '/dashboard/1100000000000000001/premium');
    expect(screen.getByRole('button', { name: 'Cancel subscription' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update payment method' })).toBeInTheDocument();
    expect(unexpected).toEqual([]);
  });

  it('cancel asks first, is sent to the provider, and the page waits for the webhook before it shows the result', async () => {
    let cancelled = false;
    const { calls } = mockApi({
      'GET /api/billing/subscriptions/paddle/sub_01': () =>
        new Response(JSON.stringify(subscription(cancelled ? { cancelAtPeriodEnd: true, actions: ['resume', 'portal'] } : {})), { headers: { 'content-type': 'application/json' } }),
      'POST /api/billing/subscriptions/paddle/sub_01/cancel': { requested: 'cancel', url: null, transactionId: null },
    });
    page();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel subscription' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Cancel this subscription?' });
    expect(dialog).toHaveTextContent(/stays active until/);
    expect(calls('/api/billing/subscriptions/paddle/sub_01/cancel')).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel at period end' }));
    expect(await screen.findByText('Waiting for Paddle')).toBeInTheDocument();
    cancelled = true; // Paddle's webhook lands
    expect(await screen.findByText('Ends at period end', {}, { timeout: 5000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Waiting for Paddle')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Keep subscription' })).toBeInTheDocument();
  });

  it('a refused action says why', async () => {
    mockApi({
      'GET /api/billing/subscriptions/paddle/sub_01': subscription(),
      'POST /api/billing/subscriptions/paddle/sub_01/portal': () =>
        new Response(JSON.stringify({ code: 1024, message: 'The payment provider did not answer: nothing was changed. Try again in a moment.', isAuthenticated: true }), { status: 502, headers: { 'content-type': 'application/json' } }),
    });
    page();
    await userEvent.click(await screen.findByRole('button', { name: "Open Paddle's customer portal" }));
    expect(await screen.findByText('That did not work')).toBeInTheDocument();
    expect(screen.getByText(/did not answer: nothing was changed/)).toBeInTheDocument();
  });

  it('shows staff a user’s subscription read-only, from the staff route, with the way back to that user', async () => {
    const { calls } = mockApi({ 'GET /api/billing/users/1000000000000000777/subscriptions/discord/sku_1': subscription({ provider: 'discord', id: 'sku_1', actions: [] }) });
    page('/billing/1000000000000000777/discord/sku_1', '/billing/:user/discord/:id', 'discord', signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ'] } }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Premium through Discord' })).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Server premium' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to billing' })).toHaveAttribute('href', '/billing/1000000000000000777');
    expect(calls('/api/billing/users/1000000000000000777/subscriptions/discord/sku_1')).toHaveLength(1);
  });

  it('a Discord app subscription says where it is managed (Discord offers no actions here)', async () => {
    mockApi({ 'GET /api/billing/subscriptions/discord/1300000000000000901': subscription({ provider: 'discord', id: '1300000000000000901', actions: [] }) });
    page('/billing/discord/1300000000000000901', '/billing/discord/:id', 'discord');
    expect(await screen.findByText(/managed in Discord itself/)).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('a subscription that is not there: the API’s answer, in place', async () => {
    mockApi({
      'GET /api/billing/subscriptions/paddle/sub_01': () => new Response(JSON.stringify({ code: 1002, message: 'You have no such subscription.', isAuthenticated: true }), { status: 404, headers: { 'content-type': 'application/json' } }),
    });
    page();
    expect(await screen.findByText('This subscription could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('You have no such subscription.')).toBeInTheDocument();
  });
});
