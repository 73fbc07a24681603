import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatDateTime } from '@tickety/shared';
import { mockApi, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALL_PROVIDER_PLANS, json, subscription } from '../../test/fixtures';
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
    const { unexpected } = mockApi({
      'GET /api/billing/subscriptions/paddle/sub_01': subscription({ slots: [...subscription().slots, { slot: 2, guildId: null, guildName: null, assignedAt: null, movableAt: null }] }),
      'GET /api/billing/subscriptions/paddle/sub_01/invoices': { available: true, invoices: [] },
    });
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

  it('a Discord server subscription says it gives its server premium and stays there (no free slot to place)', async () => {
    mockApi({
      'GET /api/billing/subscriptions/discord/1300000000000000901': subscription({
        provider: 'discord',
        id: '1300000000000000901',
        guildId: '1100000000000000002',
        paymentMethod: null,
        actions: [],
        slots: [{ slot: 1, guildId: '1100000000000000002', guildName: 'Pixel Pals', assignedAt: '2026-11-26T10:00:00.000Z', movableAt: null }],
      }),
      'GET /api/billing/subscriptions/discord/1300000000000000901/invoices': { available: false, invoices: [] },
    });
    page('/billing/discord/1300000000000000901', '/billing/discord/:id', 'discord');
    expect(await screen.findByText('Slot 1: Pixel Pals')).toBeInTheDocument();
    expect(screen.getByText('A Discord server subscription: it gives Pixel Pals premium and stays on that server.')).toBeInTheDocument();
    expect(screen.queryByText(/To use a free slot/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Can move to another server/)).not.toBeInTheDocument();
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
    const { calls } = mockApi({
      'GET /api/billing/users/1000000000000000777/subscriptions/discord/sku_1': subscription({ provider: 'discord', id: 'sku_1', actions: [] }),
      'GET /api/billing/users/1000000000000000777/subscriptions/discord/sku_1/invoices': { available: false, invoices: [] },
    });
    page('/billing/1000000000000000777/discord/sku_1', '/billing/:user/discord/:id', 'discord', signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ'] } }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Premium through Discord' })).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Server premium' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to billing' })).toHaveAttribute('href', '/billing/1000000000000000777');
    expect(calls('/api/billing/users/1000000000000000777/subscriptions/discord/sku_1')).toHaveLength(1);
  });

  it('a Discord app subscription says where it is managed (Discord offers no actions here)', async () => {
    mockApi({
      'GET /api/billing/subscriptions/discord/1300000000000000901': subscription({ provider: 'discord', id: '1300000000000000901', actions: [] }),
      'GET /api/billing/subscriptions/discord/1300000000000000901/invoices': { available: false, invoices: [] },
    });
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

  it('change plan: lists the same provider’s other prices, shows the provider’s proration, and after Confirm waits for the webhook', async () => {
    let interval: 'month' | 'year' = 'month';
    let previewBody: unknown;
    let changeBody: unknown;
    const chargebee = () => subscription({ provider: 'chargebee', id: 'cb_1', interval, actions: ['cancel', 'portal', 'changePlan'] });
    const { calls } = mockApi({
      'GET /api/billing/subscriptions/chargebee/cb_1': () => json(chargebee()),
      'GET /api/billing/subscriptions/chargebee/cb_1/invoices': { available: true, invoices: [] },
      'GET /api/plans': ALL_PROVIDER_PLANS,
      'POST /api/billing/subscriptions/chargebee/cb_1/change-plan/preview': (_url: URL, init: RequestInit | undefined) => {
        previewBody = JSON.parse(String(init?.body));
        return json({ priceId: 'tickety-premium-USD-Yearly', planName: 'Premium', interval: 'year', dueNow: { amount: 45.01, currency: 'USD' }, nextCharge: { amount: 49.99, currency: 'USD', at: '2027-11-26T10:00:00.000Z' } });
      },
      'POST /api/billing/subscriptions/chargebee/cb_1/change-plan': (_url: URL, init: RequestInit | undefined) => {
        changeBody = JSON.parse(String(init?.body));
        return json({ requested: 'changePlan', url: null, transactionId: null });
      },
    });
    page('/billing/chargebee/cb_1', '/billing/chargebee/:id', 'chargebee');
    const open = await screen.findByRole('button', { name: 'Change plan' });
    await userEvent.click(open);
    const dialog = screen.getByRole('dialog', { name: 'Change plan' });
    expect(within(dialog).getByRole('heading', { name: 'Change plan' })).toHaveFocus();
    // Chargebee's other price only: not its own (monthly), not another provider's.
    const choices = await within(dialog).findAllByRole('radio');
    expect(choices).toHaveLength(1);
    expect(within(dialog).getByRole('radio', { name: /Premium · Yearly/ })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Confirm change' })).toBeDisabled();

    await userEvent.click(within(dialog).getByRole('radio', { name: /Premium · Yearly/ }));
    expect(await within(dialog).findByText('Due now: $45.01')).toBeInTheDocument();
    expect(within(dialog).getByText(`Next charge: $49.99 on ${formatDateTime('2027-11-26T10:00:00.000Z')}`)).toBeInTheDocument();
    expect(previewBody).toEqual({ priceId: 'tickety-premium-USD-Yearly' });
    expect(calls('/api/billing/subscriptions/chargebee/cb_1/change-plan')).toEqual([]);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm change' }));
    expect(await screen.findByText('Chargebee is changing the plan; this page updates once it confirms.')).toBeInTheDocument();
    expect(changeBody).toEqual({ priceId: 'tickety-premium-USD-Yearly' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change plan' })).toBeDisabled();
    interval = 'year'; // Chargebee's webhook lands
    expect(await screen.findByText('Your plan is now Premium', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('Premium · Yearly')).toBeInTheDocument();
    expect(screen.queryByText('Waiting for Chargebee')).not.toBeInTheDocument();
  });

  it('change plan: a credit is shown as such; Keep my plan closes the dialog and gives the focus back', async () => {
    mockApi({
      'GET /api/billing/subscriptions/paddle/sub_01': subscription({ interval: 'year', actions: ['cancel', 'changePlan'] }),
      'GET /api/billing/subscriptions/paddle/sub_01/invoices': { available: true, invoices: [] },
      'GET /api/plans': ALL_PROVIDER_PLANS,
      'POST /api/billing/subscriptions/paddle/sub_01/change-plan/preview': { priceId: 'pri_premium_monthly', planName: 'Premium', interval: 'month', dueNow: { amount: -20.5, currency: 'USD' }, nextCharge: null },
    });
    page();
    const open = await screen.findByRole('button', { name: 'Change plan' });
    await userEvent.click(open);
    const dialog = screen.getByRole('dialog', { name: 'Change plan' });
    await userEvent.click(await within(dialog).findByRole('radio', { name: /Premium · Monthly/ }));
    expect(await within(dialog).findByText('Credit: $20.50')).toBeInTheDocument();
    expect(within(dialog).queryByText(/Next charge/)).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep my plan' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change plan' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Change plan' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change plan' })).toHaveFocus();
  });

  it('receipts: a table of date, amount, status and a download link to each document', async () => {
    mockApi({
      'GET /api/billing/subscriptions/paddle/sub_01': subscription(),
      'GET /api/billing/subscriptions/paddle/sub_01/invoices': {
        available: true,
        invoices: [
          { id: 'txn_1', date: '2026-10-26T10:00:00.000Z', total: { amount: 4.99, currency: 'USD' }, status: 'paid' },
          { id: 'txn_2', date: '2026-11-26T10:00:00.000Z', total: { amount: 5, currency: 'EUR' }, status: 'refunded' },
        ],
      },
    });
    page();
    const receipts = await screen.findByRole('region', { name: 'Receipts' });
    const table = await within(receipts).findByRole('table', { name: 'Receipts' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    // Newest first.
    expect(rows[0]).toHaveTextContent('November 26, 2026');
    expect(rows[0]).toHaveTextContent('€5.00');
    expect(rows[0]).toHaveTextContent('Refunded');
    expect(rows[1]).toHaveTextContent('October 26, 2026');
    expect(rows[1]).toHaveTextContent('$4.99');
    expect(rows[1]).toHaveTextContent('Paid');
    const download = within(rows[1]!).getByRole('link', { name: /Download/ });
    expect(download).toHaveAttribute('href', 'http://api.test/api/billing/subscriptions/paddle/sub_01/invoices/txn_1');
    expect(download).toHaveAttribute('target', '_blank');
    expect(download).toHaveAttribute('rel', 'noopener');
    expect(download).toHaveAccessibleName('Download the receipt of October 26, 2026 (opens in a new tab)');
  });

  it('receipts: none yet, or a failed read with Try again', async () => {
    let fail = true;
    mockApi({
      'GET /api/billing/subscriptions/paddle/sub_01': subscription(),
      'GET /api/billing/subscriptions/paddle/sub_01/invoices': () =>
        fail ? json({ code: 1500, message: 'Something went wrong on our side. Try again shortly.', isAuthenticated: true }, 500) : json({ available: true, invoices: [] }),
    });
    page();
    const receipts = await screen.findByRole('region', { name: 'Receipts' });
    expect(await within(receipts).findByText('The receipts could not be loaded')).toBeInTheDocument();
    fail = false;
    await userEvent.click(within(receipts).getByRole('button', { name: 'Try again' }));
    expect(await within(receipts).findByText('No receipts yet')).toBeInTheDocument();
    expect(within(receipts).queryByRole('table')).not.toBeInTheDocument();
  });

  it('receipts of a Discord subscription are in Discord', async () => {
    mockApi({
      'GET /api/billing/subscriptions/discord/1300000000000000901': subscription({ provider: 'discord', id: '1300000000000000901', actions: [] }),
      'GET /api/billing/subscriptions/discord/1300000000000000901/invoices': { available: false, invoices: [] },
    });
    page('/billing/discord/1300000000000000901', '/billing/discord/:id', 'discord');
    const receipts = await screen.findByRole('region', { name: 'Receipts' });
    expect(await within(receipts).findByText('Discord keeps the receipts of this subscription itself: you find them in Discord.')).toBeInTheDocument();
    expect(screen.getByText(/managed in Discord itself/)).toBeInTheDocument();
  });

  it('staff see the receipts read-only: no download links and no actions', async () => {
    const { calls } = mockApi({
      'GET /api/billing/users/1000000000000000777/subscriptions/chargebee/cb_1': subscription({ provider: 'chargebee', id: 'cb_1', actions: ['cancel', 'portal', 'changePlan'] }),
      'GET /api/billing/users/1000000000000000777/subscriptions/chargebee/cb_1/invoices': {
        available: true,
        invoices: [{ id: 'inv_1', date: '2026-11-26T10:00:00.000Z', total: { amount: 4.99, currency: 'USD' }, status: 'paid' }],
      },
    });
    page('/billing/1000000000000000777/chargebee/cb_1', '/billing/:user/chargebee/:id', 'chargebee', signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ'] } }));
    const table = await screen.findByRole('table', { name: 'Receipts' });
    expect(within(table).getByText('$4.99')).toBeInTheDocument();
    expect(within(table).queryByRole('link')).not.toBeInTheDocument();
    expect(within(table).queryByText('Receipt')).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    const read = calls('/api/billing/users/1000000000000000777/subscriptions/chargebee/cb_1/invoices');
    expect(read).toHaveLength(1);
  });

  it('a portal of another provider opens from the generic action, with the link kept in case a popup blocker stopped it', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    mockApi({
      'GET /api/billing/subscriptions/fastspring/fs_1': subscription({ provider: 'fastspring', id: 'fs_1', actions: ['cancel', 'portal'] }),
      'GET /api/billing/subscriptions/fastspring/fs_1/invoices': { available: true, invoices: [] },
      'POST /api/billing/subscriptions/fastspring/fs_1/portal': { requested: 'portal', url: 'https://tickety.test.onfastspring.com/account', transactionId: null },
    });
    page('/billing/fastspring/fs_1', '/billing/fastspring/:id', 'fastspring');
    await userEvent.click(await screen.findByRole('button', { name: "Open FastSpring's customer portal" }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('https://tickety.test.onfastspring.com/account', '_blank', 'noopener'));
    expect(screen.getByRole('link', { name: /Open FastSpring's customer portal/ })).toHaveAttribute('href', 'https://tickety.test.onfastspring.com/account');
  });
});
