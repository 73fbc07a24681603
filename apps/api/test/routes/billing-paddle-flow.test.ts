import { ApiError, BillingActionAnswer, BillingSubscription, BillingSubscriptionsAnswer, CheckoutStatus, PaddleCheckoutAnswer, ServerConfigAnswer } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_ORIGIN, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { MINUTE } from '../helpers/clock';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';
import { freePort } from '../helpers/redis-server';

const { ava, ben } = DEMO_USERS;
const PALS = DEMO_GUILDS.pixelPals.id;

const ports = await Promise.all(databases().map(() => freePort()));

describe.each(databases().map((d, i) => ({ ...d, port: ports[i]! })))('a Paddle purchase end to end through the stand-in on $name', (database) => {
  const origin = `http://127.0.0.1:${database.port}`;
  const t = useTestApp(database, { env: { PUBLIC_URL: origin } });
  let browser: Browser;

  beforeAll(async () => {
    await t.app.listen({ port: database.port, host: '127.0.0.1' });
    browser = new Browser(t.app);
    await signIn(browser, ava.id);
  });

  /**
   * The buyer in Paddle's checkout, as Paddle.js opens it: the transaction the API made for the
   * signed-in user (`Paddle.Checkout.open({ transactionId, customData? })`), then its form with a card.
   */
  async function pay(priceId: string, card = '4242 4242 4242 4242', options: { as?: Browser; customData?: Record<string, unknown> } = {}): Promise<{ status: number; body: string; transactionId: string }> {
    const prepared = await (options.as ?? browser).post('/api/billing/paddle/checkout', { priceId });
    expect(prepared.statusCode, prepared.body).toBe(200);
    const { transactionId } = PaddleCheckoutAnswer.parse(prepared.json());
    const query = new URLSearchParams({ txn: transactionId, email: 'ava@example.com', token: t.config.paddleToken!, ...(options.customData ? { custom_data: JSON.stringify(options.customData) } : {}) });
    const res = await checkoutPage(query, card);
    return { ...res, transactionId };
  }

  /** Paddle's checkout page for a query (what Paddle.js puts in its frame's address), paid with the card. */
  async function checkoutPage(query: URLSearchParams, card = '4242 4242 4242 4242'): Promise<{ status: number; body: string }> {
    const page = await t.app.inject({ method: 'GET', url: `/sandbox/paddle/checkout?${query}` });
    expect(page.statusCode, page.body).toBe(200);
    const session = /name="checkout" value="([^"]+)"/.exec(page.body)?.[1];
    expect(session).toBeTruthy();
    const form = new URLSearchParams({ checkout: session!, email: 'ava@example.com', card_number: card, expiry: '12/30', cvc: '123', cardholder_name: 'Ava' });
    const res = await t.app.inject({ method: 'POST', url: '/sandbox/paddle/checkout', headers: { 'content-type': 'application/x-www-form-urlencoded', origin, host: new URL(origin).host }, payload: form.toString() });
    return { status: res.statusCode, body: res.body };
  }

  const subscription = async (id: string) => BillingSubscription.parse((await browser.get(`/api/billing/subscriptions/paddle/${id}`)).json());
  /** Paddle's notifications delivered, then the inbox worked through. */
  const settle = async () => {
    await t.paddle.flush({ ignoreBackoff: true });
    await t.app.webhookInbox.work();
  };

  it('buys, activates only once the webhook is applied, covers a server, cancels and keeps it through Paddle’s API, updates the card, opens the portal', async () => {
    const paid = await pay('pri_premium_monthly');
    expect(paid.status, paid.body).toBe(200);
    const txn = t.paddle.transactions().at(-1)!;
    // The checkout paid the transaction the API made (custom data naming Ava, set by the API).
    expect(txn).toMatchObject({ id: paid.transactionId, origin: 'api', status: 'completed', custom_data: { userId: ava.id } });
    const subId = t.paddle.subscriptions().at(-1)!.id;

    // Paddle has taken the payment; its notifications have not been applied yet.
    await t.paddle.flush({ ignoreBackoff: true });
    expect(CheckoutStatus.parse((await browser.get(`/api/billing/checkouts/paddle/${txn.id}`)).json())).toEqual({ state: 'activating', subscription: null });
    await t.app.webhookInbox.work();
    const status = CheckoutStatus.parse((await browser.get(`/api/billing/checkouts/paddle/${txn.id}`)).json());
    expect(status).toMatchObject({ state: 'active', subscription: { id: subId, planName: 'Premium', interval: 'month', paymentMethod: 'Visa •••• 4242' } });

    // The slot goes on Pixel Pals: its panel limit rises.
    const put = await browser.request('PUT', `/api/guilds/${PALS}/premium`, {
      headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN },
      payload: { provider: 'paddle', subscriptionId: subId, slot: 1 },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(ServerConfigAnswer.parse((await browser.get(`/api/guilds/${PALS}/config`)).json())).toMatchObject({ premium: true, panelLimit: 50 });

    // Cancel: sent to Paddle (its SDK, over HTTP), shown once Paddle's webhook says so.
    const cancel = await browser.post(`/api/billing/subscriptions/paddle/${subId}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await subscription(subId)).toMatchObject({ cancelAtPeriodEnd: false });
    await settle();
    expect(await subscription(subId)).toMatchObject({ cancelAtPeriodEnd: true, premium: true, actions: ['resume', 'updatePaymentMethod', 'portal'] });

    const resume = await browser.post(`/api/billing/subscriptions/paddle/${subId}/resume`);
    expect(resume.statusCode, resume.body).toBe(200);
    await settle();
    expect(await subscription(subId)).toMatchObject({ cancelAtPeriodEnd: false });

    // The card update: Paddle's transaction for it, paid in its checkout with another card.
    const update = BillingActionAnswer.parse((await browser.post(`/api/billing/subscriptions/paddle/${subId}/payment-method`)).json());
    expect(update.transactionId).toMatch(/^txn_/);
    const page = await t.app.inject({ method: 'GET', url: `/sandbox/paddle/checkout?txn=${update.transactionId}` });
    const session = /name="checkout" value="([^"]+)"/.exec(page.body)?.[1];
    const form = new URLSearchParams({ checkout: session!, card_number: '5555 5555 5555 4444', expiry: '11/31', cvc: '321', cardholder_name: 'Ava' });
    expect((await t.app.inject({ method: 'POST', url: '/sandbox/paddle/checkout', headers: { 'content-type': 'application/x-www-form-urlencoded', origin, host: new URL(origin).host }, payload: form.toString() })).statusCode).toBe(200);
    await settle();
    expect(await subscription(subId)).toMatchObject({ paymentMethod: 'Mastercard •••• 4444' });

    const portal = BillingActionAnswer.parse((await browser.post(`/api/billing/subscriptions/paddle/${subId}/portal`)).json());
    expect(portal.url).toMatch(new RegExp(`^${origin}/sandbox/paddle/portal/`));
  });

  it('the buyer is the transaction’s user: custom data the browser puts beside it changes nothing, and another user cannot follow the purchase', async () => {
    const benBrowser = new Browser(t.app);
    await signIn(benBrowser, ben.id);
    const before = BillingSubscriptionsAnswer.parse((await benBrowser.get('/api/billing/subscriptions')).json()).subscriptions.length;
    // Ava's checkout, its custom data replaced in the browser (Paddle keeps it against the transaction).
    const paid = await pay('pri_premium_monthly', undefined, { customData: { userId: ben.id } });
    expect(paid.status, paid.body).toBe(200);
    const subId = t.paddle.subscriptions().at(-1)!.id;
    expect(t.paddle.subscriptions().at(-1)!.custom_data).toEqual({ userId: ben.id });
    await settle();
    expect(await subscription(subId)).toMatchObject({ userId: ava.id, premium: true });
    expect(BillingSubscriptionsAnswer.parse((await benBrowser.get('/api/billing/subscriptions')).json()).subscriptions).toHaveLength(before);
    expect((await benBrowser.get(`/api/billing/subscriptions/paddle/${subId}`)).statusCode).toBe(404);
    // Where Ava's purchase stands is Ava's to ask: Ben gets 404 (and so does a transaction the API never made).
    const theirs = await benBrowser.get(`/api/billing/checkouts/paddle/${paid.transactionId}`);
    expect(theirs.statusCode).toBe(404);
    expect(ApiError.parse(theirs.json()).code).toBe(1002);
    expect((await browser.get('/api/billing/checkouts/paddle/txn_01notours')).statusCode).toBe(404);
    expect(CheckoutStatus.parse((await browser.get(`/api/billing/checkouts/paddle/${paid.transactionId}`)).json())).toMatchObject({ state: 'active', subscription: { id: subId } });
  });

  it('a declined card buys nothing', async () => {
    const before = t.paddle.subscriptions().length;
    const declined = await pay('pri_premium_monthly', '4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    await settle();
    expect(t.paddle.subscriptions()).toHaveLength(before);
  });

  it('Paddle at its worst (every notification twice, out of order, the first attempts failing): one subscription, in its latest state', async () => {
    t.paddle.setChaos({ duplicate: 1, shuffle: true, failFirst: 3 });
    try {
      expect((await pay('pri_premium_yearly')).status).toBe(200);
      const subId = t.paddle.subscriptions().at(-1)!.id;
      for (let i = 0; i < 4; i++) await settle();
      expect((await browser.post(`/api/billing/subscriptions/paddle/${subId}/cancel`)).statusCode).toBe(200);
      for (let i = 0; i < 4; i++) {
        await settle();
        t.clock.advance(10 * MINUTE); // the inbox's retries come due
      }
      const rows = await t.db.query(`SELECT 1 FROM subscriptions WHERE provider_subscription_id = $1`, [subId]);
      expect(rows.rows).toHaveLength(1);
      expect(await subscription(subId)).toMatchObject({ interval: 'year', cancelAtPeriodEnd: true, paymentMethod: 'Visa •••• 4242' });
      const { rows: dupes } = await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM webhook_events WHERE subject = $1 GROUP BY event_key HAVING count(*) > 1`, [subId]);
      expect(dupes).toEqual([]);
    } finally {
      t.paddle.setChaos({ duplicate: 0, shuffle: false, failFirst: 0 });
    }
  });

  it('reconciliation heals webhooks that never came: a purchase Paddle never told us about, and a cancel', async () => {
    // What the other stand-ins already have (the demo Discord's subscription of Ava) is stored first.
    await t.app.billingReconciler.run();
    // Paddle's notifications of this purchase are lost.
    t.paddle.pause();
    expect((await pay('pri_premium_monthly')).status).toBe(200);
    const subId = t.paddle.subscriptions().at(-1)!.id;
    for (const e of t.paddle.events()) t.paddle.drop(e.event_id);
    t.paddle.resume();
    await settle();
    expect((await browser.get(`/api/billing/subscriptions/paddle/${subId}`)).statusCode).toBe(404);

    const healed = await t.app.billingReconciler.run();
    expect(healed).toMatchObject({ healed: 1, failed: 0 });
    expect(healed.read).toBeGreaterThanOrEqual(1);
    expect(await subscription(subId)).toMatchObject({ status: 'active', premium: true, planName: 'Premium', userId: ava.id });

    // The cancel's notification is lost too: the next pass finds it; a pass with nothing new changes nothing.
    t.paddle.pause();
    expect((await browser.post(`/api/billing/subscriptions/paddle/${subId}/cancel`)).statusCode).toBe(200);
    for (const e of t.paddle.events()) t.paddle.drop(e.event_id);
    t.paddle.resume();
    await settle();
    expect(await subscription(subId)).toMatchObject({ cancelAtPeriodEnd: false });
    expect(await t.app.billingReconciler.run()).toMatchObject({ healed: 1, failed: 0 });
    expect(await subscription(subId)).toMatchObject({ cancelAtPeriodEnd: true, premium: true });
    expect(await t.app.billingReconciler.run()).toMatchObject({ healed: 0, failed: 0 });
  });

  // Last: its subscription stays at Paddle without an owner, which every reconciliation pass then reports.
  it('a checkout the API did not make (Paddle.js opened with items and custom data naming a user) buys that user nothing', async () => {
    const benBrowser = new Browser(t.app);
    await signIn(benBrowser, ben.id);
    const before = BillingSubscriptionsAnswer.parse((await benBrowser.get('/api/billing/subscriptions')).json()).subscriptions.length;
    const query = new URLSearchParams({ items: JSON.stringify([{ priceId: 'pri_premium_monthly', quantity: 1 }]), custom_data: JSON.stringify({ userId: ben.id }), token: t.config.paddleToken! });
    expect((await checkoutPage(query)).status).toBe(200);
    const subId = t.paddle.subscriptions().at(-1)!.id;
    await settle();
    // Nobody owns it: its subscription waits (no checkout of this server names a buyer) and is never stored.
    expect(await t.db.query('SELECT 1 FROM subscriptions WHERE provider_subscription_id = $1', [subId])).toMatchObject({ rows: [] });
    const { rows } = await t.db.query<{ last_error: string }>(`SELECT last_error FROM webhook_events WHERE subject = $1 AND event_type = 'subscription.created'`, [subId]);
    expect(rows[0]!.last_error).toMatch(/no user is known .*not one this server made/);
    expect(BillingSubscriptionsAnswer.parse((await benBrowser.get('/api/billing/subscriptions')).json()).subscriptions).toHaveLength(before);
    // Reconciliation does not give it to anyone either.
    expect((await t.app.billingReconciler.run()).failed).toBeGreaterThanOrEqual(1);
    expect(await t.db.query('SELECT 1 FROM subscriptions WHERE provider_subscription_id = $1', [subId])).toMatchObject({ rows: [] });
    await t.db.query('DELETE FROM webhook_events WHERE subject = $1', [subId]);
  });
});
