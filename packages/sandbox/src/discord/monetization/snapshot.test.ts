import { describe, expect, test } from 'vitest';
import { createMonetizationControl } from './control';
import { MonetizationSnapshotError } from './snapshot';
import { APP_ID, AVA, BEN, DAY, harness, SKU_ID, START, until, useHarness } from './test-helpers';

const setup = useHarness();

describe('snapshot and restore', () => {
  test('a JSON round trip into a new registration carries everything on (and new ids sort after)', async () => {
    const sandbox = await setup();
    await sandbox.buy(AVA);
    await sandbox.buy(BEN);
    sandbox.control.cancelSubscription(sandbox.control.subscriptions()[1]!.id);
    await sandbox.api('POST', `/applications/${APP_ID}/entitlements`, { sku_id: SKU_ID, owner_id: '1000000000000000003', owner_type: 2 });
    const snap = JSON.parse(JSON.stringify(sandbox.control.snapshot()));
    const before = { e: sandbox.control.entitlements(), s: sandbox.control.subscriptions() };

    const restored = await harness({ initialState: snap });
    try {
      expect(restored.control.entitlements()).toEqual(before.e);
      expect(restored.control.subscriptions()).toEqual(before.s);
      expect(restored.control.snapshot()).toEqual({ ...snap, takenAt: START });
      // Ben's canceled one ends at the period end in the new registration too.
      restored.advance(31 * DAY);
      restored.control.tick();
      await restored.control.flush();
      expect(restored.receiver.types()).toEqual(['ENTITLEMENT_UPDATE']);
      await restored.buy(BEN);
      const newest = restored.control.entitlements().at(-1)!;
      expect(BigInt(newest.id) > BigInt(snap.lastId)).toBe(true);
    } finally {
      await restored.app.close();
    }
  });

  test('restore refuses a bad snapshot whole, naming the first bad field', async () => {
    const sandbox = await setup();
    await sandbox.buy();
    const good = sandbox.control.snapshot();
    const bad = (change: (snapshot: typeof good) => void) => {
      const snapshot = structuredClone(good);
      change(snapshot);
      return snapshot;
    };
    expect(() => sandbox.control.restore({ ...good, version: 2 })).toThrow(/snapshot\.version must be 1/);
    expect(() => sandbox.control.restore(bad((s) => (s.subscriptions[0]!.status = 5 as 0)))).toThrow(/snapshot\.subscriptions\[0\]\.status must be one of 0, 1, 2/);
    expect(() => sandbox.control.restore(bad((s) => (s.entitlements[0]!.skuId = '1')))).toThrow(/snapshot\.entitlements\[0\]\.skuId names the SKU 1/);
    expect(() => sandbox.control.restore(bad((s) => (s.subscriptions[0]!.entitlementId = '2')))).toThrow(/entitlementId names the entitlement 2/);
    expect(() => sandbox.control.restore(bad((s) => Object.assign(s.entitlements[0]!, { extra: 1 })))).toThrow(/\.extra is not a field/);
    expect(() => sandbox.control.restore(null)).toThrow(MonetizationSnapshotError);
    expect(sandbox.control.snapshot()).toEqual(good);
  });

  test('onChange gets a snapshot after changes (debounced) and at close', async () => {
    const seen: unknown[] = [];
    const sandbox = await harness({ onChange: (s) => void seen.push(s) });
    await sandbox.buy();
    await until(() => seen.length === 1, 3000, 'onChange');
    expect(seen[0]).toMatchObject({ version: 1, entitlements: [{ userId: AVA, type: 8 }] });
    sandbox.control.cancelSubscription(sandbox.control.subscriptions()[0]!.id);
    await sandbox.app.close();
    expect(seen).toHaveLength(2);
    expect(seen[1]).toMatchObject({ subscriptions: [{ status: 2 }] });
  });

  test('initialEntitlements seed active, renewing app subscriptions (no events); reset() goes back to them', async () => {
    const control = createMonetizationControl();
    const sandbox = await setup({
      control,
      initialEntitlements: [{ id: '1300000000000000902', skuId: SKU_ID, userId: AVA, subscriptionId: '1300000000000000901', startsAt: '2025-12-01T12:00:00Z' }],
    });
    expect(control.entitlements()).toEqual([
      expect.objectContaining({ id: '1300000000000000902', type: 8, user_id: AVA, starts_at: '2025-12-01T12:00:00.000000+00:00', ends_at: null, subscription_id: '1300000000000000901' }),
    ]);
    // 2025-12-01 + 30 days = 2025-12-31, + 30 = 2026-01-30 (START is 2026-01-15).
    expect(control.subscriptions()[0]).toMatchObject({ status: 0, current_period_start: '2025-12-31T12:00:00.000000+00:00', current_period_end: '2026-01-30T12:00:00.000000+00:00' });
    expect((await sandbox.buy(AVA)).statusCode).toBe(409);
    await sandbox.buy(BEN);
    control.reset();
    expect(control.entitlements().map((e) => e.id)).toEqual(['1300000000000000902']);
    expect(control.deliveries()).toEqual([]);
    await control.flush();
  });

  test('options are checked at registration', async () => {
    await expect(harness({ privateKeySeed: 'abc' })).rejects.toThrow(/64 hex/);
    await expect(harness({ webhookUrl: 'ftp://x' })).rejects.toThrow(/webhookUrl/);
    await expect(harness({ skus: [] })).rejects.toThrow(/non-empty/);
    await expect(harness({ skus: [{ id: '5', name: 'A', slug: 'a', type: 5, flags: 260, price: { amount: 1, currency: 'USD' } }, { id: '6', name: 'B', slug: 'b', type: 5, flags: 260, price: { amount: 1, currency: 'USD' } }] })).rejects.toThrow(/used twice/);
    await expect(harness({ initialState: { version: 1 } })).rejects.toThrow(/initialState is not a snapshot.*takenAt is missing/);
    await expect(harness({ initialEntitlements: [{ id: '1', skuId: '9', userId: AVA, subscriptionId: '2', startsAt: 0 }] })).rejects.toThrow(/not a subscription SKU/);
  });
});
