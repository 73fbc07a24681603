import { describe, expect, test } from 'vitest';
import { API_KEY, DAY, type PaddleHarness, PREFIX, pageEvent, signatureValid, usePaddleHarness } from './test-helpers';

const setup = usePaddleHarness();

/** Delivers what is queued and returns the event types received since `from`. */
async function received(harness: PaddleHarness, from = 0): Promise<string[]> {
  await harness.control.flush();
  return harness.receiver.types().slice(from);
}

describe('API authentication and errors', () => {
  test('a missing, malformed or wrong key gets 403 in Paddle’s error shape', async () => {
    const harness = await setup();
    const { subscriptionId } = await harness.buy();
    for (const [key, code] of [
      [null, 'authentication_missing'],
      ['wrong_key', 'forbidden'],
    ] as const) {
      const res = await harness.api('GET', `/subscriptions/${subscriptionId}`, undefined, key);
      expect(res.statusCode).toBe(403);
      const body = res.json();
      expect(body.error).toMatchObject({ type: 'request_error', code, documentation_url: `https://developer.paddle.com/errors/shared/${code}` });
      expect(typeof body.error.detail).toBe('string');
      expect(body.meta.request_id).toMatch(/^[0-9a-f-]{36}$/);
    }
    const basic = await harness.app.inject({ method: 'GET', url: `${PREFIX}/subscriptions/${subscriptionId}`, headers: { authorization: `Basic ${API_KEY}` } });
    expect(basic.statusCode).toBe(403);
    expect(basic.json().error.code).toBe('authentication_malformed');
    // Nothing changes without the key.
    expect((await harness.api('POST', `/subscriptions/${subscriptionId}/cancel`, { effective_from: 'immediately' }, 'nope')).statusCode).toBe(403);
    expect(harness.control.subscriptions()[0]!.status).toBe('active');
  });

  test('unknown ids are 404 not_found; bad bodies 400 invalid_field', async () => {
    const harness = await setup();
    const { subscriptionId } = await harness.buy();
    const missing = await harness.api('GET', '/subscriptions/sub_01nothere');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toMatchObject({ type: 'request_error', code: 'not_found', detail: 'Subscription sub_01nothere not found.' });
    const bad = await harness.api('POST', `/subscriptions/${subscriptionId}/cancel`, { effective_from: 'tomorrow' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'invalid_field', errors: [{ field: 'effective_from' }] });
    const noMode = await harness.api('PATCH', `/subscriptions/${subscriptionId}`, { items: [{ price_id: 'pri_pro_month', quantity: 1 }] });
    expect(noMode.statusCode).toBe(400);
    expect(noMode.json().error.errors[0].field).toBe('proration_billing_mode');
    const unknownField = await harness.api('PATCH', `/subscriptions/${subscriptionId}`, { next_billed_at: '2030-01-01T00:00:00Z' });
    expect(unknownField.statusCode).toBe(400);
    const badJson = await harness.app.inject({
      method: 'PATCH',
      url: `${PREFIX}/subscriptions/${subscriptionId}`,
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      payload: '{"items":',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json().error.type).toBe('request_error');
    const route = await harness.api('GET', '/nothing/here');
    expect(route.statusCode).toBe(404);
    expect(route.json().error.code).toBe('not_found');
  });
});

describe('reading subscriptions', () => {
  test('GET /subscriptions/:id answers { data, meta } with management_urls', async () => {
    const harness = await setup();
    const { subscriptionId, customerId } = await harness.buy();
    const res = await harness.api('GET', `/subscriptions/${subscriptionId}`);
    expect(res.statusCode).toBe(200);
    const { data, meta } = res.json();
    expect(meta.request_id).toBeTruthy();
    expect(data).toMatchObject({ id: subscriptionId, customer_id: customerId, status: 'active' });
    expect(data.management_urls.cancel).toMatch(new RegExp(`^http://localhost:80${PREFIX}/portal/cpls_[0-9a-z]+/subscriptions/${subscriptionId}/cancel$`));
    expect(data.management_urls.update_payment_method).toMatch(/\/payment-method$/);
    // The management portal session is reused, not made anew on every read.
    const again = (await harness.api('GET', `/subscriptions/${subscriptionId}`)).json().data;
    expect(again.management_urls).toEqual(data.management_urls);
  });

  test('baseUrl sets the links’ origin', async () => {
    const harness = await setup({ baseUrl: 'https://demo.example/sandbox/paddle/' });
    const { subscriptionId } = await harness.buy();
    const data = (await harness.api('GET', `/subscriptions/${subscriptionId}`)).json().data;
    expect(data.management_urls.cancel.startsWith('https://demo.example/sandbox/paddle/portal/')).toBe(true);
  });

  test('GET /subscriptions filters by customer_id and status and pages with after', async () => {
    const harness = await setup();
    const a1 = await harness.buy({ email: 'ava@example.com', customData: { userId: '111111111111111111' } });
    const a2 = await harness.buy({ email: 'ava@example.com', customData: { userId: '111111111111111111' } });
    const secondBuy = await harness.buy({ email: 'ben@example.com', customData: { userId: '222222222222222222' } });
    await harness.api('POST', `/subscriptions/${a2.subscriptionId}/cancel`, { effective_from: 'immediately' });

    const mine = (await harness.api('GET', `/subscriptions?customer_id=${a1.customerId}`)).json();
    expect(mine.data.map((s: { id: string }) => s.id)).toEqual([a1.subscriptionId, a2.subscriptionId]);
    expect(mine.meta.pagination).toMatchObject({ per_page: 50, has_more: false, estimated_total: 2 });
    const active = (await harness.api('GET', `/subscriptions?customer_id=${a1.customerId}&status=active`)).json();
    expect(active.data.map((s: { id: string }) => s.id)).toEqual([a1.subscriptionId]);
    const several = (await harness.api('GET', `/subscriptions?customer_id=${a1.customerId},${secondBuy.customerId}&status=active,past_due`)).json();
    expect(several.data).toHaveLength(2);

    const first = (await harness.api('GET', '/subscriptions?per_page=2')).json();
    expect(first.data).toHaveLength(2);
    expect(first.meta.pagination.has_more).toBe(true);
    const next = new URL(first.meta.pagination.next);
    expect(next.searchParams.get('after')).toBe(first.data[1].id);
    const second = (await harness.api('GET', `${next.pathname.slice(PREFIX.length)}${next.search}`)).json();
    expect(second.data.map((s: { id: string }) => s.id)).toEqual([secondBuy.subscriptionId]);
    expect(second.meta.pagination.has_more).toBe(false);

    expect((await harness.api('GET', '/subscriptions?status=sleeping')).statusCode).toBe(400);
    expect((await harness.api('GET', '/subscriptions?per_page=500')).statusCode).toBe(400);
  });

  test('GET /transactions/:id and /customers/:id', async () => {
    const harness = await setup();
    const { transactionId, customerId } = await harness.buy();
    expect((await harness.api('GET', `/transactions/${transactionId}`)).json().data).toMatchObject({ id: transactionId, status: 'completed' });
    expect((await harness.api('GET', `/customers/${customerId}`)).json().data).toMatchObject({ id: customerId, email: 'ava@example.com' });
  });
});

describe('cancel and resume', () => {
  test('cancel at period end keeps it active with a scheduled change; removing it resumes', async () => {
    const harness = await setup();
    const { subscriptionId } = await harness.buy();
    const before = harness.control.subscriptions()[0]!;
    const count = (await received(harness)).length;

    const res = await harness.api('POST', `/subscriptions/${subscriptionId}/cancel`, { effective_from: 'next_billing_period' });
    expect(res.statusCode).toBe(200);
    const canceling = res.json().data;
    expect(canceling).toMatchObject({
      status: 'active',
      scheduled_change: { action: 'cancel', effective_at: '2026-02-15T12:00:00.000000Z', resume_at: null },
      next_billed_at: null,
      canceled_at: null,
    });
    expect(canceling.updated_at > before.updated_at).toBe(true);
    // Asking again changes nothing (no new event).
    await harness.api('POST', `/subscriptions/${subscriptionId}/cancel`, {});
    expect(await received(harness, count)).toEqual(['subscription.updated']);
    expect(harness.receiver.of('subscription.updated')[0]!.data.scheduled_change.action).toBe('cancel');

    const resumed = await harness.api('PATCH', `/subscriptions/${subscriptionId}`, { scheduled_change: null });
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json().data).toMatchObject({ status: 'active', scheduled_change: null, next_billed_at: '2026-02-15T12:00:00.000000Z' });
    expect(resumed.json().data.updated_at > canceling.updated_at).toBe(true);
    expect(await received(harness, count)).toEqual(['subscription.updated', 'subscription.updated']);
    expect(harness.receiver.of('subscription.updated')[1]!.data.scheduled_change).toBeNull();
  });

  test('the default effective_from is next_billing_period', async () => {
    const harness = await setup();
    const { subscriptionId } = await harness.buy();
    const res = await harness.api('POST', `/subscriptions/${subscriptionId}/cancel`);
    expect(res.json().data.scheduled_change.action).toBe('cancel');
  });

  test('an immediate cancel makes it canceled and sends subscription.canceled', async () => {
    const harness = await setup();
    const { subscriptionId } = await harness.buy();
    const count = (await received(harness)).length;
    harness.advance(3 * DAY);
    const res = await harness.api('POST', `/subscriptions/${subscriptionId}/cancel`, { effective_from: 'immediately' });
    expect(res.json().data).toMatchObject({ status: 'canceled', scheduled_change: null, next_billed_at: null, current_billing_period: null });
    expect(res.json().data.canceled_at.startsWith('2026-01-18T12:00:00')).toBe(true);
    expect(res.json().data.management_urls.update_payment_method).toBeNull();
    expect(await received(harness, count)).toEqual(['subscription.canceled']);
    // A canceled subscription cannot change any more.
    const again = await harness.api('PATCH', `/subscriptions/${subscriptionId}`, { scheduled_change: null });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatchObject({ code: 'subscription_update_when_canceled', documentation_url: 'https://developer.paddle.com/errors/subscriptions/subscription_update_when_canceled' });
    expect((await harness.api('POST', `/subscriptions/${subscriptionId}/cancel`, {})).statusCode).toBe(400);
  });

  test('a scheduled cancel takes effect when the clock passes effective_at (tick or any request)', async () => {
    const harness = await setup();
    const first = await harness.buy();
    const second = await harness.buy({ email: 'ben@example.com', customData: { userId: '222222222222222222' } });
    await harness.api('POST', `/subscriptions/${first.subscriptionId}/cancel`, {});
    await harness.api('POST', `/subscriptions/${second.subscriptionId}/cancel`, {});
    const count = (await received(harness)).length;

    harness.advance(30 * DAY);
    harness.control.tick();
    expect(harness.control.subscriptions().map((s) => s.status)).toEqual(['active', 'active']);
    harness.advance(1 * DAY);
    harness.control.tick();
    const [subA] = harness.control.subscriptions().filter((s) => s.id === first.subscriptionId);
    expect(subA).toMatchObject({ status: 'canceled', canceled_at: '2026-02-15T12:00:00.000000Z', scheduled_change: null });
    expect(await received(harness, count)).toEqual(['subscription.canceled', 'subscription.canceled']);
    const canceled = harness.receiver.of('subscription.canceled').map((e) => e.data.id);
    expect(canceled.sort()).toEqual([first.subscriptionId, second.subscriptionId].sort());
    // tick() again sends nothing more.
    harness.control.tick();
    expect(await received(harness, count)).toHaveLength(2);
  });

  test('lazily, a request after effective_at already sees it canceled', async () => {
    const harness = await setup();
    const { subscriptionId } = await harness.buy();
    await harness.api('POST', `/subscriptions/${subscriptionId}/cancel`, {});
    harness.advance(32 * DAY);
    const res = await harness.api('GET', `/subscriptions/${subscriptionId}`);
    expect(res.json().data.status).toBe('canceled');
  });

  test('without a scheduled change, a passed billing date renews: a recurring transaction and a new period', async () => {
    const harness = await setup();
    const { subscriptionId } = await harness.buy();
    const count = (await received(harness)).length;
    harness.advance(31 * DAY + 1000);
    harness.control.tick();
    const sub = harness.control.subscriptions()[0]!;
    expect(sub).toMatchObject({
      id: subscriptionId,
      status: 'active',
      current_billing_period: { starts_at: '2026-02-15T12:00:00.000000Z', ends_at: '2026-03-15T12:00:00.000000Z' },
      next_billed_at: '2026-03-15T12:00:00.000000Z',
    });
    expect(await received(harness, count)).toEqual(['transaction.paid', 'transaction.completed', 'subscription.updated']);
    const renewal = harness.receiver.of('transaction.completed').at(-1)!.data;
    expect(renewal).toMatchObject({ origin: 'subscription_recurring', subscription_id: subscriptionId, billing_period: { starts_at: '2026-02-15T12:00:00.000000Z' } });
    expect(renewal.details.totals.grand_total).toBe('499');
  });
});

describe('changing plans', () => {
  // Bought 2026-01-15 12:00, period to 2026-02-15 12:00 (31 days); 10 days later 21/31 of it is left.
  async function tenDaysIn(harness: PaddleHarness) {
    const bought = await harness.buy({ priceId: 'pri_premium_month' });
    harness.advance(10 * DAY);
    return bought.subscriptionId;
  }

  test('preview prorates the rest of the period: credit for the old items, charge for the new', async () => {
    const harness = await setup();
    const id = await tenDaysIn(harness);
    const count = (await received(harness)).length;
    const before = harness.control.subscriptions()[0]!;

    const up = await harness.api('POST', `/subscriptions/${id}/preview`, { items: [{ price_id: 'pri_pro_month', quantity: 1 }], proration_billing_mode: 'prorated_immediately' });
    expect(up.statusCode).toBe(200);
    // credit = round(499 × 21/31) = 338, charge = round(999 × 21/31) = 677, result = 677 − 338 = 339
    expect(up.json().data.update_summary).toEqual({
      credit: { amount: '338', currency_code: 'USD' },
      charge: { amount: '677', currency_code: 'USD' },
      result: { action: 'charge', amount: '339', currency_code: 'USD' },
    });
    expect(up.json().data.items[0].price.id).toBe('pri_pro_month');

    const two = await harness.api('PATCH', `/subscriptions/${id}/preview`, { items: [{ price_id: 'pri_pro_month', quantity: 2 }], proration_billing_mode: 'prorated_immediately' });
    // charge = round(1998 × 21/31) = 1353, result = 1353 − 338 = 1015
    expect(two.json().data.update_summary.result).toEqual({ action: 'charge', amount: '1015', currency_code: 'USD' });

    const yearly = await harness.api('POST', `/subscriptions/${id}/preview`, { items: [{ price_id: 'pri_premium_year', quantity: 1 }], proration_billing_mode: 'prorated_immediately' });
    // A new yearly period starts now: the full 4990 is charged, minus the 338 credit.
    expect(yearly.json().data.update_summary.result).toEqual({ action: 'charge', amount: '4652', currency_code: 'USD' });
    expect(yearly.json().data.current_billing_period).toEqual({ starts_at: '2026-01-25T12:00:00.000000Z', ends_at: '2027-01-25T12:00:00.000000Z' });

    const free = await harness.api('POST', `/subscriptions/${id}/preview`, { items: [{ price_id: 'pri_pro_month', quantity: 1 }], proration_billing_mode: 'do_not_bill' });
    expect(free.json().data.update_summary.result).toEqual({ action: 'charge', amount: '0', currency_code: 'USD' });

    const eur = await harness.api('POST', `/subscriptions/${id}/preview`, { items: [{ price_id: 'pri_eur_month', quantity: 1 }], proration_billing_mode: 'prorated_immediately' });
    expect(eur.statusCode).toBe(400);

    // Previews change nothing.
    expect(harness.control.subscriptions()[0]).toEqual(before);
    expect(await received(harness, count)).toEqual([]);
  });

  test('a downgrade preview is a credit', async () => {
    const harness = await setup();
    const bought = await harness.buy({ priceId: 'pri_pro_month' });
    harness.advance(10 * DAY);
    const down = await harness.api('POST', `/subscriptions/${bought.subscriptionId}/preview`, { items: [{ price_id: 'pri_premium_month', quantity: 1 }], proration_billing_mode: 'prorated_immediately' });
    // credit = round(999 × 21/31) = 677, charge = round(499 × 21/31) = 338 → credit 339
    expect(down.json().data.update_summary).toEqual({
      credit: { amount: '677', currency_code: 'USD' },
      charge: { amount: '338', currency_code: 'USD' },
      result: { action: 'credit', amount: '339', currency_code: 'USD' },
    });
  });

  test('PATCH prorated_immediately changes the items, charges the difference and notifies', async () => {
    const harness = await setup();
    const id = await tenDaysIn(harness);
    const count = (await received(harness)).length;
    const before = harness.control.subscriptions()[0]!;
    const res = await harness.api('PATCH', `/subscriptions/${id}`, { items: [{ price_id: 'pri_pro_month', quantity: 1 }], proration_billing_mode: 'prorated_immediately' });
    expect(res.statusCode).toBe(200);
    const sub = res.json().data;
    expect(sub.items.map((i: { price: { id: string } }) => i.price.id)).toEqual(['pri_pro_month']);
    expect(sub.update_summary).toBeUndefined();
    expect(sub.current_billing_period).toEqual(before.current_billing_period);
    expect(sub.updated_at > before.updated_at).toBe(true);
    expect(await received(harness, count)).toEqual(['subscription.updated', 'transaction.paid', 'transaction.completed']);
    const txn = harness.receiver.of('transaction.completed').at(-1)!.data;
    expect(txn).toMatchObject({ origin: 'subscription_update', subscription_id: id, status: 'completed' });
    expect(txn.details.totals).toMatchObject({ subtotal: '677', credit: '338', grand_total: '339' });
    expect(txn.items[0].proration.rate).toBe((21 / 31).toFixed(6));
  });

  test('PATCH do_not_bill changes the items without a transaction', async () => {
    const harness = await setup();
    const id = await tenDaysIn(harness);
    const count = (await received(harness)).length;
    const txns = harness.control.transactions().length;
    const res = await harness.api('PATCH', `/subscriptions/${id}`, { items: [{ price_id: 'pri_pro_month', quantity: 2 }], proration_billing_mode: 'do_not_bill' });
    expect(res.json().data.items[0]).toMatchObject({ quantity: 2, price: { id: 'pri_pro_month' } });
    expect(await received(harness, count)).toEqual(['subscription.updated']);
    expect(harness.control.transactions()).toHaveLength(txns);
  });

  test('items cannot change while a cancel is scheduled', async () => {
    const harness = await setup();
    const id = await tenDaysIn(harness);
    await harness.api('POST', `/subscriptions/${id}/cancel`, {});
    const res = await harness.api('PATCH', `/subscriptions/${id}`, { items: [{ price_id: 'pri_pro_month', quantity: 1 }], proration_billing_mode: 'do_not_bill' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('subscription_locked_pending_changes');
    // Removing the scheduled change in the same request allows it.
    const both = await harness.api('PATCH', `/subscriptions/${id}`, { scheduled_change: null, items: [{ price_id: 'pri_pro_month', quantity: 1 }], proration_billing_mode: 'do_not_bill' });
    expect(both.statusCode).toBe(200);
    expect(both.json().data).toMatchObject({ scheduled_change: null, items: [{ price: { id: 'pri_pro_month' } }] });
  });
});

describe('updating the payment method', () => {
  test('a zero-amount transaction whose checkout records the new card', async () => {
    const harness = await setup();
    const { subscriptionId } = await harness.buy();
    const count = (await received(harness)).length;
    const res = await harness.api('GET', `/subscriptions/${subscriptionId}/update-payment-method-transaction`);
    expect(res.statusCode).toBe(200);
    const txn = res.json().data;
    expect(txn).toMatchObject({ status: 'ready', origin: 'subscription_payment_method_change', subscription_id: subscriptionId, details: { totals: { grand_total: '0' } } });
    const url = new URL(txn.checkout.url);
    expect(url.pathname).toBe(`${PREFIX}/checkout`);
    expect(url.searchParams.get('txn')).toBe(txn.id);

    const page = await harness.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Update your payment method');
    expect(page.body).toContain('$4.99 / month');
    expect(page.body).not.toContain('id="email"');
    const done = await harness.pay(page.body, { card_number: '5555 5555 5555 4444', expiry: '03/31' });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Payment complete');
    expect(pageEvent(done.body)?.data).toMatchObject({ transaction_id: txn.id, subscription_id: subscriptionId, status: 'completed' });

    expect(await received(harness, count)).toEqual(['transaction.completed']);
    const completed = harness.receiver.of('transaction.completed').at(-1)!;
    expect(completed.data).toMatchObject({
      id: txn.id,
      status: 'completed',
      origin: 'subscription_payment_method_change',
      subscription_id: subscriptionId,
      payments: [{ status: 'captured', amount: '0', method_details: { type: 'card', card: { type: 'mastercard', last4: '4444', expiry_month: 3, expiry_year: 2031 } } }],
    });
    expect(signatureValid(harness.receiver.got.at(-1)!.raw, harness.receiver.got.at(-1)!.signature).ok).toBe(true);
    // The transaction is paid: its checkout does not open again.
    expect((await harness.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).statusCode).toBe(400);
  });

  test('a past-due subscription: the card update collects the past-due transaction and reactivates it', async () => {
    const harness = await setup();
    const { subscriptionId } = await harness.buy();
    const count = (await received(harness)).length;
    const pastDue = harness.control.markPastDue(subscriptionId);
    expect(pastDue).toMatchObject({ status: 'past_due', origin: 'subscription_recurring', payments: [{ status: 'error' }] });
    expect(harness.control.subscriptions()[0]!.status).toBe('past_due');
    expect(await received(harness, count)).toEqual(['transaction.payment_failed', 'transaction.past_due', 'subscription.past_due']);

    const txn = (await harness.api('GET', `/subscriptions/${subscriptionId}/update-payment-method-transaction`)).json().data;
    expect(txn.id).toBe(pastDue.id);
    const url = new URL(txn.checkout.url);
    const page = await harness.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(page.body).toContain('Pay $4.99');
    const declined = await harness.pay(page.body, { card_number: '4000000000000002' });
    expect(declined.statusCode).toBe(402);
    expect(harness.control.subscriptions()[0]!.status).toBe('past_due');
    await harness.pay(page.body, { card_number: '5555555555554444' });
    const sub = harness.control.subscriptions()[0]!;
    expect(sub.status).toBe('active');
    expect(await received(harness, count + 3)).toEqual(['transaction.paid', 'transaction.completed', 'subscription.updated']);
    expect(harness.receiver.of('transaction.completed').at(-1)!.data).toMatchObject({ id: pastDue.id, subscription_id: subscriptionId, status: 'completed' });
    expect(harness.receiver.of('subscription.updated').at(-1)!.data.status).toBe('active');
  });

  test('a zero-amount card update of a past-due subscription reactivates it too', async () => {
    const harness = await setup();
    const { subscriptionId } = await harness.buy();
    const zero = (await harness.api('GET', `/subscriptions/${subscriptionId}/update-payment-method-transaction`)).json().data;
    harness.control.markPastDue(subscriptionId);
    const count = (await received(harness)).length;
    const url = new URL(zero.checkout.url);
    await harness.pay((await harness.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).body);
    expect(harness.control.subscriptions()[0]!.status).toBe('active');
    expect(await received(harness, count)).toEqual(['transaction.completed', 'transaction.paid', 'transaction.completed', 'subscription.updated']);
  });

  test('not for a canceled subscription', async () => {
    const harness = await setup();
    const { subscriptionId } = await harness.buy();
    await harness.api('POST', `/subscriptions/${subscriptionId}/cancel`, { effective_from: 'immediately' });
    expect((await harness.api('GET', `/subscriptions/${subscriptionId}/update-payment-method-transaction`)).statusCode).toBe(400);
  });
});
