import { describe, expect, test } from 'vitest';
import { API_KEY, DAY, type PaddleHarness, PREFIX, paddleHarness, SECRET, START, usePaddleHarness } from './test-helpers';

const setup = usePaddleHarness();
const HOUR = 60 * 60 * 1000;

// biome-ignore lint/suspicious/noExplicitAny: API answers are read freely
type Json = any;

/**
 * Two customers' transactions of every kind the stand-in makes, newest last:
 * a = purchase (web), f = another customer's purchase, b = upgrade proration (subscription_update,
 * day 10), c and g = both renewals (subscription_recurring, day 31), d = card update (ready, zero),
 * e = past due.
 */
async function scenario(harness: PaddleHarness) {
  const first = await harness.buy({ priceId: 'pri_premium_month', email: 'ava@example.com' });
  const other = await harness.buy({ priceId: 'pri_premium_month', email: 'bo@example.com', customData: { userId: '222222222222222222', guildId: '1' } });
  harness.advance(10 * DAY);
  const up = await harness.api('PATCH', `/subscriptions/${first.subscriptionId}`, { items: [{ price_id: 'pri_pro_month', quantity: 1 }], proration_billing_mode: 'prorated_immediately' });
  expect(up.statusCode).toBe(200);
  harness.advance(21 * DAY); // 2026-02-15 12:00: the period ends, the next request renews it
  const card = (await harness.api('GET', `/subscriptions/${first.subscriptionId}/update-payment-method-transaction`)).json().data;
  const pastDue = harness.control.markPastDue(first.subscriptionId);
  const byOrigin = (origin: string) => harness.control.transactions().filter((t) => t.origin === origin && t.subscription_id === first.subscriptionId);
  return {
    sub: first.subscriptionId,
    otherSub: other.subscriptionId,
    customer: first.customerId,
    otherCustomer: other.customerId,
    a: first.transactionId,
    f: other.transactionId,
    b: byOrigin('subscription_update')[0]!.id,
    c: byOrigin('subscription_recurring').find((t) => t.status === 'completed')!.id,
    g: harness.control.transactions().find((t) => t.origin === 'subscription_recurring' && t.subscription_id === other.subscriptionId)!.id,
    d: card.id as string,
    e: pastDue.id,
  };
}

async function list(sandbox: PaddleHarness, query: string) {
  const res = await sandbox.api('GET', `/transactions${query ? `?${query}` : ''}`);
  return { res, body: res.json() as Json, ids: (res.json().data ?? []).map((t: Json) => t.id) as string[] };
}

describe('GET /transactions', () => {
  test('every transaction the stand-in makes, newest first, with status, totals, billed_at, subscription and invoice number', async () => {
    const harness = await setup();
    const session = await scenario(harness);
    const { res, body, ids } = await list(harness, '');
    expect(res.statusCode).toBe(200);
    expect(ids).toEqual([session.e, session.d, session.g, session.c, session.b, session.f, session.a]);
    expect(body.meta.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.meta.pagination).toEqual({ per_page: 30, next: `http://localhost:80${PREFIX}/transactions?after=${session.a}`, has_more: false, estimated_total: 7 });
    const byId = Object.fromEntries(body.data.map((t: Json) => [t.id, t]));
    expect(byId[session.a]).toMatchObject({ status: 'completed', origin: 'web', subscription_id: session.sub, customer_id: session.customer, invoice_number: '2026-00001', details: { totals: { total: '499', grand_total: '499' } } });
    expect(byId[session.f]).toMatchObject({ status: 'completed', origin: 'web', subscription_id: session.otherSub, customer_id: session.otherCustomer, invoice_number: '2026-00002' });
    expect(byId[session.b]).toMatchObject({ status: 'completed', origin: 'subscription_update', subscription_id: session.sub, invoice_number: '2026-00003', details: { totals: { subtotal: '677', credit: '338', grand_total: '339' } } });
    expect(byId[session.c]).toMatchObject({ status: 'completed', origin: 'subscription_recurring', subscription_id: session.sub, invoice_number: '2026-00004', details: { totals: { grand_total: '999' } } });
    expect(byId[session.g]).toMatchObject({ status: 'completed', origin: 'subscription_recurring', subscription_id: session.otherSub, invoice_number: '2026-00005', details: { totals: { grand_total: '499' } } });
    expect(byId[session.c].billing_period).toEqual({ starts_at: '2026-02-15T12:00:00.000000Z', ends_at: '2026-03-15T12:00:00.000000Z' });
    expect(byId[session.d]).toMatchObject({ status: 'ready', origin: 'subscription_payment_method_change', invoice_number: null, billed_at: null, details: { totals: { grand_total: '0' } } });
    expect(byId[session.e]).toMatchObject({ status: 'past_due', origin: 'subscription_recurring', invoice_number: null, details: { totals: { grand_total: '999' } } });
    expect(byId[session.a].billed_at).toMatch(/^2026-01-15T12:00:00\.\d{6}Z$/);
    expect(byId[session.b].billed_at).toMatch(/^2026-01-25T12:00:00\.\d{6}Z$/);
    expect(byId[session.c].billed_at).toMatch(/^2026-02-15T12:00:00\.\d{6}Z$/);
    expect(byId[session.e].billed_at).toMatch(/^2026-02-15T12:00:00\.\d{6}Z$/);
    // The same objects as GET /transactions/{id}.
    for (const transaction of body.data) expect((await harness.api('GET', `/transactions/${transaction.id}`)).json().data).toEqual(transaction);
    // A card update once paid is listed completed, still without an invoice number (zero-value).
    const url = new URL(byId[session.d].checkout.url);
    await harness.pay((await harness.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).body);
    const paid = (await list(harness, `id=${session.d}`)).body.data[0];
    expect(paid).toMatchObject({ status: 'completed', invoice_number: null });
    expect(paid.billed_at).not.toBeNull();
  });

  test('filters: subscription_id and customer_id (comma lists), status, origin, id, invoice_number, collection_mode, dates', async () => {
    const harness = await setup();
    const session = await scenario(harness);
    expect((await list(harness, `subscription_id=${session.sub}`)).ids).toEqual([session.e, session.d, session.c, session.b, session.a]);
    expect((await list(harness, `subscription_id=${session.otherSub}`)).ids).toEqual([session.g, session.f]);
    // What the SDK sends for subscriptionId: [a, b] and status: [...] (URL-encoded commas).
    expect((await list(harness, `subscription_id=${session.sub}%2C${session.otherSub}&status=billed%2Cpaid%2Ccompleted&per_page=50`)).ids).toEqual([session.g, session.c, session.b, session.f, session.a]);
    expect((await list(harness, 'subscription_id=null')).ids).toEqual([]);
    expect((await list(harness, `customer_id=${session.otherCustomer}`)).ids).toEqual([session.g, session.f]);
    expect((await list(harness, `customer_id=${session.customer},${session.otherCustomer}&status=past_due,ready`)).ids).toEqual([session.e, session.d]);
    expect((await list(harness, 'status=completed&origin=subscription_update,subscription_recurring')).ids).toEqual([session.g, session.c, session.b]);
    expect((await list(harness, `id=${session.a},${session.b}`)).ids).toEqual([session.b, session.a]);
    expect((await list(harness, 'invoice_number=2026-00002')).ids).toEqual([session.f]);
    expect((await list(harness, 'collection_mode=manual')).ids).toEqual([]);
    expect((await list(harness, 'billed_at[GTE]=2026-01-20T00:00:00Z&billed_at[LT]=2026-02-01T00:00:00Z')).ids).toEqual([session.b]);
    expect((await list(harness, 'created_at[GT]=2026-02-15T00:00:00')).ids).toEqual([session.e, session.d, session.g, session.c]);
    const total = (await list(harness, `subscription_id=${session.sub}&status=completed`)).body.meta.pagination.estimated_total;
    expect(total).toBe(3);
  });

  test('order_by: id, billed_at, created_at, updated_at, ascending or descending', async () => {
    const harness = await setup();
    const session = await scenario(harness);
    expect((await list(harness, 'order_by=id[ASC]')).ids).toEqual([session.a, session.f, session.b, session.c, session.g, session.d, session.e]);
    expect((await list(harness, 'order_by=created_at[ASC]')).ids).toEqual([session.a, session.f, session.b, session.c, session.g, session.d, session.e]);
    // Never billed (d) sorts last either way.
    expect((await list(harness, 'order_by=billed_at[DESC]')).ids).toEqual([session.e, session.g, session.c, session.b, session.f, session.a, session.d]);
    expect((await list(harness, 'order_by=billed_at[ASC]')).ids).toEqual([session.a, session.f, session.b, session.c, session.g, session.e, session.d]);
    expect((await list(harness, 'order_by=updated_at[DESC]&status=completed')).ids).toEqual([session.g, session.c, session.b, session.f, session.a]);
  });

  test('cursor pagination: per_page, after, next keeps the query, has_more, estimated_total; 30 at most per page', async () => {
    const harness = await setup();
    const session = await scenario(harness);
    const seen: string[] = [];
    let url = `${PREFIX}/transactions?subscription_id=${session.sub}&per_page=2`;
    const pages: Json[] = [];
    for (let n = 0; n < 10; n++) {
      const res = await harness.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${API_KEY}` } });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      pages.push(body.meta.pagination);
      seen.push(...body.data.map((t: Json) => t.id));
      if (!body.meta.pagination.has_more) break;
      const next = new URL(body.meta.pagination.next);
      expect(next.searchParams.get('subscription_id')).toBe(session.sub);
      expect(next.searchParams.get('per_page')).toBe('2');
      url = `${next.pathname}${next.search}`;
    }
    expect(seen).toEqual([session.e, session.d, session.c, session.b, session.a]);
    expect(pages.map((p) => [p.per_page, p.has_more, p.estimated_total])).toEqual([
      [2, true, 5],
      [2, true, 5],
      [2, false, 5],
    ]);
    // Past the end: an empty page, has_more false, next keeps the cursor.
    const end = await list(harness, `subscription_id=${session.sub}&after=${session.a}`);
    expect(end.ids).toEqual([]);
    expect(end.body.meta.pagination).toMatchObject({ has_more: false, next: expect.stringContaining(`after=${session.a}`) });
    // Ascending pages continue after the cursor too.
    expect((await list(harness, `order_by=id[ASC]&after=${session.b}&per_page=2`)).ids).toEqual([session.c, session.g]);
    // More than 30 asked: 30 answered, as Paddle does.
    expect((await list(harness, 'per_page=200')).body.meta.pagination.per_page).toBe(30);
    // The configured baseUrl is used for next.
    const configured = await paddleHarness({ baseUrl: 'http://demo.example/sandbox/paddle' });
    try {
      await configured.buy();
      const body = (await configured.api('GET', '/transactions?per_page=1')).json();
      expect(body.meta.pagination.next).toBe(`http://demo.example/sandbox/paddle/transactions?per_page=1&after=${body.data[0].id}`);
    } finally {
      await configured.app.close();
    }
  });

  test('include=customer adds the customer; bad filters get 400 invalid_field; the key is required', async () => {
    const harness = await setup();
    const session = await scenario(harness);
    const withCustomer = (await list(harness, `include=customer&id=${session.f}`)).body.data[0];
    expect(withCustomer.customer).toMatchObject({ id: session.otherCustomer, email: 'bo@example.com' });
    for (const [query, field] of [
      ['status=settled', 'status'],
      ['status=', 'status'],
      ['origin=checkout', 'origin'],
      ['collection_mode=auto', 'collection_mode'],
      ['order_by=amount[ASC]', 'order_by'],
      ['order_by=id', 'order_by'],
      ['per_page=0', 'per_page'],
      ['per_page=ten', 'per_page'],
      ['billed_at[LT]=yesterday', 'billed_at[LT]'],
      ['created_at=2026-13-45T00:00:00Z', 'created_at'],
      ['include=everything', 'include'],
      ['after=', 'after'],
    ]) {
      const { res, body } = await list(harness, query!);
      expect(res.statusCode, query).toBe(400);
      expect(body.error).toMatchObject({ type: 'request_error', code: 'invalid_field', documentation_url: 'https://developer.paddle.com/errors/shared/invalid_field' });
      expect(body.error.errors[0].field).toBe(field);
    }
    const anonymous = await harness.api('GET', '/transactions', undefined, null);
    expect(anonymous.statusCode).toBe(403);
    expect(anonymous.json().error.code).toBe('authentication_missing');
  });
});

describe('GET /transactions/{id}/invoice', () => {
  async function invoiceUrl(harness: PaddleHarness, id: string, query = ''): Promise<URL> {
    const res = await harness.api('GET', `/transactions/${id}/invoice${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body.data)).toEqual(['url']);
    expect(body.meta.request_id).toMatch(/^[0-9a-f-]{36}$/);
    return new URL(body.data.url);
  }

  const open = (h: PaddleHarness, url: URL) => h.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });

  test('a completed transaction: { data: { url } } to a printable, accessible HTML invoice', async () => {
    const harness = await setup();
    const session = await scenario(harness);
    const url = await invoiceUrl(harness, session.a);
    expect(url.origin).toBe('http://localhost');
    expect(url.pathname).toMatch(new RegExp(`^${PREFIX}/invoices/${session.a}\\.[0-9a-z]+\\.[A-Za-z0-9_-]{43}$`));
    const doc = await open(harness, url);
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(doc.headers['cache-control']).toBe('no-store');
    expect(doc.headers['referrer-policy']).toBe('no-referrer');
    expect(doc.headers['content-disposition']).toBe('inline; filename="invoice-2026-00001.html"');
    const csp = String(doc.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    const html = doc.body;
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<title>Invoice 2026-00001</title>');
    expect(html).toContain('<h1 id="invoice-title">Invoice <span class="nowrap">2026-00001</span></h1>');
    expect(html).toContain('<dt>Invoice date</dt><dd>15 January 2026</dd>');
    expect(html).toContain('<dt>Billing period</dt><dd>15 January 2026 – 15 February 2026</dd>');
    expect(html).toContain('<dt>Currency</dt><dd>USD</dd>');
    expect(html).toContain('ava@example.com');
    expect(html).toContain(session.customer);
    expect(html).toContain('<th scope="col">Description</th>');
    expect(html).toContain('<td>Premium<span class="detail">Premium (monthly)</span></td><td class="num">1</td><td class="num">$4.99</td><td class="num">$4.99</td>');
    expect(html).toContain('<tr class="grand"><th scope="row" colspan="3">Amount due</th><td class="num">$4.99</td></tr>');
    expect(html).toContain('<th scope="row" colspan="3">Balance</th><td class="num">$0.00</td>');
    expect(html).toContain('Paid with Visa ending in 4242 on 15 January 2026.');
    expect(html).toContain('@media (prefers-color-scheme:dark)');
    expect(html).toContain('@media print');
    expect(html).toContain('<script src="../invoice.js" defer></script>');
    expect(html).toContain('<button id="print" type="button" hidden>');
    // The stylesheet in the page is the one the CSP allows.
    const css = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const { createHash } = await import('node:crypto');
    expect(csp).toContain(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    const js = await harness.app.inject({ method: 'GET', url: `${PREFIX}/invoice.js` });
    expect(js.statusCode).toBe(200);
    expect(js.body).toContain('window.print()');
    // disposition is accepted (both serve the page inline).
    expect((await open(harness, await invoiceUrl(harness, session.a, '?disposition=inline'))).statusCode).toBe(200);
  });

  test('a proration and a renewal invoice show their lines, proration and credit', async () => {
    const harness = await setup();
    const session = await scenario(harness);
    const upgrade = (await open(harness, await invoiceUrl(harness, session.b))).body;
    expect(upgrade).toContain('Invoice <span class="nowrap">2026-00003</span>');
    expect(upgrade).toContain('Pro<span class="detail">Pro (monthly)</span><span class="detail">Prorated: 67.74% of 25 Jan 2026 – 15 Feb 2026</span>');
    expect(upgrade).toContain('<th scope="row" colspan="3">Credit applied</th><td class="num">−$3.38</td>');
    expect(upgrade).toContain('<th scope="row" colspan="3">Amount due</th><td class="num">$3.39</td>');
    const renewal = (await open(harness, await invoiceUrl(harness, session.c))).body;
    expect(renewal).toContain('<dt>Invoice date</dt><dd>15 February 2026</dd>');
    expect(renewal).toContain('<th scope="row" colspan="3">Amount due</th><td class="num">$9.99</td>');
  });

  test('errors: unknown id 404 not_found; not completed or zero-value 400; bad disposition 400; the key is required', async () => {
    const harness = await setup();
    const session = await scenario(harness);
    const missing = await harness.api('GET', '/transactions/txn_01hzzzzzzzzzzzzzzzzzzzzzzz/invoice');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toMatchObject({ type: 'request_error', code: 'not_found', detail: 'Transaction txn_01hzzzzzzzzzzzzzzzzzzzzzzz not found.' });
    for (const id of [session.e, session.d]) {
      const res = await harness.api('GET', `/transactions/${id}/invoice`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ type: 'request_error', code: 'bad_request' });
      expect(res.json().error.detail).toContain('only available for completed transactions');
    }
    // The card update once paid: completed but zero-value.
    const card = harness.control.transactions().find((t) => t.id === session.d)!;
    const url = new URL(card.checkout.url!);
    await harness.pay((await harness.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).body);
    const zero = await harness.api('GET', `/transactions/${session.d}/invoice`);
    expect(zero.statusCode).toBe(400);
    expect(zero.json().error.detail).toContain('zero-value');
    const disposition = await harness.api('GET', `/transactions/${session.a}/invoice?disposition=download`);
    expect(disposition.statusCode).toBe(400);
    expect(disposition.json().error.errors).toEqual([{ field: 'disposition', message: 'must be attachment or inline' }]);
    expect((await harness.api('GET', `/transactions/${session.a}/invoice`, undefined, 'wrong')).statusCode).toBe(403);
  });

  test('the link works for an hour by the stand-in clock, then answers a 404 page; a forged or unknown link too', async () => {
    const harness = await setup();
    const session = await scenario(harness);
    const url = await invoiceUrl(harness, session.a);
    harness.advance(HOUR - 1);
    expect((await open(harness, url)).statusCode).toBe(200);
    harness.advance(1);
    const expired = await open(harness, url);
    expect(expired.statusCode).toBe(404);
    expect(expired.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(expired.body).toContain('<h1>This invoice link has expired</h1>');
    expect(expired.body).toContain('role="alert"');
    expect(expired.body).toContain('@media (prefers-color-scheme:dark)');
    expect(expired.body).not.toContain('2026-00001');
    // A fresh link works again.
    expect((await open(harness, await invoiceUrl(harness, session.a))).statusCode).toBe(200);
    // Tampering: another transaction id or a later expiry with the same signature.
    const [, , , , token] = url.pathname.split('/') as string[];
    const [txn, exp, sig] = token!.split('.') as [string, string, string];
    for (const forged of [`${session.b}.${exp}.${sig}`, `${txn}.${(Number.parseInt(exp, 36) + 10 * HOUR).toString(36)}.${sig}`, 'nonsense', `${txn}.${exp}`]) {
      const res = await harness.app.inject({ method: 'GET', url: `${PREFIX}/invoices/${forged}` });
      expect(res.statusCode, forged).toBe(404);
      expect(res.body).toContain('<h1>This invoice link is not valid</h1>');
    }
  });

  test('invoiceLinkTtlMs sets the lifetime; links survive a restart with the same keys, not with others', async () => {
    const h1 = await setup({ invoiceLinkTtlMs: 5 * 60 * 1000 });
    const { transactionId } = await h1.buy();
    const res = await h1.api('GET', `/transactions/${transactionId}/invoice`);
    const url = new URL(res.json().data.url);
    const snapshot = JSON.parse(JSON.stringify(h1.control.snapshot()));
    h1.advance(5 * 60 * 1000);
    expect((await open(h1, url)).statusCode).toBe(404);

    const same = await paddleHarness({ initialState: snapshot });
    const other = await paddleHarness({ initialState: snapshot, webhookSecret: `${SECRET}x` });
    try {
      expect(same.now()).toBe(START);
      const doc = await same.app.inject({ method: 'GET', url: url.pathname });
      expect(doc.statusCode).toBe(200);
      expect(doc.body).toContain('2026-00001');
      expect((await other.app.inject({ method: 'GET', url: url.pathname })).statusCode).toBe(404);
    } finally {
      await same.app.close();
      await other.app.close();
    }
  });
});

describe('subscription update preview (what the SDK reads)', () => {
  test('an upgrade: immediate_transaction as PATCH then creates it, next_transaction at next_billed_at, recurring details', async () => {
    const harness = await setup();
    const { subscriptionId } = await harness.buy({ priceId: 'pri_premium_month' });
    harness.advance(10 * DAY);
    const body = { items: [{ price_id: 'pri_pro_month', quantity: 1 }], proration_billing_mode: 'prorated_immediately' };
    const preview = (await harness.api('PATCH', `/subscriptions/${subscriptionId}/preview`, body)).json().data;
    expect(preview.update_summary.result).toEqual({ action: 'charge', amount: '339', currency_code: 'USD' });
    expect(preview.immediate_transaction).toEqual({
      billing_period: { starts_at: '2026-01-25T12:00:00.000000Z', ends_at: '2026-02-15T12:00:00.000000Z' },
      details: {
        tax_rates_used: [],
        totals: { subtotal: '677', tax: '0', discount: '0', total: '677', credit: '338', credit_to_balance: '0', balance: '339', grand_total: '339', fee: null, earnings: null, currency_code: 'USD' },
        line_items: [
          {
            price_id: 'pri_pro_month',
            quantity: 1,
            proration: { rate: (21 / 31).toFixed(6), billing_period: { starts_at: '2026-01-25T12:00:00.000000Z', ends_at: '2026-02-15T12:00:00.000000Z' } },
            tax_rate: '0',
            unit_totals: { subtotal: '677', discount: '0', tax: '0', total: '677' },
            totals: { subtotal: '677', discount: '0', tax: '0', total: '677' },
            product: expect.objectContaining({ name: 'Pro' }),
          },
        ],
      },
      adjustments: [],
    });
    expect(preview.next_transaction.billing_period).toEqual({ starts_at: '2026-02-15T12:00:00.000000Z', ends_at: '2026-03-15T12:00:00.000000Z' });
    expect(preview.next_transaction.details.totals).toMatchObject({ total: '999', credit: '0', grand_total: '999', currency_code: 'USD' });
    expect(preview.next_transaction.details.line_items[0]).toMatchObject({ price_id: 'pri_pro_month', quantity: 1, proration: null });
    expect(preview.next_transaction.adjustments).toEqual([]);
    expect(preview.recurring_transaction_details.totals).toMatchObject({ total: '999', grand_total: '999' });

    const applied = (await harness.api('PATCH', `/subscriptions/${subscriptionId}`, body)).json().data;
    for (const key of ['update_summary', 'immediate_transaction', 'next_transaction', 'recurring_transaction_details']) expect(applied).not.toHaveProperty(key);
    const made = harness.control.transactions().find((t) => t.origin === 'subscription_update')!;
    // Paid at once: its balance is 0 (the preview's balance is what is due).
    expect(made.details.totals).toEqual({ ...preview.immediate_transaction.details.totals, balance: '0' });
    expect(made.billing_period).toEqual(preview.immediate_transaction.billing_period);
  });

  test('a downgrade: the excess credit as credit_to_balance, spent by the next transaction; do_not_bill has no immediate transaction', async () => {
    const harness = await setup();
    const { subscriptionId } = await harness.buy({ priceId: 'pri_pro_month' });
    harness.advance(10 * DAY);
    const body = { items: [{ price_id: 'pri_premium_month', quantity: 1 }], proration_billing_mode: 'prorated_immediately' };
    const preview = (await harness.api('POST', `/subscriptions/${subscriptionId}/preview`, body)).json().data;
    expect(preview.update_summary.result).toEqual({ action: 'credit', amount: '339', currency_code: 'USD' });
    expect(preview.immediate_transaction.details.totals).toMatchObject({ subtotal: '338', credit: '338', credit_to_balance: '339', grand_total: '0' });
    // 499 at the renewal, less the 339 left on the balance.
    expect(preview.next_transaction.details.totals).toMatchObject({ total: '499', credit: '339', grand_total: '160' });

    await harness.api('PATCH', `/subscriptions/${subscriptionId}`, body);
    harness.advance(21 * DAY);
    await harness.api('GET', `/subscriptions/${subscriptionId}`);
    const renewal = harness.control.transactions().find((t) => t.origin === 'subscription_recurring')!;
    expect(renewal.details.totals).toMatchObject({ total: '499', credit: '339', grand_total: '160' });
    expect(renewal.billing_period).toEqual(preview.next_transaction.billing_period);

    const free = (await harness.api('POST', `/subscriptions/${subscriptionId}/preview`, { items: [{ price_id: 'pri_pro_month', quantity: 1 }], proration_billing_mode: 'do_not_bill' })).json().data;
    expect(free.immediate_transaction).toBeNull();
    expect(free.next_transaction.details.totals).toMatchObject({ total: '999', grand_total: '999' });
  });

  test('a scheduled cancel: no next transaction', async () => {
    const harness = await setup();
    const { subscriptionId } = await harness.buy();
    await harness.api('POST', `/subscriptions/${subscriptionId}/cancel`, { effective_from: 'next_billing_period' });
    const preview = (await harness.api('PATCH', `/subscriptions/${subscriptionId}/preview`, { custom_data: { a: 1 } })).json().data;
    expect(preview).toMatchObject({ update_summary: null, immediate_transaction: null, next_transaction: null });
    expect(preview.recurring_transaction_details.totals.total).toBe('499');
  });
});
