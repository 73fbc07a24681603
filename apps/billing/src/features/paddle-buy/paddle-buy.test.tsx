import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { PLANS, subscription } from '../../test/fixtures';
import { fakePaddleJs, PADDLE } from '../../test/paddle';
import PaddleBuyPage from './paddle-buy';

let store: ReturnType<typeof renderPage>['store'] | undefined;
const paddle = fakePaddleJs();
afterEach(() => {
  cleanup();
  resetShared(store);
});

describe('Paddle checkout page', () => {
  it('paddleBuy: pays through Paddle once, then shows "activating" until the webhook has landed, then active (a refresh keeps the purchase)', async () => {
    let state: 'activating' | 'active' = 'activating';
    const { calls } = mockApi({
      'GET /api/plans': PLANS,
      'POST /api/billing/paddle/checkout': { transactionId: 'txn_1' },
      'GET /api/billing/checkouts/paddle/txn_1': () =>
        new Response(JSON.stringify({ state, subscription: state === 'active' ? subscription() : null }), { headers: { 'content-type': 'application/json' } }),
    });
    const page = renderPage(<PaddleBuyPage />, { url: '/billing/paddleBuy?price=pri_premium_monthly', path: '/billing/paddleBuy', me: signedInMe(), config: PADDLE });
    store = page.store;
    expect(await screen.findByRole('heading', { name: 'Premium' })).toBeInTheDocument();
    const pay = screen.getByRole('button', { name: 'Pay with Paddle' });
    await userEvent.click(pay);
    // Paddle opens the transaction the API made for the signed-in user: no items, no custom data from the page.
    expect(paddle.opened).toEqual([{ transactionId: 'txn_1', settings: { displayMode: 'overlay', theme: 'light' } }]);
    expect(JSON.parse(String(calls('/api/billing/paddle/checkout')[0]?.[1]?.body))).toEqual({ priceId: 'pri_premium_monthly' });
    // A second click while Paddle's checkout is open opens nothing more.
    expect(screen.getByRole('button', { name: 'Pay with Paddle' })).toBeDisabled();
    expect(calls('/api/billing/paddle/checkout')).toHaveLength(1);

    act(() => paddle.emit({ name: 'checkout.completed', data: { transaction_id: 'txn_1', status: 'completed' } }));
    expect(await screen.findByText('Activating your premium…')).toBeInTheDocument();
    expect(page.router.state.location.search).toBe('?txn=txn_1');
    state = 'active';
    expect(await screen.findByRole('heading', { name: 'Premium is active' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the subscription' })).toHaveAttribute('href', '/billing/paddle/sub_01');
  });

  it('paddleBuy: a declined card says so and lets the user try again', async () => {
    mockApi({ 'GET /api/plans': PLANS, 'POST /api/billing/paddle/checkout': { transactionId: 'txn_2' } });
    ({ store } = renderPage(<PaddleBuyPage />, { url: '/billing/paddleBuy?price=pri_premium_yearly', path: '/billing/paddleBuy', me: signedInMe(), config: PADDLE }));
    await userEvent.click(await screen.findByRole('button', { name: 'Pay with Paddle' }));
    act(() => paddle.emit({ name: 'checkout.payment.failed' }));
    act(() => paddle.emit({ name: 'checkout.closed' }));
    expect(await screen.findByText('Your card was declined. Nothing was charged: try another card.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay with Paddle' })).toBeEnabled();
  });

  it('paddleBuy: no plan in the address, or no Paddle on this site: says so, no checkout', async () => {
    mockApi({ 'GET /api/plans': PLANS });
    ({ store } = renderPage(<PaddleBuyPage />, { url: '/billing/paddleBuy?price=pri_nope', path: '/billing/paddleBuy', me: signedInMe(), config: PADDLE }));
    expect(await screen.findByText('Choose a plan first')).toBeInTheDocument();
    cleanup();
    resetShared(store);
    mockApi({ 'GET /api/plans': PLANS });
    ({ store } = renderPage(<PaddleBuyPage />, { url: '/billing/paddleBuy?price=pri_premium_monthly', path: '/billing/paddleBuy', me: signedInMe(), config: { paddleToken: null, paddleScriptUrl: null } }));
    expect(await screen.findByText('Payments are not set up on this site: no purchase can be made here.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay with Paddle' })).not.toBeInTheDocument();
  });
});
