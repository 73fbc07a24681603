import { describe, expect, test } from 'vitest';
import { API_USER, DAY, PREFIX, START, useFastspringHarness } from './test-helpers';

const setup = useFastspringHarness();

async function bought(harness: Awaited<ReturnType<typeof setup>>, path = 'tickety-premium-monthly') {
  const result = await harness.buy({ products: [{ path }] });
  await harness.control.flush();
  const sub = harness.control.subscriptions().at(-1)!;
  return { ...result, subId: sub.id, accountId: sub.account };
}

describe('API authentication', () => {
  test('HTTP Basic with the API username and password; anything else is 401 and changes nothing', async () => {
    const harness = await setup();
    const { subId } = await bought(harness);
    for (const auth of [null, `Basic ${Buffer.from(`${API_USER}:wrong`).toString('base64')}`, 'Bearer x']) {
      const res = await harness.api('DELETE', `/subscriptions/${subId}`, undefined, auth);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toContain('Basic');
      expect(res.json()).toMatchObject({ result: 'error' });
    }
    expect(harness.control.subscriptions()[0]!.state).toBe('active');
  });
});

describe('subscriptions', () => {
  test('GET one, a comma list, an unknown one (404) and the paged id list', async () => {
    const harness = await setup();
    const first = await bought(harness);
    const second = await bought(harness, 'tickety-pro-monthly');
    const one = await harness.api('GET', `/subscriptions/${first.subId}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: first.subId, subscription: first.subId, state: 'active', product: 'tickety-premium-monthly', display: 'Tickety Premium (monthly)' });
    const many = (await harness.api('GET', `/subscriptions/${first.subId},${second.subId},nope`)).json();
    expect(many.subscriptions.map((s: { id?: string; result?: string }) => s.id ?? s.result)).toEqual([first.subId, second.subId, 'error']);
    const missing = await harness.api('GET', '/subscriptions/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ action: 'subscription.get', subscription: 'nope', result: 'error', error: { subscription: 'Subscription not found' } });
    const page1 = (await harness.api('GET', '/subscriptions?limit=1')).json();
    expect(page1).toEqual({ action: 'subscription.getall', result: 'success', nextPage: 2, subscriptions: [first.subId], total: 2, page: 1, limit: 1 });
    const page2 = (await harness.api('GET', '/subscriptions?limit=1&page=2')).json();
    expect(page2).toMatchObject({ nextPage: null, subscriptions: [second.subId] });
    expect((await harness.api('GET', '/subscriptions?status=canceled')).json().subscriptions).toEqual([]);
    expect((await harness.api('GET', '/subscriptions?status=bogus')).statusCode).toBe(400);
  });

  test('cancel at the next billing date, uncancel, cancel again, then the clock deactivates it', async () => {
    const harness = await setup();
    const { subId } = await bought(harness);
    harness.advance(3 * DAY);
    const canceled = await harness.api('DELETE', `/subscriptions/${subId}`);
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json()).toEqual({ subscriptions: [{ subscription: subId, action: 'subscription.cancel', result: 'success' }] });
    const sub = (await harness.api('GET', `/subscriptions/${subId}`)).json();
    const next = Date.UTC(2026, 1, 15, 12);
    expect(sub).toMatchObject({ state: 'canceled', active: true, canceledDate: START + 3 * DAY, deactivationDate: next, next });
    const again = await harness.api('DELETE', `/subscriptions/${subId}`);
    expect(again.statusCode).toBe(500);
    expect(again.json()).toMatchObject({ result: 'error', error: { subscription: 'The subscription is already canceled.' } });

    const resumed = await harness.api('POST', '/subscriptions', { subscriptions: [{ subscription: subId, deactivation: null }] });
    expect(resumed.json()).toEqual({ subscriptions: [{ subscription: subId, action: 'subscription.update', result: 'success' }] });
    expect((await harness.api('GET', `/subscriptions/${subId}`)).json()).toMatchObject({ state: 'active', canceledDate: null, deactivationDate: null });

    await harness.api('DELETE', `/subscriptions/${subId}`);
    harness.advance(next - harness.now() + 1000);
    const ended = (await harness.api('GET', `/subscriptions/${subId}`)).json();
    expect(ended).toMatchObject({ state: 'deactivated', active: false, deactivationDate: next, next: null });
    await harness.control.flush();
    expect(harness.receiver.types()).toEqual(['order.completed', 'subscription.activated', 'subscription.canceled', 'subscription.uncanceled', 'subscription.canceled', 'subscription.deactivated']);
    const changed = harness.receiver.events().filter((e) => e.type.startsWith('subscription.')).map((e) => e.data.changed);
    expect([...changed].sort((x, y) => x - y)).toEqual(changed);
    expect(new Set(changed).size).toBe(changed.length);
    const uncancelDead = await harness.api('POST', '/subscriptions', { subscriptions: [{ subscription: subId, deactivation: null }] });
    expect(uncancelDead.statusCode).toBe(400);
    expect(uncancelDead.json()).toMatchObject({ result: 'error', error: { uncancel: 'Subscription is not active.' } });
  });

  test('billingPeriod=0 ends it now with only subscription.deactivated', async () => {
    const harness = await setup();
    const { subId } = await bought(harness);
    const res = await harness.api('DELETE', `/subscriptions/${subId}?billingPeriod=0`);
    expect(res.statusCode).toBe(200);
    await harness.control.flush();
    expect(harness.receiver.types().slice(2)).toEqual(['subscription.deactivated']);
    expect((await harness.api('GET', `/subscriptions/${subId}`)).json()).toMatchObject({ state: 'deactivated', active: false, deactivationDate: START });
    expect((await harness.api('DELETE', `/subscriptions/${subId}?billingPeriod=2`)).statusCode).toBe(400);
  });

  test('renewals at next: an order, subscription.charge.completed + subscription.updated in one POST; entries list the orders', async () => {
    const harness = await setup();
    const { subId } = await bought(harness);
    harness.advance(31 * DAY);
    harness.control.tick();
    await harness.control.flush();
    const post = harness.receiver.got.at(-1)!;
    expect(post.events.map((e) => e.type)).toEqual(['subscription.charge.completed', 'subscription.updated']);
    const charge = post.events[0]!.data;
    expect(charge).toMatchObject({ status: 'successful', total: 4.99, currency: 'USD', sequence: 2, subscription: { id: subId } });
    expect(charge.order).toMatchObject({ rebill: true, total: 4.99, items: [{ subscription: subId }] });
    expect(post.events[1]!.data).toMatchObject({ next: Date.UTC(2026, 2, 15, 12), sequence: 2 });
    const entries = (await harness.api('GET', `/subscriptions/${subId}/entries`)).json();
    expect(entries).toHaveLength(2);
    expect(entries[1]).toMatchObject({ id: charge.order.id, order: { id: charge.order.id, reference: charge.order.reference } });
    const order = (await harness.api('GET', `/orders/${charge.order.id}`)).json();
    expect(order).toMatchObject({ id: charge.order.id, reference: charge.order.reference, invoiceUrl: charge.order.invoiceUrl });
    const invoice = await harness.app.inject({ method: 'GET', url: new URL(order.invoiceUrl).pathname });
    expect(invoice.statusCode).toBe(200);
    expect(invoice.body).toContain(`Invoice ${order.reference}`);
    expect(invoice.body).toContain('Subscription renewal');
    expect((await harness.api('GET', '/orders/nope')).statusCode).toBe(404);
  });

  test('markOverdue: charge.failed + payment.overdue; no renewal while overdue; recover charges and reactivates', async () => {
    const harness = await setup();
    const { subId } = await bought(harness);
    harness.advance(31 * DAY);
    harness.control.markOverdue(subId);
    harness.control.tick();
    await harness.control.flush();
    expect(harness.receiver.types().slice(2)).toEqual(['subscription.charge.failed', 'subscription.payment.overdue']);
    expect(harness.control.subscriptions()[0]).toMatchObject({ state: 'overdue', active: true, sequence: 1 });
    harness.control.recover(subId);
    await harness.control.flush();
    expect(harness.receiver.types().slice(4)).toEqual(['subscription.charge.completed', 'subscription.updated']);
    expect(harness.control.subscriptions()[0]).toMatchObject({ state: 'active', sequence: 2, next: Date.UTC(2026, 2, 15, 12) });
    expect(() => harness.control.recover(subId)).toThrow('not overdue');
  });
});

describe('plan changes', () => {
  test('estimate previews the prorated upgrade; POST /subscriptions with prorate charges the difference now', async () => {
    const harness = await setup();
    const { subId } = await bought(harness);
    harness.advance(10 * DAY); // 21 of 31 days left
    const est = await harness.api('POST', '/subscriptions/estimate', { subscription: subId, product: 'tickety-pro-monthly', quantity: 1, prorate: true });
    expect(est.statusCode).toBe(200);
    const entry = est.json();
    const credit = Math.round((499 * 21) / 31) / 100;
    const charge = Math.round((999 * 21) / 31) / 100;
    expect(entry).toMatchObject({
      subscription: subId,
      currency: 'USD',
      isProratable: true,
      currentPlan: { product: 'tickety-premium-monthly', price: 4.99, prorationRemainingDays: 21, prorationTotalDays: 31, proratedItemCredit: credit },
      proposedPlan: { product: 'tickety-pro-monthly', price: 9.99, proratedItemCharge: charge },
      amountDue: { nextChargeDate: Date.UTC(2026, 1, 15, 12), nextChargeAmount: 9.99 },
    });
    expect(entry.amountDue.totalAmountDue).toBeCloseTo(charge - credit, 2);
    expect(harness.control.subscriptions()[0]!.product).toBe('tickety-premium-monthly');

    const preview = (await harness.api('POST', '/subscriptions', { subscriptions: [{ subscription: subId, product: 'tickety-pro-monthly', quantity: 1, prorate: true, preview: true }] })).json();
    expect(preview.subscriptions[0]).toMatchObject({ prorated: true, proration: { productPath: 'tickety-pro-monthly', currency: 'USD', creditAmount: credit, proratedAmount: charge } });
    expect(harness.control.orders()).toHaveLength(1);

    const res = await harness.api('POST', '/subscriptions', { subscriptions: [{ subscription: subId, product: 'tickety-pro-monthly', quantity: 1, prorate: true }] });
    expect(res.json()).toEqual({ subscriptions: [{ subscription: subId, action: 'subscription.update', result: 'success' }] });
    await harness.control.flush();
    const post = harness.receiver.got.at(-1)!;
    expect(post.events.map((x) => x.type)).toEqual(['subscription.charge.completed', 'subscription.updated']);
    expect(post.events[0]!.data.order.total).toBeCloseTo(charge - credit, 2);
    expect(post.events[1]!.data).toMatchObject({ product: 'tickety-pro-monthly', price: 9.99, next: Date.UTC(2026, 1, 15, 12) });
  });

  test('a downgrade without prorate changes the plan for the next charge only; bad changes change nothing', async () => {
    const harness = await setup();
    const { subId } = await bought(harness, 'tickety-pro-monthly');
    const bad = await harness.api('POST', '/subscriptions', {
      subscriptions: [
        { subscription: subId, product: 'tickety-premium-monthly', quantity: 1 },
        { subscription: 'nope', product: 'tickety-premium-monthly', quantity: 1 },
      ],
    });
    expect(bad.statusCode).toBe(404);
    expect(harness.control.subscriptions()[0]!.product).toBe('tickety-pro-monthly');
    expect((await harness.api('POST', '/subscriptions', { subscriptions: [{ subscription: subId, product: 'tickety-premium-eur', quantity: 1 }] })).statusCode).toBe(400);
    expect((await harness.api('POST', '/subscriptions', { subscriptions: [{ subscription: subId, quantity: 0 }] })).statusCode).toBe(400);
    expect((await harness.api('POST', '/subscriptions', 'nonsense')).statusCode).toBe(400);
    const ok = await harness.api('POST', '/subscriptions', { subscriptions: [{ subscription: subId, product: 'tickety-premium-monthly', quantity: 2 }] });
    expect(ok.statusCode).toBe(200);
    await harness.control.flush();
    expect(harness.receiver.types().at(-1)).toBe('subscription.updated');
    expect(harness.control.subscriptions()[0]).toMatchObject({ product: 'tickety-premium-monthly', quantity: 2, subtotal: 9.98, sequence: 1 });
    expect(harness.control.orders()).toHaveLength(1);
    const missing = await harness.api('POST', '/subscriptions/estimate', { subscription: 'nope', product: 'tickety-pro-monthly' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ result: 'error', error: { subscription: 'Subscription ID does not exist: nope' } });
  });
});

describe('accounts and events', () => {
  test('authenticate gives a 24 h account page that lists subscriptions and orders and cancels/uncancels', async () => {
    const harness = await setup();
    const { subId, accountId, reference } = await bought(harness);
    const res = await harness.api('GET', `/accounts/${accountId}/authenticate`);
    expect(res.statusCode).toBe(200);
    const entry = res.json().accounts[0];
    expect(entry).toMatchObject({ action: 'account.authenticate.get', result: 'success', account: accountId });
    expect(entry.expires).toBe(new Date(START + DAY).toISOString().replace('Z', ''));
    const url = new URL(entry.url);
    expect(url.pathname).toMatch(new RegExp(`^${PREFIX}/account/${accountId}/[A-Za-z0-9_-]+$`));
    const page = await harness.app.inject({ method: 'GET', url: url.pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('ava@example.com');
    expect(page.body).toContain('Tickety Premium (monthly)');
    expect(page.body).toContain(reference);
    expect(page.body).toContain(`${PREFIX}/account/order/${reference}/invoice/`);
    const token = url.pathname.split('/').at(-1);
    const cancel = await harness.app.inject({ method: 'POST', url: `${url.pathname}/subscriptions/${subId}/cancel` });
    expect(cancel.statusCode).toBe(303);
    expect(cancel.headers.location).toBe(`${PREFIX}/account/${accountId}/${token}?done=canceled`);
    expect(harness.control.subscriptions()[0]!.state).toBe('canceled');
    const after = await harness.app.inject({ method: 'GET', url: String(cancel.headers.location) });
    expect(after.body).toContain('Resume subscription');
    await harness.app.inject({ method: 'POST', url: `${url.pathname}/subscriptions/${subId}/uncancel` });
    expect(harness.control.subscriptions()[0]!.state).toBe('active');
    harness.advance(DAY + 1);
    expect((await harness.app.inject({ method: 'GET', url: url.pathname })).statusCode).toBe(404);
    const unknown = await harness.api('GET', '/accounts/nope/authenticate');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ accounts: [{ action: 'account.authenticate.get', account: 'nope', result: 'error', error: { account: 'Not found' } }] });
  });

  test('GET /events/unprocessed lists what the endpoint did not acknowledge (25 a page, more); POST /events/{id} marks it processed', async () => {
    const harness = await setup({ retryBaseMs: 60_000 });
    harness.receiver.respond = () => 500;
    for (let i = 0; i < 13; i++) await harness.buy({ email: `u${i}@example.com` });
    await harness.control.flush();
    const first = (await harness.api('GET', `/events/unprocessed?begin=${START - 1000}&end=${START + 1000}`)).json();
    expect(first).toMatchObject({ action: 'events.get', result: 'success', page: 1, more: true });
    expect(first.events).toHaveLength(25);
    expect(first.events[0]).toMatchObject({ type: 'order.completed', live: false, processed: false, created: START });
    const id = first.events[0].id;
    const marked = await harness.api('POST', `/events/${id}`, { processed: true });
    expect(marked.statusCode).toBe(200);
    expect(marked.json()).toMatchObject({ id, processed: true });
    const rest = (await harness.api('GET', '/events/unprocessed?days=1')).json();
    expect(rest.events).toHaveLength(25);
    expect(rest.more).toBe(undefined);
    expect(rest.events.map((e: { id: string }) => e.id)).not.toContain(id);
    expect(harness.control.deliveries()[0]).toMatchObject({ state: 'processed', processedBy: 'api' });
    expect((await harness.api('GET', '/events/unprocessed?days=31')).statusCode).toBe(400);
    expect((await harness.api('POST', '/events/nope', { processed: true })).statusCode).toBe(400);
    expect((await harness.api('POST', `/events/${id}`, { processed: 'yes' })).statusCode).toBe(400);
  });
});
