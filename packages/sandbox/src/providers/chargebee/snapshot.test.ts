import { describe, expect, test } from 'vitest';
import { ChargebeeSnapshotError } from './snapshot';
import { DAY, harness, USER_ID, useHarness } from './test-helpers';

const setup = useHarness();

describe('snapshots', () => {
  test('round trip: a new registration carries on (subscriptions, invoices, pages, portal, versions)', async () => {
    const sandbox = await setup();
    const { subscriptionId, hostedPageId } = await sandbox.buy();
    await sandbox.api('POST', `/subscriptions/${subscriptionId}/cancel_for_items`, { end_of_term: 'true' });
    const ps = (await sandbox.api('POST', '/portal_sessions', { 'customer[id]': USER_ID })).json().portal_session;
    const before = (await sandbox.api('GET', `/subscriptions/${subscriptionId}`)).json();
    const snap = JSON.parse(JSON.stringify(sandbox.control.snapshot()));

    const next = await harness({ initialState: snap });
    try {
      expect((await next.api('GET', `/subscriptions/${subscriptionId}`)).json()).toEqual(before);
      expect((await next.api('GET', `/hosted_pages/${hostedPageId}`)).json().hosted_page.state).toBe('succeeded');
      expect((await next.get(ps.access_url)).statusCode).toBe(303);
      const removed = (await next.api('POST', `/subscriptions/${subscriptionId}/remove_scheduled_cancellation`)).json().subscription;
      expect(removed.resource_version).toBeGreaterThan(before.subscription.resource_version);
      next.advance(31 * DAY);
      const invoices = (await next.api('GET', '/invoices', { 'subscription_id[is]': subscriptionId })).json().list;
      expect(invoices.map((x: { invoice: { id: string } }) => x.invoice.id)).toEqual(['2', '1']);
      expect(next.control.snapshot().invoices).toHaveLength(2);
    } finally {
      await next.app.close();
    }
  });

  test('a malformed snapshot is refused whole, naming the first bad field', async () => {
    const sandbox = await setup();
    const { subscriptionId } = await sandbox.buy();
    const snap = JSON.parse(JSON.stringify(sandbox.control.snapshot()));
    expect(() => sandbox.control.restore({ ...snap, version: 2 })).toThrow(/snapshot.version/);
    const badStatus = structuredClone(snap);
    badStatus.subscriptions[0].status = 'paused';
    expect(() => sandbox.control.restore(badStatus)).toThrow(ChargebeeSnapshotError);
    expect(() => sandbox.control.restore(badStatus)).toThrow(/snapshot.subscriptions\[0\].status/);
    const badPrice = structuredClone(snap);
    badPrice.subscriptions[0].items[0].itemPriceId = 'gold';
    expect(() => sandbox.control.restore(badPrice)).toThrow(/itemPriceId/);
    const extra = structuredClone(snap);
    extra.customers[0].nickname = 'x';
    expect(() => sandbox.control.restore(extra)).toThrow(/snapshot.customers\[0\].nickname/);
    await expect(harness({ initialState: { version: 1 } })).rejects.toThrow(/initialState/);
    // Nothing changed.
    expect(sandbox.control.subscriptions().map((s) => s.id)).toEqual([subscriptionId]);
  });

  test('onChange gets a debounced snapshot after changes, flushed on close', async () => {
    const seen: number[] = [];
    const sandbox = await harness({ onChange: (s) => void seen.push(s.subscriptions.length) });
    await sandbox.buy();
    await sandbox.app.close();
    expect(seen.at(-1)).toBe(1);
  });
});
