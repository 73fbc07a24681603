import { describe, expect, test } from 'vitest';
import { verifyDiscordEvent } from './keys';
import { APP_ID, AVA, BEN, PUBLIC_KEY, START, until, useHarness } from './test-helpers';

const setup = useHarness();
const ENTS = `/applications/${APP_ID}/entitlements`;
const grant = (owner: string) => ({ sku_id: '1300000000000000821', owner_id: owner, owner_type: 2 });

describe('webhook delivery', () => {
  test('happens in the background; 204 delivers', async () => {
    const h = await setup();
    await h.buy();
    await until(() => h.control.deliveries()[0]?.state === 'delivered', 3000, 'delivery');
    expect(h.control.deliveries()[0]).toMatchObject({ id: 1, type: 'ENTITLEMENT_CREATE', attempts: 1, lastStatus: 204, lastError: null, duplicates: 0 });
  });

  test('anything but 204 is retried with exponential backoff from retryBaseMs, signed anew each time', async () => {
    const h = await setup({ retryBaseMs: 25 });
    const times: number[] = [];
    h.receiver.respond = (r, n) => {
      times.push(r.at);
      return n === 1 ? 500 : n === 2 ? 200 : n === 3 ? 'throw' : 204;
    };
    await h.buy();
    await until(() => h.control.deliveries()[0]!.state === 'delivered', 5000, 'delivery');
    expect(h.control.deliveries()[0]).toMatchObject({ attempts: 4, state: 'delivered', lastStatus: 204 });
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(23);
    expect(gaps[1]).toBeGreaterThanOrEqual(48);
    expect(gaps[2]).toBeGreaterThanOrEqual(98);
    // Every delivered copy verifies; the body is the same every time.
    for (const r of h.receiver.got) expect(verifyDiscordEvent(r.raw, r.timestamp, r.signature, PUBLIC_KEY)).toBe(true);
    expect(new Set(h.receiver.got.map((r) => r.raw)).size).toBe(1);
  });

  test('the signature timestamp is the clock at each attempt', async () => {
    const h = await setup();
    h.control.pause();
    h.receiver.respond = (_r, n) => (n === 1 ? 503 : 204);
    await h.buy();
    await h.control.flush();
    h.advance(90_000);
    await h.control.flush({ ignoreBackoff: true });
    expect(h.receiver.got.map((r) => r.timestamp)).toEqual([String(START / 1000), String(START / 1000 + 90)]);
    expect(h.receiver.got.every((r) => verifyDiscordEvent(r.raw, r.timestamp, r.signature, PUBLIC_KEY))).toBe(true);
  });

  test('after 10 failed attempts an event is failed; a hung endpoint times out', async () => {
    const h = await setup({ timeoutMs: 20 });
    h.control.pause();
    h.receiver.respond = (_r, n) => (n === 1 ? 'hang' : 500);
    await h.buy();
    await h.control.flush({ ignoreBackoff: true });
    const [d] = h.control.deliveries();
    expect(d).toMatchObject({ attempts: 10, state: 'failed', lastStatus: 500, lastError: 'expected 204, got 500' });
    expect(h.receiver.calls).toBe(10);
  });

  test('failFirst fails attempts without sending; they are retried', async () => {
    // Retries far enough ahead that the flush below never finds one due on a busy machine.
    const h = await setup({ retryBaseMs: 200 });
    h.control.setChaos({ failFirst: 2 });
    h.control.pause();
    await h.api('POST', ENTS, grant(AVA));
    await h.api('POST', ENTS, grant(BEN));
    await h.control.flush();
    expect(h.receiver.calls).toBe(0);
    expect(h.control.deliveries().map((d) => d.lastError)).toEqual(['failed by setChaos({ failFirst })', 'failed by setChaos({ failFirst })']);
    h.control.resume();
    await until(() => h.control.deliveries().every((d) => d.state === 'delivered'), 3000, 'retries');
    expect(h.receiver.calls).toBe(2);
  });

  test('duplicate sends a delivered event a second time', async () => {
    const h = await setup();
    h.control.setChaos({ duplicate: 1 });
    await h.buy();
    await until(() => h.receiver.got.length === 2, 3000, 'duplicate');
    expect(h.receiver.got[0]!.raw).toBe(h.receiver.got[1]!.raw);
    expect(h.control.deliveries()[0]!.duplicates).toBe(1);
  });

  test('shuffle reorders the events due together (all still arrive)', async () => {
    const s = await setup();
    s.control.setChaos({ shuffle: true });
    s.control.pause();
    const owners = Array.from({ length: 12 }, (_, n) => String(3000000000000000000n + BigInt(n)));
    for (const o of owners) await s.api('POST', ENTS, grant(o));
    let reordered = false;
    for (let round = 0; round < 5 && !reordered; round++) {
      await s.control.flush();
      const got = s.receiver.events().map((e) => e.data.user_id);
      reordered = got.join() !== owners.join();
      if (!reordered) {
        s.control.reset();
        s.control.setChaos({ shuffle: true });
        s.control.pause();
        s.receiver.got.length = 0;
        for (const o of owners) await s.api('POST', ENTS, grant(o));
      }
    }
    expect(reordered).toBe(true);
    expect([...s.receiver.events().map((e) => e.data.user_id)].sort()).toEqual(owners);
  });

  test('drop() never delivers an event; pause() holds them until flush() or resume()', async () => {
    const h = await setup();
    h.control.pause();
    await h.api('POST', ENTS, grant(AVA));
    await h.api('POST', ENTS, grant(BEN));
    h.control.drop(1);
    await new Promise((r) => setTimeout(r, 30));
    expect(h.receiver.calls).toBe(0);
    h.control.resume();
    await until(() => h.control.deliveries()[1]!.state === 'delivered', 3000, 'delivery');
    expect(h.control.deliveries()[0]!.state).toBe('dropped');
    expect(h.receiver.events().map((e) => e.data.user_id)).toEqual([BEN]);
    expect(() => h.control.drop(99)).toThrow(/no event 99/);
  });

  test('ping() sends a signed PING (204 required); probe() an invalid signature (401 required)', async () => {
    const h = await setup();
    h.receiver.respond = (r) => (verifyDiscordEvent(r.raw, r.timestamp, r.signature, PUBLIC_KEY) ? 204 : 401);
    expect(await h.control.ping()).toEqual({ status: 204, ok: true, error: null });
    expect(h.receiver.got[0]!.body).toEqual({ version: 1, application_id: APP_ID, type: 0 });
    expect(await h.control.probe()).toEqual({ status: 401, ok: true, error: null });
    expect(h.receiver.got[1]!.signature).toMatch(/^[0-9a-f]{128}$/);
    // An endpoint that does not check signatures fails the probe.
    h.receiver.respond = () => 204;
    expect(await h.control.probe()).toEqual({ status: 204, ok: false, error: 'an invalid signature must be answered 401, not 204' });
    h.receiver.respond = () => 200;
    expect(await h.control.ping()).toMatchObject({ status: 200, ok: false });
    h.receiver.respond = () => 'throw';
    expect(await h.control.ping()).toMatchObject({ status: null, ok: false, error: expect.stringContaining('connection refused') });
    expect(h.control.deliveries()).toEqual([]);
  });
});
