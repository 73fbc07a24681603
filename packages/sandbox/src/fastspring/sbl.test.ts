import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { POPUP_SCRIPT } from './popup-script';
import { POPUP_SOURCE } from './sbl';
import { PREFIX, pageEvent, STOREFRONT, TAGS, useFastspringHarness } from './test-helpers';

const setup = useFastspringHarness();

type Listener = (event: Record<string, unknown>) => void;

/** Just enough DOM for the scripts. */
class FakeElement {
  style: Record<string, string> = {};
  attributes = new Map<string, string>();
  children: FakeElement[] = [];
  parentNode: FakeElement | null = null;
  listeners = new Map<string, Listener[]>();
  title = '';
  name = '';
  src = '';
  type = '';
  textContent = '';
  tabIndex = -1;
  hidden = false;
  contentWindow: object | null;

  constructor(
    readonly tagName: string,
    private readonly dom: FakeDom,
  ) {
    this.contentWindow = tagName === 'iframe' ? { frame: true } : null;
  }
  setAttribute(k: string, v: unknown) {
    this.attributes.set(k, String(v));
  }
  getAttribute(k: string) {
    return this.attributes.get(k) ?? null;
  }
  appendChild(c: FakeElement) {
    c.parentNode = this;
    this.children.push(c);
    return c;
  }
  removeChild(c: FakeElement) {
    this.children = this.children.filter((x) => x !== c);
    c.parentNode = null;
    return c;
  }
  addEventListener(type: string, fn: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  fire(type: string, event: Record<string, unknown> = {}) {
    for (const fn of this.listeners.get(type) ?? []) fn(event);
  }
  focus() {
    this.dom.document.activeElement = this;
  }
  all(): FakeElement[] {
    return [this, ...this.children.flatMap((c) => c.all())];
  }
}

class FakeDom {
  logs: Array<{ level: string; text: string }> = [];
  posted: Array<{ message: Record<string, unknown>; origin: string }> = [];
  windowListeners = new Map<string, Listener[]>();
  documentListeners = new Map<string, Listener[]>();
  // biome-ignore lint/suspicious/noExplicitAny: a stand-in for the browser's globals
  document: any;
  // biome-ignore lint/suspicious/noExplicitAny: a stand-in for the browser's globals
  window: any;

  constructor(options: { attrs?: Record<string, string>; framed?: boolean; byId?: Record<string, FakeElement>; closers?: FakeElement[] } = {}) {
    const body = new FakeElement('body', this);
    const tag = new FakeElement('script', this);
    tag.src = `http://localhost:3000${PREFIX}/sbl/fastspring-builder.js`;
    for (const [k, v] of Object.entries(options.attrs ?? {})) tag.setAttribute(k, v);
    const byId: Record<string, FakeElement> = { 'fsc-api': tag, ...options.byId };
    this.document = {
      currentScript: tag,
      body,
      documentElement: { style: { overflow: '' } },
      activeElement: body,
      createElement: (t: string) => new FakeElement(t, this),
      addEventListener: (type: string, fn: Listener) => this.documentListeners.set(type, [...(this.documentListeners.get(type) ?? []), fn]),
      removeEventListener: (type: string, fn: Listener) => this.documentListeners.set(type, (this.documentListeners.get(type) ?? []).filter((f) => f !== fn)),
      contains: (el: FakeElement) => el === body || body.all().includes(el),
      getElementById: (id: string) => byId[id] ?? null,
      querySelectorAll: () => options.closers ?? [],
    };
    const parent = { postMessage: (message: Record<string, unknown>, origin: string) => this.posted.push({ message, origin }) };
    this.window = {
      location: { origin: 'http://localhost:5173', href: 'http://localhost:5173/billing' },
      addEventListener: (type: string, fn: Listener) => this.windowListeners.set(type, [...(this.windowListeners.get(type) ?? []), fn]),
    };
    this.window.parent = options.framed ? parent : this.window;
  }

  run(code: string) {
    const log =
      (level: string) =>
      (...args: unknown[]) =>
        this.logs.push({ level, text: args.map(String).join(' ') });
    runInNewContext(code, { window: this.window, document: this.document, console: { log: log('log'), warn: log('warn'), error: log('error') }, URL, URLSearchParams, JSON });
    return this.window.fastspring;
  }

  dialog(): FakeElement | undefined {
    return this.document.body.children.find((c: FakeElement) => c.getAttribute('role') === 'dialog');
  }

  message(event: Record<string, unknown>) {
    for (const fn of this.windowListeners.get('message') ?? []) fn(event);
  }

  key(key: string) {
    for (const fn of this.documentListeners.get('keydown') ?? []) fn({ key, preventDefault: () => undefined });
  }

  errors(level = 'error') {
    return this.logs.filter((l) => l.level === level).map((l) => l.text);
  }
}

describe('GET /sbl/fastspring-builder.js', () => {
  test('defines fastspring.builder (push, add, remove, tag, reset, checkout) and reads its <script id="fsc-api"> tag', async () => {
    const h = await setup();
    const res = await h.app.inject({ method: 'GET', url: `${PREFIX}/sbl/fastspring-builder.js` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/javascript');
    const js = res.body;
    expect(js).toContain(JSON.stringify(STOREFRONT));
    expect(() => new Function(js)).not.toThrow();
    const dom = new FakeDom({ attrs: { 'data-storefront': STOREFRONT, 'data-popup-closed': 'onFSPopupClosed' } });
    const fs = dom.run(js);
    for (const fn of ['push', 'add', 'remove', 'tag', 'reset', 'checkout']) expect(typeof fs.builder[fn]).toBe('function');
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
    });
    fs.builder.remove('tickety-premium-monthly');
    expect(fs.cart().products).toEqual([{ path: 'tickety-pro-monthly', quantity: 2 }]);
    fs.builder.reset();
    expect(fs.cart()).toEqual({ products: [], tags: {}, email: null });
    fs.builder.checkout();
    expect(dom.errors().at(-1)).toContain('the cart is empty');
    expect(dom.dialog()).toBeUndefined();
  });

  test('another data-storefront is a clear console error and checkout is refused', async () => {
    const h = await setup();
    const js = (await h.app.inject({ method: 'GET', url: `${PREFIX}/sbl/fastspring-builder.js` })).body;
    const dom = new FakeDom({ attrs: { 'data-storefront': 'other.test.onfastspring.com/popup-other' } });
    const fs = dom.run(js);
    expect(dom.errors()[0]).toContain(`does not match this sandbox's storefront "${STOREFRONT}"`);
    fs.builder.push({ products: [{ path: 'tickety-premium-monthly' }], checkout: true });
    expect(dom.errors().at(-1)).toContain('checkout refused');
    expect(dom.dialog()).toBeUndefined();
  });

  test('checkout opens an accessible popup on /popup; after the order, closing calls data-popup-closed({ id, reference }); without one, null', async () => {
    const h = await setup();
    const js = (await h.app.inject({ method: 'GET', url: `${PREFIX}/sbl/fastspring-builder.js` })).body;
    const dom = new FakeDom({ attrs: { 'data-storefront': `https://${STOREFRONT}/`, 'data-popup-closed': 'onFSPopupClosed' } });
    const closed: unknown[] = [];
    dom.window.onFSPopupClosed = (r: unknown) => closed.push(r);
    const fs = dom.run(js);
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
    const page = await h.app.inject({ method: 'GET', url: `${src.pathname}${src.search}` });
    expect(page.statusCode).toBe(200);
    const done = await h.pay(page.body);
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
    expect(h.control.orders()[0]).toMatchObject({ id: event.data.id, reference: event.data.reference });

    fs.builder.push({ products: [{ path: 'tickety-premium-monthly' }] });
    fs.builder.checkout();
    const second = dom.dialog()!;
    second.all().find((n) => n.getAttribute('aria-label') === 'Close checkout')!.fire('click');
    expect(closed.at(-1)).toBeNull();
  });

  test("popup.js posts the page's event and close requests to the builder's origin only", () => {
    const block = new FakeElement('script', null as unknown as FakeDom);
    block.textContent = JSON.stringify({ name: 'order.complete', data: { id: 'o1', reference: 'TKT1' } });
    const closeButton = new FakeElement('button', null as unknown as FakeDom);
    const dom = new FakeDom({ framed: true, byId: { 'fastspring-event': block }, closers: [closeButton] });
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
