import { describe, expect, test } from 'vitest';
import { createPaddleSandboxControl } from './control';
import { paddleHarness, START, signatureValid, until, usePaddleHarness } from './test-helpers';

const setup = usePaddleHarness();

describe('webhook delivery', () => {
  test('happens in the background, without flush()', async () => {
    const h = await setup();
    await h.buy();
    await until(() => h.receiver.got.length === 4, 3000, 'four notifications');
    expect(h.control.deliveries().map((d) => d.state)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
  });

  test('retries failed attempts with exponential backoff from retryBaseMs', async () => {
    const h = await setup({ retryBaseMs: 25 });
    h.control.pause();
    await h.buy();
    const [first] = h.control.deliveries();
    for (const d of h.control.deliveries()) if (d.eventId !== first!.eventId) h.control.drop(d.eventId);
    const times: number[] = [];
    h.receiver.respond = (r, n) => {
      times.push(r.at);
      return n <= 3 ? 500 : 200;
    };
    h.control.resume();
    await until(() => h.control.deliveries()[0]!.state === 'delivered', 5000, 'delivery');
    expect(h.control.deliveries()[0]).toMatchObject({ attempts: 4, state: 'delivered', lastStatus: 200, lastError: null });
    expect(times).toHaveLength(4);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // 25, 50, 100 ms (timers may fire a millisecond early; never much later here).
    expect(gaps[0]).toBeGreaterThanOrEqual(23);
    expect(gaps[1]).toBeGreaterThanOrEqual(48);
    expect(gaps[2]).toBeGreaterThanOrEqual(98);
    expect(gaps[2]! > gaps[0]!).toBe(true);
  });

  test('failFirst fails the next attempts without sending; they are retried', async () => {
    const h = await setup({ retryBaseMs: 10 });
    h.control.setChaos({ failFirst: 3 });
    h.control.pause();
    await h.buy();
    await h.control.flush();
    expect(h.receiver.calls).toBe(1);
    const failed = h.control.deliveries().filter((d) => d.state === 'pending');
    expect(failed).toHaveLength(3);
    expect(failed.every((d) => d.attempts === 1 && d.lastStatus === 500 && d.lastError === 'failed by setChaos({ failFirst })')).toBe(true);
    h.control.resume();
    await until(() => h.control.deliveries().every((d) => d.state === 'delivered'), 3000, 'retries');
    expect(h.receiver.calls).toBe(4);
    expect(h.receiver.types().sort()).toEqual(['subscription.activated', 'subscription.created', 'transaction.completed', 'transaction.paid']);
    expect(h.control.deliveries().map((d) => d.attempts).sort()).toEqual([1, 2, 2, 2]);
  });

  test('every attempt is signed anew with the current clock; the body stays the same', async () => {
    const h = await setup();
    h.control.pause();
    await h.buy();
    const [first] = h.control.deliveries();
    for (const d of h.control.deliveries().slice(1)) h.control.drop(d.eventId);
    const attempts: Array<{ raw: string; signature: string }> = [];
    h.receiver.respond = (r, n) => {
      attempts.push({ raw: r.raw, signature: r.signature });
      return n === 1 ? 503 : 200;
    };
    await h.control.flush();
    h.advance(90_000);
    await h.control.flush({ ignoreBackoff: true });
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.raw).toBe(attempts[0]!.raw);
    const a = signatureValid(attempts[0]!.raw, attempts[0]!.signature);
    const b = signatureValid(attempts[1]!.raw, attempts[1]!.signature);
    expect(a).toEqual({ ok: true, ts: Math.floor(START / 1000) });
    expect(b).toEqual({ ok: true, ts: Math.floor(START / 1000) + 90 });
    expect(JSON.parse(attempts[0]!.raw).event_id).toBe(first!.eventId);
  });

  test('after 10 failed attempts a notification is failed; network errors count', async () => {
    const h = await setup();
    h.control.pause();
    await h.buy();
    const [first, second] = h.control.deliveries();
    for (const d of h.control.deliveries().slice(2)) h.control.drop(d.eventId);
    h.receiver.respond = (r) => (r.body.event_id === first!.eventId ? 500 : 'throw');
    await h.control.flush({ ignoreBackoff: true });
    const [a, b] = h.control.deliveries();
    expect(a).toMatchObject({ eventId: first!.eventId, state: 'failed', attempts: 10, lastStatus: 500 });
    expect(b).toMatchObject({ eventId: second!.eventId, state: 'failed', attempts: 10, lastStatus: null });
    expect(b!.lastError).toContain('connection refused');
    expect(h.receiver.calls).toBe(20);
  });

  test('an endpoint that does not answer in time fails the attempt (timeout)', async () => {
    const h = await setup({ timeoutMs: 30 });
    h.control.pause();
    await h.buy();
    for (const d of h.control.deliveries().slice(1)) h.control.drop(d.eventId);
    h.receiver.respond = (_r, n) => (n === 1 ? 'hang' : 200);
    await h.control.flush();
    expect(h.control.deliveries()[0]).toMatchObject({ state: 'pending', attempts: 1, lastStatus: null, lastError: 'no answer within 30 ms' });
    await h.control.flush({ ignoreBackoff: true });
    expect(h.control.deliveries()[0]).toMatchObject({ state: 'delivered', attempts: 2 });
  });

  test('duplicate chaos sends a delivered notification twice (same ids)', async () => {
    const h = await setup();
    h.control.setChaos({ duplicate: 1 });
    await h.buy();
    await h.control.flush();
    expect(h.receiver.got).toHaveLength(8);
    const byNotification = new Map<string, number>();
    for (const r of h.receiver.got) byNotification.set(r.body.notification_id, (byNotification.get(r.body.notification_id) ?? 0) + 1);
    expect([...byNotification.values()]).toEqual([2, 2, 2, 2]);
    expect(h.control.deliveries().every((d) => d.duplicates === 1 && d.attempts === 1)).toBe(true);
    for (const r of h.receiver.got) expect(signatureValid(r.raw, r.signature).ok).toBe(true);
  });

  test('shuffle chaos delivers the queued notifications in random order', async () => {
    const h = await setup();
    h.control.setChaos({ shuffle: true });
    h.control.pause();
    for (let i = 0; i < 4; i++) await h.buy({ email: `user${i}@example.com`, customData: { userId: `10000000000000000${i}` } });
    const made = h.control.events().map((e) => e.event_id);
    expect(made).toHaveLength(16);
    await h.control.flush();
    const got = h.receiver.got.map((r) => r.body.event_id);
    expect([...got].sort()).toEqual([...made].sort());
    // 16! orders: the chance of the original one is negligible.
    expect(got).not.toEqual(made);
  });

  test('replay sends a new notification of the same event', async () => {
    const h = await setup();
    await h.buy();
    await h.control.flush();
    const original = h.receiver.got[0]!.body;
    const notificationId = h.control.replay(original.event_id);
    expect(notificationId).not.toBe(original.notification_id);
    await h.control.flush();
    const replayed = h.receiver.got.at(-1)!.body;
    expect(replayed).toEqual({ ...original, notification_id: notificationId });
    const rows = h.control.deliveries().filter((d) => d.eventId === original.event_id);
    expect(rows.map((d) => d.state)).toEqual(['delivered', 'delivered']);
    expect(() => h.control.replay('evt_unknown')).toThrow(/no event/);
  });

  test('drop never delivers an event (until replayed)', async () => {
    const h = await setup();
    h.control.pause();
    const { subscriptionId } = await h.buy();
    const created = h.control.deliveries().find((d) => d.eventType === 'subscription.created')!;
    h.control.drop(created.eventId);
    h.control.resume();
    await h.control.flush();
    expect(h.receiver.types()).toEqual(['subscription.activated', 'transaction.paid', 'transaction.completed']);
    expect(h.control.deliveries().find((d) => d.eventId === created.eventId)!.state).toBe('dropped');
    // The event is still known (for reconciliation) and can be replayed.
    expect((h.control.events().find((e) => e.event_id === created.eventId)!.data as { id: string }).id).toBe(subscriptionId);
    h.control.replay(created.eventId);
    await h.control.flush();
    expect(h.receiver.types().at(-1)).toBe('subscription.created');
  });

  test('close stops delivery: no attempt after the app closed', async () => {
    const h = await setup({ retryBaseMs: 10 });
    h.receiver.respond = () => 500;
    await h.buy();
    await until(() => h.receiver.calls >= 4, 3000, 'first attempts');
    await h.app.close();
    const calls = h.receiver.calls;
    await new Promise((r) => setTimeout(r, 120));
    expect(h.receiver.calls).toBe(calls);
    expect(() => h.control.deliveries()).toThrow(/not attached/);
  });

  test('reset forgets state, events and chaos', async () => {
    const h = await setup();
    h.control.setChaos({ duplicate: 1, failFirst: 100 });
    h.control.pause();
    await h.buy();
    h.control.reset();
    expect(h.control.subscriptions()).toEqual([]);
    expect(h.control.transactions()).toEqual([]);
    expect(h.control.customers()).toEqual([]);
    expect(h.control.deliveries()).toEqual([]);
    await h.buy();
    await h.control.flush();
    expect(h.receiver.got).toHaveLength(4);
  });

  test('the control checks its input and is one per registration', async () => {
    const control = createPaddleSandboxControl();
    expect(() => control.setChaos({ duplicate: 2 })).toThrow(RangeError);
    expect(() => control.setChaos({ failFirst: -1 })).toThrow(RangeError);
    expect(() => control.tick()).toThrow(/not attached/);
    const h = await setup({ control });
    control.tick();
    await expect(paddleHarness({ control })).rejects.toThrow(/already drives/);
    expect(h.control).toBe(control);
  });

  test('the options are checked at registration', async () => {
    await expect(paddleHarness({ webhookUrl: 'ftp://x' })).rejects.toThrow(/webhookUrl/);
    await expect(paddleHarness({ apiKey: '' })).rejects.toThrow(/apiKey/);
    await expect(paddleHarness({ prices: [] })).rejects.toThrow(/prices/);
    await expect(paddleHarness({ prices: [{ id: 'p', productName: 'X', amount: -1, currency: 'USD', interval: 'month' }] })).rejects.toThrow(/amount/);
    await expect(paddleHarness({ retryBaseMs: 0 })).rejects.toThrow(/retryBaseMs/);
  });
});
