import { describe, expect, test } from 'vitest';
import { USER_ID, useHarness } from './test-helpers';

const setup = useHarness();

async function openCheckout(sandbox: Awaited<ReturnType<ReturnType<typeof useHarness>>>, extra: Record<string, string> = {}) {
  const res = await sandbox.api('POST', '/hosted_pages/checkout_new_for_items', {
    'subscription_items[item_price_id][0]': 'premium-USD-monthly',
    'customer[id]': USER_ID,
    redirect_url: 'http://localhost:5173/done',
    cancel_url: 'http://localhost:5173/back',
    ...extra,
  });
  return res.json().hosted_page as { id: string; url: string };
}

const CARD = { email: 'ava@example.com', card_number: '4242424242424242', expiry: '12/29', cvc: '123' };

describe('hosted checkout page', () => {
  test('is accessible HTML with a strict CSP, labelled fields and the test cards', async () => {
    const sandbox = await setup();
    const hp = await openCheckout(sandbox, { 'customer[email]': 'ava@example.com' });
    const page = await sandbox.get(hp.url);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'.*script-src 'self'.*form-action 'self'/);
    expect(page.body).toContain('<html lang="en">');
    for (const id of ['email', 'card_number', 'expiry', 'cvc', 'cardholder_name']) expect(page.body).toContain(`<label for="${id}">`);
    expect(page.body).toContain('value="ava@example.com"');
    expect(page.body).toContain('4000 0000 0000 0002');
    expect(page.body).not.toMatch(/\son[a-z]+=/);
    const script = await sandbox.get('/pages/v3/checkout.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
  });

  test('a declined card and bad input show clear errors and change nothing', async () => {
    const sandbox = await setup();
    const hp = await openCheckout(sandbox);
    const declined = await sandbox.post(`${hp.url}pay`, { ...CARD, card_number: '4000 0000 0000 0002' });
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card was declined');
    const bad = await sandbox.post(`${hp.url}pay`, { ...CARD, email: 'nope', expiry: '01/20' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('aria-invalid="true"');
    expect(bad.body).toContain('Enter a valid email address');
    expect(bad.body).toContain('this card has expired');
    expect(sandbox.control.subscriptions()).toEqual([]);
    expect((await sandbox.api('GET', `/hosted_pages/${hp.id}`)).json().hosted_page.state).toBe('created');
  });

  test('paying twice is impossible: the succeeded page shows its result', async () => {
    const sandbox = await setup();
    const hp = await openCheckout(sandbox);
    expect((await sandbox.post(`${hp.url}pay`, CARD)).statusCode).toBe(303);
    const again = await sandbox.post(`${hp.url}pay`, CARD);
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain('Payment complete');
    expect(again.body).toContain(`id=${hp.id}&#38;state=succeeded`);
    const reopened = await sandbox.get(hp.url);
    expect(reopened.body).toContain('cannot be paid again');
    expect(sandbox.control.subscriptions()).toHaveLength(1);
    expect(sandbox.control.invoices()).toHaveLength(1);
  });

  test('cancel redirects to cancel_url with state=cancelled; the page cannot be paid afterwards; expired pages refuse', async () => {
    const sandbox = await setup();
    const hp = await openCheckout(sandbox);
    const cancelled = await sandbox.post(`${hp.url}cancel`);
    expect(cancelled.statusCode).toBe(303);
    expect(cancelled.headers.location).toBe(`http://localhost:5173/back?id=${hp.id}&state=cancelled`);
    expect((await sandbox.api('GET', `/hosted_pages/${hp.id}`)).json().hosted_page.state).toBe('cancelled');
    expect((await sandbox.post(`${hp.url}pay`, CARD)).statusCode).toBe(410);
    const old = await openCheckout(sandbox);
    sandbox.advance(3 * 3600 * 1000 + 1000);
    expect((await sandbox.get(old.url)).statusCode).toBe(410);
    expect((await sandbox.post(`${old.url}pay`, CARD)).statusCode).toBe(410);
    expect(sandbox.control.subscriptions()).toEqual([]);
  });

  test('a cross-site form post is refused', async () => {
    const sandbox = await setup();
    const hp = await openCheckout(sandbox);
    const res = await sandbox.app.inject({
      method: 'POST',
      url: new URL(`${hp.url}pay`).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
      payload: new URLSearchParams(CARD).toString(),
    });
    expect(res.statusCode).toBe(403);
    expect(sandbox.control.subscriptions()).toEqual([]);
  });
});

describe('customer portal', () => {
  test('cancel at term end and remove the scheduled cancellation; invoices download; sign out returns', async () => {
    const sandbox = await setup();
    const { subscriptionId } = await sandbox.buy();
    const ps = (await sandbox.api('POST', '/portal_sessions', { 'customer[id]': USER_ID, redirect_url: 'http://localhost:5173/billing' })).json().portal_session;
    const login = await sandbox.get(ps.access_url);
    expect(login.statusCode).toBe(303);
    const setCookie = String(login.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    const cookie = setCookie.split(';')[0]!;
    expect((await sandbox.get(String(login.headers.location))).statusCode).toBe(401);
    const home = await sandbox.get(String(login.headers.location), cookie);
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Premium Monthly');
    expect(home.body).toContain('Renews on 15 February 2026');

    const confirm = await sandbox.get(`/portal/v2/subscriptions/${subscriptionId}/cancel`, cookie);
    expect(confirm.body).toContain('Cancel at end of term');
    const done = await sandbox.post(`/portal/v2/subscriptions/${subscriptionId}/cancel`, {}, cookie);
    expect(done.statusCode).toBe(303);
    expect(sandbox.control.subscriptions()[0]!.status).toBe('non_renewing');
    const after = await sandbox.get('/portal/v2/home?done=cancelled', cookie);
    expect(after.body).toContain('Ends on 15 February 2026');
    await sandbox.post(`/portal/v2/subscriptions/${subscriptionId}/remove_scheduled_cancellation`, {}, cookie);
    expect(sandbox.control.subscriptions()[0]!.status).toBe('active');
    await sandbox.control.flush();
    const portalEvents = sandbox.receiver.got.filter((r) => r.body.source === 'portal').map((r) => r.body.event_type);
    expect(portalEvents).toEqual(['subscription_cancellation_scheduled', 'subscription_scheduled_cancellation_removed']);

    const invoiceId = sandbox.control.invoices()[0]!.id;
    const doc = await sandbox.get(`/portal/v2/invoices/${invoiceId}`, cookie);
    expect(doc.statusCode).toBe(200);
    expect(doc.body).toContain(`Invoice #${invoiceId}`);

    // Someone else's subscription is not reachable from this session.
    const other = await sandbox.buy({ customerId: 'other-user', email: 'bo@example.com' });
    expect((await sandbox.post(`/portal/v2/subscriptions/${other.subscriptionId}/cancel`, {}, cookie)).statusCode).toBe(404);

    const out = await sandbox.post('/portal/v2/logout', {}, cookie);
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('http://localhost:5173/billing');
    expect((await sandbox.get('/portal/v2/home', cookie)).statusCode).toBe(401);
  });
});
