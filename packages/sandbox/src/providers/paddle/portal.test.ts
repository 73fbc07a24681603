import { describe, expect, test } from 'vitest';
import { DAY, PREFIX, pageEvent, usePaddleHarness } from './test-helpers';

const setup = usePaddleHarness();

/** The path (with query) of an absolute URL the API handed out, for inject. */
function local(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** Resolves a relative link or Location against the page's path. */
function resolve(from: string, href: string): string {
  return local(new URL(href.replace(/&#38;/g, '&'), `http://localhost${from}`).href);
}

describe('customer portal', () => {
  test('POST /customers/:id/portal-sessions answers the session with its URLs', async () => {
    const harness = await setup();
    const { subscriptionId, customerId } = await harness.buy();
    const res = await harness.api('POST', `/customers/${customerId}/portal-sessions`, { subscription_ids: [subscriptionId] });
    expect(res.statusCode).toBe(201);
    const { data, meta } = res.json();
    expect(meta.request_id).toBeTruthy();
    expect(data.id).toMatch(/^cpls_[0-9a-z]{26}$/);
    expect(data.customer_id).toBe(customerId);
    expect(data.created_at).toMatch(/\.\d{6}Z$/);
    const root = `http://localhost:80${PREFIX}/portal/${data.id}`;
    expect(data.urls).toEqual({
      general: { overview: root },
      subscriptions: [
        { id: subscriptionId, cancel_subscription: `${root}/subscriptions/${subscriptionId}/cancel`, update_subscription_payment_method: `${root}/subscriptions/${subscriptionId}/payment-method` },
      ],
    });
    // Without subscription_ids: the overview only.
    expect((await harness.api('POST', `/customers/${customerId}/portal-sessions`, {})).json().data.urls.subscriptions).toEqual([]);
    expect((await harness.api('POST', '/customers/ctm_nobody/portal-sessions', {})).statusCode).toBe(404);
    const other = await harness.buy({ email: 'ben@example.com', customData: { userId: '222222222222222222' } });
    const foreign = await harness.api('POST', `/customers/${customerId}/portal-sessions`, { subscription_ids: [other.subscriptionId] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error.code).toBe('invalid_field');
    expect((await harness.api('POST', `/customers/${customerId}/portal-sessions`, {}, 'bad')).statusCode).toBe(403);
  });

  test('the overview lists the customer’s subscriptions; cancel at period end, then keep it', async () => {
    const harness = await setup();
    const { subscriptionId, customerId } = await harness.buy();
    await harness.buy({ priceId: 'pri_pro_month' });
    const session = (await harness.api('POST', `/customers/${customerId}/portal-sessions`, { subscription_ids: [subscriptionId] })).json().data;

    const overview = await harness.app.inject({ method: 'GET', url: local(session.urls.general.overview) });
    expect(overview.statusCode).toBe(200);
    expect(overview.headers['content-security-policy']).toContain("script-src 'none'");
    expect(overview.body).toContain('Your subscriptions');
    expect(overview.body).toContain('ava@example.com');
    expect(overview.body).toContain('Premium');
    expect(overview.body).toContain('Pro');
    expect(overview.body).toContain('$4.99 / month');
    expect(overview.body).toContain('Renews on 15 February 2026');
    expect(overview.body).toContain('Visa •••• 4242');
    expect(overview.body).not.toMatch(/\son[a-z]+=/i);

    const cancelUrl = local(session.urls.subscriptions[0].cancel_subscription);
    const confirm = await harness.app.inject({ method: 'GET', url: cancelUrl });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Cancel your subscription?');
    expect(confirm.body).toContain('<form method="post" action="cancel">');
    expect(harness.control.subscriptions().find((s) => s.id === subscriptionId)!.scheduled_change).toBeNull();

    const cancel = await harness.app.inject({ method: 'POST', url: cancelUrl, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(cancel.statusCode).toBe(303);
    const back = resolve(cancelUrl, String(cancel.headers.location));
    expect(back).toBe(`${local(session.urls.general.overview)}?done=canceled`);
    expect(harness.control.subscriptions().find((s) => s.id === subscriptionId)!.scheduled_change).toMatchObject({ action: 'cancel', effective_at: '2026-02-15T12:00:00.000000Z' });
    await harness.control.flush();
    expect(harness.receiver.types().at(-1)).toBe('subscription.updated');

    const after = await harness.app.inject({ method: 'GET', url: back });
    expect(after.body).toContain('will end at the end of the billing period');
    expect(after.body).toContain('Ends on 15 February 2026');
    const resumeHref = /<form class="inline" method="post" action="([^"]+\/resume)">/.exec(after.body)![1]!;
    const resumeUrl = resolve(back, resumeHref);
    const resume = await harness.app.inject({ method: 'POST', url: resumeUrl, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(resume.statusCode).toBe(303);
    expect(harness.control.subscriptions().find((s) => s.id === subscriptionId)!.scheduled_change).toBeNull();

    // Forms from another site are refused.
    const forged = await harness.app.inject({ method: 'POST', url: cancelUrl, headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' }, payload: '' });
    expect(forged.statusCode).toBe(403);
    expect(harness.control.subscriptions().find((s) => s.id === subscriptionId)!.scheduled_change).toBeNull();
  });

  test('the payment method link opens the card-update checkout, which leads back to the portal', async () => {
    const harness = await setup();
    const { subscriptionId, customerId } = await harness.buy();
    const session = (await harness.api('POST', `/customers/${customerId}/portal-sessions`, { subscription_ids: [subscriptionId] })).json().data;
    const from = local(session.urls.subscriptions[0].update_subscription_payment_method);
    const res = await harness.app.inject({ method: 'GET', url: from });
    expect(res.statusCode).toBe(303);
    const checkoutUrl = resolve(from, String(res.headers.location));
    expect(checkoutUrl.startsWith(`${PREFIX}/checkout?txn=txn_`)).toBe(true);
    const page = await harness.app.inject({ method: 'GET', url: checkoutUrl });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Update your payment method');
    const done = await harness.pay(page.body, { card_number: '5555555555554444' });
    expect(done.body).toContain('Payment complete');
    expect(done.body).toContain(`href="${new URL(`${session.urls.general.overview}?done=card`).href}"`);
    expect(pageEvent(done.body)?.data.subscription_id).toBe(subscriptionId);
    const overview = await harness.app.inject({ method: 'GET', url: `${local(session.urls.general.overview)}?done=card` });
    expect(overview.body).toContain('Mastercard •••• 4444');
    expect(overview.body).toContain('Your payment method has been updated.');
  });

  test('links expire, and belong to their customer', async () => {
    const harness = await setup();
    const first = await harness.buy();
    const second = await harness.buy({ email: 'ben@example.com', customData: { userId: '222222222222222222' } });
    const session = (await harness.api('POST', `/customers/${first.customerId}/portal-sessions`, {})).json().data;
    const root = local(session.urls.general.overview);
    expect((await harness.app.inject({ method: 'GET', url: `${root}/subscriptions/${second.subscriptionId}/cancel` })).statusCode).toBe(404);
    expect((await harness.app.inject({ method: 'POST', url: `${root}/subscriptions/${second.subscriptionId}/cancel`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' })).statusCode).toBe(404);
    expect((await harness.app.inject({ method: 'GET', url: `${PREFIX}/portal/cpls_nothing` })).statusCode).toBe(404);
    harness.advance(2 * DAY);
    const expired = await harness.app.inject({ method: 'GET', url: root });
    expect(expired.statusCode).toBe(404);
    expect(expired.body).toContain('This link has expired');
    expect(harness.control.subscriptions().every((s) => s.scheduled_change === null)).toBe(true);
  });

  test('a canceled subscription shows no actions', async () => {
    const harness = await setup();
    const { subscriptionId, customerId } = await harness.buy();
    await harness.api('POST', `/subscriptions/${subscriptionId}/cancel`, { effective_from: 'immediately' });
    const session = (await harness.api('POST', `/customers/${customerId}/portal-sessions`, {})).json().data;
    const overview = await harness.app.inject({ method: 'GET', url: local(session.urls.general.overview) });
    expect(overview.body).toContain('Canceled on 15 January 2026');
    expect(overview.body).not.toContain('Update payment method');
    expect(overview.body).not.toContain('Cancel subscription');
  });
});
