import { describe, expect, test } from 'vitest';
import { signatureValid, until, useFastspringHarness } from './test-helpers';

const setup = useFastspringHarness();

describe('webhook delivery', () => {
  test('202 with a body of processed ids acknowledges those only; the rest is retried in a later POST with the same ids', async () => {
    const h = await setup();
    h.receiver.respond = (r, n) => (n === 1 ? { status: 202, body: `${r.events[0]!.id}\n` } : 200);
    await h.buy();
    await until(() => h.receiver.calls === 2, 3000, 'the retry');
    const [first, second] = h.receiver.got;
    expect(first!.events.map((e) => e.type)).toEqual(['order.completed', 'subscription.activated']);
    expect(second!.events.map((e) => e.type)).toEqual(['subscription.activated']);
    expect(second!.events[0]!.id).toBe(first!.events[1]!.id);
    expect(second!.events[0]!.data).toEqual(first!.events[1]!.data);
    expect(signatureValid(second!.raw, second!.signature)).toBe(true);
    const posts = h.control.posts();
    expect(posts.map((p) => [p.status, p.processedIds.length, p.eventIds.length])).toEqual([
      [202, 1, 2],
      [200, 1, 1],
    ]);
    expect(h.control.deliveries().map((d) => [d.type, d.state, d.attempts])).toEqual([
      ['order.completed', 'processed', 1],
      ['subscription.activated', 'processed', 2],
    ]);
  });

  test('202 lines are trimmed; unknown ids in the answer are ignored; an empty 202 acknowledges nothing', async () => {
    const h = await setup();
    h.receiver.respond = (r, n) => (n === 1 ? { status: 202, body: ` ${r.events[1]!.id}\r\nnot-an-event\n\n` } : n === 2 ? { status: 202, body: '' } : 200);
    await h.buy();
    await until(() => h.control.deliveries().every((d) => d.state === 'processed'), 3000, 'all processed');
    expect(h.receiver.got.map((r) => r.events.map((e) => e.type))).toEqual([['order.completed', 'subscription.activated'], ['order.completed'], ['order.completed']]);
  });

  test('500, a network error or no answer within timeoutMs fail the whole POST; retries back off from retryBaseMs', async () => {
    const h = await setup({ retryBaseMs: 20, timeoutMs: 50 });
    const times: number[] = [];
    h.receiver.respond = (_r, n) => {
      times.push(Date.now());
      return n === 1 ? 500 : n === 2 ? 'throw' : n === 3 ? 'hang' : 200;
    };
    await h.buy();
    await until(() => h.control.deliveries().every((d) => d.state === 'processed'), 5000, 'delivery');
    const posts = h.control.posts();
    expect(posts.map((p) => p.status)).toEqual([500, null, null, 200]);
    expect(posts[1]!.error).toContain('connection refused');
    expect(posts[2]!.error).toBe('no answer within 50 ms');
    // Every POST carried both events, with the same ids.
    expect(new Set(posts.map((p) => p.eventIds.join()))).toHaveLength(1);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(18);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(38);
    expect(h.control.deliveries().map((d) => d.attempts)).toEqual([4, 4]);
  });

  test('after 10 attempts an event is permanently failed and still listed as unprocessed', async () => {
    const h = await setup({ retryBaseMs: 1 });
    h.receiver.respond = () => 503;
    await h.buy();
    await h.control.flush({ ignoreBackoff: true });
    expect(h.control.deliveries().map((d) => [d.state, d.attempts, d.lastStatus])).toEqual([
      ['failed', 10, 503],
      ['failed', 10, 503],
    ]);
    expect(h.receiver.calls).toBe(10);
    const res = await h.api('GET', '/events/unprocessed?days=1');
    expect(res.json().events.map((e: { type: string }) => e.type)).toEqual(['order.completed', 'subscription.activated']);
  });

  test('failFirst fails the next POSTs without sending; duplicate re-sends a delivered POST with the same ids', async () => {
    const h = await setup({ retryBaseMs: 5 });
    h.control.setChaos({ failFirst: 2, duplicate: 1 });
    await h.buy();
    await until(() => h.control.posts().length >= 4, 3000, 'posts');
    await h.control.flush();
    const posts = h.control.posts();
    expect(posts.map((p) => [p.simulated, p.duplicate, p.status])).toEqual([
      [true, false, 500],
      [true, false, 500],
      [false, false, 200],
      [false, true, 200],
    ]);
    expect(h.receiver.got).toHaveLength(2);
    expect(h.receiver.got[1]!.raw).toBe(h.receiver.got[0]!.raw);
  });

  test('shuffle reorders events within a POST; reorder holds some back for a later POST', async () => {
    const h = await setup({ retryBaseMs: 10 });
    h.control.pause();
    for (let i = 0; i < 6; i++) await h.buy({ email: `user${i}@example.com` });
    h.control.setChaos({ shuffle: true });
    await h.control.flush();
    expect(h.receiver.got).toHaveLength(1);
    const order = h.receiver.got[0]!.events.map((e) => e.id);
    const made = h.control.events().map((e) => e.id);
    expect(new Set(order)).toEqual(new Set(made));
    expect(order).not.toEqual(made);

    h.control.reset();
    h.receiver.got.length = 0;
    h.control.pause();
    for (let i = 0; i < 6; i++) await h.buy({ email: `late${i}@example.com` });
    h.control.setChaos({ reorder: 0.5 });
    await h.control.flush({ ignoreBackoff: true });
    expect(h.receiver.got.length).toBeGreaterThan(1);
    expect(new Set(h.receiver.events().map((e) => e.id)).size).toBe(12);
    expect(h.control.deliveries().every((d) => d.state === 'processed' && d.attempts === 1)).toBe(true);
  });

  test('pause holds events, drop stops one for good (still unprocessed), resume sends the rest', async () => {
    const h = await setup();
    h.control.pause();
    await h.buy();
    await new Promise((r) => setTimeout(r, 20));
    expect(h.receiver.calls).toBe(0);
    const [order, activated] = h.control.deliveries();
    h.control.drop(activated!.eventId);
    h.control.resume();
    await until(() => h.receiver.calls === 1, 3000, 'delivery');
    expect(h.receiver.got[0]!.events.map((e) => e.id)).toEqual([order!.eventId]);
    expect(h.control.deliveries().map((d) => d.state)).toEqual(['processed', 'dropped']);
    const listed = (await h.api('GET', '/events/unprocessed?days=1')).json();
    expect(listed.events.map((e: { id: string }) => e.id)).toEqual([activated!.eventId]);
    expect(() => h.control.drop('nope')).toThrow('no event');
    expect(() => h.control.setChaos({ duplicate: 2 })).toThrow(RangeError);
  });
});
