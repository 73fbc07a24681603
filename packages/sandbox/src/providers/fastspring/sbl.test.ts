import { describe, expect, test } from 'vitest';
import { FakeDom, type FakeDomOptions, FakeElement } from '../../kit/testing/fake-dom';
import { POPUP_SCRIPT } from './popup-script';
import { POPUP_SOURCE } from './sbl';
import { encryptSecurePayload } from './secure';
import { PREFIX, pageEvent, STORE_KEYS, STOREFRONT, TAGS, useFastspringHarness } from './test-helpers';

const setup = useFastspringHarness();

/** A page with the builder's `<script id="fsc-api" src=… data-…>` tag (its attributes from `attrs`). */
function builderDom(options: Omit<FakeDomOptions, 'currentScript' | 'href'> & { attrs?: Record<string, string> } = {}): FakeDom {
  const dom = new FakeDom(options);
  const tag = new FakeElement('script', dom);
  tag.src = `http://localhost:3000${PREFIX}/sbl/fastspring-builder.js`;
  for (const [key, value] of Object.entries(options.attrs ?? {})) tag.setAttribute(key, value);
  dom.document.currentScript = tag;
  dom.byId = { 'fsc-api': tag, ...dom.byId };
  return dom;
}

describe('GET /sbl/fastspring-builder.js', () => {
  test('defines fastspring.builder (push, add, remove, tag, reset, secure, checkout) and reads its <script id="fsc-api"> tag', async () => {
    const harness = await setup();
    const res = await harness.app.inject({ method: 'GET', url: `${PREFIX}/sbl/fastspring-builder.js` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/javascript');
    const js = res.body;
    expect(js).toContain(JSON.stringify(STOREFRONT));
    expect(() => new Function(js)).not.toThrow();
    const dom = builderDom({ attrs: { 'data-storefront': STOREFRONT, 'data-popup-closed': 'onFSPopupClosed' } });
    const fs = dom.run(js).fastspring;
    for (const fn of ['push', 'add', 'remove', 'tag', 'reset', 'secure', 'checkout']) expect(typeof fs.builder[fn]).toBe('function');
    fs.builder.push({ products: [{ path: 'tickety-premium-monthly', quantity: 2 }], tags: { guildId: '1' }, paymentContact: { email: 'ava@example.com' } });
    fs.builder.add('tickety-pro-monthly');
    fs.builder.add('tickety-pro-monthly');
    fs.builder.tag('userId', '2');
    fs.builder.tag({ plan: 'x' });
    expect(fs.cart()).toEqual({
      products: [
        { path: 'tickety-premium-monthly', quantity: 2 },
        { path: 'tickety-pro-monthly', quantity: 2 },
      ],
      tags: { guildId: '1', userId: '2', plan: 'x' },
      email: 'ava@example.com',
      secure: null,
    });
    fs.builder.remove('tickety-premium-monthly');
    expect(fs.cart().products).toEqual([{ path: 'tickety-pro-monthly', quantity: 2 }]);
    fs.builder.reset();
    expect(fs.cart()).toEqual({ products: [], tags: {}, email: null, secure: null });
    fs.builder.checkout();
    expect(dom.errors().at(-1)).toContain('the cart is empty');
    expect(dom.dialog()).toBeUndefined();
  });

  test('another data-storefront is a clear console error and checkout is refused', async () => {
    const harness = await setup();
    const js = (await harness.app.inject({ method: 'GET', url: `${PREFIX}/sbl/fastspring-builder.js` })).body;
    const dom = builderDom({ attrs: { 'data-storefront': 'other.test.onfastspring.com/popup-other' } });
    const fs = dom.run(js).fastspring;
    expect(dom.errors()[0]).toContain(`does not match this sandbox's storefront "${STOREFRONT}"`);
    fs.builder.push({ products: [{ path: 'tickety-premium-monthly' }], checkout: true });
    expect(dom.errors().at(-1)).toContain('checkout refused');
    expect(dom.dialog()).toBeUndefined();
  });

  test('checkout opens an accessible popup on /popup; after the order, closing calls data-popup-closed({ id, reference }); without one, null', async () => {
    const harness = await setup();
    const js = (await harness.app.inject({ method: 'GET', url: `${PREFIX}/sbl/fastspring-builder.js` })).body;
    const dom = builderDom({ attrs: { 'data-storefront': `https://${STOREFRONT}/`, 'data-popup-closed': 'onFSPopupClosed' } });
    const closed: unknown[] = [];
    dom.window.onFSPopupClosed = (r: unknown) => closed.push(r);
    const fs = dom.run(js).fastspring;
    expect(dom.errors()).toEqual([]);
    const opener = new FakeElement('button', dom);
    dom.document.body.appendChild(opener);
    opener.focus();
    fs.builder.push({ products: [{ path: 'tickety-premium-monthly', quantity: 1 }], tags: TAGS, checkout: true });
    const root = dom.dialog()!;
    expect(root.getAttribute('aria-modal')).toBe('true');
    expect(root.getAttribute('aria-label')).toBe('Checkout');
    const frame = root.all().find((n) => n.tagName === 'iframe')!;
    const close = root.all().find((n) => n.getAttribute('aria-label') === 'Close checkout')!;
    expect(dom.document.activeElement).toBe(close);
    const src = new URL(frame.src);
    expect(src.pathname).toBe(`${PREFIX}/popup`);
    expect(src.searchParams.get('parent_origin')).toBe('http://localhost:5173');
    expect(JSON.parse(src.searchParams.get('tags')!)).toEqual(TAGS);

    // The framed page, paid for real through the plugin.
    const page = await harness.app.inject({ method: 'GET', url: `${src.pathname}${src.search}` });
    expect(page.statusCode).toBe(200);
    const done = await harness.pay(page.body);
    const event = pageEvent(done.body)!;
    expect(event.name).toBe('order.complete');

    // Messages from elsewhere are ignored; the frame's message records the order.
    dom.message({ origin: 'http://evil.test', source: frame.contentWindow, data: { source: POPUP_SOURCE, ...event } });
    dom.message({ origin: 'http://localhost:3000', source: frame.contentWindow, data: { source: POPUP_SOURCE, ...event } });
    expect(closed).toEqual([]);
    dom.key('Escape');
    expect(dom.dialog()).toBeUndefined();
    expect(dom.document.activeElement).toBe(opener);
    expect(closed).toEqual([{ id: event.data.id, reference: event.data.reference }]);
    expect(harness.control.orders()[0]).toMatchObject({ id: event.data.id, reference: event.data.reference });

    fs.builder.push({ products: [{ path: 'tickety-premium-monthly' }] });
    fs.builder.checkout();
    const second = dom.dialog()!;
    second.all().find((n) => n.getAttribute('aria-label') === 'Close checkout')!.fire('click');
    expect(closed.at(-1)).toBeNull();
  });

  test('secure(payload, key) sends the encrypted session with the checkout (an empty cart is then enough); only encrypted payloads are taken', async () => {
    const harness = await setup();
    const js = (await harness.app.inject({ method: 'GET', url: `${PREFIX}/sbl/fastspring-builder.js` })).body;
    const dom = builderDom({ attrs: { 'data-storefront': STOREFRONT, 'data-popup-closed': 'onFSPopupClosed' } });
    const fs = dom.run(js).fastspring;
    fs.builder.secure({ products: [{ path: 'tickety-premium-monthly' }] }, '');
    expect(dom.errors().at(-1)).toContain('takes no unencrypted payload');
    expect(fs.cart().secure).toBeNull();
    const { securePayload, secureKey } = encryptSecurePayload({ reset: true, products: [{ path: 'tickety-premium-monthly', quantity: 1 }], tags: { checkout: 'chk_1' } }, STORE_KEYS.privateKey);
    fs.builder.secure(securePayload, secureKey);
    fs.builder.checkout();
    const frame = dom.dialog()!.all().find((n) => n.tagName === 'iframe')!;
    const src = new URL(frame.src);
    expect(src.searchParams.get('secure_payload')).toBe(securePayload);
    expect(src.searchParams.get('secure_key')).toBe(secureKey);
    const page = await harness.app.inject({ method: 'GET', url: `${src.pathname}${src.search}` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('Tickety Premium (monthly)');
  });

  test("popup.js posts the page's event and close requests to the builder's origin only", () => {
    const block = new FakeElement('script', null as unknown as FakeDom);
    block.textContent = JSON.stringify({ name: 'order.complete', data: { id: 'o1', reference: 'TKT1' } });
    const closeButton = new FakeElement('button', null as unknown as FakeDom);
    const dom = builderDom({ framed: true, byId: { 'fastspring-event': block }, closers: [closeButton] });
    dom.document.body.setAttribute('data-parent-origin', 'http://localhost:5173');
    dom.run(POPUP_SCRIPT);
    expect(dom.posted).toEqual([{ message: { source: POPUP_SOURCE, name: 'order.complete', data: { id: 'o1', reference: 'TKT1' } }, origin: 'http://localhost:5173' }]);
    closeButton.fire('click');
    dom.key('Escape');
    expect(dom.posted.slice(1).map((p) => p.message)).toEqual([
      { source: POPUP_SOURCE, action: 'close' },
      { source: POPUP_SOURCE, action: 'close' },
    ]);
  });
});
