import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { encryptSecurePayload } from './secure';
import { PREFIX, pageEvent, START, STORE_KEYS, STOREFRONT, signatureValid, TAGS, until, useFastspringHarness } from './test-helpers';

const setup = useFastspringHarness();

describe('popup checkout', () => {
  test('opens as an accessible, framed-only-by-the-host page with the cart and test cards', async () => {
    const harness = await setup();
    const res = await harness.openPopup({
      storefront: STOREFRONT,
      products: JSON.stringify([{ path: 'tickety-premium-monthly', quantity: 2 }]),
      tags: JSON.stringify(TAGS),
      email: 'ava@example.com',
      parent_origin: 'http://localhost:5173',
    });
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'self' http://localhost:5173");
    expect(res.body).toContain('Tickety Premium (monthly) × 2');
    expect(res.body).toContain('Pay $9.98');
    expect(res.body).toMatch(/<label for="email">Email<\/label>\s*<input id="email" name="email" value="ava@example.com"/);
    expect(res.body).toContain('<label for="card_number">Card number</label>');
    expect(res.body).toContain('4000 0000 0000 0002');
    expect(res.body).toContain('data-parent-origin="http://localhost:5173"');
    expect(res.body).not.toMatch(/ on[a-z]+="/);
  });

  test('a purchase makes an account, an order and a subscription, and sends ONE signed POST with order.completed + subscription.activated', async () => {
    const harness = await setup();
    const { orderId, reference, page } = await harness.buy({ email: 'ava@example.com' });
    expect(reference).toMatch(/^TKT260115-\d{4}-\d{4}[A-Z]$/);
    expect(page.body).toContain('Payment complete');
    await until(() => harness.receiver.got.length === 1, 3000, 'the webhook POST');
    await harness.control.flush();
    expect(harness.receiver.got).toHaveLength(1);
    const post = harness.receiver.got[0]!;
    expect(post.contentType).toContain('application/json');
    expect(signatureValid(post.raw, post.signature)).toBe(true);
    expect(post.events.map((e) => e.type)).toEqual(['order.completed', 'subscription.activated']);
    for (const anyEvent of post.events) expect(anyEvent).toMatchObject({ live: false, processed: false, created: START });
    const [orderEvent, subEvent] = post.events;
    expect(orderEvent!.data).toMatchObject({ id: orderId, order: orderId, reference, completed: true, currency: 'USD', total: 4.99, totalDisplay: '$4.99', tags: TAGS });
    expect(orderEvent!.data.invoiceUrl).toMatch(new RegExp(`^http://localhost(:80)?${PREFIX}/account/order/${reference}/invoice/`));
    const sub = subEvent!.data;
    expect(sub).toMatchObject({
      state: 'active',
      active: true,
      product: 'tickety-premium-monthly',
      quantity: 1,
      price: 4.99,
      currency: 'USD',
      intervalUnit: 'month',
      intervalLength: 1,
      begin: START,
      next: Date.UTC(2026, 1, 15, 12),
      tags: TAGS,
      live: false,
      canceledDate: null,
      deactivationDate: null,
      initialOrderId: orderId,
      initialOrderReference: reference,
      sequence: 1,
    });
    expect(sub.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(sub.account).toBe(orderEvent!.data.account);
    expect(orderEvent!.data.items).toEqual([expect.objectContaining({ product: 'tickety-premium-monthly', quantity: 1, subtotal: 4.99, subscription: sub.id })]);
    expect(harness.control.deliveries().map((d) => d.state)).toEqual(['processed', 'processed']);
  });

  test('the same email reuses the account; several products make several subscriptions in one order', async () => {
    const harness = await setup();
    await harness.buy({ email: 'ava@example.com' });
    await harness.buy({ email: 'AVA@example.com', products: [{ path: 'tickety-pro-monthly', quantity: 3 }, { path: 'tickety-premium-yearly' }] });
    await harness.control.flush();
    expect(harness.control.accounts()).toHaveLength(1);
    const subs = harness.control.subscriptions();
    expect(subs).toHaveLength(3);
    expect(new Set(subs.map((s) => s.account)).size).toBe(1);
    const second = harness.receiver.got.at(-1)!;
    expect(second.events.map((e) => e.type)).toEqual(['order.completed', 'subscription.activated', 'subscription.activated']);
    expect(second.events[0]!.data.total).toBe(79.87);
  });

  test('a declined card shows the problem and makes nothing; bad fields are listed and linked', async () => {
    const harness = await setup();
    const page = await harness.openPopup({ storefront: STOREFRONT, products: JSON.stringify([{ path: 'tickety-premium-monthly' }]) });
    const declined = await harness.pay(page.body, { card_number: '4000 0000 0000 0002' });
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card was declined. Try another card.');
    expect(declined.body).toContain('role="alert"');
    const bad = await harness.pay(page.body, { email: 'nope', expiry: '01/20', cvc: '12' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('<a href="#email">Enter a valid email address');
    expect(bad.body).toContain('aria-invalid="true"');
    expect(bad.body).toContain('this card has expired');
    expect(pageEvent(bad.body)).toBeNull();
    await harness.control.flush();
    expect(harness.control.subscriptions()).toEqual([]);
    expect(harness.receiver.got).toEqual([]);
  });

  test('refuses another storefront, unknown products, mixed currencies and bad JSON', async () => {
    const harness = await setup();
    const other = await harness.openPopup({ storefront: 'other.test.onfastspring.com/popup-other', products: JSON.stringify([{ path: 'tickety-premium-monthly' }]) });
    expect(other.statusCode).toBe(403);
    expect(other.body).toContain('is not this sandbox');
    const unknown = await harness.openPopup({ storefront: STOREFRONT, products: JSON.stringify([{ path: 'nope' }]) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('This store has no product');
    const mixed = await harness.openPopup({ storefront: STOREFRONT, products: JSON.stringify([{ path: 'tickety-premium-monthly' }, { path: 'tickety-premium-eur' }]) });
    expect(mixed.body).toContain('mixes currencies');
    const json = await harness.openPopup({ storefront: STOREFRONT, products: '[{' });
    expect(json.body).toContain('not valid JSON');
    const empty = await harness.openPopup({ storefront: STOREFRONT, products: '[]' });
    expect(empty.body).toContain('The cart is empty');
  });

  test('paying twice (a resubmitted form) makes one order; an unknown session is gone; cross-site posts are refused', async () => {
    const harness = await setup();
    const page = await harness.openPopup({ storefront: STOREFRONT, products: JSON.stringify([{ path: 'tickety-premium-monthly' }]) });
    const first = await harness.pay(page.body);
    const again = await harness.pay(page.body);
    expect(pageEvent(again.body)).toEqual(pageEvent(first.body));
    expect(harness.control.orders()).toHaveLength(1);
    const gone = await harness.app.inject({ method: 'POST', url: `${PREFIX}/popup`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'session=nope' });
    expect(gone.statusCode).toBe(410);
    const cross = await harness.app.inject({
      method: 'POST',
      url: `${PREFIX}/popup`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
      payload: 'session=x',
    });
    expect(cross.statusCode).toBe(403);
  });
});

describe('secure payloads (fastspring.builder.secure)', () => {
  const SESSION = { reset: true, products: [{ path: 'tickety-premium-yearly', quantity: 1 }], tags: { checkout: 'chk_server_made', userId: '123456789012345678' } };
  const secureQuery = (secure: { securePayload: string; secureKey: string }, extra: Record<string, string> = {}) => ({
    storefront: STOREFRONT,
    products: '[]',
    tags: '{}',
    secure_payload: secure.securePayload,
    secure_key: secure.secureKey,
    ...extra,
  });

  test("decrypted with the store's public key: its products and tags make the order; tags the browser adds reach it too, never over the payload's", async () => {
    const harness = await setup();
    const secure = encryptSecurePayload(SESSION, STORE_KEYS.privateKey);
    const page = await harness.openPopup(
      secureQuery(secure, { products: JSON.stringify([{ path: 'tickety-pro-monthly' }]), tags: JSON.stringify({ checkout: 'chk_forged', userId: '876543210987654321', note: 'browser' }) }),
    );
    expect(page.statusCode, page.body).toBe(200);
    // `reset`: the cart's product is gone; the payload's is sold.
    expect(page.body).toContain('Tickety Premium (yearly)');
    expect(page.body).not.toContain('Tickety Pro');
    const done = await harness.pay(page.body, { email: 'ava@example.com' });
    expect(done.statusCode).toBe(200);
    expect(harness.control.subscriptions()).toMatchObject([{ product: 'tickety-premium-yearly', tags: { checkout: 'chk_server_made', userId: '123456789012345678', note: 'browser' } }]);
  });

  test('a payload changed after encryption, a key of another store, or pieces that are not base64 are refused: nothing opens, nothing is bought', async () => {
    const harness = await setup();
    const secure = encryptSecurePayload(SESSION, STORE_KEYS.privateKey);
    // One block of the encrypted JSON replaced: it no longer decrypts to the store's session.
    const bytes = Buffer.from(secure.securePayload, 'base64');
    bytes[bytes.length - 20]! ^= 0x55;
    const other = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const mallory = encryptSecurePayload({ ...SESSION, tags: { checkout: 'chk_stolen' } }, other.privateKey);
    const swapped = encryptSecurePayload(SESSION, STORE_KEYS.privateKey);
    for (const [query, why] of [
      [secureQuery({ ...secure, securePayload: bytes.toString('base64') }), /could not be decrypted|not a JSON session/],
      [secureQuery(mallory), /could not be decrypted with this store/],
      [secureQuery({ securePayload: secure.securePayload, secureKey: swapped.secureKey }), /could not be decrypted|not a JSON session/],
      [secureQuery({ securePayload: 'not base64!', secureKey: secure.secureKey }), /must be base64 strings/],
      [secureQuery({ securePayload: secure.securePayload, secureKey: '' }), /must be base64 strings/],
    ] as const) {
      const res = await harness.openPopup(query);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.body).toMatch(why);
    }
    expect(harness.control.orders()).toEqual([]);
  });

  test('without the store\'s public key (no securePayloadPublicKey) a secure payload is refused; a session field the stand-in does not do is named', async () => {
    const harness = await setup({ securePayloadPublicKey: undefined });
    const res = await harness.openPopup(secureQuery(encryptSecurePayload(SESSION, STORE_KEYS.privateKey)));
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('This store has no public key for secure payloads');
    await harness.app.close();
    const h2 = await setup();
    const odd = await h2.openPopup(secureQuery(encryptSecurePayload({ ...SESSION, pricing: { price: 0 } }, STORE_KEYS.privateKey)));
    expect(odd.statusCode).toBe(400);
    expect(odd.body).toMatch(/pricing(&quot;|&#34;|")? is not supported by this sandbox/);
  });
});
