import { renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import PaddleBuyPage from './paddle-buy';
import PaddleUpdatePage from './paddle-update';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => {
  cleanup();
  resetShared(store);
});

describe('Paddle checkout pages', () => {
  it('paddleBuy explains the checkout and says it is not configured without a Paddle token', () => {
    ({ store } = renderPage(<PaddleBuyPage />, { url: '/billing/paddleBuy', me: signedInMe(), config: { paddleToken: null } }));
    expect(screen.getByRole('heading', { level: 1, name: 'Checkout' })).toBeInTheDocument();
    expect(screen.getByText(/opens Paddle's checkout for the plan you choose/)).toBeInTheDocument();
    expect(screen.getByText('Checkout is not configured on this deployment')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Compare plans' })).toHaveAttribute('href', '/premium-purchase');
  });

  it('paddleBuy says checkout opens in the next version when Paddle is configured', () => {
    ({ store } = renderPage(<PaddleBuyPage />, { url: '/billing/paddleBuy', me: signedInMe(), config: { paddleToken: 'live_abc' } }));
    expect(screen.getByText('Checkout opens in the next version')).toBeInTheDocument();
    expect(screen.queryByText('Checkout is not configured on this deployment')).not.toBeInTheDocument();
  });

  it('paddleUpdate explains the payment-method update with the same configured state', () => {
    ({ store } = renderPage(<PaddleUpdatePage />, { url: '/billing/paddleUpdate', me: signedInMe(), config: { paddleToken: null } }));
    expect(screen.getByRole('heading', { level: 1, name: 'Update Payment Method' })).toBeInTheDocument();
    expect(screen.getByText('Checkout is not configured on this deployment')).toBeInTheDocument();
    cleanup();
    resetShared(store);
    ({ store } = renderPage(<PaddleUpdatePage />, { url: '/billing/paddleUpdate', me: signedInMe(), config: { paddleToken: 'live_abc' } }));
    expect(screen.getByText('Updating the payment method opens in the next version')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to billing' })).toHaveAttribute('href', '/billing');
  });
});
