import { describe, expect, test } from 'vitest';
import { verifyDiscordEvent } from './keys';
import { APP_ID, AVA, BEN, PUBLIC_KEY, START, until, useHarness } from './test-helpers';

const setup = useHarness();
const ENTS = `/applications/${APP_ID}/entitlements`;
const grant = (owner: string) => ({ sku_id: '1300000000000000821', owner_id: owner, owner_type: 2 });

describe('webhook delivery', () => {
  test('happens in the background; 204 delivers', async () => {
    const sandbox = await setup();
    await sandbox.buy();
    await until(() => sandbox.control.deliveries()[0]?.state === 'delivered', 3000, 'delivery');
    expect(sandbox.control.deliveries()[0]).toMatchObject({ id: 1, type: 'ENTITLEMENT_CREATE', attempts: 1, lastStatus: 204, lastError: null, duplicates: 0 });
  });

  test('anything but 204 is retried with exponential backoff from retryBaseMs, signed anew each time', async () => {
    const sandbox = await setup({ retryBaseMs: 25 });
    const times: number[] = [];
    sandbox.receiver.respond = (received, count) => {
      times.push(received.at);
      return count === 1 ? 500 : count === 2 ? 200 : count === 3 ? 'throw' : 204;
    };
    await sandbox.buy();
    await until(() => sandbox.control.deliveries()[0]!.state === 'delivered', 5000, 'delivery');
    expect(sandbox.control.deliveries()[0]).toMatchObject({ attempts: 4, state: 'delivered', lastStatus: 204 });
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(23);
    expect(gaps[1]).toBeGreaterThanOrEqual(48);
    expect(gaps[2]).toBeGreaterThanOrEqual(98);
    // Every delivered copy verifies; the body is the same every time.
    for (const received of sandbox.receiver.got) expect(verifyDiscordEvent(received.raw, received.timestamp, received.signature, PUBLIC_KEY)).toBe(true);
    expect(new Set(sandbox.receiver.got.map((r) => r.raw)).size).toBe(1);
  });

  test('the signature timestamp is the clock at each attempt', async () => {
    const sandbox = await setup();
    sandbox.control.pause();
    sandbox.receiver.respond = (_r, n) => (n === 1 ? 503 : 204);
    await sandbox.buy();
    await sandbox.control.flush();
    sandbox.advance(90_000);
    await sandbox.control.flush({ ignoreBackoff: true });
    expect(sandbox.receiver.got.map((r) => r.timestamp)).toEqual([String(START / 1000), String(START / 1000 + 90)]);
    expect(sandbox.receiver.got.every((r) => verifyDiscordEvent(r.raw, r.timestamp, r.signature, PUBLIC_KEY))).toBe(true);
  });

  test('after 10 failed attempts an event is failed; a hung endpoint times out', async () => {
    const sandbox = await setup({ timeoutMs: 20 });
    sandbox.control.pause();
    sandbox.receiver.respond = (_r, n) => (n === 1 ? 'hang' : 500);
    await sandbox.buy();
    await sandbox.control.flush({ ignoreBackoff: true });
    const [delivery] = sandbox.control.deliveries();
    expect(delivery).toMatchObject({ attempts: 10, state: 'failed', lastStatus: 500, lastError: 'expected 204, got 500' });
    expect(sandbox.receiver.calls).toBe(10);
  });

  test('failFirst fails attempts without sending; they are retried', async () => {
    // Retries far enough ahead that the flush below never finds one due on a busy machine.
    const sandbox = await setup({ retryBaseMs: 200 });
    sandbox.control.setChaos({ failFirst: 2 });
    sandbox.control.pause();
    await sandbox.api('POST', ENTS, grant(AVA));
    await sandbox.api('POST', ENTS, grant(BEN));
    await sandbox.control.flush();
    expect(sandbox.receiver.calls).toBe(0);
    expect(sandbox.control.deliveries().map((d) => d.lastError)).toEqual(['failed by setChaos({ failFirst })', 'failed by setChaos({ failFirst })']);
    sandbox.control.resume();
    await until(() => sandbox.control.deliveries().every((d) => d.state === 'delivered'), 3000, 'retries');
    expect(sandbox.receiver.calls).toBe(2);
  });

  test('duplicate sends a delivered event a second time', async () => {
    const sandbox = await setup();
    sandbox.control.setChaos({ duplicate: 1 });
    await sandbox.buy();
    await until(() => sandbox.receiver.got.length === 2, 3000, 'duplicate');
    expect(sandbox.receiver.got[0]!.raw).toBe(sandbox.receiver.got[1]!.raw);
    expect(sandbox.control.deliveries()[0]!.duplicates).toBe(1);
  });

  test('shuffle reorders the events due together (all still arrive)', async () => {
    const sandbox = await setup();
    sandbox.control.setChaos({ shuffle: true });
    sandbox.control.pause();
    const owners = Array.from({ length: 12 }, (_, n) => String(3000000000000000000n + BigInt(n)));
    for (const origin of owners) await sandbox.api('POST', ENTS, grant(origin));
    let reordered = false;
    for (let round = 0; round < 5 && !reordered; round++) {
      await sandbox.control.flush();
      const got = sandbox.receiver.events().map((e) => e.data.user_id);
      reordered = got.join() !== owners.join();
      if (!reordered) {
        sandbox.control.reset();
        sandbox.control.setChaos({ shuffle: true });
        sandbox.control.pause();
        sandbox.receiver.got.length = 0;
        for (const origin of owners) await sandbox.api('POST', ENTS, grant(origin));
      }
    }
    expect(reordered).toBe(true);
    expect([...sandbox.receiver.events().map((e) => e.data.user_id)].sort()).toEqual(owners);
  });

  test('drop() never delivers an event; pause() holds them until flush() or resume()', async () => {
    const sandbox = await setup();
    sandbox.control.pause();
    await sandbox.api('POST', ENTS, grant(AVA));
    await sandbox.api('POST', ENTS, grant(BEN));
    sandbox.control.drop(1);
    await new Promise((r) => setTimeout(r, 30));
    expect(sandbox.receiver.calls).toBe(0);
    sandbox.control.resume();
    await until(() => sandbox.control.deliveries()[1]!.state === 'delivered', 3000, 'delivery');
    expect(sandbox.control.deliveries()[0]!.state).toBe('dropped');
    expect(sandbox.receiver.events().map((e) => e.data.user_id)).toEqual([BEN]);
    expect(() => sandbox.control.drop(99)).toThrow(/no event 99/);
  });

  test('ping() sends a signed PING (204 required); probe() an invalid signature (401 required)', async () => {
    const sandbox = await setup();
    sandbox.receiver.respond = (r) => (verifyDiscordEvent(r.raw, r.timestamp, r.signature, PUBLIC_KEY) ? 204 : 401);
    expect(await sandbox.control.ping()).toEqual({ status: 204, ok: true, error: null });
    expect(sandbox.receiver.got[0]!.body).toEqual({ version: 1, application_id: APP_ID, type: 0 });
    expect(await sandbox.control.probe()).toEqual({ status: 401, ok: true, error: null });
    expect(sandbox.receiver.got[1]!.signature).toMatch(/^[0-9a-f]{128}$/);
    // An endpoint that does not check signatures fails the probe.
    sandbox.receiver.respond = () => 204;
    expect(await sandbox.control.probe()).toEqual({ status: 204, ok: false, error: 'an invalid signature must be answered 401, not 204' });
    sandbox.receiver.respond = () => 200;
    expect(await sandbox.control.ping()).toMatchObject({ status: 200, ok: false });
    sandbox.receiver.respond = () => 'throw';
    expect(await sandbox.control.ping()).toMatchObject({ status: null, ok: false, error: expect.stringContaining('connection refused') });
    expect(sandbox.control.deliveries()).toEqual([]);
  });
});
