import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { subscription } from '../../test/fixtures';
import { fakePaddleJs, PADDLE } from '../../test/paddle';
import PaddleUpdatePage from './paddle-update';

let store: ReturnType<typeof renderPage>['store'] | undefined;
const paddle = fakePaddleJs();
afterEach(() => {
  cleanup();
  resetShared(store);
});

describe('Paddle payment method update page', () => {
  it('paddleUpdate: opens Paddle with the update transaction, then shows the new card once the webhook has it', async () => {
    let method = 'Visa •••• 4242';
    mockApi({
      'GET /api/billing/subscriptions/paddle/sub_01': () => new Response(JSON.stringify(subscription({ paymentMethod: method })), { headers: { 'content-type': 'application/json' } }),
      'POST /api/billing/subscriptions/paddle/sub_01/payment-method': { requested: 'updatePaymentMethod', url: 'https://paddle.test/checkout?txn=txn_u', transactionId: 'txn_u' },
    });
    ({ store } = renderPage(<PaddleUpdatePage />, { url: '/billing/paddleUpdate?subscription=sub_01', path: '/billing/paddleUpdate', me: signedInMe(), config: PADDLE }));
    expect(await screen.findByText('Visa •••• 4242')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Update with Paddle' }));
    expect(paddle.opened.at(-1)).toMatchObject({ transactionId: 'txn_u' });
    act(() => paddle.emit({ name: 'checkout.completed', data: { transaction_id: 'txn_u' } }));
    expect(await screen.findByText('Saving your new payment method…')).toBeInTheDocument();
    method = 'Mastercard •••• 4444';
    expect(await screen.findByText('Future payments use Mastercard •••• 4444.', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('paddleUpdate without a subscription in the address points to billing', () => {
    ({ store } = renderPage(<PaddleUpdatePage />, { url: '/billing/paddleUpdate', path: '/billing/paddleUpdate', me: signedInMe(), config: PADDLE }));
    expect(screen.getByText('Which subscription?')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to billing' })).toHaveAttribute('href', '/billing');
  });
});
