import { describe, expect, test } from 'vitest';
import { FakeDom, type FakeDomOptions, FakeElement } from '../../kit/testing/fake-dom';
import { CHECKOUT_SCRIPT } from './checkout-script';
import { CLIENT_TOKEN, PREFIX, usePaddleHarness } from './test-helpers';

const setup = usePaddleHarness();

/** A page that loaded paddle.js from `scriptSrc` (the checkout page's script runs with '' and a frame). */
function paddleDom(scriptSrc: string, options: Omit<FakeDomOptions, 'currentScript' | 'href'> = {}): FakeDom {
  return new FakeDom({ ...options, currentScript: { src: scriptSrc }, href: 'http://localhost:5173/billing/paddleBuy' });
}

async function served(): Promise<string> {
  const harness = await setup();
  const res = await harness.app.inject({ method: 'GET', url: `${PREFIX}/paddle.js` });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('application/javascript');
  return res.body;
}

const SRC = `http://localhost:3000${PREFIX}/paddle.js`;

describe('GET /paddle.js', () => {
  test('defines window.Paddle with the v2 API, finds itself from its <script src> and checks origins', async () => {
    const js = await served();
    for (const text of ['window.Paddle = Paddle', 'Environment', 'Initialize:', 'Update:', 'Initialized: false', 'open: open', 'close: function', 'document.currentScript', "'Escape'", 'aria-modal', 'Close checkout', 'e.origin !== origin']) {
      expect(js).toContain(text);
    }
    expect(js).toContain(JSON.stringify(CLIENT_TOKEN));
    expect(() => new Function(js)).not.toThrow();
  });

  test('Initialize runs once; a wrong token or a missing sandbox environment refuses the checkout', async () => {
    const js = await served();
    const dom = paddleDom(SRC);
    const Paddle = dom.run(js).Paddle;
    expect(Paddle.Initialized).toBe(false);
    Paddle.Checkout.open({ items: [{ priceId: 'pri_premium_month', quantity: 1 }] });
    expect(dom.errors().at(-1)).toContain('Paddle.Initialize');
    Paddle.Initialize({ token: CLIENT_TOKEN });
    expect(Paddle.Initialized).toBe(true);
    Paddle.Initialize({ token: CLIENT_TOKEN });
    expect(dom.errors('warn').at(-1)).toContain('runs once');
    Paddle.Checkout.open({ items: [{ priceId: 'pri_premium_month', quantity: 1 }] });
    expect(dom.errors().at(-1)).toContain('Environment.set("sandbox")');
    expect(dom.dialog()).toBeUndefined();

    const other = paddleDom(SRC);
    const P2 = other.run(js).Paddle;
    P2.Environment.set('sandbox');
    P2.Initialize({ token: 'test_not_this_one' });
    expect(other.errors().at(-1)).toContain('does not match');
    P2.Checkout.open({ items: [{ priceId: 'pri_premium_month' }] });
    expect(other.errors().at(-1)).toContain('checkout refused');
    expect(other.dialog()).toBeUndefined();
  });

  test('Checkout.open shows an accessible overlay with the checkout, relays its events and closes', async () => {
    const js = await served();
    const dom = paddleDom(SRC);
    const Paddle = dom.run(js).Paddle;
    const events: Array<{ name: string; data: Record<string, unknown> }> = [];
    Paddle.Environment.set('sandbox');
    Paddle.Initialize({ token: CLIENT_TOKEN, eventCallback: (e: { name: string; data: Record<string, unknown> }) => events.push(e) });
    const opener = new FakeElement('button', dom);
    dom.document.body.appendChild(opener);
    opener.focus();
    Paddle.Checkout.open({
      items: [{ priceId: 'pri_premium_month', quantity: 2 }],
      customData: { userId: '123456789012345678' },
      customer: { email: 'ava@example.com' },
      settings: { displayMode: 'overlay', successUrl: '/billing/done' },
    });
    const root = dom.dialog()!;
    expect(root).toBeDefined();
    expect(root.getAttribute('aria-modal')).toBe('true');
    expect(root.style.position).toBe('fixed');
    const nodes = root.all();
    const frame = nodes.find((n) => n.tagName === 'iframe')!;
    const close = nodes.find((n) => n.tagName === 'button')!;
    expect(close.getAttribute('aria-label')).toBe('Close checkout');
    expect(dom.document.activeElement).toBe(close);
    const url = new URL(frame.src);
    expect(`${url.origin}${url.pathname}`).toBe(`http://localhost:3000${PREFIX}/checkout`);
    expect(JSON.parse(url.searchParams.get('items')!)).toEqual([{ priceId: 'pri_premium_month', quantity: 2 }]);
    expect(JSON.parse(url.searchParams.get('custom_data')!)).toEqual({ userId: '123456789012345678' });
    expect(url.searchParams.get('email')).toBe('ava@example.com');
    expect(url.searchParams.get('token')).toBe(CLIENT_TOKEN);
    expect(url.searchParams.get('parent_origin')).toBe('http://localhost:5173');
    expect(url.searchParams.get('success_url')).toBe('http://localhost:5173/billing/done');

    // Only the checkout frame, from the script's origin, is heard.
    const data = { transaction_id: 'txn_1', status: 'completed', customer: { id: 'ctm_1' }, subscription_id: 'sub_1' };
    dom.message({ origin: 'https://evil.example', source: frame.contentWindow, data: { source: 'paddle-sandbox-checkout', name: 'checkout.completed', data } });
    dom.message({ origin: 'http://localhost:3000', source: {}, data: { source: 'paddle-sandbox-checkout', name: 'checkout.completed', data } });
    dom.message({ origin: 'http://localhost:3000', source: frame.contentWindow, data: { source: 'paddle-sandbox-checkout', name: 'checkout.unknown', data } });
    expect(events).toEqual([]);
    dom.message({ origin: 'http://localhost:3000', source: frame.contentWindow, data: { source: 'paddle-sandbox-checkout', name: 'checkout.loaded', data: { id: 'chk_1' } } });
    dom.message({ origin: 'http://localhost:3000', source: frame.contentWindow, data: { source: 'paddle-sandbox-checkout', name: 'checkout.completed', data } });
    expect(events).toEqual([
      { name: 'checkout.loaded', data: { id: 'chk_1' } },
      { name: 'checkout.completed', data },
    ]);
    // successUrl: the host page goes there after a moment.
    for (const callback of dom.timers) callback();
    expect(dom.assigned).toEqual(['http://localhost:5173/billing/done']);

    // Escape closes, sends checkout.closed and gives the focus back.
    dom.key('Escape');
    expect(dom.dialog()).toBeUndefined();
    expect(events.at(-1)).toEqual({ name: 'checkout.closed', data });
    expect(dom.document.activeElement).toBe(opener);
  });

  test('the close button, Checkout.close() and the frame’s close request close it; transactionId opens a card update', async () => {
    const js = await served();
    const dom = paddleDom(SRC);
    const Paddle = dom.run(js).Paddle;
    const names: string[] = [];
    Paddle.Environment.set('sandbox');
    Paddle.Initialize({ token: CLIENT_TOKEN });
    Paddle.Update({ eventCallback: (e: { name: string }) => names.push(e.name) });
    Paddle.Checkout.open({ transactionId: 'txn_01abc' });
    let frame = dom.dialog()!.all().find((n) => n.tagName === 'iframe')!;
    expect(new URL(frame.src).searchParams.get('txn')).toBe('txn_01abc');
    dom.dialog()!.all().find((n) => n.tagName === 'button')!.fire('click');
    expect(dom.dialog()).toBeUndefined();
    Paddle.Checkout.open({ items: [{ priceId: 'pri_premium_month' }] });
    Paddle.Checkout.close();
    expect(dom.dialog()).toBeUndefined();
    Paddle.Checkout.open({ items: [{ priceId: 'pri_premium_month' }] });
    frame = dom.dialog()!.all().find((n) => n.tagName === 'iframe')!;
    dom.message({ origin: 'http://localhost:3000', source: frame.contentWindow, data: { source: 'paddle-sandbox-checkout', action: 'close' } });
    expect(dom.dialog()).toBeUndefined();
    expect(names).toEqual(['checkout.closed', 'checkout.closed', 'checkout.closed']);
  });

  test('works behind any host: the checkout is next to the script', async () => {
    const js = await served();
    const dom = paddleDom('https://demo.example/some/mount/paddle.js?v=2');
    const Paddle = dom.run(js).Paddle;
    Paddle.Environment.set('sandbox');
    Paddle.Initialize({ token: CLIENT_TOKEN });
    Paddle.Checkout.open({ items: [{ priceId: 'pri_premium_month' }] });
    const frame = dom.dialog()!.all().find((n) => n.tagName === 'iframe')!;
    expect(frame.src.startsWith('https://demo.example/some/mount/checkout?')).toBe(true);
  });
});

describe('checkout.js', () => {
  test('framed, it posts the page event to the host page’s origin only', () => {
    const block = new FakeElement('script', null as unknown as FakeDom);
    block.textContent = JSON.stringify({ name: 'checkout.completed', data: { transaction_id: 'txn_1' } });
    const dom = paddleDom('', { framed: true, byId: { 'paddle-event': block } });
    dom.document.body.setAttribute('data-parent-origin', 'http://localhost:5173');
    dom.run(CHECKOUT_SCRIPT);
    expect(dom.posted).toEqual([{ message: { source: 'paddle-sandbox-checkout', name: 'checkout.completed', data: { transaction_id: 'txn_1' } }, origin: 'http://localhost:5173' }]);
    dom.key('Escape');
    expect(dom.posted.at(-1)).toEqual({ message: { source: 'paddle-sandbox-checkout', action: 'close' }, origin: 'http://localhost:5173' });
  });

  test('not framed, or without a known parent origin, it posts nothing', () => {
    const block = new FakeElement('script', null as unknown as FakeDom);
    block.textContent = JSON.stringify({ name: 'checkout.loaded', data: {} });
    const alone = paddleDom('', { byId: { 'paddle-event': block } });
    alone.document.body.setAttribute('data-parent-origin', 'http://localhost:5173');
    alone.run(CHECKOUT_SCRIPT);
    expect(alone.posted).toEqual([]);
    const unknown = paddleDom('', { framed: true, byId: { 'paddle-event': block } });
    unknown.run(CHECKOUT_SCRIPT);
    expect(unknown.posted).toEqual([]);
  });
});
