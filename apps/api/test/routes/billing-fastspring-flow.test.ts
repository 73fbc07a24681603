import {
  BillingActionAnswer,
  BillingInvoicesAnswer,
  BillingSubscription,
  ChangePlanPreview,
  CheckoutStatus,
  FastspringCheckoutAnswer,
  ServerConfigAnswer,
} from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_ORIGIN, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { DAY, MINUTE } from '../helpers/clock';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';
import { freePort } from '../helpers/redis-server';

const { ava, ben } = DEMO_USERS;
const PALS = DEMO_GUILDS.pixelPals.id;
const BENS = DEMO_GUILDS.bensWorkshop.id;

const ports = await Promise.all(databases().map(() => freePort()));

describe.each(databases().map((d, i) => ({ ...d, port: ports[i]! })))('a FastSpring purchase end to end through the stand-in on $name', (database) => {
  const origin = `http://127.0.0.1:${database.port}`;
  // Sessions stay signed in across the days the clock moves (a plan change a day after the purchase).
  const t = useTestApp(database, { env: { PUBLIC_URL: origin, SESSION_IDLE_SECONDS: String(7 * 24 * 3600) } });
  let browser: Browser;
  let other: Browser;

  beforeAll(async () => {
    await t.app.listen({ port: database.port, host: '127.0.0.1' });
    // The stand-in's webhooks go out when a test flushes them (never on a real-time timer).
    t.fastspring.pause();
    browser = new Browser(t.app);
    await signIn(browser, ava.id);
    other = new Browser(t.app);
    await signIn(other, ben.id);
  });

  /** FastSpring's API as the stand-in answers it (HTTP basic with the API's own credentials). */
  const fastspringApi = (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const { apiUsername, apiPassword } = t.config.billing.fastspring;
    return t.app.inject({
      method,
      url: `/sandbox/fastspring${path}`,
      headers: { authorization: `Basic ${Buffer.from(`${apiUsername}:${apiPassword}`).toString('base64')}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  };

  /**
   * The buyer in FastSpring's popup: the API's secure payload passed to the builder
   * (`fastspring.builder.secure(securePayload, secureKey)`, sent with the cart), with whatever the
   * browser adds (`tags`), the popup page, then its form with a card (as the stand-in's own tests post
   * it). Answers the order the popup reports to the builder, and the subscription it made.
   */
  async function buy(
    priceId: string,
    card = '4242 4242 4242 4242',
    options: { tags?: Record<string, unknown>; tamper?: (answer: FastspringCheckoutAnswer) => FastspringCheckoutAnswer; page?: number } = {},
  ): Promise<{ status: number; orderId: string; reference: string; subId: string }> {
    const prepared = await browser.post('/api/billing/fastspring/checkout', { priceId });
    expect(prepared.statusCode, prepared.body).toBe(200);
    let answer = FastspringCheckoutAnswer.parse(prepared.json());
    expect(answer).toEqual({ scriptUrl: t.config.billing.fastspring.scriptUrl, storefront: t.config.billing.fastspring.storefront, securePayload: expect.any(String), secureKey: expect.any(String) });
    answer = options.tamper?.(answer) ?? answer;
    const query = new URLSearchParams({
      storefront: answer.storefront,
      products: '[]',
      tags: JSON.stringify(options.tags ?? {}),
      secure_payload: answer.securePayload,
      secure_key: answer.secureKey,
      email: 'ava@example.com',
      parent_origin: DASHBOARD_ORIGIN,
    });
    const page = await t.app.inject({ method: 'GET', url: `/sandbox/fastspring/popup?${query}` });
    if (options.page !== undefined) {
      expect(page.statusCode, page.body).toBe(options.page);
      return { status: page.statusCode, orderId: '', reference: '', subId: '' };
    }
    expect(page.statusCode, page.body).toBe(200);
    const session = /name="session" value="([A-Za-z0-9_-]+)"/.exec(page.body)?.[1];
    expect(session).toBeTruthy();
    const form = new URLSearchParams({ session: session!, email: 'ava@example.com', card_number: card, expiry: '12/30', cvc: '123' });
    const res = await t.app.inject({ method: 'POST', url: '/sandbox/fastspring/popup', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
    const done = /<script type="application\/json" id="fastspring-event">([^<]*)<\/script>/.exec(res.body);
    if (!done) return { status: res.statusCode, orderId: '', reference: '', subId: '' };
    const { id, reference } = (JSON.parse(done[1]!) as { data: { id: string; reference: string } }).data;
    return { status: res.statusCode, orderId: id, reference, subId: t.fastspring.subscriptions().find((s) => s.initialOrderId === id)!.id };
  }

  const subscription = async (id: string) => {
    const res = await browser.get(`/api/billing/subscriptions/fastspring/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return BillingSubscription.parse(res.json());
  };
  const checkout = async (orderId: string) => {
    const res = await browser.get(`/api/billing/checkouts/fastspring/${orderId}`);
    expect(res.statusCode, res.body).toBe(200);
    return CheckoutStatus.parse(res.json());
  };
  /** FastSpring's webhooks delivered (retries too), then the inbox worked through. */
  const settle = async () => {
    await t.fastspring.flush({ ignoreBackoff: true });
    await t.app.webhookInbox.work();
  };
  const standIn = (id: string) => t.fastspring.subscriptions().find((s) => s.id === id)!;

  let subId = '';
  let orderId = '';

  it('buys in the popup, is "activating" until the webhook is applied, then active; covers a server', async () => {
    const paid = await buy('tickety-premium-monthly');
    expect(paid.status).toBe(200);
    ({ subId, orderId } = paid);

    // FastSpring has taken the payment; its webhook has not arrived, then not been applied yet.
    expect(await checkout(orderId)).toEqual({ state: 'activating', subscription: null });
    await t.fastspring.flush();
    expect(await checkout(orderId)).toEqual({ state: 'activating', subscription: null });
    await t.app.webhookInbox.work();
    expect(await checkout(orderId)).toMatchObject({
      state: 'active',
      subscription: { provider: 'fastspring', id: subId, userId: ava.id, planName: 'Premium', interval: 'month', status: 'active', premium: true, cancelAtPeriodEnd: false },
    });
    expect(await subscription(subId)).toMatchObject({ actions: ['cancel', 'changePlan', 'portal'], currentPeriodEnd: new Date(standIn(subId).next!).toISOString() });

    // The slot goes on Pixel Pals: its panel limit rises.
    expect(ServerConfigAnswer.parse((await browser.get(`/api/guilds/${PALS}/config`)).json())).toMatchObject({ premium: false });
    const put = await browser.request('PUT', `/api/guilds/${PALS}/premium`, {
      headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN },
      payload: { provider: 'fastspring', subscriptionId: subId, slot: 1 },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(ServerConfigAnswer.parse((await browser.get(`/api/guilds/${PALS}/config`)).json())).toMatchObject({ premium: true, panelLimit: 50 });
  });

  it('cancels (premium kept until deactivation) and resumes through FastSpring’s API, shown once its webhook says so', async () => {
    t.clock.advance(MINUTE);
    const cancel = await browser.post(`/api/billing/subscriptions/fastspring/${subId}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(BillingActionAnswer.parse(cancel.json())).toEqual({ requested: 'cancel', url: null, transactionId: null });
    expect(standIn(subId)).toMatchObject({ state: 'canceled' });
    expect(await subscription(subId)).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    await settle();
    expect(await subscription(subId)).toMatchObject({ status: 'canceled', premium: true, cancelAtPeriodEnd: true, actions: ['resume', 'portal'] });
    expect(ServerConfigAnswer.parse((await browser.get(`/api/guilds/${PALS}/config`)).json())).toMatchObject({ premium: true });
    // Canceled already: the action is not offered again.
    expect((await browser.post(`/api/billing/subscriptions/fastspring/${subId}/cancel`)).statusCode).toBe(400);

    t.clock.advance(MINUTE);
    const resume = await browser.post(`/api/billing/subscriptions/fastspring/${subId}/resume`);
    expect(resume.statusCode, resume.body).toBe(200);
    expect(standIn(subId)).toMatchObject({ state: 'active' });
    await settle();
    expect(await subscription(subId)).toMatchObject({ status: 'active', premium: true, cancelAtPeriodEnd: false, actions: ['cancel', 'changePlan', 'portal'] });
  });

  it('changes plan monthly → yearly: the preview is FastSpring’s estimate; the change shows once its webhook lands', async () => {
    t.clock.advance(DAY);
    const res = await browser.post(`/api/billing/subscriptions/fastspring/${subId}/change-plan/preview`, { priceId: 'tickety-premium-yearly' });
    expect(res.statusCode, res.body).toBe(200);
    const preview = ChangePlanPreview.parse(res.json());
    const estimate = (await fastspringApi('POST', '/subscriptions/estimate', { subscription: subId, product: 'tickety-premium-yearly', quantity: 1 })).json() as {
      currency: string;
      amountDue: { prorationSubtotal: number; nextChargeAmount: number; nextChargeDate: number };
    };
    expect(preview).toEqual({
      priceId: 'tickety-premium-yearly',
      planName: 'Premium',
      interval: 'year',
      dueNow: { amount: estimate.amountDue.prorationSubtotal, currency: estimate.currency },
      nextCharge: { amount: estimate.amountDue.nextChargeAmount, currency: 'USD', at: new Date(estimate.amountDue.nextChargeDate).toISOString() },
    });
    // The year's price less the unused 30 of the month's 31 days: 49.99 − 4.99 × 30/31.
    expect(preview.dueNow).toEqual({ amount: 45.16, currency: 'USD' });
    expect(preview.nextCharge).toEqual({ amount: 49.99, currency: 'USD', at: new Date(t.clock.now + 365 * DAY).toISOString() });
    // The same plan, or a price not on sale, is refused before FastSpring is asked.
    expect((await browser.post(`/api/billing/subscriptions/fastspring/${subId}/change-plan/preview`, { priceId: 'tickety-premium-monthly' })).statusCode).toBe(400);
    expect((await browser.post(`/api/billing/subscriptions/fastspring/${subId}/change-plan`, { priceId: 'pri_premium_yearly' })).statusCode).toBe(400);

    const change = await browser.post(`/api/billing/subscriptions/fastspring/${subId}/change-plan`, { priceId: 'tickety-premium-yearly' });
    expect(change.statusCode, change.body).toBe(200);
    expect(BillingActionAnswer.parse(change.json())).toEqual({ requested: 'changePlan', url: null, transactionId: null });
    expect(await subscription(subId)).toMatchObject({ interval: 'month' });
    await settle();
    expect(await subscription(subId)).toMatchObject({ planName: 'Premium', interval: 'year', status: 'active', premium: true, currentPeriodEnd: new Date(t.clock.now + 365 * DAY).toISOString() });
    expect(ServerConfigAnswer.parse((await browser.get(`/api/guilds/${PALS}/config`)).json())).toMatchObject({ premium: true });
  });

  it('opens the account portal (a working FastSpring page), lists the receipts and redirects to each invoice', async () => {
    const portal = BillingActionAnswer.parse((await browser.post(`/api/billing/subscriptions/fastspring/${subId}/portal`)).json());
    const base = `${t.config.publicUrl}/sandbox/fastspring/account/`;
    expect(portal.url?.startsWith(base)).toBe(true);
    expect(portal.url).toMatch(/#\/subscriptions$/);
    const page = await t.app.inject({ method: 'GET', url: new URL(portal.url!).pathname });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('ava@example.com');
    expect(page.body).toContain('Tickety Premium (yearly)');

    const orders = t.fastspring.orders().filter((o) => o.items.some((i) => i.subscription === subId));
    expect(orders.map((o) => o.total)).toEqual([4.99, 45.16]);
    const res = await browser.get(`/api/billing/subscriptions/fastspring/${subId}/invoices`);
    expect(res.statusCode, res.body).toBe(200);
    const { available, invoices } = BillingInvoicesAnswer.parse(res.json());
    expect(available).toBe(true);
    // Newest first: the plan change's prorated charge, then the purchase.
    expect(invoices).toEqual([
      { id: orders[1]!.id, date: new Date(orders[1]!.changed).toISOString(), total: { amount: 45.16, currency: 'USD' }, status: 'completed' },
      { id: orderId, date: new Date(orders[0]!.changed).toISOString(), total: { amount: 4.99, currency: 'USD' }, status: 'completed' },
    ]);
    for (const order of orders) {
      const redirect = await browser.get(`/api/billing/subscriptions/fastspring/${subId}/invoices/${order.id}`);
      expect(redirect.statusCode, redirect.body).toBe(303);
      expect(redirect.headers.location).toBe(order.invoiceUrl);
      const invoice = await t.app.inject({ method: 'GET', url: new URL(String(redirect.headers.location)).pathname });
      expect(invoice.statusCode).toBe(200);
      expect(invoice.body).toContain(`Invoice ${order.reference}`);
    }
    // An order that is not this subscription's (or none) is no invoice of it.
    expect((await browser.get(`/api/billing/subscriptions/fastspring/${subId}/invoices/nope`)).statusCode).toBe(404);
  });

  it('another user gets 404 for all of it, and cannot put the slot on their server', async () => {
    const path = `/api/billing/subscriptions/fastspring/${subId}`;
    const answers = [
      await other.get(path),
      await other.get(`/api/billing/checkouts/fastspring/${orderId}`),
      await other.post(`${path}/cancel`),
      await other.post(`${path}/resume`),
      await other.post(`${path}/portal`),
      await other.post(`${path}/change-plan/preview`, { priceId: 'tickety-premium-monthly' }),
      await other.post(`${path}/change-plan`, { priceId: 'tickety-premium-monthly' }),
      await other.get(`${path}/invoices`),
      await other.get(`${path}/invoices/${orderId}`),
      await other.request('PUT', `/api/guilds/${BENS}/premium`, {
        headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN },
        payload: { provider: 'fastspring', subscriptionId: subId, slot: 1 },
      }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 404));
    for (const a of answers) expect(a.body).not.toContain(subId);
    // Nothing changed at FastSpring.
    expect(standIn(subId)).toMatchObject({ state: 'active', product: 'tickety-premium-yearly' });
  });

  it('the buyer is the secure payload’s: tags the browser adds name nobody, and a payload changed in the browser does not open', async () => {
    // Tags naming Ben beside Ava's payload (and a forged checkout reference, which the payload's own overrides).
    const paid = await buy('tickety-premium-monthly', undefined, { tags: { userId: ben.id, buyer: ben.id, checkout: 'fsc_forgedforgedforgedforged' } });
    expect(paid.status).toBe(200);
    expect(standIn(paid.subId).tags).toMatchObject({ buyer: ben.id });
    await settle();
    expect(await subscription(paid.subId)).toMatchObject({ userId: ava.id });
    expect((await other.get(`/api/billing/subscriptions/fastspring/${paid.subId}`)).statusCode).toBe(404);
    // The encrypted payload changed (a byte of it): FastSpring cannot decrypt it, the popup does not open.
    const before = t.fastspring.orders().length;
    await buy('tickety-premium-monthly', undefined, {
      page: 400,
      tamper: (answer) => {
        const bytes = Buffer.from(answer.securePayload, 'base64');
        bytes[5]! ^= 0x01;
        return { ...answer, securePayload: bytes.toString('base64') };
      },
    });
    expect(t.fastspring.orders()).toHaveLength(before);
  });

  it('a declined card buys nothing', async () => {
    const before = t.fastspring.subscriptions().length;
    const declined = await buy('tickety-premium-monthly', '4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    await settle();
    expect(t.fastspring.subscriptions()).toHaveLength(before);
  });

  it('FastSpring at its worst (every POST twice, shuffled, held back, the first ones failing): one subscription, in its latest state', async () => {
    t.fastspring.setChaos({ duplicate: 1, shuffle: true, reorder: 0.5, failFirst: 3 });
    try {
      const paid = await buy('tickety-premium-yearly');
      expect(paid.status).toBe(200);
      const id = paid.subId;
      for (let i = 0; i < 3; i++) await settle();
      expect(await checkout(paid.orderId)).toMatchObject({ state: 'active', subscription: { id, interval: 'year' } });
      // Canceled here, then (at FastSpring, before any webhook of it arrives) resumed and canceled again.
      t.clock.advance(MINUTE);
      expect((await browser.post(`/api/billing/subscriptions/fastspring/${id}/cancel`)).statusCode).toBe(200);
      await t.app.billingClients.fastspring.resume(id);
      await t.app.billingClients.fastspring.cancelAtPeriodEnd(id);
      await t.app.billingClients.fastspring.resume(id);
      await t.app.billingClients.fastspring.cancelAtPeriodEnd(id);
      t.fastspring.setChaos({ failFirst: 2 });
      for (let i = 0; i < 4; i++) {
        await settle();
        t.clock.advance(10 * MINUTE); // the inbox's retries come due
      }
      expect(t.fastspring.posts().some((p) => p.duplicate)).toBe(true);
      expect(t.fastspring.posts().some((p) => p.simulated)).toBe(true);
      expect(t.fastspring.deliveries().filter((d) => d.state !== 'processed')).toEqual([]);
      expect((await t.db.query(`SELECT 1 FROM subscriptions WHERE provider_subscription_id = $1`, [id])).rows).toHaveLength(1);
      const fs = standIn(id);
      expect(fs.state).toBe('canceled');
      expect(await subscription(id)).toMatchObject({
        status: 'canceled',
        premium: true,
        interval: 'year',
        cancelAtPeriodEnd: true,
        currentPeriodEnd: new Date(fs.next!).toISOString(),
        userId: ava.id,
      });
      // Every event stored once and applied once, whatever the copies.
      const ids = t.fastspring.events().filter((e) => (e.data as { id?: string; initialOrderId?: string }).id === id || (e.data as { items?: Array<{ subscription: string }> }).items?.some((i) => i.subscription === id)).map((e) => e.id);
      const { rows } = await t.db.query<{ event_key: string; state: string; attempts: number }>(`SELECT event_key, state, attempts FROM webhook_events WHERE event_key = ANY($1::text[])`, [ids]);
      expect(rows.map((r) => r.event_key).sort()).toEqual([...ids].sort());
      expect(rows.every((r) => r.state === 'applied' && r.attempts === 1)).toBe(true);
    } finally {
      t.fastspring.setChaos({ duplicate: 0, shuffle: false, reorder: 0, failFirst: 0 });
    }
  });

  it('reconciliation heals webhooks that never came: a purchase FastSpring never told us about, and a cancel', async () => {
    // What the stand-ins already have (the demo Discord's subscription of Ava, the purchases above) is stored first.
    await t.app.billingReconciler.run();
    const dropAll = () => {
      for (const d of t.fastspring.deliveries()) if (d.state === 'pending') t.fastspring.drop(d.eventId);
    };
    const paid = await buy('tickety-premium-monthly');
    expect(paid.status).toBe(200);
    dropAll();
    await settle();
    expect((await browser.get(`/api/billing/subscriptions/fastspring/${paid.subId}`)).statusCode).toBe(404);

    const healed = await t.app.billingReconciler.run();
    expect(healed).toMatchObject({ healed: 1, failed: 0 });
    expect(healed.read).toBeGreaterThanOrEqual(3);
    expect(await subscription(paid.subId)).toMatchObject({ status: 'active', premium: true, planName: 'Premium', interval: 'month', userId: ava.id });
    // FastSpring's order (the id the popup reports) names the healed subscription.
    expect(await t.app.billingClients.fastspring.orderSubscription(paid.orderId)).toBe(paid.subId);
    expect(await t.app.billingClients.fastspring.orderSubscription('no-such-order')).toBeNull();
    // Its checkout page is active too, not "activating" for ever (the order tells which subscription it made).
    expect((await browser.get(`/api/billing/checkouts/fastspring/${paid.orderId}`)).json()).toMatchObject({ state: 'active', subscription: { id: paid.subId } });
    // The portal works for it too (the customer was linked to the buyer of the healed purchase's checkout).
    expect(BillingActionAnswer.parse((await browser.post(`/api/billing/subscriptions/fastspring/${paid.subId}/portal`)).json()).url).toMatch(/\/sandbox\/fastspring\/account\//);

    // The cancel's webhook is lost too: the next pass finds it; a pass with nothing new changes nothing.
    t.clock.advance(MINUTE);
    expect((await browser.post(`/api/billing/subscriptions/fastspring/${paid.subId}/cancel`)).statusCode).toBe(200);
    dropAll();
    await settle();
    expect(await subscription(paid.subId)).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    expect(await t.app.billingReconciler.run()).toMatchObject({ healed: 1, failed: 0 });
    expect(await subscription(paid.subId)).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: true, premium: true });
    expect(await t.app.billingReconciler.run()).toMatchObject({ healed: 0, failed: 0 });
  });

  // Last: its subscription stays at FastSpring without an owner, which every reconciliation pass then reports.
  it('an order made without the API (the builder’s cart and tags naming a user) buys that user nothing', async () => {
    const query = new URLSearchParams({
      storefront: t.config.billing.fastspring.storefront!,
      products: JSON.stringify([{ path: 'tickety-premium-monthly', quantity: 1 }]),
      tags: JSON.stringify({ userId: ben.id, checkout: 'fsc_guessedguessedguessedguess' }),
      email: 'ben@example.com',
    });
    const page = await t.app.inject({ method: 'GET', url: `/sandbox/fastspring/popup?${query}` });
    expect(page.statusCode, page.body).toBe(200);
    const session = /name="session" value="([A-Za-z0-9_-]+)"/.exec(page.body)?.[1];
    const form = new URLSearchParams({ session: session!, email: 'ben@example.com', card_number: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' });
    expect((await t.app.inject({ method: 'POST', url: '/sandbox/fastspring/popup', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() })).statusCode).toBe(200);
    const sub = t.fastspring.subscriptions().at(-1)!;
    await settle();
    expect((await t.db.query('SELECT 1 FROM subscriptions WHERE provider_subscription_id = $1', [sub.id])).rows).toEqual([]);
    const { rows } = await t.db.query<{ last_error: string }>(`SELECT last_error FROM webhook_events WHERE subject = $1 AND event_type = 'subscription.activated'`, [sub.id]);
    expect(rows[0]!.last_error).toMatch(/no user is known for fastspring subscription .* \(checkout fsc_guessed\w+, not one this server made\)/);
    expect((await other.get('/api/billing/subscriptions')).json()).toEqual({ subscriptions: [] });
    // Reconciliation gives it to nobody either.
    expect((await t.app.billingReconciler.run()).failed).toBeGreaterThanOrEqual(1);
    expect((await t.db.query('SELECT 1 FROM subscriptions WHERE provider_subscription_id = $1', [sub.id])).rows).toEqual([]);
  });
});
