import { describe, expect, test } from 'vitest';
import { CLIENT_TOKEN, PREFIX, pageEvent, START, signatureValid, USER_ID, usePaddleHarness } from './test-helpers';

const setup = usePaddleHarness();

const ITEMS = JSON.stringify([{ priceId: 'pri_premium_month', quantity: 1 }]);

describe('GET /checkout', () => {
  test('shows the product, price and interval with the test card pre-filled, under a strict CSP', async () => {
    const harness = await setup();
    const res = await harness.openCheckout({ items: ITEMS, custom_data: JSON.stringify({ userId: USER_ID }), email: 'ava@example.com', token: CLIENT_TOKEN, parent_origin: 'http://localhost:5173' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'self' http://localhost:5173");
    expect(csp).not.toContain('unsafe-inline');
    const html = res.body;
    expect(html).toContain('Subscribe to Premium');
    expect(html).toContain('$4.99 / month');
    expect(html).toContain('value="4242 4242 4242 4242"');
    expect(html).toContain('value="ava@example.com"');
    expect(html).toContain('<script src="checkout.js" defer></script>');
    expect(html).toContain('data-parent-origin="http://localhost:5173"');
    // No inline handlers, no inline code: the only other <script> is a JSON data block.
    expect(html).not.toMatch(/\son[a-z]+=/i);
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    expect(scripts).toEqual(['<script src="checkout.js" defer>', '<script type="application/json" id="paddle-event">']);
    // Labels for every input, and the test cards listed.
    for (const id of ['email', 'card_number', 'expiry', 'cvc', 'cardholder_name']) expect(html).toContain(`<label for="${id}">`);
    expect(html).toContain('4000 0000 0000 0002');
    const event = pageEvent(html);
    expect(event?.name).toBe('checkout.loaded');
    expect(event?.data.custom_data).toEqual({ userId: USER_ID });
    expect(event?.data.items[0].price_id).toBe('pri_premium_month');
  });

  test('the page script is served separately as JavaScript', async () => {
    const harness = await setup();
    const res = await harness.app.inject({ method: 'GET', url: `${PREFIX}/checkout.js` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/javascript');
    expect(res.body).toContain('postMessage(message, parentOrigin)');
    expect(res.body).toContain("'Escape'");
    expect(() => new Function(res.body)).not.toThrow();
  });

  test('refuses a missing or wrong client-side token, unknown prices and bad JSON', async () => {
    const harness = await setup();
    expect((await harness.openCheckout({ items: ITEMS })).statusCode).toBe(403);
    const wrong = await harness.openCheckout({ items: ITEMS, token: 'test_wrong' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.body).toContain('does not match');
    const unknown = await harness.openCheckout({ items: JSON.stringify([{ priceId: 'pri_nope', quantity: 1 }]), token: CLIENT_TOKEN });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('Unknown price');
    expect((await harness.openCheckout({ items: '[{', token: CLIENT_TOKEN })).statusCode).toBe(400);
    expect((await harness.openCheckout({ items: JSON.stringify([{ priceId: 'pri_premium_month', quantity: 0 }]), token: CLIENT_TOKEN })).statusCode).toBe(400);
    const mixed = await harness.openCheckout({ items: JSON.stringify([{ priceId: 'pri_premium_month' }, { priceId: 'pri_premium_year' }]), token: CLIENT_TOKEN });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.body).toContain('same billing interval');
    expect((await harness.openCheckout({ items: ITEMS, token: CLIENT_TOKEN, custom_data: '[1]' })).statusCode).toBe(400);
    expect((await harness.openCheckout({ items: ITEMS, token: CLIENT_TOKEN, success_url: 'javascript:alert(1)' })).statusCode).toBe(400);
    expect(harness.control.subscriptions()).toEqual([]);
  });
});

describe('POST /checkout', () => {
  test('a successful purchase creates the customer, an active subscription and a completed transaction', async () => {
    const harness = await setup();
    const { subscriptionId, transactionId, customerId, page } = await harness.buy({ email: 'ava@example.com' });
    expect(page.body).toContain('Payment complete');
    expect(page.body).toContain('Visa •••• 4242');
    expect(subscriptionId).toMatch(/^sub_[0-9a-z]{26}$/);
    expect(transactionId).toMatch(/^txn_[0-9a-z]{26}$/);
    expect(customerId).toMatch(/^ctm_[0-9a-z]{26}$/);

    const [sub] = harness.control.subscriptions();
    expect(sub).toMatchObject({
      id: subscriptionId,
      status: 'active',
      customer_id: customerId,
      currency_code: 'USD',
      collection_mode: 'automatic',
      billing_cycle: { interval: 'month', frequency: 1 },
      current_billing_period: { starts_at: '2026-01-15T12:00:00.000000Z', ends_at: '2026-02-15T12:00:00.000000Z' },
      next_billed_at: '2026-02-15T12:00:00.000000Z',
      started_at: '2026-01-15T12:00:00.000000Z',
      first_billed_at: '2026-01-15T12:00:00.000000Z',
      scheduled_change: null,
      canceled_at: null,
      custom_data: { userId: USER_ID, guildId: '987654321098765432' },
    });
    expect(sub!.items).toHaveLength(1);
    expect(sub!.items[0]).toMatchObject({
      status: 'active',
      quantity: 1,
      recurring: true,
      price: { id: 'pri_premium_month', unit_price: { amount: '499', currency_code: 'USD' }, billing_cycle: { interval: 'month', frequency: 1 }, description: 'Premium (monthly)' },
    });
    expect(sub!.items[0]!.price.product_id).toMatch(/^pro_/);
    expect(sub!.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    const [txn] = harness.control.transactions();
    expect(txn).toMatchObject({
      id: transactionId,
      status: 'completed',
      origin: 'web',
      subscription_id: subscriptionId,
      customer_id: customerId,
      custom_data: { userId: USER_ID, guildId: '987654321098765432' },
      currency_code: 'USD',
      details: { totals: { subtotal: '499', total: '499', grand_total: '499', tax: '0', currency_code: 'USD' } },
    });
    expect(txn!.billed_at).toBeTruthy();
    expect(txn!.payments).toHaveLength(1);
    expect(txn!.payments[0]).toMatchObject({ status: 'captured', amount: '499', method_details: { type: 'card', card: { type: 'visa', last4: '4242', expiry_month: 12, expiry_year: 2029 } } });
    expect(harness.control.customers()).toMatchObject([{ id: customerId, email: 'ava@example.com' }]);

    const event = pageEvent(page.body);
    expect(event).toMatchObject({
      name: 'checkout.completed',
      data: { transaction_id: transactionId, status: 'completed', customer: { id: customerId, email: 'ava@example.com' }, subscription_id: subscriptionId, custom_data: { userId: USER_ID } },
    });
  });

  test('sends subscription.created, subscription.activated, transaction.paid and transaction.completed, signed, with growing updated_at', async () => {
    const harness = await setup();
    const { subscriptionId, transactionId } = await harness.buy();
    await harness.control.flush();
    expect(harness.receiver.types()).toEqual(['subscription.created', 'subscription.activated', 'transaction.paid', 'transaction.completed']);
    for (const received of harness.receiver.got) {
      expect(received.contentType).toBe('application/json');
      const check = signatureValid(received.raw, received.signature);
      expect(check.ok).toBe(true);
      expect(check.ts).toBe(Math.floor(START / 1000));
      expect(received.body.event_id).toMatch(/^evt_/);
      expect(received.body.notification_id).toMatch(/^ntf_/);
      expect(received.body.occurred_at).toMatch(/\.\d{6}Z$/);
    }
    const [created, activated, paid, completed] = harness.receiver.got.map((r) => r.body);
    expect(created!.data).toMatchObject({ id: subscriptionId, status: 'active', transaction_id: transactionId });
    expect(created!.data.management_urls).toBeUndefined();
    expect(activated!.data).toMatchObject({ id: subscriptionId, status: 'active' });
    expect(activated!.data.updated_at > created!.data.updated_at).toBe(true);
    expect(paid!.data).toMatchObject({ id: transactionId, status: 'paid', subscription_id: subscriptionId });
    expect(completed!.data).toMatchObject({ id: transactionId, status: 'completed', subscription_id: subscriptionId, origin: 'web' });
    expect(completed!.data.updated_at > paid!.data.updated_at).toBe(true);
    expect(completed!.data.payments[0].method_details.card).toMatchObject({ type: 'visa', last4: '4242' });
    expect(new Set(harness.receiver.got.map((r) => r.body.event_id)).size).toBe(4);
    expect(harness.control.deliveries().every((d) => d.state === 'delivered' && d.attempts === 1 && d.lastStatus === 200)).toBe(true);
  });

  test('the Mastercard test card works too', async () => {
    const harness = await setup();
    await harness.buy({ card: '5555555555554444' });
    expect(harness.control.transactions()[0]!.payments[0]!.method_details.card).toMatchObject({ type: 'mastercard', last4: '4444' });
  });

  test('the declined card shows "Your card was declined", posts checkout.payment.failed and creates nothing', async () => {
    const harness = await setup();
    const page = await harness.openCheckout({ items: ITEMS, token: CLIENT_TOKEN });
    const res = await harness.pay(page.body, { email: 'ava@example.com', card_number: '4000 0000 0000 0002' });
    expect(res.statusCode).toBe(402);
    expect(res.body).toContain('Your card was declined');
    expect(res.body).toContain('role="alert"');
    const event = pageEvent(res.body);
    expect(event?.name).toBe('checkout.payment.failed');
    expect(event?.data.error).toMatchObject({ code: 'declined' });
    await harness.control.flush();
    expect(harness.control.subscriptions()).toEqual([]);
    expect(harness.control.transactions()).toEqual([]);
    expect(harness.control.customers()).toEqual([]);
    expect(harness.control.deliveries()).toEqual([]);
    // The same checkout can still be paid with a good card.
    const retry = await harness.pay(page.body, { email: 'ava@example.com' });
    expect(retry.statusCode).toBe(200);
    expect(harness.control.subscriptions()).toHaveLength(1);
  });

  test('bad expiry, CVC, card number or email give clear field errors and create nothing', async () => {
    const harness = await setup();
    const page = await harness.openCheckout({ items: ITEMS, token: CLIENT_TOKEN });
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ expiry: '12/25' }, 'expiry', 'must be in the future'],
      [{ expiry: '2030-12' }, 'expiry', 'MM/YY'],
      [{ expiry: '13/30' }, 'expiry', 'from 01 to 12'],
      [{ expiry: '' }, 'expiry', 'Enter the expiry date'],
      [{ cvc: '12' }, 'cvc', '3 or 4 digits'],
      [{ cvc: '12a' }, 'cvc', '3 or 4 digits'],
      [{ card_number: '4242 4242 4242 4241' }, 'card_number', 'valid card number'],
      [{ card_number: '4111 1111 1111 1111' }, 'card_number', 'test cards'],
      [{ email: 'not-an-email' }, 'email', 'valid email'],
    ];
    for (const [fields, field, message] of cases) {
      const res = await harness.pay(page.body, { email: 'ava@example.com', ...fields });
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.body).toContain(`id="${field}-error"`);
      expect(res.body).toContain(message);
      expect(res.body).toMatch(new RegExp(`id="${field}"[^>]*aria-invalid="true"`));
      expect(res.body).toContain('id="problems" role="alert"');
      expect(pageEvent(res.body)).toBeNull();
    }
    // The current month is still valid (a card works through its expiry month).
    const now = new Date(START);
    const thisMonth = `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${String(now.getUTCFullYear() % 100)}`;
    const ok = await harness.pay(page.body, { email: 'ava@example.com', expiry: thisMonth, cvc: '1234' });
    expect(ok.statusCode).toBe(200);
    expect(harness.control.subscriptions()).toHaveLength(1);
  });

  test('paying the same checkout twice makes one subscription', async () => {
    const harness = await setup();
    const page = await harness.openCheckout({ items: ITEMS, token: CLIENT_TOKEN });
    const first = await harness.pay(page.body, { email: 'ava@example.com' });
    const second = await harness.pay(page.body, { email: 'ava@example.com' });
    expect(second.statusCode).toBe(200);
    expect(pageEvent(second.body)?.data.subscription_id).toBe(pageEvent(first.body)?.data.subscription_id);
    expect(harness.control.subscriptions()).toHaveLength(1);
  });

  test('reuses the customer by email or by custom_data.userId', async () => {
    const harness = await setup();
    const first = await harness.buy({ email: 'ava@example.com', customData: { userId: USER_ID } });
    const second = await harness.buy({ email: 'AVA@example.com', customData: {} });
    const card = await harness.buy({ email: 'other@example.com', customData: { userId: USER_ID } });
    const data = await harness.buy({ email: 'ben@example.com', customData: { userId: '223456789012345678' } });
    expect(second.customerId).toBe(first.customerId);
    expect(card.customerId).toBe(first.customerId);
    expect(data.customerId).not.toBe(first.customerId);
    expect(harness.control.customers()).toHaveLength(2);
    expect(harness.control.subscriptions()).toHaveLength(4);
  });

  test('quantities multiply the price', async () => {
    const harness = await setup();
    await harness.buy({ quantity: 3 });
    expect(harness.control.transactions()[0]!.details.totals.grand_total).toBe('1497');
    expect(harness.control.subscriptions()[0]!.items[0]!.quantity).toBe(3);
  });

  test('refuses a form from another site, an expired or unknown checkout, and a JSON body', async () => {
    const harness = await setup();
    const page = await harness.openCheckout({ items: ITEMS, token: CLIENT_TOKEN });
    const form = `checkout=${encodeURIComponent(/name="checkout" value="([^"]+)"/.exec(page.body)![1]!)}&email=a%40b.co&card_number=4242424242424242&expiry=12%2F29&cvc=123`;
    const post = (headers: Record<string, string>, payload = form) =>
      harness.app.inject({ method: 'POST', url: `${PREFIX}/checkout`, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload });
    expect((await post({ 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await post({ origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await post({ 'content-type': 'application/json' }, '{}')).statusCode).toBe(415);
    expect((await post({}, 'checkout=chk_unknown')).statusCode).toBe(410);
    harness.advance(25 * 60 * 60 * 1000);
    expect((await post({})).statusCode).toBe(410);
    expect(harness.control.subscriptions()).toEqual([]);
  });

  test('without a frame, the success page links to successUrl (the script hides the link when framed)', async () => {
    const harness = await setup();
    const page = await harness.openCheckout({ items: ITEMS, token: CLIENT_TOKEN, success_url: 'http://localhost:5173/billing/done?x=1&y=2' });
    const done = await harness.pay(page.body, { email: 'ava@example.com' });
    expect(done.body).toContain('<p data-unframed><a class="button" href="http://localhost:5173/billing/done?x=1&#38;y=2">Continue</a></p>');
  });

  test('escapes everything it shows', async () => {
    const harness = await setup();
    const page = await harness.openCheckout({ items: ITEMS, token: CLIENT_TOKEN, custom_data: JSON.stringify({ note: '</script><script>alert(1)</script>' }) });
    expect(page.body).not.toContain('</script><script>alert(1)');
    expect(pageEvent(page.body)?.data.custom_data.note).toBe('</script><script>alert(1)</script>');
    const res = await harness.pay(page.body, { email: '"><img src=x>@example.com' });
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toContain('"><img src=x>');
  });
});

describe('a checkout of a transaction the API made (POST /transactions, then Paddle.Checkout.open({ transactionId }))', () => {
  const VICTIM = '876543210987654321';

  test('POST /transactions: a draft transaction of origin api with the API’s custom data, no customer or subscription yet', async () => {
    const harness = await setup();
    const res = await harness.api('POST', '/transactions', { items: [{ price_id: 'pri_premium_year', quantity: 1 }], custom_data: { userId: USER_ID } });
    expect(res.statusCode, res.body).toBe(201);
    const txn = res.json().data;
    expect(txn).toMatchObject({
      id: expect.stringMatching(/^txn_/),
      status: 'draft',
      origin: 'api',
      customer_id: null,
      subscription_id: null,
      custom_data: { userId: USER_ID },
      currency_code: 'USD',
      details: { totals: { total: '4990' } },
      checkout: { url: expect.stringContaining(`/checkout?txn=${txn.id}`) },
    });
    // Found by `subscription_id=null` (the transactions of no subscription yet).
    const list = await harness.api('GET', '/transactions?subscription_id=null');
    expect(list.json().data.map((t: { id: string }) => t.id)).toEqual([txn.id]);
    // No notification for it: nothing was bought.
    await harness.control.flush();
    expect(harness.receiver.types()).toEqual([]);
  });

  test('refuses what Paddle refuses (with its error shape), and makes nothing: no key, unknown price, bad quantity, a field it does not take, another currency', async () => {
    const harness = await setup();
    expect((await harness.api('POST', '/transactions', { items: [{ price_id: 'pri_premium_month', quantity: 1 }] }, null)).statusCode).toBe(403);
    for (const [body, field] of [
      [{ items: [{ price_id: 'pri_nope', quantity: 1 }] }, 'items'],
      [{ items: [{ price_id: 'pri_premium_month', quantity: 0 }] }, 'items[0].quantity'],
      [{ items: [] }, 'items'],
      [{ items: [{ price_id: 'pri_premium_month', quantity: 1 }], customer_id: 'ctm_x' }, 'customer_id'],
      [{ items: [{ price_id: 'pri_premium_month', quantity: 1 }], currency_code: 'EUR' }, 'currency_code'],
      [{ items: [{ price_id: 'pri_premium_month', quantity: 1 }], custom_data: [1] }, 'custom_data'],
    ] as const) {
      const res = await harness.api('POST', '/transactions', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toMatchObject({ type: 'request_error', code: 'invalid_field', errors: [{ field }] });
    }
    expect(harness.control.transactions()).toEqual([]);
  });

  test('paying it completes that transaction: its subscription carries its custom data, and subscription.created names it', async () => {
    const harness = await setup();
    const txn = (await harness.api('POST', '/transactions', { items: [{ price_id: 'pri_premium_month', quantity: 1 }], custom_data: { userId: USER_ID } })).json().data;
    const page = await harness.openCheckout({ txn: txn.id, token: CLIENT_TOKEN, email: 'ava@example.com' });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('Subscribe to Premium');
    expect(pageEvent(page.body)).toMatchObject({ name: 'checkout.loaded', data: { transaction_id: txn.id, custom_data: { userId: USER_ID } } });
    const done = await harness.pay(page.body, { email: 'ava@example.com' });
    expect(done.statusCode, done.body).toBe(200);
    const event = pageEvent(done.body);
    expect(event).toMatchObject({ name: 'checkout.completed', data: { transaction_id: txn.id } });
    // The one transaction, now completed with the customer and the subscription.
    expect(harness.control.transactions()).toMatchObject([{ id: txn.id, origin: 'api', status: 'completed', subscription_id: event!.data.subscription_id, customer_id: event!.data.customer.id }]);
    expect(harness.control.subscriptions()).toMatchObject([{ id: event!.data.subscription_id, custom_data: { userId: USER_ID } }]);
    await harness.control.flush();
    expect(harness.receiver.types()).toEqual(['subscription.created', 'subscription.activated', 'transaction.paid', 'transaction.completed']);
    expect(harness.receiver.of('subscription.created')[0]!.data).toMatchObject({ id: event!.data.subscription_id, transaction_id: txn.id });
    expect(harness.receiver.of('transaction.completed')[0]!.data).toMatchObject({ id: txn.id, origin: 'api', subscription_id: event!.data.subscription_id });
  });

  test('custom data from the browser beside the transaction replaces its own (as Paddle does): what it says is not to be trusted', async () => {
    const harness = await setup();
    const txn = (await harness.api('POST', '/transactions', { items: [{ price_id: 'pri_premium_month', quantity: 1 }], custom_data: { userId: USER_ID } })).json().data;
    const page = await harness.openCheckout({ txn: txn.id, token: CLIENT_TOKEN, custom_data: JSON.stringify({ userId: VICTIM }) });
    const done = await harness.pay(page.body, { email: 'mallory@example.com' });
    expect(done.statusCode, done.body).toBe(200);
    await harness.control.flush();
    // The subscription says the browser's user; what identifies the purchase is the transaction (its id).
    expect(harness.receiver.of('subscription.created')[0]!.data).toMatchObject({ custom_data: { userId: VICTIM }, transaction_id: txn.id });
  });

  test('a transaction is paid once; a checkout of it needs the client-side token; an unknown one does not open', async () => {
    const harness = await setup();
    const txn = (await harness.api('POST', '/transactions', { items: [{ price_id: 'pri_premium_month', quantity: 1 }], custom_data: { userId: USER_ID } })).json().data;
    expect((await harness.openCheckout({ txn: txn.id })).statusCode).toBe(403);
    expect((await harness.openCheckout({ txn: txn.id, token: 'test_wrong' })).statusCode).toBe(403);
    const first = await harness.openCheckout({ txn: txn.id, token: CLIENT_TOKEN });
    const second = await harness.openCheckout({ txn: txn.id, token: CLIENT_TOKEN });
    expect((await harness.pay(first.body, { email: 'ava@example.com' })).statusCode).toBe(200);
    // The other page open before the payment cannot pay it again, nor can a new one open.
    const again = await harness.pay(second.body, { email: 'ava@example.com' });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('already paid');
    const reopened = await harness.openCheckout({ txn: txn.id, token: CLIENT_TOKEN });
    expect(reopened.statusCode).toBe(400);
    expect(reopened.body).toContain('already paid');
    expect((await harness.openCheckout({ txn: 'txn_01nothere', token: CLIENT_TOKEN })).statusCode).toBe(404);
    expect(harness.control.subscriptions()).toHaveLength(1);
  });

  test('an unpaid transaction survives a snapshot and restore, and can be paid after it', async () => {
    const harness = await setup();
    const txn = (await harness.api('POST', '/transactions', { items: [{ price_id: 'pri_premium_month', quantity: 1 }], custom_data: { userId: USER_ID } })).json().data;
    const snapshot = JSON.parse(JSON.stringify(harness.control.snapshot()));
    harness.control.reset();
    harness.control.restore(snapshot);
    const page = await harness.openCheckout({ txn: txn.id, token: CLIENT_TOKEN });
    expect((await harness.pay(page.body, { email: 'ava@example.com' })).statusCode).toBe(200);
    expect(harness.control.transactions()).toMatchObject([{ id: txn.id, status: 'completed' }]);
  });
});
