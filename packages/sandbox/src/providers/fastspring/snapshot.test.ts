import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import { fastspringSandbox } from './plugin';
import type { FastspringSnapshot } from './snapshot';
import { DAY, OPTIONS, PRODUCTS, until, useFastspringHarness } from './test-helpers';

const setup = useFastspringHarness();

describe('snapshot and restore', () => {
  test('a JSON round trip carries subscriptions, orders, accounts, account links and counters to a new registration', async () => {
    const harness = await setup();
    await harness.buy();
    await harness.buy({ email: 'bob@example.com', products: [{ path: 'tickety-pro-monthly', quantity: 2 }] });
    const sub = harness.control.subscriptions()[0]!;
    await harness.api('DELETE', `/subscriptions/${sub.id}`);
    const link = (await harness.api('GET', `/accounts/${sub.account}/authenticate`)).json().accounts[0].url as string;
    const snap = JSON.parse(JSON.stringify(harness.control.snapshot())) as FastspringSnapshot;
    expect(snap).toMatchObject({ version: 1, takenAt: harness.now() });
    expect(snap.subscriptions).toHaveLength(2);

    const restored = await setup({ initialState: snap });
    // Absolute links come from the request's host (or the baseUrl option).
    await restored.api('GET', '/subscriptions');
    expect(restored.control.subscriptions()).toEqual(harness.control.subscriptions());
    expect(restored.control.orders()).toEqual(harness.control.orders());
    expect((await restored.app.inject({ method: 'GET', url: new URL(link).pathname })).statusCode).toBe(200);
    // It carries on: the canceled one deactivates at its date, the other renews; `changed` keeps growing.
    restored.advance(31 * DAY);
    const after = (await restored.api('GET', `/subscriptions/${sub.id}`)).json();
    expect(after).toMatchObject({ state: 'deactivated' });
    expect(after.changed).toBeGreaterThan(sub.changed);
    const orders = restored.control.orders();
    expect(orders).toHaveLength(3);
    expect(new Set(orders.map((o) => o.reference)).size).toBe(3);
  });

  test('a malformed snapshot is refused whole, naming the first bad field', async () => {
    const harness = await setup();
    await harness.buy();
    const snap = harness.control.snapshot();
    const bad = structuredClone(snap) as unknown as { subscriptions: Array<Record<string, unknown>> };
    bad.subscriptions[0]!.state = 'paused';
    expect(() => harness.control.restore(bad)).toThrow(/snapshot\.subscriptions\[0\]\.state must be one of/);
    const unknownProduct = structuredClone(snap) as unknown as { subscriptions: Array<Record<string, unknown>> };
    unknownProduct.subscriptions[0]!.product = 'gone';
    expect(() => harness.control.restore(unknownProduct)).toThrow(/is not one of the plugin's products/);
    expect(() => harness.control.restore({ ...snap, version: 2 })).toThrow(/version must be 1/);
    expect(() => harness.control.restore({ ...snap, extra: 1 })).toThrow(/extra is not a field/);
    expect(harness.control.subscriptions()).toHaveLength(1);
    const app = Fastify({ logger: false });
    await expect(
      app.register(fastspringSandbox, { ...OPTIONS, initialState: { version: 1 } }),
    ).rejects.toThrow(/initialState is not a snapshot it can restore: snapshot\.takenAt is missing/);
    await app.close();
  });

  test('onChange gets a debounced snapshot after changes and a pending one at close', async () => {
    const seen: FastspringSnapshot[] = [];
    const harness = await setup({ onChange: (s) => seen.push(s) });
    await harness.buy();
    await until(() => seen.length === 1, 3000, 'onChange');
    expect(seen[0]!.subscriptions).toHaveLength(1);
    await harness.api('DELETE', `/subscriptions/${seen[0]!.subscriptions[0]!.id}`);
    await harness.app.close();
    expect(seen.at(-1)!.subscriptions[0]!.state).toBe('canceled');
  });

  test('options are checked at registration', async () => {
    const base = OPTIONS;
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ apiPassword: '' }, /apiPassword is required/],
      [{ webhookUrl: 'ftp://x' }, /webhookUrl must be an absolute http/],
      [{ products: [] }, /products must be a non-empty array/],
      [{ products: [{ ...PRODUCTS[0], intervalUnit: 'week' }] }, /intervalUnit must be "month" or "year"/],
      [{ products: [PRODUCTS[0], PRODUCTS[0]] }, /has the path "tickety-premium-monthly" twice/],
      [{ retryBaseMs: 0 }, /retryBaseMs must be a number > 0/],
      [{ baseUrl: 'nope' }, /baseUrl must be an absolute/],
    ];
    for (const [change, error] of cases) {
      const app = Fastify({ logger: false });
      await expect(app.register(fastspringSandbox, { ...base, ...change } as never)).rejects.toThrow(error);
      await app.close();
    }
  });
});
