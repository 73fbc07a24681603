import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shot, titleOf, useBrowser } from '../src/browser';
import { main } from '../src/pages';
import { type RunningServer, startServer } from '../src/server';
import { DEMO_GUILDS, DEMO_USERS, signInContext } from '../src/session';

/**
 * Premium and billing (issue 10), as people do it in demo mode: Paddle is the sandbox's stand-in
 * (its Paddle.js, its checkout with test cards, its API and its signed webhooks to the API).
 */
let server: RunningServer | undefined;
const b = useBrowser({ baseURL: () => server!.url });

beforeAll(async () => {
  server = await startServer({ env: { DEMO_BOT: 'off' } });
});
afterAll(async () => {
  await server?.stop();
});

const PIXEL = DEMO_GUILDS.pixelPals;

describe('premium through Paddle', () => {
  test('Ava buys Premium in Paddle’s checkout, sees it activating then active, and never buys twice', async () => {
    await signInContext(b.context, b.baseURL, 'ava');
    await b.page.goto('/premium-purchase');
    const card = main(b.page).getByRole('group', { name: 'Premium' });
    await card.getByRole('link', { name: 'Buy Premium' }).click();
    await b.page.waitForURL(/\/billing\/paddleBuy\?price=pri_premium_monthly$/);
    expect(await titleOf(b.page, 'Tickety - Checkout')).toBe('Tickety - Checkout');
    await main(b.page).getByRole('button', { name: 'Pay with Paddle' }).click();

    // Paddle's overlay (the stand-in's Paddle.js), its checkout in a frame.
    const overlay = b.page.getByRole('dialog', { name: 'Checkout' });
    await overlay.waitFor();
    const checkout = b.page.frameLocator('iframe[title="Checkout"]');
    await checkout.getByLabel('Email').fill('ava@example.com');
    await checkout.getByLabel('Card number').fill('4242 4242 4242 4242');
    await shot(b.page, 'billing-paddle-checkout');
    await checkout.getByRole('button', { name: /Pay|Subscribe/ }).click();

    // The page follows the purchase: activating until the webhook has landed, then active.
    await b.page.waitForURL(/\/billing\/paddleBuy\?txn=txn_/, { timeout: 15_000 });
    await main(b.page).getByRole('heading', { name: 'Premium is active' }).waitFor({ timeout: 20_000 });
    await shot(b.page, 'billing-paddle-active');
    // A refresh shows the same purchase, not a second checkout.
    await b.page.reload();
    await main(b.page).getByRole('heading', { name: 'Premium is active' }).waitFor({ timeout: 15_000 });
    expect(await main(b.page).getByRole('button', { name: 'Pay with Paddle' }).count()).toBe(0);
  });

  test('Ava puts the slot on Pixel Pals: the server has premium and its panel limit rises', async () => {
    await signInContext(b.context, b.baseURL, 'ava');
    await b.page.goto(`/dashboard/${PIXEL.id}/premium`);
    await main(b.page).getByText('Not active').waitFor();
    await main(b.page).getByRole('button', { name: 'Use on Pixel Pals' }).click();
    await main(b.page).getByText('Your Premium subscription through Paddle covers it (slot 1).').waitFor();
    await shot(b.page, 'server-premium-active');
    const limits = await b.page.evaluate(async (id) => (await (await fetch(`/api/guilds/${id}/config`, { credentials: 'include' })).json()) as { premium: boolean; panelLimit: number }, PIXEL.id);
    expect(limits).toMatchObject({ premium: true, panelLimit: 50 });
  });

  test('Ava opens the subscription from billing and cancels it: the page waits for Paddle, then shows the end date', async () => {
    await signInContext(b.context, b.baseURL, 'ava');
    await b.page.goto('/billing');
    await main(b.page).getByRole('heading', { name: 'Premium through Paddle' }).waitFor();
    expect(await main(b.page).getByText('Pixel Pals').count()).toBeGreaterThan(0);
    await main(b.page).getByRole('link', { name: 'Open the Premium subscription through Paddle' }).click();
    await main(b.page).getByRole('button', { name: 'Cancel subscription' }).click();
    await main(b.page).getByRole('alertdialog', { name: 'Cancel this subscription?' }).waitFor();
    await main(b.page).getByRole('button', { name: 'Cancel at period end' }).click();
    await main(b.page).getByText('Ends at period end').waitFor({ timeout: 20_000 });
    await main(b.page).getByRole('button', { name: 'Keep subscription' }).waitFor();
    await shot(b.page, 'billing-subscription-cancelling');
  });

  test('Sam (staff) reads Ava’s billing, read-only', async () => {
    await signInContext(b.context, b.baseURL, 'sam');
    await b.page.goto(`/billing/${DEMO_USERS.ava.id}`);
    await main(b.page).getByText(/You are reading the billing of user/).waitFor();
    await main(b.page).getByRole('heading', { name: 'Premium through Paddle' }).waitFor();
    await main(b.page).getByRole('link', { name: 'Open the Premium subscription through Paddle' }).click();
    await main(b.page).getByText('Ends at period end').waitFor();
    expect(await main(b.page).getByRole('button').count()).toBe(0);
  });

  test('Cleo, who never bought, sees the empty state with a way to the plans', async () => {
    await signInContext(b.context, b.baseURL, 'cleo');
    await b.page.goto('/billing');
    await main(b.page).getByRole('heading', { name: 'No subscriptions yet' }).waitFor();
    expect(await main(b.page).getByRole('link', { name: 'See premium plans' }).first().getAttribute('href')).toBe('/premium-purchase');
    await shot(b.page, 'billing-empty');
  });
});
