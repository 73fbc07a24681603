import { describe, expect, test } from 'vitest';
import { createChargebeeSandboxControl } from './control';
import { MAX_ATTEMPTS, retryDelayMs, webhookAuthorization } from './delivery';
import { harness, until, useHarness } from './test-helpers';

const setup = useHarness();

describe('webhook delivery', () => {
  test('Basic auth: the reference vector, and every POST carries it', async () => {
    expect(webhookAuthorization('cb_user', 'cb_pass')).toBe('Basic Y2JfdXNlcjpjYl9wYXNz');
    const h = await setup();
    await h.buy();
    await until(() => h.receiver.got.length === 3, 3000, 'three events');
    for (const r of h.receiver.got) {
      expect(r.authorization).toBe('Basic Y2JfdXNlcjpjYl9wYXNz');
      expect(r.contentType).toBe('application/json');
      expect(Object.keys(r.body).sort()).toEqual(['api_version', 'content', 'event_type', 'id', 'object', 'occurred_at', 'source', 'webhook_status']);
    }
  });

  test('the retry schedule keeps Chargebee’s ratios (2 min, 6 min, 30 min, 1 h, 5 h, 1 d, 2 d) from retryBaseMs', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(n, 2))).toEqual([2, 6, 30, 60, 300, 1440, 2880]);
    expect(retryDelayMs(1, 120_000)).toBe(2 * 60_000);
    expect(retryDelayMs(7, 120_000)).toBe(2 * 24 * 3600_000);
    expect(MAX_ATTEMPTS).toBe(8);
  });

  test('failed attempts are retried on the scaled schedule', async () => {
    const h = await setup({ retryBaseMs: 20 });
    h.control.pause();
    await h.buy();
    for (const d of h.control.deliveries().slice(1)) h.control.drop(d.eventId);
    const times: number[] = [];
    h.receiver.respond = (r, n) => {
      times.push(r.at);
      return n <= 3 ? 500 : 204;
    };
    h.control.resume();
    await until(() => h.control.deliveries()[0]!.state === 'delivered', 5000, 'delivery');
    expect(h.control.deliveries()[0]).toMatchObject({ attempts: 4, state: 'delivered', lastStatus: 204 });
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // 20, 60, 300 ms (timers may fire a millisecond early).
    expect(gaps[0]).toBeGreaterThanOrEqual(18);
    expect(gaps[1]).toBeGreaterThanOrEqual(58);
    expect(gaps[2]).toBeGreaterThanOrEqual(298);
  });

  test('8 attempts at most (the first and 7 retries); network errors and timeouts count', async () => {
    const h = await setup({ timeoutMs: 20 });
    h.control.pause();
    await h.buy();
    const [a, b, c] = h.control.deliveries();
    h.receiver.respond = (r) => (r.body.id === a!.eventId ? 500 : r.body.id === b!.eventId ? 'throw' : 'hang');
    await h.control.flush({ ignoreBackoff: true });
    const [x, y, z] = h.control.deliveries();
    expect(x).toMatchObject({ eventId: a!.eventId, state: 'failed', attempts: 8, lastStatus: 500 });
    expect(y).toMatchObject({ eventId: b!.eventId, state: 'failed', attempts: 8, lastStatus: null });
    expect(z).toMatchObject({ eventId: c!.eventId, state: 'failed', attempts: 8, lastError: 'no answer within 20 ms' });
    expect((await h.api('GET', `/events/${a!.eventId}`)).json().event.webhook_status).toBe('failed');
  });

  test('failFirst fails the next attempts without sending; they are retried', async () => {
    // Retries 200 ms and 600 ms later: long enough that the flush below never finds one due on a
    // busy machine (it would send it), short enough for the wait after it.
    const h = await setup({ retryBaseMs: 200 });
    h.control.setChaos({ failFirst: 2 });
    h.control.pause();
    await h.buy();
    await h.control.flush();
    expect(h.receiver.calls).toBe(1);
    expect((await h.api('GET', `/events/${h.control.deliveries()[0]!.eventId}`)).json().event.webhook_status).toBe('re_scheduled');
    h.control.resume();
    await until(() => h.control.deliveries().every((d) => d.state === 'delivered'), 3000, 'retries');
    expect(h.receiver.types().sort()).toEqual(['customer_created', 'payment_succeeded', 'subscription_created']);
  });

  test('duplicate chaos sends an event twice (same id); shuffle reorders the queued events', async () => {
    const h = await setup();
    h.control.setChaos({ duplicate: 1 });
    await h.buy();
    await h.control.flush();
    expect(h.receiver.got).toHaveLength(6);
    const ids = h.receiver.got.map((r) => r.body.id);
    expect(new Set(ids).size).toBe(3);
    h.control.setChaos({ duplicate: 0, shuffle: true });
    h.control.pause();
    for (let i = 0; i < 5; i++) await h.buy({ customerId: `cust-${i}`, email: `u${i}@example.com` });
    const made = h.control.events().slice(3).map((e) => e.id);
    expect(made).toHaveLength(15);
    const before = h.receiver.got.length;
    await h.control.flush();
    const got = h.receiver.got.slice(before).map((r) => r.body.id);
    expect([...got].sort()).toEqual([...made].sort());
    expect(got).not.toEqual(made);
  });

  test('drop never delivers an event; GET /events still answers it (skipped)', async () => {
    const h = await setup();
    h.control.pause();
    await h.buy();
    const created = h.control.deliveries().find((d) => d.eventType === 'subscription_created')!;
    h.control.drop(created.eventId);
    await h.control.flush();
    expect(h.receiver.types()).toEqual(['customer_created', 'payment_succeeded']);
    expect((await h.api('GET', `/events/${created.eventId}`)).json().event).toMatchObject({ event_type: 'subscription_created', webhook_status: 'skipped' });
  });

  test('reset forgets state and events; close stops delivery; the control is one per registration', async () => {
    const control = createChargebeeSandboxControl();
    expect(() => control.setChaos({ duplicate: 2 })).toThrow(RangeError);
    expect(() => control.tick()).toThrow(/not attached/);
    const h = await setup({ control, retryBaseMs: 10 });
    await expect(harness({ control })).rejects.toThrow(/already drives/);
    h.control.pause();
    await h.buy();
    h.control.reset();
    expect(h.control.subscriptions()).toEqual([]);
    expect(h.control.deliveries()).toEqual([]);
    h.receiver.respond = () => 500;
    await h.buy();
    await until(() => h.receiver.calls >= 3, 3000, 'first attempts');
    await h.app.close();
    const calls = h.receiver.calls;
    await new Promise((r) => setTimeout(r, 80));
    expect(h.receiver.calls).toBe(calls);
  });

  test('the options are checked at registration', async () => {
    await expect(harness({ webhookUrl: 'ftp://x' })).rejects.toThrow(/webhookUrl/);
    await expect(harness({ apiKey: '' })).rejects.toThrow(/apiKey/);
    await expect(harness({ webhookUsername: 'a:b' })).rejects.toThrow(/webhookUsername/);
    await expect(harness({ site: 'Not A Site' })).rejects.toThrow(/site/);
    await expect(harness({ itemPrices: [] })).rejects.toThrow(/itemPrices/);
    await expect(harness({ itemPrices: [{ id: 'x', itemId: 'x', name: 'X', price: 4.99, currencyCode: 'USD', periodUnit: 'month', period: 1 }] })).rejects.toThrow(/price/);
    await expect(harness({ retryBaseMs: 0 })).rejects.toThrow(/retryBaseMs/);
  });
});
