import { describe, expect, test } from 'vitest';
import { createChargebeeSandboxControl } from './control';
import { MAX_ATTEMPTS, retryDelayMs, webhookAuthorization } from './delivery';
import { harness, until, useHarness } from './test-helpers';

const setup = useHarness();

describe('webhook delivery', () => {
  test('Basic auth: the reference vector, and every POST carries it', async () => {
    expect(webhookAuthorization('cb_user', 'cb_pass')).toBe('Basic Y2JfdXNlcjpjYl9wYXNz');
    const sandbox = await setup();
    await sandbox.buy();
    await until(() => sandbox.receiver.got.length === 3, 3000, 'three events');
    for (const received of sandbox.receiver.got) {
      expect(received.authorization).toBe('Basic Y2JfdXNlcjpjYl9wYXNz');
      expect(received.contentType).toBe('application/json');
      expect(Object.keys(received.body).sort()).toEqual(['api_version', 'content', 'event_type', 'id', 'object', 'occurred_at', 'source', 'webhook_status']);
    }
  });

  test('the retry schedule keeps Chargebee’s ratios (2 min, 6 min, 30 min, 1 h, 5 h, 1 d, 2 d) from retryBaseMs', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(n, 2))).toEqual([2, 6, 30, 60, 300, 1440, 2880]);
    expect(retryDelayMs(1, 120_000)).toBe(2 * 60_000);
    expect(retryDelayMs(7, 120_000)).toBe(2 * 24 * 3600_000);
    expect(MAX_ATTEMPTS).toBe(8);
  });

  test('failed attempts are retried on the scaled schedule', async () => {
    const sandbox = await setup({ retryBaseMs: 20 });
    sandbox.control.pause();
    await sandbox.buy();
    for (const delivery of sandbox.control.deliveries().slice(1)) sandbox.control.drop(delivery.eventId);
    const times: number[] = [];
    sandbox.receiver.respond = (received, count) => {
      times.push(received.at);
      return count <= 3 ? 500 : 204;
    };
    sandbox.control.resume();
    await until(() => sandbox.control.deliveries()[0]!.state === 'delivered', 5000, 'delivery');
    expect(sandbox.control.deliveries()[0]).toMatchObject({ attempts: 4, state: 'delivered', lastStatus: 204 });
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // 20, 60, 300 ms (timers may fire a millisecond early).
    expect(gaps[0]).toBeGreaterThanOrEqual(18);
    expect(gaps[1]).toBeGreaterThanOrEqual(58);
    expect(gaps[2]).toBeGreaterThanOrEqual(298);
  });

  test('8 attempts at most (the first and 7 retries); network errors and timeouts count', async () => {
    const sandbox = await setup({ timeoutMs: 20 });
    sandbox.control.pause();
    await sandbox.buy();
    const [answered500, thrown, hung] = sandbox.control.deliveries();
    sandbox.receiver.respond = (r) => (r.body.id === answered500!.eventId ? 500 : r.body.id === thrown!.eventId ? 'throw' : 'hang');
    await sandbox.control.flush({ ignoreBackoff: true });
    const [afterAnswered, afterThrown, afterHung] = sandbox.control.deliveries();
    expect(afterAnswered).toMatchObject({ eventId: answered500!.eventId, state: 'failed', attempts: 8, lastStatus: 500 });
    expect(afterThrown).toMatchObject({ eventId: thrown!.eventId, state: 'failed', attempts: 8, lastStatus: null });
    expect(afterHung).toMatchObject({ eventId: hung!.eventId, state: 'failed', attempts: 8, lastError: 'no answer within 20 ms' });
    expect((await sandbox.api('GET', `/events/${answered500!.eventId}`)).json().event.webhook_status).toBe('failed');
  });

  test('failFirst fails the next attempts without sending; they are retried', async () => {
    // Retries 200 ms and 600 ms later: long enough that the flush below never finds one due on a
    // busy machine (it would send it), short enough for the wait after it.
    const sandbox = await setup({ retryBaseMs: 200 });
    sandbox.control.setChaos({ failFirst: 2 });
    sandbox.control.pause();
    await sandbox.buy();
    await sandbox.control.flush();
    expect(sandbox.receiver.calls).toBe(1);
    expect((await sandbox.api('GET', `/events/${sandbox.control.deliveries()[0]!.eventId}`)).json().event.webhook_status).toBe('re_scheduled');
    sandbox.control.resume();
    await until(() => sandbox.control.deliveries().every((d) => d.state === 'delivered'), 3000, 'retries');
    expect(sandbox.receiver.types().sort()).toEqual(['customer_created', 'payment_succeeded', 'subscription_created']);
  });

  test('duplicate chaos sends an event twice (same id); shuffle reorders the queued events', async () => {
    const sandbox = await setup();
    sandbox.control.setChaos({ duplicate: 1 });
    await sandbox.buy();
    await sandbox.control.flush();
    expect(sandbox.receiver.got).toHaveLength(6);
    const ids = sandbox.receiver.got.map((r) => r.body.id);
    expect(new Set(ids).size).toBe(3);
    sandbox.control.setChaos({ duplicate: 0, shuffle: true });
    sandbox.control.pause();
    for (let i = 0; i < 5; i++) await sandbox.buy({ customerId: `cust-${i}`, email: `u${i}@example.com` });
    const made = sandbox.control.events().slice(3).map((e) => e.id);
    expect(made).toHaveLength(15);
    const before = sandbox.receiver.got.length;
    await sandbox.control.flush();
    const got = sandbox.receiver.got.slice(before).map((r) => r.body.id);
    expect([...got].sort()).toEqual([...made].sort());
    expect(got).not.toEqual(made);
  });

  test('drop never delivers an event; GET /events still answers it (skipped)', async () => {
    const sandbox = await setup();
    sandbox.control.pause();
    await sandbox.buy();
    const created = sandbox.control.deliveries().find((d) => d.eventType === 'subscription_created')!;
    sandbox.control.drop(created.eventId);
    await sandbox.control.flush();
    expect(sandbox.receiver.types()).toEqual(['customer_created', 'payment_succeeded']);
    expect((await sandbox.api('GET', `/events/${created.eventId}`)).json().event).toMatchObject({ event_type: 'subscription_created', webhook_status: 'skipped' });
  });

  test('reset forgets state and events; close stops delivery; the control is one per registration', async () => {
    const control = createChargebeeSandboxControl();
    expect(() => control.setChaos({ duplicate: 2 })).toThrow(RangeError);
    expect(() => control.tick()).toThrow(/not attached/);
    const sandbox = await setup({ control, retryBaseMs: 10 });
    await expect(harness({ control })).rejects.toThrow(/already drives/);
    sandbox.control.pause();
    await sandbox.buy();
    sandbox.control.reset();
    expect(sandbox.control.subscriptions()).toEqual([]);
    expect(sandbox.control.deliveries()).toEqual([]);
    sandbox.receiver.respond = () => 500;
    await sandbox.buy();
    await until(() => sandbox.receiver.calls >= 3, 3000, 'first attempts');
    await sandbox.app.close();
    const calls = sandbox.receiver.calls;
    await new Promise((r) => setTimeout(r, 80));
    expect(sandbox.receiver.calls).toBe(calls);
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
