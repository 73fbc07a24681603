import { describe, expect, test } from 'vitest';
import { signatureValid, until, useFastspringHarness } from './test-helpers';

const setup = useFastspringHarness();

describe('webhook delivery', () => {
  test('202 with a body of processed ids acknowledges those only; the rest is retried in a later POST with the same ids', async () => {
    const harness = await setup();
    harness.receiver.respond = (r, n) => (n === 1 ? { status: 202, body: `${r.events[0]!.id}\n` } : 200);
    await harness.buy();
    await until(() => harness.receiver.calls === 2, 3000, 'the retry');
    const [first, second] = harness.receiver.got;
    expect(first!.events.map((e) => e.type)).toEqual(['order.completed', 'subscription.activated']);
    expect(second!.events.map((e) => e.type)).toEqual(['subscription.activated']);
    expect(second!.events[0]!.id).toBe(first!.events[1]!.id);
    expect(second!.events[0]!.data).toEqual(first!.events[1]!.data);
    expect(signatureValid(second!.raw, second!.signature)).toBe(true);
    const posts = harness.control.posts();
    expect(posts.map((p) => [p.status, p.processedIds.length, p.eventIds.length])).toEqual([
      [202, 1, 2],
      [200, 1, 1],
    ]);
    expect(harness.control.deliveries().map((d) => [d.type, d.state, d.attempts])).toEqual([
      ['order.completed', 'processed', 1],
      ['subscription.activated', 'processed', 2],
    ]);
  });

  test('202 lines are trimmed; unknown ids in the answer are ignored; an empty 202 acknowledges nothing', async () => {
    const harness = await setup();
    harness.receiver.respond = (r, n) => (n === 1 ? { status: 202, body: ` ${r.events[1]!.id}\r\nnot-an-event\n\n` } : n === 2 ? { status: 202, body: '' } : 200);
    await harness.buy();
    await until(() => harness.control.deliveries().every((d) => d.state === 'processed'), 3000, 'all processed');
    expect(harness.receiver.got.map((r) => r.events.map((e) => e.type))).toEqual([['order.completed', 'subscription.activated'], ['order.completed'], ['order.completed']]);
  });

  test('500, a network error or no answer within timeoutMs fail the whole POST; retries back off from retryBaseMs', async () => {
    const harness = await setup({ retryBaseMs: 20, timeoutMs: 50 });
    const times: number[] = [];
    harness.receiver.respond = (_r, count) => {
      times.push(Date.now());
      return count === 1 ? 500 : count === 2 ? 'throw' : count === 3 ? 'hang' : 200;
    };
    await harness.buy();
    await until(() => harness.control.deliveries().every((d) => d.state === 'processed'), 5000, 'delivery');
    const posts = harness.control.posts();
    expect(posts.map((p) => p.status)).toEqual([500, null, null, 200]);
    expect(posts[1]!.error).toContain('connection refused');
    expect(posts[2]!.error).toBe('no answer within 50 ms');
    // Every POST carried both events, with the same ids.
    expect(new Set(posts.map((p) => p.eventIds.join()))).toHaveLength(1);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(18);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(38);
    expect(harness.control.deliveries().map((d) => d.attempts)).toEqual([4, 4]);
  });

  test('after 10 attempts an event is permanently failed and still listed as unprocessed', async () => {
    const harness = await setup({ retryBaseMs: 1 });
    harness.receiver.respond = () => 503;
    await harness.buy();
    await harness.control.flush({ ignoreBackoff: true });
    expect(harness.control.deliveries().map((d) => [d.state, d.attempts, d.lastStatus])).toEqual([
      ['failed', 10, 503],
      ['failed', 10, 503],
    ]);
    expect(harness.receiver.calls).toBe(10);
    const res = await harness.api('GET', '/events/unprocessed?days=1');
    expect(res.json().events.map((e: { type: string }) => e.type)).toEqual(['order.completed', 'subscription.activated']);
  });

  test('failFirst fails the next POSTs without sending; duplicate re-sends a delivered POST with the same ids', async () => {
    const harness = await setup({ retryBaseMs: 5 });
    harness.control.setChaos({ failFirst: 2, duplicate: 1 });
    await harness.buy();
    await until(() => harness.control.posts().length >= 4, 3000, 'posts');
    await harness.control.flush();
    const posts = harness.control.posts();
    expect(posts.map((p) => [p.simulated, p.duplicate, p.status])).toEqual([
      [true, false, 500],
      [true, false, 500],
      [false, false, 200],
      [false, true, 200],
    ]);
    expect(harness.receiver.got).toHaveLength(2);
    expect(harness.receiver.got[1]!.raw).toBe(harness.receiver.got[0]!.raw);
  });

  test('shuffle reorders events within a POST; reorder holds some back for a later POST', async () => {
    const harness = await setup({ retryBaseMs: 10 });
    harness.control.pause();
    for (let i = 0; i < 6; i++) await harness.buy({ email: `user${i}@example.com` });
    harness.control.setChaos({ shuffle: true });
    await harness.control.flush();
    expect(harness.receiver.got).toHaveLength(1);
    const order = harness.receiver.got[0]!.events.map((e) => e.id);
    const made = harness.control.events().map((e) => e.id);
    expect(new Set(order)).toEqual(new Set(made));
    expect(order).not.toEqual(made);

    harness.control.reset();
    harness.receiver.got.length = 0;
    harness.control.pause();
    for (let i = 0; i < 6; i++) await harness.buy({ email: `late${i}@example.com` });
    harness.control.setChaos({ reorder: 0.5 });
    await harness.control.flush({ ignoreBackoff: true });
    expect(harness.receiver.got.length).toBeGreaterThan(1);
    expect(new Set(harness.receiver.events().map((e) => e.id)).size).toBe(12);
    expect(harness.control.deliveries().every((d) => d.state === 'processed' && d.attempts === 1)).toBe(true);
  });

  test('pause holds events, drop stops one for good (still unprocessed), resume sends the rest', async () => {
    const harness = await setup();
    harness.control.pause();
    await harness.buy();
    await new Promise((r) => setTimeout(r, 20));
    expect(harness.receiver.calls).toBe(0);
    const [order, activated] = harness.control.deliveries();
    harness.control.drop(activated!.eventId);
    harness.control.resume();
    await until(() => harness.receiver.calls === 1, 3000, 'delivery');
    expect(harness.receiver.got[0]!.events.map((e) => e.id)).toEqual([order!.eventId]);
    expect(harness.control.deliveries().map((d) => d.state)).toEqual(['processed', 'dropped']);
    const listed = (await harness.api('GET', '/events/unprocessed?days=1')).json();
    expect(listed.events.map((e: { id: string }) => e.id)).toEqual([activated!.eventId]);
    expect(() => harness.control.drop('nope')).toThrow('no event');
    expect(() => harness.control.setChaos({ duplicate: 2 })).toThrow(RangeError);
  });
});
