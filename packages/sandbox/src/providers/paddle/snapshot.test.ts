import { afterEach, describe, expect, test } from 'vitest';
import { idParts } from './ids';
import type { PaddleSnapshot } from './snapshot';
import { CLIENT_TOKEN, DAY, type PaddleHarness, paddleHarness, USER_ID, until } from './test-helpers';

const open: PaddleHarness[] = [];
afterEach(async () => {
  for (const harness of open.splice(0)) await harness.app.close();
});

async function setup(...args: Parameters<typeof paddleHarness>) {
  const harness = await paddleHarness(...args);
  open.push(harness);
  return harness;
}

async function close(sandbox: PaddleHarness): Promise<void> {
  open.splice(open.indexOf(sandbox), 1);
  await sandbox.app.close();
}

/** As it would come back from a file. */
function viaJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Real time, for the debounce. */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('snapshots: carrying on after a restart', () => {
  test('purchase, cancel at period end, restart from the snapshot: same answers, resume works, ids and times keep growing', async () => {
    const h1 = await setup();
    const first = await h1.buy();
    const cancel = await h1.api('POST', `/subscriptions/${first.subscriptionId}/cancel`, { effective_from: 'next_billing_period' });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().data.scheduled_change).toMatchObject({ action: 'cancel' });
    await h1.control.flush();
    const before = (await h1.api('GET', `/subscriptions/${first.subscriptionId}`)).json().data;
    const transactionsBefore = h1.control.transactions();
    const customersBefore = h1.control.customers();

    const snapshot = h1.control.snapshot();
    expect(snapshot.version).toBe(1);
    const stored = viaJson(snapshot);
    expect(stored).toEqual(snapshot);
    await close(h1);

    // A new process: nothing but the stored snapshot, the same (frozen) clock.
    const h2 = await setup({ initialState: stored });
    expect(h2.control.events()).toEqual([]);
    const after = await h2.api('GET', `/subscriptions/${first.subscriptionId}`);
    expect(after.statusCode).toBe(200);
    expect(after.json().data).toEqual(before);
    expect(h2.control.transactions()).toEqual(transactionsBefore);
    expect(h2.control.customers()).toEqual(customersBefore);
    expect((await h2.api('GET', `/transactions/${first.transactionId}`)).json().data).toEqual(transactionsBefore[0]);
    expect((await h2.api('GET', `/customers/${first.customerId}`)).statusCode).toBe(200);

    // Resume (remove the scheduled cancel): a webhook whose updated_at follows the old one's.
    const resumed = await h2.api('PATCH', `/subscriptions/${first.subscriptionId}`, { scheduled_change: null });
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json().data.scheduled_change).toBeNull();
    await h2.control.flush();
    const updated = h2.receiver.of('subscription.updated');
    expect(updated).toHaveLength(1);
    expect(updated[0]!.data.id).toBe(first.subscriptionId);
    expect(updated[0]!.data.scheduled_change).toBeNull();
    expect(updated[0]!.data.updated_at > before.updated_at).toBe(true);
    expect(updated[0]!.occurred_at > before.updated_at).toBe(true);

    // A new purchase: fresh ids that sort after the old ones; the same user keeps their customer.
    const second = await h2.buy();
    expect(second.subscriptionId).not.toBe(first.subscriptionId);
    expect(second.subscriptionId > first.subscriptionId).toBe(true);
    expect(transactionsBefore.some((t) => t.id === second.transactionId)).toBe(false);
    expect(second.transactionId > first.transactionId).toBe(true);
    // Same clock millisecond: the sequence carried on from the snapshot's last id (a fresh one would start anywhere).
    const parts = idParts(second.subscriptionId)!;
    expect(parts.time).toBe(stored.sequence.idTime);
    const step = parts.random - BigInt(stored.sequence.idRandom);
    expect(step > 0n && step < 100n).toBe(true);
    expect(second.customerId).toBe(first.customerId);
    const listed = (await h2.api('GET', '/subscriptions')).json().data.map((s: { id: string }) => s.id);
    expect(listed).toEqual([first.subscriptionId, second.subscriptionId]);
    await h2.control.flush();
    const created = h2.receiver.of('subscription.created')[0]!;
    expect(created.data.created_at > updated[0]!.data.updated_at).toBe(true);
    // A new customer too.
    const third = await h2.buy({ email: 'bea@example.com', customData: { userId: '222222222222222222' } });
    expect(customersBefore.some((c) => c.id === third.customerId)).toBe(false);
  });

  test('scheduled cancels take effect, renewals and card updates carry on after a restore', async () => {
    const h1 = await setup();
    const ending = await h1.buy();
    const renewing = await h1.buy({ email: 'bea@example.com', priceId: 'pri_pro_month', customData: { userId: '222222222222222222' } });
    await h1.api('POST', `/subscriptions/${ending.subscriptionId}/cancel`, {});
    const invoiceBefore = h1.control.transactions().find((t) => t.id === renewing.transactionId)!.invoice_number;
    const stored = viaJson(h1.control.snapshot());
    await close(h1);

    const h2 = await setup({ initialState: stored });
    h2.advance(31 * DAY + 1000);
    h2.control.tick();
    await h2.control.flush();
    expect(h2.control.subscriptions().map((s) => [s.id, s.status])).toEqual([
      [ending.subscriptionId, 'canceled'],
      [renewing.subscriptionId, 'active'],
    ]);
    expect(h2.receiver.of('subscription.canceled').map((e) => e.data.id)).toEqual([ending.subscriptionId]);
    const renewal = h2.receiver.of('transaction.completed').map((e) => e.data);
    expect(renewal).toHaveLength(1);
    expect(renewal[0]).toMatchObject({ subscription_id: renewing.subscriptionId, origin: 'subscription_recurring', status: 'completed' });
    // The invoice numbers continue.
    expect(invoiceBefore).toMatch(/^2026-\d{5}$/);
    expect(Number(renewal[0].invoice_number.slice(5))).toBe(Number(invoiceBefore!.slice(5)) + 1);

    // A card update on the restored subscription.
    const txn = (await h2.api('GET', `/subscriptions/${renewing.subscriptionId}/update-payment-method-transaction`)).json().data;
    const page = await h2.openCheckout({ txn: txn.id });
    expect(page.statusCode).toBe(200);
    const paid = await h2.pay(page.body, { card_number: '5555 5555 5555 4444' });
    expect(paid.statusCode).toBe(200);
    const portal = (await h2.api('POST', `/customers/${renewing.customerId}/portal-sessions`, { subscription_ids: [renewing.subscriptionId] })).json().data;
    const overview = await h2.app.inject({ method: 'GET', url: new URL(portal.urls.general.overview).pathname });
    expect(overview.body).toContain('•••• 4444');
  });

  test('checkout pages and portal links opened before the restart still work', async () => {
    const h1 = await setup();
    const { subscriptionId, customerId } = await h1.buy();
    const portal = (await h1.api('POST', `/customers/${customerId}/portal-sessions`, { subscription_ids: [subscriptionId] })).json().data;
    const page = await h1.openCheckout({ items: JSON.stringify([{ priceId: 'pri_pro_month' }]), custom_data: JSON.stringify({ userId: USER_ID }), token: CLIENT_TOKEN });
    expect(page.statusCode).toBe(200);
    const stored = viaJson(h1.control.snapshot());
    await close(h1);

    const h2 = await setup({ initialState: stored });
    const overview = await h2.app.inject({ method: 'GET', url: new URL(portal.urls.general.overview).pathname });
    expect(overview.statusCode).toBe(200);
    const cancelUrl = new URL(portal.urls.subscriptions[0].cancel_subscription).pathname;
    const canceled = await h2.app.inject({ method: 'POST', url: cancelUrl, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(canceled.statusCode).toBe(303);
    expect(h2.control.subscriptions()[0]!.scheduled_change).toMatchObject({ action: 'cancel' });
    const paid = await h2.pay(page.body, { email: 'ava@example.com' });
    expect(paid.statusCode).toBe(200);
    expect(h2.control.subscriptions()).toHaveLength(2);
  });
});

describe('restore refuses malformed snapshots', () => {
  test('each is refused with the first bad field named, and the state is left as it was', async () => {
    const harness = await setup();
    const { customerId } = await harness.buy();
    await harness.api('POST', `/customers/${customerId}/portal-sessions`, {});
    const good = viaJson(harness.control.snapshot());
    expect(good.portals).toHaveLength(1);
    expect(good.checkouts).toHaveLength(1);
    await harness.buy({ email: 'bea@example.com', customData: { userId: '222222222222222222' } });
    await harness.api('POST', `/customers/${customerId}/portal-sessions`, {});
    const current = harness.control.snapshot();
    expect(current.subscriptions).toHaveLength(2);

    // biome-ignore lint/suspicious/noExplicitAny: the cases break the snapshot on purpose
    const broken = (change: (session: any) => void): unknown => {
      const copy = viaJson(good);
      change(copy);
      return copy;
    };
    const cases: Array<[unknown, RegExp]> = [
      [null, /^PaddleSandboxControl\.restore: snapshot must be an object, not null$/],
      ['{}', /snapshot must be an object/],
      [[], /snapshot must be an object, not an array/],
      [broken((s) => delete s.version), /snapshot\.version is missing/],
      [broken((s) => (s.version = 2)), /snapshot\.version must be 1 .*not 2/],
      [broken((s) => delete s.customers), /snapshot\.customers is missing/],
      [broken((s) => (s.sequence.idRandom = 'abc')), /snapshot\.sequence\.idRandom must be/],
      [broken((s) => (s.sequence.lastMicros = -1)), /snapshot\.sequence\.lastMicros must be a whole number/],
      [broken((s) => (s.subscriptions[0].status = 'paused')), /snapshot\.subscriptions\[0\]\.status must be one of "active", "past_due", "canceled", not "paused"/],
      [broken((s) => (s.subscriptions[0].updatedAt = 'yesterday')), /snapshot\.subscriptions\[0\]\.updatedAt must be an ISO 8601 UTC time/],
      [broken((s) => (s.subscriptions[0].items[0].priceId = 'pri_gone')), /snapshot\.subscriptions\[0\]\.items\[0\]\.priceId names the price pri_gone, which is not among the plugin's prices/],
      [broken((s) => (s.subscriptions[0].items[0].priceId = 'pri_eur_month')), /snapshot\.subscriptions\[0\]\.items\[0\]\.priceId names the price pri_eur_month in EUR/],
      [broken((s) => (s.subscriptions[0].customerId = 'ctm_01nobody')), /snapshot\.subscriptions\[0\]\.customerId names the customer ctm_01nobody/],
      [broken((s) => (s.subscriptions[0].card.last4 = 4242)), /snapshot\.subscriptions\[0\]\.card\.last4 must be the last 4 digits/],
      [broken((s) => (s.subscriptions[0].extra = true)), /snapshot\.subscriptions\[0\]\.extra is not a field/],
      [broken((s) => s.subscriptions.push(s.subscriptions[0])), /snapshot\.subscriptions\[1\]\.id repeats the subscription/],
      [broken((s) => (s.transactions[0].details.totals.grand_total = 499)), /snapshot\.transactions\[0\]\.details\.totals\.grand_total must be an amount/],
      [broken((s) => (s.transactions[0].subscription_id = 'sub_01other')), /snapshot\.transactions\[0\]\.subscription_id names the subscription sub_01other/],
      [broken((s) => (s.customers[0].credit = { USD: 1.5 })), /snapshot\.customers\[0\]\.credit\.USD must be a whole number/],
      [broken((s) => (s.subscriptions[0].customData = { when: new Date(0) })), /snapshot\.subscriptions\[0\]\.customData\.when must be JSON/],
      // The last field is the bad one: everything before it is valid and differs from the current state.
      [broken((s) => (s.portals[s.portals.length - 1].management = 'yes')), /snapshot\.portals\[\d+\]\.management must be true or false/],
      [broken((s) => (s.checkouts[s.checkouts.length - 1].expiresAt = 'soon')), /snapshot\.checkouts\[\d+\]\.expiresAt must be a time/],
    ];
    for (const [input, message] of cases) {
      expect(() => harness.control.restore(input), String(message)).toThrow(message);
      expect(harness.control.snapshot()).toEqual(current);
    }
    // A good one is taken (and only then the state changes).
    harness.control.restore(good);
    expect(harness.control.subscriptions()).toHaveLength(1);
  });

  test('a malformed initialState fails the registration with a clear message', async () => {
    await expect(paddleHarness({ initialState: { version: 2 } })).rejects.toThrow(/^paddleSandbox: initialState is not a snapshot it can restore: snapshot\.version must be 1/);
    await expect(paddleHarness({ initialState: 'nope' })).rejects.toThrow(/paddleSandbox: initialState .*snapshot must be an object/);
  });
});

describe('onChange', () => {
  test('called once, debounced, after a change; a pending call is made on close', async () => {
    const calls: PaddleSnapshot[] = [];
    const harness = await setup({ onChange: (s) => calls.push(s) });
    await sleep(250);
    expect(calls).toEqual([]);

    const started = Date.now();
    const { subscriptionId } = await harness.buy();
    expect(calls).toHaveLength(0);
    await until(() => calls.length > 0, 3000, 'onChange after the purchase');
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    await sleep(300);
    // One call for the whole purchase (checkout page opened, then paid).
    expect(calls).toHaveLength(1);
    expect(calls[0]!.subscriptions.map((s) => s.id)).toEqual([subscriptionId]);
    expect(viaJson(calls[0])).toEqual(calls[0]);

    // Reads change nothing (the management_urls' portal session they make is not worth a call).
    await harness.api('GET', '/subscriptions');
    await harness.api('GET', `/subscriptions/${subscriptionId}`);
    await sleep(300);
    expect(calls).toHaveLength(1);

    // A renewal through the clock.
    harness.advance(31 * DAY + 1000);
    harness.control.tick();
    await until(() => calls.length > 1, 3000, 'onChange after the renewal');
    expect(calls[1]!.transactions).toHaveLength(2);

    // A cancel, then close before the debounce ends: the close hook makes the call.
    await harness.api('POST', `/subscriptions/${subscriptionId}/cancel`, {});
    expect(calls).toHaveLength(2);
    await close(harness);
    expect(calls).toHaveLength(3);
    const ending = calls[2]!.subscriptions[0]!;
    expect(ending.scheduledCancelAt).not.toBeNull();
    expect(ending.scheduledCancelAt).toBe(ending.periodEnd);
    await sleep(300);
    expect(calls).toHaveLength(3);
  });

  test('restore() and reset() through the control count as changes; nothing pending means no call on close; errors are only logged', async () => {
    const calls: PaddleSnapshot[] = [];
    let fail = false;
    const harness = await setup({
      onChange: (snapshot) => {
        calls.push(snapshot);
        if (fail) throw new Error('disk full');
      },
    });
    await harness.buy();
    await until(() => calls.length === 1, 3000, 'onChange after the purchase');
    const stored = viaJson(calls[0]!);
    harness.control.reset();
    await until(() => calls.length === 2, 3000, 'onChange after reset');
    expect(calls[1]!.subscriptions).toEqual([]);
    fail = true;
    harness.control.restore(stored);
    await until(() => calls.length === 3, 3000, 'onChange after restore');
    expect(calls[2]!.subscriptions).toHaveLength(1);
    // The failing callback did not break the stand-in.
    expect((await harness.api('GET', `/subscriptions/${stored.subscriptions[0]!.id}`)).statusCode).toBe(200);
    await close(harness);
    expect(calls).toHaveLength(3);
  });

  test('an async onChange is awaited on close', async () => {
    const written: string[] = [];
    const harness = await setup({
      onChange: async (snapshot) => {
        await sleep(20);
        written.push(JSON.stringify(snapshot));
      },
    });
    await harness.buy();
    await close(harness);
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]!).subscriptions).toHaveLength(1);
  });
});
