import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALL_PROVIDER_PLANS, json, PLANS } from '../../test/fixtures';
import PremiumPurchasePage from './premium-purchase';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => {
  cleanup();
  resetShared(store);
});

const URL_ = '/premium-purchase';

describe('premium purchase page', () => {
  it('shows a card per paid plan from GET /api/plans and switches between monthly and yearly prices', async () => {
    const { calls, unexpected } = mockApi({ 'GET /api/plans': PLANS, 'GET /api/billing/providers': { available: ['paddle'] } });
    ({ store } = renderPage(<PremiumPurchasePage />, { url: URL_, me: signedInMe() }));

    expect(screen.getByRole('heading', { level: 1, name: 'Premium Purchase' })).toBeInTheDocument();
    const card = await screen.findByRole('group', { name: 'Premium' });
    expect(screen.queryByRole('group', { name: 'Free' })).not.toBeInTheDocument();
    expect(within(card).getByText('$4.99')).toBeInTheDocument();
    expect(within(card).getByText('per month')).toBeInTheDocument();
    expect(within(card).getByText('Most popular')).toBeInTheDocument();
    expect(within(card).getByText('50 ticket panels and multi-panels')).toBeInTheDocument();
    expect(within(card).queryByText(/Save/)).not.toBeInTheDocument();
    expect(screen.getByText(/Free needs no purchase/)).toHaveTextContent('up to 3 ticket panels');

    const monthly = screen.getByRole('radio', { name: 'Monthly' });
    const yearly = screen.getByRole('radio', { name: 'Yearly' });
    expect(monthly).toBeChecked();
    await userEvent.click(yearly);
    expect(yearly).toBeChecked();
    expect(within(card).getByText('$49.99')).toBeInTheDocument();
    expect(within(card).getByText('per year')).toBeInTheDocument();
    expect(within(card).getByText('Save 16%')).toBeInTheDocument();

    expect(calls('/api/plans')).toHaveLength(1);
    expect(unexpected).toEqual([]);
  });

  it('moves between the intervals with the keyboard', async () => {
    mockApi({ 'GET /api/plans': PLANS });
    ({ store } = renderPage(<PremiumPurchasePage />, { url: URL_, me: signedInMe() }));
    const card = await screen.findByRole('group', { name: 'Premium' });
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole('radio', { name: 'Monthly' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: 'Yearly' })).toBeChecked();
    expect(within(card).getByText('$49.99')).toBeInTheDocument();
  });

  it('says checkout is not configured when the deployment has no Paddle token', async () => {
    mockApi({ 'GET /api/plans': PLANS, 'GET /api/billing/providers': { available: ['paddle'] } });
    ({ store } = renderPage(<PremiumPurchasePage />, { url: URL_, me: signedInMe(), config: { paddleToken: null } }));
    await screen.findByRole('group', { name: 'Premium' });
    expect(await screen.findByText('Checkout is not configured on this deployment')).toBeInTheDocument();
    expect(screen.queryByText('Checkout opens in the next version')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /log in/i })).not.toBeInTheDocument();
  });

  it('with Paddle configured and the user signed in, each plan links to Paddle checkout for the chosen interval', async () => {
    mockApi({ 'GET /api/plans': PLANS, 'GET /api/billing/providers': { available: ['paddle'] } });
    ({ store } = renderPage(<PremiumPurchasePage />, { url: URL_, me: signedInMe(), config: { paddleToken: 'live_abc' } }));
    const card = await screen.findByRole('group', { name: 'Premium' });
    expect(await within(card).findByRole('link', { name: 'Pay with Paddle' })).toHaveAttribute('href', '/billing/paddleBuy?price=pri_premium_monthly');
    await userEvent.click(screen.getByRole('radio', { name: 'Yearly' }));
    expect(await within(card).findByRole('link', { name: 'Pay with Paddle' })).toHaveAttribute('href', '/billing/paddleBuy?price=pri_premium_yearly');
    expect(screen.queryByText('Checkout is not configured on this deployment')).not.toBeInTheDocument();
  });

  it('asks a signed-out visitor to log in to buy, and the button opens the Discord login popup', async () => {
    mockApi({ 'GET /api/plans': PLANS });
    const open = vi.spyOn(window, 'open').mockReturnValue({ closed: false, close: vi.fn(), focus: vi.fn() } as unknown as Window);
    ({ store } = renderPage(<PremiumPurchasePage />, { url: URL_, config: { paddleToken: 'live_abc' } }));
    await screen.findByRole('group', { name: 'Premium' });
    expect(screen.getByRole('heading', { name: 'Log in to buy' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Log in with Discord' }));
    expect(open).toHaveBeenCalledTimes(1);
    expect(open.mock.calls[0]?.[0]).toBe('http://api.test/api/auth/login');
  });

  it('points a user who already has premium to the billing page', async () => {
    mockApi({ 'GET /api/plans': PLANS });
    ({ store } = renderPage(<PremiumPurchasePage />, { url: URL_, me: signedInMe({ sub: { premium: true, servers: [] } }) }));
    await screen.findByRole('group', { name: 'Premium' });
    expect(screen.getByText('Your account already has premium')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Billing' })).toHaveAttribute('href', '/billing');
  });

  it('shows one buy button per provider that sells the price and sells now, each saying what it is', async () => {
    mockApi({ 'GET /api/plans': ALL_PROVIDER_PLANS, 'GET /api/billing/providers': { available: ['paddle', 'fastspring', 'discord'] } });
    ({ store } = renderPage(<PremiumPurchasePage />, { url: URL_, me: signedInMe(), config: { paddleToken: 'live_abc' } }));
    const card = await screen.findByRole('group', { name: 'Premium' });
    const paddle = await within(card).findByRole('link', { name: 'Pay with Paddle' });
    expect(paddle).toHaveAttribute('href', '/billing/paddleBuy?price=pri_premium_monthly');
    expect(paddle).toHaveAccessibleDescription('Paddle: card payments through Paddle Billing');
    const fastspring = within(card).getByRole('link', { name: 'Pay with FastSpring' });
    expect(fastspring).toHaveAttribute('href', '/billing/checkout?provider=fastspring&price=tickety-premium-monthly');
    expect(fastspring).toHaveAccessibleDescription('FastSpring: payments through FastSpring');
    expect(within(card).getByRole('link', { name: 'Subscribe in Discord' })).toHaveAttribute('href', '/billing/checkout?provider=discord&price=1300000000000000801');
    // Chargebee sells the plan, but this server does not sell through it now.
    expect(within(card).queryByRole('link', { name: 'Pay with Chargebee' })).not.toBeInTheDocument();

    // Discord sells Premium monthly only.
    await userEvent.click(screen.getByRole('radio', { name: 'Yearly' }));
    expect(within(card).getByRole('link', { name: 'Pay with FastSpring' })).toHaveAttribute('href', '/billing/checkout?provider=fastspring&price=tickety-premium-yearly');
    expect(within(card).queryByRole('link', { name: 'Subscribe in Discord' })).not.toBeInTheDocument();
    expect(screen.queryByText('Checkout is not configured on this deployment')).not.toBeInTheDocument();
  });

  it('sells through Chargebee without a Paddle token; Paddle needs its token', async () => {
    mockApi({ 'GET /api/plans': ALL_PROVIDER_PLANS, 'GET /api/billing/providers': { available: ['paddle', 'chargebee'] } });
    ({ store } = renderPage(<PremiumPurchasePage />, { url: URL_, me: signedInMe(), config: { paddleToken: null } }));
    const card = await screen.findByRole('group', { name: 'Premium' });
    expect(await within(card).findByRole('link', { name: 'Pay with Chargebee' })).toHaveAttribute('href', '/billing/checkout?provider=chargebee&price=tickety-premium-USD-Monthly');
    expect(within(card).queryByRole('link', { name: 'Pay with Paddle' })).not.toBeInTheDocument();
    expect(screen.getByText('a subscription billed by Chargebee', { exact: false })).toBeInTheDocument();
  });

  it('shows the plans when the providers cannot be read, with Try again that brings the buy buttons', async () => {
    let fail = true;
    mockApi({
      'GET /api/plans': ALL_PROVIDER_PLANS,
      'GET /api/billing/providers': () => (fail ? json({ code: 1500, message: 'Something went wrong on our side. Try again shortly.', isAuthenticated: true }, 500) : json({ available: ['fastspring'] })),
    });
    ({ store } = renderPage(<PremiumPurchasePage />, { url: URL_, me: signedInMe() }));
    const card = await screen.findByRole('group', { name: 'Premium' });
    expect(await screen.findByText('The ways to pay could not be loaded')).toBeInTheDocument();
    expect(within(card).getByText('$4.99')).toBeInTheDocument();
    expect(within(card).queryByRole('link')).not.toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await within(card).findByRole('link', { name: 'Pay with FastSpring' })).toBeInTheDocument();
    expect(screen.queryByText('The ways to pay could not be loaded')).not.toBeInTheDocument();
  });
});
