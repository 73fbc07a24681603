import { ApiError, BillingActionAnswer, BillingInvoicesAnswer, BillingSubscription, ChangePlanPreview, CheckoutStatus, RedirectCheckoutAnswer, ServerConfigAnswer } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { injectFetch } from '../../src/lib/inject-fetch';
import { ChargebeeApi } from '../../src/services/billing/chargebee-api';
import { DASHBOARD_ORIGIN, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { MINUTE } from '../helpers/clock';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';
import { freePort } from '../helpers/redis-server';

const { ava, ben } = DEMO_USERS;
const PALS = DEMO_GUILDS.pixelPals.id;
const MONTHLY = 'tickety-premium-USD-Monthly';
const YEARLY = 'tickety-premium-USD-Yearly';
/** The stand-in sells the catalogue's prices in cents: Premium 4.99 a month, 49.99 a year. */
const MONTHLY_CENTS = 499;
const YEARLY_CENTS = 4999;

const ports = await Promise.all(databases().map(() => freePort()));

/**
 * A Chargebee purchase end to end: the API's client is Chargebee's official SDK (its httpClient sends
 * each call to the stand-in mounted in the same app), so every action below goes through the SDK's
 * requests and parsing, and the stand-in's webhooks (HTTP basic) come back to /api/webhooks/chargebee.
 */
describe.each(databases().map((d, i) => ({ ...d, port: ports[i]! })))('a Chargebee purchase end to end through the stand-in on $name', (database) => {
  const t = useTestApp(database, { env: { PUBLIC_URL: `http://127.0.0.1:${database.port}` } });
  let browser: Browser;
  let other: Browser;
  /** Ava's subscription bought by the first test (the next ones act on it). */
  let subId = '';

  beforeAll(async () => {
    // Webhooks go out only when a test flushes them (no background delivery racing the assertions).
    t.chargebee.pause();
    await t.app.listen({ port: database.port, host: '127.0.0.1' });
    browser = new Browser(t.app);
    await signIn(browser, ava.id);
    other = new Browser(t.app);
    await signIn(other, ben.id);
  });

  /** The stand-in's path of one of its absolute URLs (the API runs in process: inject, not HTTP). */
  const pathOf = (url: string) => {
    const parsed = new URL(url);
    expect(parsed.origin).toBe(t.config.publicUrl);
    return `${parsed.pathname}${parsed.search}`;
  };

  /**
   * The buyer: the API's checkout (which links a customer of ours to the user and answers the hosted
   * page), then Chargebee's hosted page and its form with a card, as the stand-in's own tests pay it.
   */
  async function buy(priceId: string, card = '4242 4242 4242 4242', who: Browser = browser): Promise<{ hostedPageId: string; status: number; location: string | undefined; body: string }> {
    const checkout = await who.post('/api/billing/chargebee/checkout', { priceId });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const { url } = RedirectCheckoutAnswer.parse(checkout.json());
    const page = pathOf(url);
    const hostedPageId = /\/pages\/v3\/([A-Za-z0-9]+)\/$/.exec(page)?.[1];
    expect(hostedPageId).toBeTruthy();
    const opened = await t.app.inject({ method: 'GET', url: page });
    expect(opened.statusCode, opened.body).toBe(200);
    const form = new URLSearchParams({ email: 'ava@example.com', card_number: card, expiry: '12/30', cvc: '123', cardholder_name: 'Ava' });
    const paid = await t.app.inject({ method: 'POST', url: `${page}pay`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
    return { hostedPageId: hostedPageId!, status: paid.statusCode, location: paid.headers.location as string | undefined, body: paid.body };
  }

  const subscription = async (id: string, who: Browser = browser) => {
    const res = await who.get(`/api/billing/subscriptions/chargebee/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return BillingSubscription.parse(res.json());
  };
  const checkoutStatus = async (hostedPageId: string, who: Browser = browser) => who.get(`/api/billing/checkouts/chargebee/${hostedPageId}`);
  /** Chargebee's webhooks delivered (retries at once), then the inbox worked through. */
  const settle = async () => {
    await t.chargebee.flush({ ignoreBackoff: true });
    await t.app.webhookInbox.work();
  };
  const subscriptionOf = (hostedPageId: string) => {
    const sub = t.chargebee.subscriptions().find((s) => s.id === t.chargebee.snapshot().hostedPages.find((p) => p.id === hostedPageId)?.result?.subscriptionId);
    expect(sub).toBeTruthy();
    return sub!;
  };

  it('buys through the hosted page, is "activating" until the webhook is applied, then covers a server', async () => {
    const paid = await buy(MONTHLY);
    expect(paid.status, paid.body).toBe(303);
    expect(paid.location).toBe(`${DASHBOARD_ORIGIN}/billing/checkout?provider=chargebee&id=${paid.hostedPageId}&state=succeeded`);
    const sub = subscriptionOf(paid.hostedPageId);
    // The customer Chargebee charged is the one the API linked to Ava before the checkout.
    const { rows: links } = await t.db.query<{ user_id: string }>(`SELECT user_id FROM billing_customers WHERE provider = 'chargebee' AND customer_id = $1`, [sub.customer_id]);
    expect(links).toEqual([{ user_id: ava.id }]);

    // Chargebee has taken the payment; its webhooks have arrived but are not applied yet.
    await t.chargebee.flush({ ignoreBackoff: true });
    const waiting = await checkoutStatus(paid.hostedPageId);
    expect(waiting.statusCode, waiting.body).toBe(200);
    expect(CheckoutStatus.parse(waiting.json())).toEqual({ state: 'activating', subscription: null });
    await t.app.webhookInbox.work();
    const active = CheckoutStatus.parse((await checkoutStatus(paid.hostedPageId)).json());
    expect(active).toMatchObject({
      state: 'active',
      subscription: { provider: 'chargebee', id: sub.id, userId: ava.id, status: 'active', planName: 'Premium', interval: 'month', premium: true, paymentMethod: 'Card •••• 4242' },
    });
    expect(active.subscription!.actions).toEqual(['cancel', 'changePlan', 'portal']);
    expect(active.subscription!.currentPeriodEnd).toBe(new Date(sub.current_term_end! * 1000).toISOString());

    // Someone else asking where Ava's purchase stands, or for the subscription: as if it did not exist.
    for (const res of [await checkoutStatus(paid.hostedPageId, other), await other.get(`/api/billing/subscriptions/chargebee/${sub.id}`)]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(ApiError.parse(res.json()).code).toBe(1002);
    }
    // A hosted page Chargebee does not know.
    expect((await checkoutStatus('NoSuchHostedPage000000000000000')).statusCode).toBe(404);

    // The slot goes on Pixel Pals: its panel limit rises.
    const put = await browser.request('PUT', `/api/guilds/${PALS}/premium`, {
      headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN },
      payload: { provider: 'chargebee', subscriptionId: sub.id, slot: 1 },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(ServerConfigAnswer.parse((await browser.get(`/api/guilds/${PALS}/config`)).json())).toMatchObject({ premium: true, panelLimit: 50 });
    subId = sub.id;
  });

  it('cancels at the term’s end through Chargebee (non_renewing, premium kept), then resumes', async () => {
    const cancel = await browser.post(`/api/billing/subscriptions/chargebee/${subId}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(BillingActionAnswer.parse(cancel.json())).toEqual({ requested: 'cancel', url: null, transactionId: null });
    // Chargebee did it; the page shows it once its webhook is applied.
    expect(t.chargebee.subscriptions().find((s) => s.id === subId)).toMatchObject({ status: 'non_renewing' });
    expect(await subscription(subId)).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    await settle();
    const ending = await subscription(subId);
    expect(ending).toMatchObject({ status: 'non_renewing', cancelAtPeriodEnd: true, premium: true, actions: ['resume', 'portal'] });
    expect(ServerConfigAnswer.parse((await browser.get(`/api/guilds/${PALS}/config`)).json())).toMatchObject({ premium: true });
    // Cancelling twice is refused by the API (the action is not offered), not sent to Chargebee.
    const again = await browser.post(`/api/billing/subscriptions/chargebee/${subId}/cancel`);
    expect(again.statusCode).toBe(400);
    expect(ApiError.parse(again.json()).code).toBe(1001);
    // Someone else cannot act on it.
    expect((await other.post(`/api/billing/subscriptions/chargebee/${subId}/resume`)).statusCode).toBe(404);

    const resume = await browser.post(`/api/billing/subscriptions/chargebee/${subId}/resume`);
    expect(resume.statusCode, resume.body).toBe(200);
    await settle();
    expect(await subscription(subId)).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, premium: true, actions: ['cancel', 'changePlan', 'portal'] });
  });

  it('previews a change to yearly with Chargebee’s proration, applies it; the webhook changes plan and interval', async () => {
    const before = t.chargebee.subscriptions().find((s) => s.id === subId)!;
    // Half-way through the month: the unused half of the monthly price is credited against the year.
    const half = Math.floor((before.current_term_end! - before.current_term_start!) / 2);
    t.clock.advance(half * 1000);
    // Weeks later: both sign in again (sessions do not last that long).
    await signIn(browser, ava.id);
    await signIn(other, ben.id);
    const nowS = Math.floor(t.clock.now / 1000);
    const unusedShare = (before.current_term_end! - nowS) / (before.current_term_end! - before.current_term_start!);
    const credit = Math.round(MONTHLY_CENTS * unusedShare);
    // The stand-in's arithmetic: another billing period starts a new term now, charged in full, the
    // credit for the unused time applied to that charge first.
    const due = YEARLY_CENTS - credit;

    const preview = await browser.post(`/api/billing/subscriptions/chargebee/${subId}/change-plan/preview`, { priceId: YEARLY });
    expect(preview.statusCode, preview.body).toBe(200);
    // The new term: a year from now (to the second).
    const yearEnd = new Date(nowS * 1000);
    yearEnd.setUTCFullYear(yearEnd.getUTCFullYear() + 1);
    expect(ChangePlanPreview.parse(preview.json())).toEqual({
      priceId: YEARLY,
      planName: 'Premium',
      interval: 'year',
      dueNow: { amount: due / 100, currency: 'USD' },
      nextCharge: { amount: YEARLY_CENTS / 100, currency: 'USD', at: yearEnd.toISOString() },
    });
    // A preview changes nothing.
    expect(t.chargebee.subscriptions().find((s) => s.id === subId)!.subscription_items[0]!.item_price_id).toBe(MONTHLY);
    // The same plan again, or a price that is not on sale, is refused.
    expect((await browser.post(`/api/billing/subscriptions/chargebee/${subId}/change-plan/preview`, { priceId: MONTHLY })).statusCode).toBe(400);
    expect((await browser.post(`/api/billing/subscriptions/chargebee/${subId}/change-plan`, { priceId: 'pri_premium_yearly' })).statusCode).toBe(400);
    expect((await other.post(`/api/billing/subscriptions/chargebee/${subId}/change-plan/preview`, { priceId: YEARLY })).statusCode).toBe(404);

    const change = await browser.post(`/api/billing/subscriptions/chargebee/${subId}/change-plan`, { priceId: YEARLY });
    expect(change.statusCode, change.body).toBe(200);
    expect(await subscription(subId)).toMatchObject({ interval: 'month' });
    await settle();
    const changed = await subscription(subId);
    expect(changed).toMatchObject({ planName: 'Premium', interval: 'year', status: 'active', premium: true, currentPeriodEnd: yearEnd.toISOString() });
    // Charged what the preview said.
    const invoice = t.chargebee.invoices().find((i) => i.subscription_id === subId && i.line_items[0]!.entity_id === YEARLY)!;
    expect(invoice).toMatchObject({ total: YEARLY_CENTS, credits_applied: credit, amount_paid: due });

    // Back to monthly at once: the year's unused part is far more than a month; the rest is credited.
    const back = ChangePlanPreview.parse((await browser.post(`/api/billing/subscriptions/chargebee/${subId}/change-plan/preview`, { priceId: MONTHLY })).json());
    expect(back).toMatchObject({ interval: 'month', dueNow: { amount: -(YEARLY_CENTS - MONTHLY_CENTS) / 100, currency: 'USD' } });
    // The next month is paid from that credit.
    expect(back.nextCharge).toMatchObject({ amount: 0, currency: 'USD' });
  });

  it('opens the customer portal once per session; lists receipts and redirects to a working document; not for someone else', async () => {
    const portal = await browser.post(`/api/billing/subscriptions/chargebee/${subId}/portal`);
    expect(portal.statusCode, portal.body).toBe(200);
    const { url } = BillingActionAnswer.parse(portal.json());
    expect(url).toMatch(new RegExp(`^${t.config.publicUrl}/sandbox/chargebee/portal/v2/access/`));
    const login = await t.app.inject({ method: 'GET', url: pathOf(url!) });
    expect(login.statusCode, login.body).toBe(303);
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const home = await t.app.inject({ method: 'GET', url: String(login.headers.location), headers: { cookie } });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Premium');
    // Single use: the same link again is refused; a new click gets a new one.
    expect((await t.app.inject({ method: 'GET', url: pathOf(url!) })).statusCode).toBe(410);
    const next = BillingActionAnswer.parse((await browser.post(`/api/billing/subscriptions/chargebee/${subId}/portal`)).json());
    expect(next.url).not.toBe(url);
    expect((await other.post(`/api/billing/subscriptions/chargebee/${subId}/portal`)).statusCode).toBe(404);

    const listed = await browser.get(`/api/billing/subscriptions/chargebee/${subId}/invoices`);
    expect(listed.statusCode, listed.body).toBe(200);
    const { available, invoices } = BillingInvoicesAnswer.parse(listed.json());
    expect(available).toBe(true);
    // Newest first.
    const theirs = t.chargebee.invoices().filter((i) => i.subscription_id === subId);
    expect(invoices.map((i) => i.id)).toEqual(theirs.map((i) => i.id).reverse());
    expect(invoices.at(-1)).toMatchObject({ total: { amount: MONTHLY_CENTS / 100, currency: 'USD' }, status: 'paid' });
    expect(invoices[0]).toMatchObject({ total: { amount: YEARLY_CENTS / 100, currency: 'USD' }, status: 'paid' });

    const doc = await browser.get(`/api/billing/subscriptions/chargebee/${subId}/invoices/${invoices[0]!.id}`);
    expect(doc.statusCode, doc.body).toBe(303);
    expect(doc.headers['cache-control']).toBe('no-store');
    const document = await t.app.inject({ method: 'GET', url: pathOf(String(doc.headers.location)) });
    expect(document.statusCode).toBe(200);
    expect(document.body).toContain(`Invoice #${invoices[0]!.id}`);
    // Someone else: neither the list nor the document.
    expect((await other.get(`/api/billing/subscriptions/chargebee/${subId}/invoices`)).statusCode).toBe(404);
    expect((await other.get(`/api/billing/subscriptions/chargebee/${subId}/invoices/${invoices[0]!.id}`)).statusCode).toBe(404);
  });

  it('an invoice of another subscription is not this one’s', async () => {
    const paid = await buy(MONTHLY, '4242 4242 4242 4242', other);
    expect(paid.status, paid.body).toBe(303);
    await settle();
    const bens = subscriptionOf(paid.hostedPageId);
    const bensInvoice = t.chargebee.invoices().find((i) => i.subscription_id === bens.id)!;
    const res = await browser.get(`/api/billing/subscriptions/chargebee/${subId}/invoices/${bensInvoice.id}`);
    expect(res.statusCode, res.body).toBe(404);
    expect(res.headers.location).toBeUndefined();
    // Ben's purchase is his: Ava asking where it stands gets nothing.
    expect((await checkoutStatus(paid.hostedPageId)).statusCode).toBe(404);
    expect(CheckoutStatus.parse((await checkoutStatus(paid.hostedPageId, other)).json())).toMatchObject({ state: 'active', subscription: { userId: ben.id } });
  });

  it('a declined card buys nothing', async () => {
    const before = t.chargebee.subscriptions().length;
    const declined = await buy(MONTHLY, '4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    await settle();
    expect(t.chargebee.subscriptions()).toHaveLength(before);
    // Its page is still open (not paid): "activating" asks on.
    expect((await checkoutStatus(declined.hostedPageId)).json()).toMatchObject({ state: 'activating', subscription: null });
    // The buyer leaves it (Chargebee's "Cancel and go back"): asking where it stands says so, not "activating" for ever.
    const left = await t.app.inject({ method: 'POST', url: `/sandbox/chargebee/pages/v3/${declined.hostedPageId}/cancel` });
    expect(left.statusCode, left.body).toBe(303);
    const status = await checkoutStatus(declined.hostedPageId);
    expect(status.statusCode).toBe(404);
    expect(ApiError.parse(status.json()).message).toMatch(/cancelled: nothing was charged/);
  });

  it('Chargebee at its worst (every webhook twice, out of order, the first attempts failing): one subscription, in its latest state', async () => {
    t.chargebee.setChaos({ duplicate: 1, shuffle: true, failFirst: 3 });
    try {
      const paid = await buy(YEARLY);
      expect(paid.status).toBe(303);
      const id = subscriptionOf(paid.hostedPageId).id;
      // The cancel is sent before any webhook of the purchase has landed.
      for (let i = 0; i < 2; i++) await t.chargebee.flush({ ignoreBackoff: true });
      await t.app.webhookInbox.work();
      expect((await browser.post(`/api/billing/subscriptions/chargebee/${id}/cancel`)).statusCode).toBe(200);
      for (let i = 0; i < 4; i++) {
        await settle();
        t.clock.advance(10 * MINUTE); // the inbox's retries come due
      }
      expect(t.chargebee.deliveries().every((d) => d.state === 'delivered')).toBe(true);
      const rows = await t.db.query(`SELECT 1 FROM subscriptions WHERE provider_subscription_id = $1`, [id]);
      expect(rows.rows).toHaveLength(1);
      expect(await subscription(id)).toMatchObject({ interval: 'year', status: 'non_renewing', cancelAtPeriodEnd: true, premium: true, paymentMethod: 'Card •••• 4242' });
      const { rows: dupes } = await t.db.query(`SELECT event_key FROM webhook_events WHERE provider = 'chargebee' GROUP BY event_key HAVING count(*) > 1`);
      expect(dupes).toEqual([]);
      const { rows: pending } = await t.db.query(`SELECT event_key FROM webhook_events WHERE state <> 'applied' AND provider = 'chargebee'`);
      expect(pending).toEqual([]);
    } finally {
      t.chargebee.setChaos({ duplicate: 0, shuffle: false, failFirst: 0 });
    }
  });

  it('reconciliation heals webhooks that never came: a purchase Chargebee never told us about, and a cancel', async () => {
    // What the stand-ins already have is stored first (the demo Discord's subscription of Ava).
    await t.app.billingReconciler.run();
    const paid = await buy(MONTHLY);
    expect(paid.status).toBe(303);
    const id = subscriptionOf(paid.hostedPageId).id;
    // Every webhook of this purchase is lost.
    for (const d of t.chargebee.deliveries()) if (d.state === 'pending') t.chargebee.drop(d.eventId);
    await settle();
    expect((await browser.get(`/api/billing/subscriptions/chargebee/${id}`)).statusCode).toBe(404);
    expect(CheckoutStatus.parse((await checkoutStatus(paid.hostedPageId)).json())).toEqual({ state: 'activating', subscription: null });

    const healed = await t.app.billingReconciler.run();
    expect(healed, JSON.stringify(t.logs.messages(/reconciliation/))).toMatchObject({ healed: 1, failed: 0 });
    expect(await subscription(id)).toMatchObject({ status: 'active', premium: true, planName: 'Premium', interval: 'month', userId: ava.id });
    expect(CheckoutStatus.parse((await checkoutStatus(paid.hostedPageId)).json())).toMatchObject({ state: 'active', subscription: { id } });

    // The cancel's webhook is lost too: the next pass finds it; a pass with nothing new changes nothing.
    expect((await browser.post(`/api/billing/subscriptions/chargebee/${id}/cancel`)).statusCode).toBe(200);
    for (const d of t.chargebee.deliveries()) if (d.state === 'pending') t.chargebee.drop(d.eventId);
    await settle();
    expect(await subscription(id)).toMatchObject({ cancelAtPeriodEnd: false });
    expect(await t.app.billingReconciler.run()).toMatchObject({ healed: 1, failed: 0 });
    expect(await subscription(id)).toMatchObject({ status: 'non_renewing', cancelAtPeriodEnd: true, premium: true });
    expect(await t.app.billingReconciler.run()).toMatchObject({ healed: 0, failed: 0 });
  });

  it('the client is Chargebee’s SDK: what Chargebee refuses becomes the catalogue’s errors', async () => {
    const { site, apiBase } = t.config.billing.chargebee;
    const api = t.app.billingClients.chargebee;
    // Chargebee does not know it: 404.
    await expect(api.cancelAtPeriodEnd('NoSuchSubscription')).rejects.toMatchObject({ errorName: 'NOT_FOUND', statusCode: 404 });
    // A state Chargebee refuses (cancelled twice at the term's end): 400 with Chargebee's words.
    const paid = await buy(MONTHLY);
    const id = subscriptionOf(paid.hostedPageId).id;
    await api.cancelAtPeriodEnd(id);
    await expect(api.cancelAtPeriodEnd(id)).rejects.toMatchObject({ errorName: 'VALIDATION_FAILED', statusCode: 400, message: expect.stringMatching(/^Chargebee refused: .*already scheduled/) });
    // Our key refused: Chargebee is unavailable to us (502), whatever the call.
    const wrongKey = new ChargebeeApi({ site, apiKey: 'test_not_the_key', apiBase, fetch: injectFetch(t.app) as typeof fetch });
    await expect(wrongKey.hostedPage(paid.hostedPageId)).rejects.toMatchObject({ errorName: 'PROVIDER_UNAVAILABLE', statusCode: 502 });
    // Not configured: no call at all.
    const unconfigured = new ChargebeeApi({ site: null, apiKey: null, apiBase });
    expect(unconfigured.configured).toBe(false);
    await expect(unconfigured.hostedPage(paid.hostedPageId)).rejects.toMatchObject({ errorName: 'PROVIDER_UNAVAILABLE' });
  });
});
