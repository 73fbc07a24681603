import { describe, expect, test } from 'vitest';
import { createPaddleSandboxControl } from './control';
import { paddleHarness, START, signatureValid, until, usePaddleHarness } from './test-helpers';

const setup = usePaddleHarness();

describe('webhook delivery', () => {
  test('happens in the background, without flush()', async () => {
    const harness = await setup();
    await harness.buy();
    await until(() => harness.receiver.got.length === 4, 3000, 'four notifications');
    expect(harness.control.deliveries().map((d) => d.state)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
  });

  test('retries failed attempts with exponential backoff from retryBaseMs', async () => {
    const harness = await setup({ retryBaseMs: 25 });
    harness.control.pause();
    await harness.buy();
    const [first] = harness.control.deliveries();
    for (const delivery of harness.control.deliveries()) if (delivery.eventId !== first!.eventId) harness.control.drop(delivery.eventId);
    const times: number[] = [];
    harness.receiver.respond = (received, count) => {
      times.push(received.at);
      return count <= 3 ? 500 : 200;
    };
    harness.control.resume();
    await until(() => harness.control.deliveries()[0]!.state === 'delivered', 5000, 'delivery');
    expect(harness.control.deliveries()[0]).toMatchObject({ attempts: 4, state: 'delivered', lastStatus: 200, lastError: null });
    expect(times).toHaveLength(4);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // 25, 50, 100 ms (timers may fire a millisecond early; never much later here).
    expect(gaps[0]).toBeGreaterThanOrEqual(23);
    expect(gaps[1]).toBeGreaterThanOrEqual(48);
    expect(gaps[2]).toBeGreaterThanOrEqual(98);
    expect(gaps[2]! > gaps[0]!).toBe(true);
  });

  test('failFirst fails the next attempts without sending; they are retried', async () => {
    // A retry is due a second later: the flush below must not reach it, however slow the machine.
    const harness = await setup({ retryBaseMs: 1000 });
    harness.control.setChaos({ failFirst: 3 });
    harness.control.pause();
    await harness.buy();
    await harness.control.flush();
    expect(harness.receiver.calls).toBe(1);
    const failed = harness.control.deliveries().filter((d) => d.state === 'pending');
    expect(failed).toHaveLength(3);
    expect(failed.every((d) => d.attempts === 1 && d.lastStatus === 500 && d.lastError === 'failed by setChaos({ failFirst })')).toBe(true);
    harness.control.resume();
    await until(() => harness.control.deliveries().every((d) => d.state === 'delivered'), 6000, 'retries');
    expect(harness.receiver.calls).toBe(4);
    expect(harness.receiver.types().sort()).toEqual(['subscription.activated', 'subscription.created', 'transaction.completed', 'transaction.paid']);
    expect(harness.control.deliveries().map((d) => d.attempts).sort()).toEqual([1, 2, 2, 2]);
  });

  test('every attempt is signed anew with the current clock; the body stays the same', async () => {
    const harness = await setup();
    harness.control.pause();
    await harness.buy();
    const [first] = harness.control.deliveries();
    for (const delivery of harness.control.deliveries().slice(1)) harness.control.drop(delivery.eventId);
    const attempts: Array<{ raw: string; signature: string }> = [];
    harness.receiver.respond = (received, count) => {
      attempts.push({ raw: received.raw, signature: received.signature });
      return count === 1 ? 503 : 200;
    };
    await harness.control.flush();
    harness.advance(90_000);
    await harness.control.flush({ ignoreBackoff: true });
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.raw).toBe(attempts[0]!.raw);
    const firstValid = signatureValid(attempts[0]!.raw, attempts[0]!.signature);
    const second = signatureValid(attempts[1]!.raw, attempts[1]!.signature);
    expect(firstValid).toEqual({ ok: true, ts: Math.floor(START / 1000) });
    expect(second).toEqual({ ok: true, ts: Math.floor(START / 1000) + 90 });
    expect(JSON.parse(attempts[0]!.raw).event_id).toBe(first!.eventId);
  });

  test('after 10 failed attempts a notification is failed; network errors count', async () => {
    const harness = await setup();
    harness.control.pause();
    await harness.buy();
    const [first, second] = harness.control.deliveries();
    for (const delivery of harness.control.deliveries().slice(2)) harness.control.drop(delivery.eventId);
    harness.receiver.respond = (r) => (r.body.event_id === first!.eventId ? 500 : 'throw');
    await harness.control.flush({ ignoreBackoff: true });
    const [delivery, otherDelivery] = harness.control.deliveries();
    expect(delivery).toMatchObject({ eventId: first!.eventId, state: 'failed', attempts: 10, lastStatus: 500 });
    expect(otherDelivery).toMatchObject({ eventId: second!.eventId, state: 'failed', attempts: 10, lastStatus: null });
    expect(otherDelivery!.lastError).toContain('connection refused');
    expect(harness.receiver.calls).toBe(20);
  });

  test('an endpoint that does not answer in time fails the attempt (timeout)', async () => {
    const harness = await setup({ timeoutMs: 30 });
    harness.control.pause();
    await harness.buy();
    for (const delivery of harness.control.deliveries().slice(1)) harness.control.drop(delivery.eventId);
    harness.receiver.respond = (_r, n) => (n === 1 ? 'hang' : 200);
    await harness.control.flush();
    expect(harness.control.deliveries()[0]).toMatchObject({ state: 'pending', attempts: 1, lastStatus: null, lastError: 'no answer within 30 ms' });
    await harness.control.flush({ ignoreBackoff: true });
    expect(harness.control.deliveries()[0]).toMatchObject({ state: 'delivered', attempts: 2 });
  });

  test('duplicate chaos sends a delivered notification twice (same ids)', async () => {
    const harness = await setup();
    harness.control.setChaos({ duplicate: 1 });
    await harness.buy();
    await harness.control.flush();
    expect(harness.receiver.got).toHaveLength(8);
    const byNotification = new Map<string, number>();
    for (const received of harness.receiver.got) byNotification.set(received.body.notification_id, (byNotification.get(received.body.notification_id) ?? 0) + 1);
    expect([...byNotification.values()]).toEqual([2, 2, 2, 2]);
    expect(harness.control.deliveries().every((d) => d.duplicates === 1 && d.attempts === 1)).toBe(true);
    for (const received of harness.receiver.got) expect(signatureValid(received.raw, received.signature).ok).toBe(true);
  });

  test('shuffle chaos delivers the queued notifications in random order', async () => {
    const harness = await setup();
    harness.control.setChaos({ shuffle: true });
    harness.control.pause();
    for (let i = 0; i < 4; i++) await harness.buy({ email: `user${i}@example.com`, customData: { userId: `10000000000000000${i}` } });
    const made = harness.control.events().map((e) => e.event_id);
    expect(made).toHaveLength(16);
    await harness.control.flush();
    const got = harness.receiver.got.map((r) => r.body.event_id);
    expect([...got].sort()).toEqual([...made].sort());
    // 16! orders: the chance of the original one is negligible.
    expect(got).not.toEqual(made);
  });

  test('replay sends a new notification of the same event', async () => {
    const harness = await setup();
    await harness.buy();
    await harness.control.flush();
    const original = harness.receiver.got[0]!.body;
    const notificationId = harness.control.replay(original.event_id);
    expect(notificationId).not.toBe(original.notification_id);
    await harness.control.flush();
    const replayed = harness.receiver.got.at(-1)!.body;
    expect(replayed).toEqual({ ...original, notification_id: notificationId });
    const rows = harness.control.deliveries().filter((d) => d.eventId === original.event_id);
    expect(rows.map((d) => d.state)).toEqual(['delivered', 'delivered']);
    expect(() => harness.control.replay('evt_unknown')).toThrow(/no event/);
  });

  test('drop never delivers an event (until replayed)', async () => {
    const harness = await setup();
    harness.control.pause();
    const { subscriptionId } = await harness.buy();
    const created = harness.control.deliveries().find((d) => d.eventType === 'subscription.created')!;
    harness.control.drop(created.eventId);
    harness.control.resume();
    await harness.control.flush();
    expect(harness.receiver.types()).toEqual(['subscription.activated', 'transaction.paid', 'transaction.completed']);
    expect(harness.control.deliveries().find((d) => d.eventId === created.eventId)!.state).toBe('dropped');
    // The event is still known (for reconciliation) and can be replayed.
    expect((harness.control.events().find((e) => e.event_id === created.eventId)!.data as { id: string }).id).toBe(subscriptionId);
    harness.control.replay(created.eventId);
    await harness.control.flush();
    expect(harness.receiver.types().at(-1)).toBe('subscription.created');
  });

  test('close stops delivery: no attempt after the app closed', async () => {
    const harness = await setup({ retryBaseMs: 10 });
    harness.receiver.respond = () => 500;
    await harness.buy();
    await until(() => harness.receiver.calls >= 4, 3000, 'first attempts');
    await harness.app.close();
    const calls = harness.receiver.calls;
    await new Promise((r) => setTimeout(r, 120));
    expect(harness.receiver.calls).toBe(calls);
    expect(() => harness.control.deliveries()).toThrow(/not attached/);
  });

  test('reset forgets state, events and chaos', async () => {
    const harness = await setup();
    harness.control.setChaos({ duplicate: 1, failFirst: 100 });
    harness.control.pause();
    await harness.buy();
    harness.control.reset();
    expect(harness.control.subscriptions()).toEqual([]);
    expect(harness.control.transactions()).toEqual([]);
    expect(harness.control.customers()).toEqual([]);
    expect(harness.control.deliveries()).toEqual([]);
    await harness.buy();
    await harness.control.flush();
    expect(harness.receiver.got).toHaveLength(4);
  });

  test('the control checks its input and is one per registration', async () => {
    const control = createPaddleSandboxControl();
    expect(() => control.setChaos({ duplicate: 2 })).toThrow(RangeError);
    expect(() => control.setChaos({ failFirst: -1 })).toThrow(RangeError);
    expect(() => control.tick()).toThrow(/not attached/);
    const harness = await setup({ control });
    control.tick();
    await expect(paddleHarness({ control })).rejects.toThrow(/already drives/);
    expect(harness.control).toBe(control);
  });

  test('the options are checked at registration', async () => {
    await expect(paddleHarness({ webhookUrl: 'ftp://x' })).rejects.toThrow(/webhookUrl/);
    await expect(paddleHarness({ apiKey: '' })).rejects.toThrow(/apiKey/);
    await expect(paddleHarness({ prices: [] })).rejects.toThrow(/prices/);
    await expect(paddleHarness({ prices: [{ id: 'p', productName: 'X', amount: -1, currency: 'USD', interval: 'month' }] })).rejects.toThrow(/amount/);
    await expect(paddleHarness({ retryBaseMs: 0 })).rejects.toThrow(/retryBaseMs/);
  });
});
