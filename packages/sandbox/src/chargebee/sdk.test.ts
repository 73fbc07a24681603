import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { API_KEY, PREFIX, SITE, USER_ID, useHarness, WEBHOOK_PASS, WEBHOOK_USER } from './test-helpers';

/**
 * The API's own client, Chargebee's official SDK (installed for apps/api, not a dependency of this
 * package): read from there when present, else these tests are skipped.
 */
const SDK = fileURLToPath(new URL('../../../../apps/api/node_modules/chargebee/esm/chargebee.esm.js', import.meta.url));
const setup = useHarness();

describe.skipIf(!existsSync(SDK))('the chargebee SDK against the stand-in', () => {
  test('checkout, retrieve, estimate, change, cancel, portal, invoices, events and errors parse as Chargebee’s', async () => {
    const h = await setup();
    // biome-ignore lint/suspicious/noExplicitAny: the SDK is loaded by path, untyped here
    const mod: any = await import(SDK);
    const seen: string[] = [];
    const httpClient = {
      async makeApiRequest(request: Request): Promise<Response> {
        const url = new URL(request.url);
        expect(url.host).toBe(`${SITE}.chargebee.com`);
        seen.push(`${request.method} ${url.pathname}`);
        const res = await h.app.inject({
          method: request.method as 'GET' | 'POST',
          url: `${PREFIX}${url.pathname}${url.search}`,
          headers: Object.fromEntries(request.headers.entries()),
          ...(request.method === 'GET' ? {} : { payload: await request.text() }),
        });
        return new Response(res.body, { status: res.statusCode, headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') } });
      },
    };
    const cb = new mod.default({ site: SITE, apiKey: API_KEY, httpClient });
    const { hosted_page } = await cb.hostedPage.checkoutNewForItems({
      subscription_items: [{ item_price_id: 'premium-USD-monthly', quantity: 1 }],
      customer: { id: USER_ID, email: 'ava@example.com' },
      redirect_url: 'http://localhost:5173/done',
      cancel_url: 'http://localhost:5173/back',
    });
    expect(hosted_page.state).toBe('created');
    await h.get(hosted_page.url);
    await h.post(`${hosted_page.url}pay`, { email: 'ava@example.com', card_number: '4242424242424242', expiry: '12/29', cvc: '123' });
    const done = await cb.hostedPage.retrieve(hosted_page.id);
    expect(done.hosted_page.state).toBe('succeeded');
    const subId = done.hosted_page.content.subscription.id;

    const list = await cb.subscription.list({ limit: 10, customer_id: { is: USER_ID } });
    expect(list.list.map((x: { subscription: { id: string } }) => x.subscription.id)).toEqual([subId]);
    const est = await cb.estimate.updateSubscriptionForItems({ subscription: { id: subId }, subscription_items: [{ item_price_id: 'pro-USD-monthly' }], replace_items_list: true, prorate: true });
    expect(est.estimate.invoice_estimate.total).toBe(1000);
    const changed = await cb.subscription.updateForItems(subId, { subscription_items: [{ item_price_id: 'pro-USD-monthly' }], replace_items_list: true, prorate: true });
    expect(changed.subscription.subscription_items[0].item_price_id).toBe('pro-USD-monthly');
    const cancelled = await cb.subscription.cancelForItems(subId, { end_of_term: true });
    expect(cancelled.subscription.status).toBe('non_renewing');
    expect((await cb.subscription.removeScheduledCancellation(subId)).subscription.status).toBe('active');
    const portal = await cb.portalSession.create({ customer: { id: USER_ID }, redirect_url: 'http://localhost:5173/billing' });
    expect(portal.portal_session.access_url).toContain('/portal/v2/access/');
    const invoices = await cb.invoice.list({ subscription_id: { is: subId } });
    expect(invoices.list).toHaveLength(2);
    const pdf = await cb.invoice.pdf(invoices.list[0].invoice.id);
    expect(pdf.download.mime_type).toBe('text/html');
    await h.control.flush();
    const event = await cb.event.retrieve(h.control.events()[0]!.id);
    expect(event.event.webhook_status).toBe('succeeded');

    await expect(cb.subscription.retrieve('missing')).rejects.toMatchObject({ api_error_code: 'resource_not_found', http_status_code: 404 });
    const bad = new mod.default({ site: SITE, apiKey: 'wrong', httpClient });
    await expect(bad.subscription.list({})).rejects.toMatchObject({ api_error_code: 'api_authentication_failed', http_status_code: 401 });
    expect(seen).toContain(`POST /api/v2/hosted_pages/checkout_new_for_items`);

    // The SDK's own webhook Basic auth validator accepts what the stand-in sends.
    const validate = mod.basicAuthValidator((u: string, p: string) => u === WEBHOOK_USER && p === WEBHOOK_PASS);
    expect(h.receiver.got.length).toBeGreaterThan(0);
    for (const r of h.receiver.got) await expect(validate({ authorization: r.authorization })).resolves.toBeUndefined();
    await expect(validate({ authorization: 'Basic Y2JfdXNlcjp3cm9uZw==' })).rejects.toThrow(/Invalid credentials/);
  });
});
