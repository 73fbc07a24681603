import { describe, expect, test } from 'vitest';
import { API_KEY, DAY, START, USER_ID, useHarness } from './test-helpers';

const setup = useHarness();
const seconds = Math.floor(START / 1000);
const TERM_END = Math.floor(Date.UTC(2026, 1, 15, 12) / 1000);

describe('API errors in Chargebee shape', () => {
  test('401 without or with a wrong key (Basic auth, key as username)', async () => {
    const sandbox = await setup();
    for (const key of [null, 'wrong_key']) {
      const res = await sandbox.api('GET', '/subscriptions', {}, key);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        message: 'Sorry, authentication failed. Invalid api key',
        api_error_code: 'api_authentication_failed',
        error_code: 'api_authentication_failed',
        error_msg: 'Sorry, authentication failed. Invalid api key',
        http_status_code: 401,
      });
    }
    const bearer = await sandbox.app.inject({ method: 'GET', url: '/sandbox/chargebee/api/v2/subscriptions', headers: { authorization: `Bearer ${API_KEY}` } });
    expect(bearer.statusCode).toBe(401);
  });

  test('404 resource_not_found for unknown ids and routes; 400 invalid_request with the param', async () => {
    const sandbox = await setup();
    const missing = await sandbox.api('GET', '/subscriptions/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ type: 'invalid_request', api_error_code: 'resource_not_found', http_status_code: 404 });
    expect((await sandbox.api('GET', '/no_such_thing')).json()).toMatchObject({ api_error_code: 'resource_not_found', http_status_code: 404 });
    const blank = await sandbox.api('POST', '/hosted_pages/checkout_new_for_items', { 'customer[id]': USER_ID });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({
      type: 'invalid_request',
      api_error_code: 'param_wrong_value',
      param: 'subscription_items[item_price_id][0]',
      error_param: 'subscription_items[item_price_id][0]',
      http_status_code: 400,
    });
    const unknownPrice = await sandbox.api('POST', '/hosted_pages/checkout_new_for_items', { 'subscription_items[item_price_id][0]': 'gold' });
    expect(unknownPrice.statusCode).toBe(404);
    expect(unknownPrice.json()).toMatchObject({ api_error_code: 'resource_not_found', param: 'subscription_items[item_price_id][0]' });
    const badLimit = await sandbox.api('GET', '/subscriptions', { limit: '101' });
    expect(badLimit.json()).toMatchObject({ api_error_code: 'param_wrong_value', param: 'limit' });
    const badUrl = await sandbox.api('POST', '/hosted_pages/checkout_new_for_items', { 'subscription_items[item_price_id][0]': 'premium-USD-monthly', redirect_url: 'javascript:alert(1)' });
    expect(badUrl.json()).toMatchObject({ param: 'redirect_url' });
    expect(sandbox.control.customers()).toEqual([]);
  });
});

describe('hosted checkout', () => {
  test('checkout_new_for_items answers a hosted page; paying it makes the customer (its given id), the subscription and the invoice', async () => {
    const sandbox = await setup();
    const created = await sandbox.api('POST', '/hosted_pages/checkout_new_for_items', {
      'subscription_items[item_price_id][0]': 'premium-USD-monthly',
      'subscription_items[quantity][0]': '1',
      'customer[id]': USER_ID,
      'customer[email]': 'ava@example.com',
      redirect_url: 'http://localhost:5173/billing/done?x=1',
      cancel_url: 'http://localhost:5173/billing',
      pass_thru_content: '{"guildId":"42"}',
    });
    expect(created.statusCode).toBe(200);
    const hp = created.json().hosted_page;
    expect(hp).toMatchObject({ type: 'checkout_new', state: 'created', embed: false, created_at: seconds, expires_at: seconds + 3 * 3600, pass_thru_content: '{"guildId":"42"}', object: 'hosted_page' });
    expect(hp.url).toBe(`http://localhost:3000/sandbox/chargebee/pages/v3/${hp.id}/`);
    expect(hp.content).toBeUndefined();

    const page = await sandbox.get(hp.url);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Premium Monthly');
    expect(page.body).toContain('$5.00');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await sandbox.api('GET', `/hosted_pages/${hp.id}`)).json().hosted_page.state).toBe('requested');

    const paid = await sandbox.post(`${hp.url}pay`, { email: 'ava@example.com', card_number: '4242 4242 4242 4242', expiry: '12/29', cvc: '123' });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`http://localhost:5173/billing/done?x=1&id=${hp.id}&state=succeeded`);

    const done = (await sandbox.api('GET', `/hosted_pages/${hp.id}`)).json().hosted_page;
    expect(done.state).toBe('succeeded');
    const { subscription, customer, invoice } = done.content;
    expect(customer).toMatchObject({ id: USER_ID, email: 'ava@example.com', deleted: false, object: 'customer', created_at: seconds });
    expect(subscription).toMatchObject({
      customer_id: USER_ID,
      status: 'active',
      currency_code: 'USD',
      billing_period: 1,
      billing_period_unit: 'month',
      current_term_start: seconds,
      current_term_end: TERM_END,
      next_billing_at: TERM_END,
      started_at: seconds,
      activated_at: seconds,
      created_at: seconds,
      due_invoices_count: 0,
      deleted: false,
      object: 'subscription',
      subscription_items: [{ item_price_id: 'premium-USD-monthly', item_type: 'plan', quantity: 1, unit_price: 500, amount: 500, object: 'subscription_item' }],
    });
    expect(invoice).toMatchObject({ subscription_id: subscription.id, customer_id: USER_ID, status: 'paid', total: 500, amount_paid: 500, amount_due: 0, paid_at: seconds, first_invoice: true });

    await sandbox.control.flush();
    expect(sandbox.receiver.types()).toEqual(['customer_created', 'subscription_created', 'payment_succeeded']);
    const [ev] = sandbox.receiver.got;
    expect(ev!.body).toMatchObject({ occurred_at: seconds, source: 'hosted_page', object: 'event', api_version: 'v2', webhook_status: 'scheduled' });
    expect(ev!.body.id).toMatch(/^ev_[A-Za-z0-9]{16}$/);
    expect(sandbox.receiver.got[2]!.body.content.invoice.id).toBe(invoice.id);
    // As Chargebee's, a payment event carries the transaction that paid the invoice, on the card used.
    expect(sandbox.receiver.got[2]!.body.content.transaction).toMatchObject({
      subscription_id: subscription.id,
      customer_id: USER_ID,
      payment_method: 'card',
      status: 'success',
      amount: 500,
      masked_card_number: '************4242',
      date: seconds,
      linked_invoices: [{ invoice_id: invoice.id, applied_amount: 500 }],
      object: 'transaction',
    });

    // GET /subscriptions/{id} and the list (customer_id[is], limit, next_offset).
    expect((await sandbox.api('GET', `/subscriptions/${subscription.id}`)).json()).toEqual({ subscription, customer });
    await sandbox.buy({ itemPriceId: 'pro-USD-monthly' });
    await sandbox.buy({ customerId: 'someone-else', email: 'bo@example.com' });
    const mine = (await sandbox.api('GET', '/subscriptions', { 'customer_id[is]': USER_ID, limit: '1' })).json();
    expect(mine.list).toHaveLength(1);
    expect(mine.list[0].subscription.subscription_items[0].item_price_id).toBe('pro-USD-monthly');
    expect(mine.next_offset).toBeTypeOf('string');
    const rest = (await sandbox.api('GET', '/subscriptions', { 'customer_id[is]': USER_ID, limit: '1', offset: mine.next_offset })).json();
    expect(rest.list.map((x: { subscription: { id: string } }) => x.subscription.id)).toEqual([subscription.id]);
    expect(rest.next_offset).toBeUndefined();
  });
});

describe('lifecycle', () => {
  test('cancel at term end, remove the scheduled cancellation, cancel again, the term ends; reactivate', async () => {
    const sandbox = await setup();
    const { subscriptionId: id } = await sandbox.buy();
    await sandbox.control.flush();
    sandbox.advance(DAY);
    const scheduled = await sandbox.api('POST', `/subscriptions/${id}/cancel_for_items`, { end_of_term: 'true' });
    expect(scheduled.statusCode).toBe(200);
    expect(scheduled.json().subscription).toMatchObject({ status: 'non_renewing', cancelled_at: TERM_END, cancel_schedule_created_at: seconds + 86400 });
    expect(scheduled.json().subscription.next_billing_at).toBeUndefined();

    const removed = (await sandbox.api('POST', `/subscriptions/${id}/remove_scheduled_cancellation`)).json().subscription;
    expect(removed).toMatchObject({ status: 'active', next_billing_at: TERM_END });
    expect(removed.cancelled_at).toBeUndefined();
    const again = await sandbox.api('POST', `/subscriptions/${id}/remove_scheduled_cancellation`);
    expect(again.json()).toMatchObject({ api_error_code: 'invalid_state_for_request', http_status_code: 400 });

    await sandbox.api('POST', `/subscriptions/${id}/cancel_for_items`, { end_of_term: 'true' });
    sandbox.advance(31 * DAY);
    const ended = (await sandbox.api('GET', `/subscriptions/${id}`)).json().subscription;
    expect(ended).toMatchObject({ status: 'cancelled', cancelled_at: TERM_END });

    const back = await sandbox.api('POST', `/subscriptions/${id}/reactivate`);
    expect(back.json().subscription).toMatchObject({ status: 'active' });
    expect(back.json().invoice).toMatchObject({ status: 'paid', total: 500 });
    await sandbox.control.flush();
    expect(sandbox.receiver.types().slice(3)).toEqual([
      'subscription_cancellation_scheduled',
      'subscription_scheduled_cancellation_removed',
      'subscription_cancellation_scheduled',
      'subscription_cancelled',
      'subscription_reactivated',
      'payment_succeeded',
    ]);
    const sources = sandbox.receiver.got.slice(3).map((r) => r.body.source);
    expect(sources).toEqual(['api', 'api', 'api', 'scheduled_job', 'api', 'api']);
  });

  test('immediate cancel; renewal at next_billing_at; failPayment and recover; resource_version strictly increases', async () => {
    const sandbox = await setup();
    const { subscriptionId: id } = await sandbox.buy();
    const versions: number[] = [(await sandbox.api('GET', `/subscriptions/${id}`)).json().subscription.resource_version];
    sandbox.advance(31 * DAY);
    const renewed = (await sandbox.api('GET', `/subscriptions/${id}`)).json().subscription;
    versions.push(renewed.resource_version);
    expect(renewed).toMatchObject({ current_term_start: TERM_END, current_term_end: Math.floor(Date.UTC(2026, 2, 15, 12) / 1000), status: 'active' });
    const invoices = (await sandbox.api('GET', '/invoices', { 'subscription_id[is]': id })).json().list;
    expect(invoices).toHaveLength(2);
    expect(invoices[0].invoice).toMatchObject({ total: 500, status: 'paid', first_invoice: false });

    const failed = sandbox.control.failPayment(id);
    expect(failed).toMatchObject({ status: 'payment_due', amount_due: 500 });
    const due = (await sandbox.api('GET', `/subscriptions/${id}`)).json().subscription;
    versions.push(due.resource_version);
    expect(due).toMatchObject({ due_invoices_count: 1, total_dues: 500, status: 'active' });
    sandbox.control.recover(id);
    const ok = (await sandbox.api('GET', `/subscriptions/${id}`)).json().subscription;
    versions.push(ok.resource_version);
    expect(ok.due_invoices_count).toBe(0);

    const cancelled = (await sandbox.api('POST', `/subscriptions/${id}/cancel_for_items`)).json().subscription;
    versions.push(cancelled.resource_version);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelled_at: Math.floor(sandbox.now() / 1000) });
    for (let i = 1; i < versions.length; i++) expect(versions[i]!).toBeGreaterThan(versions[i - 1]!);

    await sandbox.control.flush();
    expect(sandbox.receiver.types().slice(3)).toEqual(['subscription_renewed', 'payment_succeeded', 'payment_failed', 'payment_succeeded', 'subscription_cancelled']);
    const cancelledAgain = await sandbox.api('POST', `/subscriptions/${id}/cancel_for_items`);
    expect(cancelledAgain.json().api_error_code).toBe('invalid_state_for_request');
  });
});

describe('plan changes and estimates', () => {
  test('upgrade: prorated charge and credit on the remaining term', async () => {
    const sandbox = await setup();
    const { subscriptionId: id } = await sandbox.buy();
    sandbox.advance(21 * DAY); // 10 of 31 days left
    const params = { 'subscription[id]': id, 'subscription_items[item_price_id][0]': 'pro-USD-monthly', replace_items_list: 'true', prorate: 'true' };
    const est = (await sandbox.api('POST', '/estimates/update_subscription_for_items', params)).json().estimate;
    // credit = round(500 × 10/31) = 161, charge = round(1000 × 10/31) = 323
    expect(est.invoice_estimate).toMatchObject({ sub_total: 323, total: 323, credits_applied: 161, amount_due: 162, currency_code: 'USD' });
    expect(est.invoice_estimate.line_items[0]).toMatchObject({ entity_id: 'pro-USD-monthly', amount: 323, date_to: TERM_END });
    expect(est.credit_note_estimates[0]).toMatchObject({ type: 'adjustment', total: 161, amount_allocated: 161, amount_available: 0 });
    expect(est.next_invoice_estimate).toMatchObject({ total: 1000, credits_applied: 0, amount_due: 1000 });
    expect(est.next_invoice_estimate.line_items[0].date_from).toBe(TERM_END);
    expect(est.subscription_estimate).toMatchObject({ id, status: 'active', next_billing_at: TERM_END });
    // The estimate changed nothing.
    expect((await sandbox.api('GET', `/subscriptions/${id}`)).json().subscription.subscription_items[0].item_price_id).toBe('premium-USD-monthly');

    const { 'subscription[id]': _sub, ...body } = params;
    const done = await sandbox.api('POST', `/subscriptions/${id}/update_for_items`, body);
    expect(done.statusCode).toBe(200);
    expect(done.json().subscription.subscription_items[0]).toMatchObject({ item_price_id: 'pro-USD-monthly', unit_price: 1000 });
    expect(done.json().invoice).toMatchObject({ total: 323, credits_applied: 161, amount_paid: 162 });
    await sandbox.control.flush();
    expect(sandbox.receiver.types().slice(3)).toEqual(['subscription_changed', 'payment_succeeded']);
  });

  test('downgrade: the credit left over becomes refundable credits used by the next renewal; a period change starts a new term', async () => {
    const sandbox = await setup();
    const { subscriptionId: id } = await sandbox.buy({ itemPriceId: 'pro-USD-monthly' });
    sandbox.advance(21 * DAY);
    const est = (await sandbox.api('POST', '/estimates/update_subscription_for_items', { 'subscription[id]': id, 'subscription_items[item_price_id][0]': 'premium-USD-monthly' })).json().estimate;
    // credit = round(1000 × 10/31) = 323, charge = round(500 × 10/31) = 161
    expect(est.invoice_estimate).toMatchObject({ total: 161, credits_applied: 161, amount_due: 0 });
    expect(est.credit_note_estimates[0]).toMatchObject({ type: 'refundable', total: 323, amount_allocated: 161, amount_available: 162 });
    expect(est.next_invoice_estimate).toMatchObject({ total: 500, credits_applied: 162, amount_due: 338 });
    await sandbox.api('POST', `/subscriptions/${id}/update_for_items`, { 'subscription_items[item_price_id][0]': 'premium-USD-monthly' });
    expect(sandbox.control.customers()[0]!.refundable_credits).toBe(162);
    sandbox.advance(10 * DAY);
    const [latest] = (await sandbox.api('GET', '/invoices', { 'customer_id[is]': USER_ID })).json().list;
    expect(latest.invoice).toMatchObject({ total: 500, credits_applied: 162, amount_paid: 338 });
    expect(sandbox.control.customers()[0]!.refundable_credits).toBe(0);

    const yearly = (await sandbox.api('POST', `/subscriptions/${id}/update_for_items`, { 'subscription_items[item_price_id][0]': 'premium-USD-yearly' })).json();
    const nowS = Math.floor(sandbox.now() / 1000);
    expect(yearly.subscription).toMatchObject({ billing_period_unit: 'year', current_term_start: nowS });
    expect(yearly.invoice).toMatchObject({ total: 5000, credits_applied: 500, amount_paid: 4500 });
    const eur = await sandbox.api('POST', `/subscriptions/${id}/update_for_items`, { 'subscription_items[item_price_id][0]': 'premium-EUR-monthly' });
    expect(eur.json()).toMatchObject({ api_error_code: 'param_wrong_value', param: 'subscription_items[item_price_id][0]' });
  });
});

describe('portal sessions, invoices and events', () => {
  test('portal_sessions answers a session whose access_url works once', async () => {
    const sandbox = await setup();
    await sandbox.buy();
    const res = await sandbox.api('POST', '/portal_sessions', { 'customer[id]': USER_ID, redirect_url: 'http://localhost:5173/billing' });
    const ps = res.json().portal_session;
    expect(ps).toMatchObject({ status: 'created', customer_id: USER_ID, redirect_url: 'http://localhost:5173/billing', created_at: seconds, expires_at: seconds + 3600, object: 'portal_session' });
    expect(ps.id).toMatch(/^portal_/);
    expect(ps.access_url).toBe(`http://localhost:3000/sandbox/chargebee/portal/v2/access/${ps.token}`);
    const first = await sandbox.get(ps.access_url);
    expect(first.statusCode).toBe(303);
    const second = await sandbox.get(ps.access_url);
    expect(second.statusCode).toBe(410);
    expect((await sandbox.api('GET', `/portal_sessions/${ps.id}`)).json().portal_session.status).toBe('logged_in');
    expect((await sandbox.api('POST', '/portal_sessions', { 'customer[id]': 'nobody' })).statusCode).toBe(404);
  });

  test('invoices/{id}/pdf answers a download link serving the invoice document', async () => {
    const sandbox = await setup();
    await sandbox.buy();
    const [{ invoice }] = (await sandbox.api('GET', '/invoices', { 'customer_id[is]': USER_ID })).json().list;
    const dl = (await sandbox.api('POST', `/invoices/${invoice.id}/pdf`)).json().download;
    expect(dl).toMatchObject({ mime_type: 'text/html', valid_till: seconds + 3600 });
    const doc = await sandbox.get(dl.download_url);
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['content-type']).toContain('text/html');
    expect(doc.body).toContain(`Invoice #${invoice.id}`);
    expect(doc.body).toContain('$5.00');
    sandbox.advance(3601 * 1000);
    expect((await sandbox.get(dl.download_url)).statusCode).toBe(404);
    expect((await sandbox.api('POST', '/invoices/999/pdf')).statusCode).toBe(404);
  });

  test('events can be re-fetched: GET /events/{id} with its webhook status', async () => {
    const sandbox = await setup();
    sandbox.control.pause();
    await sandbox.buy();
    const [first] = sandbox.control.events();
    const scheduled = (await sandbox.api('GET', `/events/${first!.id}`)).json().event;
    expect(scheduled).toMatchObject({ id: first!.id, event_type: 'customer_created', webhook_status: 'scheduled', content: first!.content });
    await sandbox.control.flush();
    expect((await sandbox.api('GET', `/events/${first!.id}`)).json().event.webhook_status).toBe('succeeded');
    const list = (await sandbox.api('GET', '/events', { 'event_type[is]': 'subscription_created' })).json().list;
    expect(list).toHaveLength(1);
    expect((await sandbox.api('GET', '/events/ev_nope')).statusCode).toBe(404);
  });
});
