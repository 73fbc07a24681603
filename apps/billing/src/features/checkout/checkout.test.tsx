import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ALL_PROVIDER_PLANS, json, subscription } from '../../test/fixtures';
import CheckoutPage from './checkout';
import { type FastspringBuilder, resetFastspring } from './fastspring';

let store: ReturnType<typeof renderPage>['store'] | undefined;
/** Links the page opens in a new tab are clicked in the tests, never followed by happy-dom. */
const stayHere = (event: Event) => event.preventDefault();
beforeEach(() => document.addEventListener('click', stayHere, true));
afterEach(() => {
  cleanup();
  resetShared(store);
  resetFastspring();
  document.removeEventListener('click', stayHere, true);
  sessionStorage.clear();
});

const page = (url: string) => {
  const rendered = renderPage(<CheckoutPage />, { url, path: '/billing/checkout', me: signedInMe() });
  store = rendered.store;
  return rendered;
};

/** Where a purchase stands, answered as `state` says at the time of the request. */
const statusAnswer = (get: () => 'activating' | 'active', over: Parameters<typeof subscription>[0] = {}) => () =>
  json({ state: get(), subscription: get() === 'active' ? subscription(over) : null });

const FASTSPRING_ANSWER = {
  scriptUrl: 'https://sbl.fastspring.test/sbl/1.0.1/fastspring-builder.min.js',
  storefront: 'tickety.test.onfastspring.com/popup-tickety',
  securePayload: 'bWFkZSBieSB0aGUgQVBJ',
  secureKey: 'ZW5jcnlwdGVkIGtleQ==',
};

/**
 * FastSpring's Store Builder Library as the page sees it: appending its script "loads" it (or fails
 * to), defining `window.fastspring.builder`, which records what was pushed and when checkout opened.
 */
function fakeFastspring({ fail = false } = {}) {
  const secured: unknown[] = [];
  const checkouts = vi.fn();
  const scripts: HTMLScriptElement[] = [];
  // Anything else the page might call on the builder (push, tag) is recorded too: it must call none.
  const other = vi.fn();
  const builder = { secure: (payload: string, key: string) => void secured.push([payload, key]), checkout: checkouts, push: other, tag: other, add: other } as FastspringBuilder;
  const append = document.head.appendChild.bind(document.head);
  vi.spyOn(document.head, 'appendChild').mockImplementation(<T extends Node>(node: T): T => {
    if (!(node instanceof HTMLScriptElement)) return append(node);
    scripts.push(node);
    setTimeout(() => {
      if (!fail) window.fastspring = { builder };
      node.dispatchEvent(new Event(fail ? 'error' : 'load'));
    }, 0);
    return node;
  });
  /** FastSpring closing its popup (with the order, or null). */
  const close = (order: { id: string; reference: string } | null) => act(() => window.ticketyFastspringPopupClosed?.(order));
  return { secured, other, checkouts, scripts, close };
}

describe('checkout page: FastSpring', () => {
  it('loads the Store Builder Library once, opens the popup with the API’s secure payload (nothing of its own), and after an order shows activation under ?ref=<order>', async () => {
    let state: 'activating' | 'active' = 'activating';
    const fs = fakeFastspring();
    const { calls } = mockApi({
      'GET /api/plans': ALL_PROVIDER_PLANS,
      'POST /api/billing/fastspring/checkout': FASTSPRING_ANSWER,
      'GET /api/billing/checkouts/fastspring/ord_1': statusAnswer(() => state, { provider: 'fastspring', id: 'fs_sub_1' }),
    });
    const { router } = page('/billing/checkout?provider=fastspring&price=tickety-premium-monthly');
    expect(screen.getByRole('heading', { level: 1, name: 'Checkout' })).toBeInTheDocument();
    expect(await screen.findByText("FastSpring's checkout is open: finish the payment in its window.")).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Premium' })).toBeInTheDocument();

    expect(fs.scripts).toHaveLength(1);
    const script = fs.scripts[0]!;
    expect(script.id).toBe('fsc-api');
    expect(script.getAttribute('src')).toBe(FASTSPRING_ANSWER.scriptUrl);
    expect(script.getAttribute('data-storefront')).toBe(FASTSPRING_ANSWER.storefront);
    expect(script.getAttribute('data-popup-closed')).toBe('ticketyFastspringPopupClosed');
    // The session the API encrypted, as it came: no product, tag or user id of the page's own.
    expect(fs.secured).toEqual([[FASTSPRING_ANSWER.securePayload, FASTSPRING_ANSWER.secureKey]]);
    expect(fs.other).not.toHaveBeenCalled();
    expect(fs.checkouts).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(calls('/api/billing/fastspring/checkout')[0]?.[1]?.body))).toEqual({ priceId: 'tickety-premium-monthly' });

    fs.close({ id: 'ord_1', reference: 'TICKETY-1' });
    expect(await screen.findByText('Activating your premium…')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?provider=fastspring&ref=ord_1');
    expect(screen.getByRole('status')).toHaveTextContent('FastSpring has your order.');
    state = 'active';
    expect(await screen.findByRole('heading', { name: 'Premium is active' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the subscription' })).toHaveAttribute('href', '/billing/fastspring/fs_sub_1');
    expect(screen.getByRole('link', { name: 'Choose a server' })).toHaveAttribute('href', '/dashboard');
    expect(calls('/api/billing/fastspring/checkout')).toHaveLength(1);
  });

  it('closed without an order: says nothing was charged, and Try again opens the popup again (the script is not loaded twice)', async () => {
    const fs = fakeFastspring();
    const { calls } = mockApi({ 'GET /api/plans': ALL_PROVIDER_PLANS, 'POST /api/billing/fastspring/checkout': FASTSPRING_ANSWER });
    const { router } = page('/billing/checkout?provider=fastspring&price=tickety-premium-monthly');
    await screen.findByText("FastSpring's checkout is open: finish the payment in its window.");
    fs.close(null);
    expect(await screen.findByText('Checkout closed, nothing was charged')).toBeInTheDocument();
    const again = screen.getByRole('button', { name: 'Try again' });
    expect(again).toHaveFocus();
    expect(router.state.location.search).toBe('?provider=fastspring&price=tickety-premium-monthly');
    await userEvent.click(again);
    await waitFor(() => expect(fs.checkouts).toHaveBeenCalledTimes(2));
    expect(fs.scripts).toHaveLength(1);
    expect(calls('/api/billing/fastspring/checkout')).toHaveLength(2);
  });

  it('the script does not load: a clear error, and Try again appends it afresh', async () => {
    const fs = fakeFastspring({ fail: true });
    mockApi({ 'GET /api/plans': ALL_PROVIDER_PLANS, 'POST /api/billing/fastspring/checkout': FASTSPRING_ANSWER });
    page('/billing/checkout?provider=fastspring&price=tickety-premium-monthly');
    expect(await screen.findByRole('alert')).toHaveTextContent("FastSpring's checkout could not be loaded");
    expect(fs.checkouts).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(fs.scripts).toHaveLength(2));
    expect(document.querySelectorAll('#fsc-api')).toHaveLength(0);
  });

  it('an API refusal is shown in place with Try again', async () => {
    fakeFastspring();
    mockApi({
      'GET /api/plans': ALL_PROVIDER_PLANS,
      'POST /api/billing/fastspring/checkout': () => json({ code: 1024, message: 'The payment provider did not answer: nothing was changed. Try again in a moment.', isAuthenticated: true }, 502),
    });
    page('/billing/checkout?provider=fastspring&price=tickety-premium-monthly');
    expect(await screen.findByText('Checkout could not start')).toBeInTheDocument();
    expect(screen.getByText(/did not answer: nothing was changed/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('checkout page: Chargebee', () => {
  it("sends the browser to Chargebee's hosted checkout", async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { calls } = mockApi({ 'GET /api/plans': ALL_PROVIDER_PLANS, 'POST /api/billing/chargebee/checkout': { url: 'https://tickety-test.chargebee.test/pages/v3/hp_1/' } });
    page('/billing/checkout?provider=chargebee&price=tickety-premium-USD-Yearly');
    expect(await screen.findByText("Taking you to Chargebee's secure checkout…")).toBeInTheDocument();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://tickety-test.chargebee.test/pages/v3/hp_1/'));
    expect(assign).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(calls('/api/billing/chargebee/checkout')[0]?.[1]?.body))).toEqual({ priceId: 'tickety-premium-USD-Yearly' });
  });

  it('back from Chargebee without paying: says nothing was charged, with Try again for the same price', async () => {
    sessionStorage.setItem('tickety.billing.chargebeePrice', 'tickety-premium-USD-Yearly');
    const { unexpected } = mockApi({});
    page('/billing/checkout?provider=chargebee&id=hp_1&state=cancelled');
    expect(screen.getByText("You left the checkout; nothing was charged")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Try again' })).toHaveAttribute('href', '/billing/checkout?provider=chargebee&price=tickety-premium-USD-Yearly');
    expect(screen.getAllByRole('link', { name: 'Compare plans' })[0]).toHaveAttribute('href', '/premium-purchase');
    expect(unexpected).toEqual([]);
  });

  it('back from Chargebee after paying: the address names the hosted page as the reference and activation follows it', async () => {
    mockApi({ 'GET /api/billing/checkouts/chargebee/hp_1': { state: 'active', subscription: subscription({ provider: 'chargebee', id: 'cb_1' }) } });
    const { router } = page('/billing/checkout?provider=chargebee&id=hp_1&state=succeeded');
    await waitFor(() => expect(router.state.location.search).toBe('?provider=chargebee&ref=hp_1'));
    expect(await screen.findByRole('heading', { name: 'Premium is active' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the subscription' })).toHaveAttribute('href', '/billing/chargebee/cb_1');
  });
});

describe('checkout page: Discord', () => {
  it("links to Discord's store (a real link, new tab); once clicked, waits for Discord's confirmation", async () => {
    let state: 'activating' | 'active' = 'activating';
    const { calls } = mockApi({
      'GET /api/plans': ALL_PROVIDER_PLANS,
      'POST /api/billing/discord/checkout': { url: 'https://discord.test/application-directory/1300000000000000001/store/1300000000000000801' },
      'GET /api/billing/checkouts/discord/1300000000000000801': statusAnswer(() => state, { provider: 'discord', id: '1300000000000000901' }),
    });
    const open = vi.spyOn(window, 'open');
    page('/billing/checkout?provider=discord&price=1300000000000000801');
    expect(await screen.findByRole('heading', { name: "Buy in Discord's store" })).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: /Open Discord's store/ });
    expect(link).toHaveAttribute('href', 'https://discord.test/application-directory/1300000000000000001/store/1300000000000000801');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener');
    expect(calls('/api/billing/checkouts/discord/1300000000000000801')).toEqual([]);

    await userEvent.click(link);
    expect(await screen.findByText('Waiting for Discord to confirm your purchase…')).toBeInTheDocument();
    expect(screen.getByText('Waiting for Discord to confirm your purchase…').closest('[aria-live="polite"]')).not.toBeNull();
    // Every state the page passes through: "Premium is active" never shows beside the store's link
    // (the page once showed both for a moment, between its render and an effect).
    const both: string[] = [];
    const watch = new MutationObserver(() => {
      if (document.body.textContent?.includes('Premium is active') && document.body.textContent.includes("Open Discord's store")) both.push(document.body.textContent);
    });
    watch.observe(document.body, { childList: true, subtree: true, characterData: true });
    state = 'active';
    expect(await screen.findByRole('heading', { name: 'Premium is active' }, { timeout: 5000 })).toBeInTheDocument();
    watch.disconnect();
    expect(both).toEqual([]);
    expect(screen.getByRole('link', { name: 'Open the subscription' })).toHaveAttribute('href', '/billing/discord/1300000000000000901');
    expect(screen.queryByRole('link', { name: /Open Discord's store/ })).not.toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();
  });
});

describe('checkout page: what it cannot sell', () => {
  it('no provider, an unknown one, or a price the provider does not sell: says so, with the way to the plans', async () => {
    mockApi({ 'GET /api/plans': ALL_PROVIDER_PLANS });
    page('/billing/checkout');
    expect(screen.getByText('Choose a plan and a way to pay')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Compare plans' }).at(-1)).toHaveAttribute('href', '/premium-purchase');
    cleanup();
    resetShared(store);

    mockApi({ 'GET /api/plans': ALL_PROVIDER_PLANS });
    page('/billing/checkout?provider=stripe&price=x');
    expect(screen.getByText('Choose a plan and a way to pay')).toBeInTheDocument();
    cleanup();
    resetShared(store);

    const { unexpected } = mockApi({ 'GET /api/plans': ALL_PROVIDER_PLANS });
    page('/billing/checkout?provider=fastspring&price=pri_premium_monthly');
    expect(await screen.findByText('Choose a plan first')).toBeInTheDocument();
    expect(unexpected).toEqual([]);
    cleanup();
    resetShared(store);

    mockApi({ 'GET /api/plans': ALL_PROVIDER_PLANS });
    page('/billing/checkout?provider=chargebee');
    expect(screen.getByText('Choose a plan first')).toBeInTheDocument();
  });

  it("sends Paddle's purchases to Paddle's checkout page", async () => {
    mockApi({ 'GET /api/plans': ALL_PROVIDER_PLANS });
    const rendered = renderPage(<CheckoutPage />, {
      url: '/billing/checkout?provider=paddle&price=pri_premium_monthly',
      path: '/billing/checkout',
      me: signedInMe(),
      routes: [{ path: '/billing/paddleBuy', element: <p>Paddle checkout</p> }],
    });
    store = rendered.store;
    expect(await screen.findByText('Paddle checkout')).toBeInTheDocument();
    expect(rendered.router.state.location.search).toBe('?price=pri_premium_monthly');
  });
});
