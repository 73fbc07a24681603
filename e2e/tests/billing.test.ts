import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shot, titleOf, useBrowser } from '../src/browser';
import { main } from '../src/pages';
import { type RunningServer, startServer } from '../src/server';
import { DEMO_GUILDS, DEMO_USERS, signInContext } from '../src/session';

/**
 * Premium and billing, as people do it in demo mode: Paddle is the sandbox's stand-in
 * (its Paddle.js, its checkout with test cards, its API and its signed webhooks to the API).
 */
let server: RunningServer | undefined;
const harness = useBrowser({ baseURL: () => server!.url });

beforeAll(async () => {
  server = await startServer({ env: { DEMO_BOT: 'off' } });
});
afterAll(async () => {
  await server?.stop();
});

const PIXEL = DEMO_GUILDS.pixelPals;

describe('premium through Paddle', () => {
  test('Ava buys Premium in Paddle’s checkout, sees it activating then active, and never buys twice', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    await harness.page.goto('/premium-purchase');
    const card = main(harness.page).getByRole('group', { name: 'Premium' });
    await card.getByRole('link', { name: 'Pay with Paddle' }).click();
    await harness.page.waitForURL(/\/billing\/paddleBuy\?price=pri_premium_monthly$/);
    expect(await titleOf(harness.page, 'Tickety - Checkout')).toBe('Tickety - Checkout');
    await main(harness.page).getByRole('button', { name: 'Pay with Paddle' }).click();

    // Paddle's overlay (the stand-in's Paddle.js), its checkout in a frame.
    const overlay = harness.page.getByRole('dialog', { name: 'Checkout' });
    await overlay.waitFor();
    const checkout = harness.page.frameLocator('iframe[title="Checkout"]');
    await checkout.getByLabel('Email').fill('ava@example.com');
    await checkout.getByLabel('Card number').fill('4242 4242 4242 4242');
    await shot(harness.page, 'billing-paddle-checkout');
    await checkout.getByRole('button', { name: /Pay|Subscribe/ }).click();

    // The page follows the purchase: activating until the webhook has landed, then active.
    await harness.page.waitForURL(/\/billing\/paddleBuy\?txn=txn_/, { timeout: 15_000 });
    await main(harness.page).getByRole('heading', { name: 'Premium is active' }).waitFor({ timeout: 20_000 });
    await shot(harness.page, 'billing-paddle-active');
    // A refresh shows the same purchase, not a second checkout.
    await harness.page.reload();
    await main(harness.page).getByRole('heading', { name: 'Premium is active' }).waitFor({ timeout: 15_000 });
    expect(await main(harness.page).getByRole('button', { name: 'Pay with Paddle' }).count()).toBe(0);
  });

  test('Ava puts the slot on Pixel Pals: the server has premium and its panel limit rises', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    await harness.page.goto(`/dashboard/${PIXEL.id}/premium`);
    await main(harness.page).getByText('Not active').waitFor();
    await main(harness.page).getByRole('button', { name: 'Use on Pixel Pals' }).click();
    await main(harness.page).getByText('Your Premium subscription through Paddle covers it (slot 1).').waitFor();
    await shot(harness.page, 'server-premium-active');
    const limits = await harness.page.evaluate(async (id) => (await (await fetch(`/api/guilds/${id}/config`, { credentials: 'include' })).json()) as { premium: boolean; panelLimit: number }, PIXEL.id);
    expect(limits).toMatchObject({ premium: true, panelLimit: 50 });
  });

  test('Ava cannot move the slot to Retro Modders before the cooldown: the page says when it can move', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    await harness.page.goto(`/dashboard/${DEMO_GUILDS.modGuild.id}/premium`);
    const row = main(harness.page).getByRole('listitem').filter({ hasText: 'On Pixel Pals.' });
    await row.getByText(/It can move at/).waitFor();
    expect(await row.getByRole('button', { name: 'Move to Retro Modders' }).isDisabled()).toBe(true);
    await shot(harness.page, 'server-premium-cooldown');
  });

  test('Ava opens the subscription from billing and cancels it: the page waits for Paddle, then shows the end date', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    await harness.page.goto('/billing');
    await main(harness.page).getByRole('heading', { name: 'Premium through Paddle' }).waitFor();
    expect(await main(harness.page).getByText('Pixel Pals').count()).toBeGreaterThan(0);
    await main(harness.page).getByRole('link', { name: 'Open the Premium subscription through Paddle' }).click();
    await main(harness.page).getByRole('button', { name: 'Cancel subscription' }).click();
    await main(harness.page).getByRole('alertdialog', { name: 'Cancel this subscription?' }).waitFor();
    await main(harness.page).getByRole('button', { name: 'Cancel at period end' }).click();
    await main(harness.page).getByText('Ends at period end').waitFor({ timeout: 20_000 });
    await main(harness.page).getByRole('button', { name: 'Keep subscription' }).waitFor();
    await shot(harness.page, 'billing-subscription-cancelling');
  });

  test('Sam (staff) reads Ava’s billing, read-only', async () => {
    await signInContext(harness.context, harness.baseURL, 'sam');
    await harness.page.goto(`/billing/${DEMO_USERS.ava.id}`);
    await main(harness.page).getByText(/You are reading the billing of user/).waitFor();
    await main(harness.page).getByRole('heading', { name: 'Premium through Paddle' }).waitFor();
    await main(harness.page).getByRole('link', { name: 'Open the Premium subscription through Paddle' }).click();
    await main(harness.page).getByText('Ends at period end').waitFor();
    expect(await main(harness.page).getByRole('button').count()).toBe(0);
  });

  test('the Paddle subscription lists its receipt, and the receipt opens Paddle’s invoice', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    await harness.page.goto('/billing');
    await main(harness.page).getByRole('link', { name: 'Open the Premium subscription through Paddle' }).click();
    const receipts = main(harness.page).getByRole('table');
    await receipts.waitFor();
    expect(await receipts.getByRole('row').count()).toBeGreaterThanOrEqual(2);
    const [invoice] = await Promise.all([harness.context.waitForEvent('page'), receipts.getByRole('link', { name: /Download/ }).first().click()]);
    await invoice.waitForLoadState();
    expect(await invoice.getByText(/Invoice/).first().isVisible()).toBe(true);
    await invoice.close();
  });

  test('Cleo, who never bought, sees the empty state with a way to the plans', async () => {
    await signInContext(harness.context, harness.baseURL, 'cleo');
    await harness.page.goto('/billing');
    await main(harness.page).getByRole('heading', { name: 'No subscriptions yet' }).waitFor();
    expect(await main(harness.page).getByRole('link', { name: 'See premium plans' }).first().getAttribute('href')).toBe('/premium-purchase');
    await shot(harness.page, 'billing-empty');
  });
});

describe('premium through FastSpring, Chargebee and Discord', () => {
  test('Ava pays with FastSpring in its popup: activating, then active', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    await harness.page.goto('/premium-purchase');
    await main(harness.page).getByRole('group', { name: 'Premium' }).getByRole('link', { name: 'Pay with FastSpring' }).click();
    await harness.page.waitForURL(/\/billing\/checkout\?provider=fastspring&price=tickety-premium-monthly$/);
    // FastSpring's popup (the stand-in's Store Builder Library) opens with its checkout in a frame.
    await harness.page.getByRole('dialog', { name: 'Checkout' }).waitFor();
    const popup = harness.page.frameLocator('iframe[title="Checkout"]');
    await popup.getByLabel('Email').fill('ava@example.com');
    await popup.getByLabel('Card number').fill('4242 4242 4242 4242');
    await popup.getByLabel('Expiry date').fill('12/30');
    await popup.getByLabel('Security code (CVC)').fill('123');
    await shot(harness.page, 'billing-fastspring-popup');
    await popup.getByRole('button', { name: /^Pay/ }).click();
    await popup.getByRole('button', { name: 'Close' }).click();
    await harness.page.waitForURL(/provider=fastspring&ref=/, { timeout: 15_000 });
    await main(harness.page).getByRole('heading', { name: 'Premium is active' }).waitFor({ timeout: 20_000 });
    await shot(harness.page, 'billing-fastspring-active');
  });

  test('Ava moves her FastSpring subscription to yearly: FastSpring’s proration first, then the change once confirmed', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    await harness.page.goto('/billing');
    await main(harness.page).getByRole('link', { name: 'Open the Premium subscription through FastSpring' }).click();
    await main(harness.page).getByRole('button', { name: 'Change plan' }).click();
    await main(harness.page).getByRole('radio', { name: /Yearly/ }).check();
    await main(harness.page).getByText(/Due now: \$|Credit: \$/).waitFor({ timeout: 15_000 });
    await main(harness.page).getByText(/Next charge: \$49\.99/).waitFor();
    await shot(harness.page, 'billing-change-plan');
    await main(harness.page).getByRole('button', { name: 'Confirm change' }).click();
    await main(harness.page).getByText(/Your plan is now/).waitFor({ timeout: 20_000 });
  });

  test('Ava pays with Chargebee on its hosted page and comes back to an active subscription', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    await harness.page.goto('/premium-purchase');
    await main(harness.page).getByRole('group', { name: 'Premium' }).getByRole('link', { name: 'Pay with Chargebee' }).click();
    await harness.page.waitForURL(/\/sandbox\/chargebee\/pages\/v3\//, { timeout: 15_000 });
    await harness.page.getByLabel('Email').fill('ava@example.com');
    await harness.page.getByLabel('Card number').fill('5555 5555 5555 4444');
    await harness.page.getByLabel('Expiry date').fill('12/30');
    await harness.page.getByLabel('Security code (CVC)').fill('123');
    await shot(harness.page, 'billing-chargebee-hosted');
    await harness.page.getByRole('button', { name: /^Pay/ }).click();
    await harness.page.waitForURL(/\/billing\/checkout\?provider=chargebee/, { timeout: 15_000 });
    await main(harness.page).getByRole('heading', { name: 'Premium is active' }).waitFor({ timeout: 20_000 });
    await shot(harness.page, 'billing-chargebee-active');
  });

  test('Ben subscribes in Discord’s store: the page waits for Discord, then shows premium', async () => {
    await signInContext(harness.context, harness.baseURL, 'ben');
    await harness.page.goto('/premium-purchase');
    await main(harness.page).getByRole('group', { name: 'Premium' }).getByRole('link', { name: 'Subscribe in Discord' }).click();
    await harness.page.waitForURL(/\/billing\/checkout\?provider=discord/);
    const [store] = await Promise.all([harness.context.waitForEvent('page'), main(harness.page).getByRole('link', { name: /Open Discord’s store|Open Discord's store/ }).click()]);
    await store.waitForLoadState();
    await store.getByRole('link', { name: /^Ben/ }).click();
    await store.getByLabel('Card number').fill('4242 4242 4242 4242');
    await store.getByLabel('Expiry date').fill('12/30');
    await store.getByLabel('Security code (CVC)').fill('123');
    await shot(store, 'billing-discord-store');
    await store.getByRole('button', { name: /^Subscribe/ }).click();
    await store.getByText(/subscribed|Thank you/i).first().waitFor();
    await store.close();
    await main(harness.page).getByRole('heading', { name: 'Premium is active' }).waitFor({ timeout: 20_000 });
    await shot(harness.page, 'billing-discord-active');
  });
});
