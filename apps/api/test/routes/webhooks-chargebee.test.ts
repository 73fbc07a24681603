import { ApiError } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDb } from '../../src/db/postgres';
import { createTestApp, type TestApp, useTestApp } from '../helpers/app';
import { DAY, MINUTE } from '../helpers/clock';
import { databases } from '../helpers/db';

const { ava, ben } = DEMO_USERS;
const MONTHLY = 'tickety-premium-USD-Monthly';
const YEARLY = 'tickety-premium-USD-Yearly';
/** The accepted webhook credentials: the current pair (the stand-in's) and a second one (rotation). */
const CURRENT = 'cb_user:cb_pass';
const ROTATED = 'cb_next:s3cr:et';
const ENV = { CHARGEBEE_WEBHOOK_CREDENTIALS: `${CURRENT},${ROTATED}` };

const basic = (credentials: string) => `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
const seconds = (ms: number) => Math.floor(ms / 1000);

describe.each(databases())('Chargebee webhooks (/api/webhooks/chargebee) on $name', (database) => {
  const t = useTestApp(database, { env: ENV });
  let sequence = 0;
  /** Ava's customer at Chargebee: linked to her by the API before a checkout (what the checkout route does). */
  let customer = '';

  beforeAll(async () => {
    // The stand-in's webhooks go out only when a test flushes them.
    t.chargebee.pause();
    customer = await t.app.billingAccounts.linkedCustomer('chargebee', ava.id);
  });

  /** A Chargebee subscription (Product Catalog 2.0) as its events carry it; `version` is its resource_version (ms). */
  const subscription = (id: string, over: Record<string, unknown> = {}, version = t.clock.now) => ({
    id,
    customer_id: customer,
    status: 'active',
    current_term_start: seconds(t.clock.now),
    current_term_end: seconds(t.clock.now + 31 * DAY),
    next_billing_at: seconds(t.clock.now + 31 * DAY),
    due_invoices_count: 0,
    subscription_items: [{ item_price_id: MONTHLY, item_type: 'plan', quantity: 1, unit_price: 499, amount: 499, object: 'subscription_item' }],
    resource_version: version,
    deleted: false,
    object: 'subscription',
    ...over,
  });
  const event = (type: string, content: Record<string, unknown>, id = `ev_test${++sequence}`) => ({
    id,
    occurred_at: seconds(t.clock.now),
    source: 'api',
    object: 'event',
    api_version: 'v2',
    event_type: type,
    webhook_status: 'scheduled',
    content,
  });
  const send = (body: unknown, options: { authorization?: string | null; raw?: string; contentType?: string; app?: TestApp } = {}) => {
    const authorization = options.authorization === undefined ? basic(CURRENT) : options.authorization;
    return (options.app ?? t).app.inject({
      method: 'POST',
      url: '/api/webhooks/chargebee',
      headers: { 'content-type': options.contentType ?? 'application/json', 'user-agent': 'ChargeBee', ...(authorization === null ? {} : { authorization }) },
      payload: options.raw ?? JSON.stringify(body),
    });
  };
  const row = async (providerId: string) =>
    (
      await t.db.query<{
        status: string;
        premium: boolean;
        cancel_at_period_end: boolean;
        slots: number;
        plan_id: string;
        billing_interval: string;
        payment_method: string | null;
        user_id: string;
        customer_id: string;
        grace_until: Date | null;
      }>(
        `SELECT status, premium, cancel_at_period_end, slots, plan_id, billing_interval, payment_method, user_id, customer_id, grace_until
         FROM subscriptions WHERE provider = 'chargebee' AND provider_subscription_id = $1`,
        [providerId],
      )
    ).rows;
  const events = async () => (await t.db.query<{ n: string }>('SELECT count(*) AS n FROM webhook_events')).rows[0]!.n;
  const stored = async (key: string) =>
    (await t.db.query<{ id: string; state: string; attempts: number; last_error: string | null; outcome: string | null }>(`SELECT id, state, attempts, last_error, outcome FROM webhook_events WHERE provider = 'chargebee' AND event_key = $1`, [key]))
      .rows;

  it('refuses what it cannot authenticate, stores nothing: wrong password or user, no header, not basic, not base64', async () => {
    const body = event('subscription_created', { subscription: subscription('cb_refused') });
    const before = await events();
    for (const authorization of [
      basic('cb_user:wrong'),
      basic('someone:cb_pass'),
      basic('cb_user:cb_pass '),
      basic('cb_user'),
      null,
      `Bearer ${Buffer.from(CURRENT).toString('base64')}`,
      'Basic',
      'Basic !!!not-base64!!!',
    ]) {
      const res = await send(body, { authorization });
      expect(res.statusCode, `${authorization}: ${res.body}`).toBe(401);
      expect(ApiError.parse(res.json())).toMatchObject({ code: 1022 });
    }
    expect(await events()).toBe(before);
    expect(await row('cb_refused')).toEqual([]);
  });

  it('accepts every configured pair (a rotation), as Chargebee sends it', async () => {
    const res = await send(event('customer_created', { customer: { id: customer, object: 'customer' } }), { authorization: basic(ROTATED) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, duplicate: false });
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
  });

  it('refuses an authenticated body that is no API v2 event (400 1001), and other media types', async () => {
    const before = await events();
    const old = await send({ ...event('subscription_created', { subscription: subscription('cb_v1_only') }), api_version: 'v1' });
    expect(old.statusCode).toBe(400);
    expect(ApiError.parse(old.json())).toMatchObject({ code: 1001, message: expect.stringMatching(/api_version: must be v2/) });
    const noId = await send(null, { raw: JSON.stringify({ event_type: 'subscription_created', occurred_at: 1, content: {} }) });
    expect(noId.statusCode).toBe(400);
    expect(ApiError.parse(noId.json())).toMatchObject({ code: 1001, message: expect.stringMatching(/id/) });
    expect((await send(null, { raw: 'not json' })).statusCode).toBe(400);
    const form = await send(null, { raw: 'a=1', contentType: 'application/x-www-form-urlencoded' });
    expect(form.statusCode).toBe(415);
    expect(ApiError.safeParse(form.json()).success).toBe(true);
    expect(await events()).toBe(before);
    expect(await row('cb_v1_only')).toEqual([]);
  });

  it('stores a verified event before answering, applies it once; the same event again is a duplicate with no second effect', async () => {
    const body = event('subscription_created', { subscription: subscription('cb_once') });
    const first = await send(body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    expect(await row('cb_once')).toEqual([]);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    expect(await row('cb_once')).toEqual([
      {
        status: 'active',
        premium: true,
        cancel_at_period_end: false,
        slots: 1,
        plan_id: 'premium',
        billing_interval: 'month',
        payment_method: null,
        user_id: ava.id,
        customer_id: customer,
        grace_until: null,
      },
    ]);
    // Chargebee sends it again (a retry after a timeout): the same event id.
    const again = await send(body);
    expect(again.json()).toEqual({ received: true, duplicate: true });
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 0, failed: 0, dead: 0 });
    expect(await stored(body.id)).toMatchObject([{ state: 'applied', attempts: 1, outcome: 'cb_once: active' }]);
    const { rows } = await t.db.query(`SELECT 1 FROM premium_slots p JOIN subscriptions s ON s.id = p.subscription_id WHERE s.provider_subscription_id = 'cb_once'`);
    expect(rows).toHaveLength(1);
  });

  it('a payment names the card it used; a payment event without a transaction changes only the subscription', async () => {
    await send(event('subscription_created', { subscription: subscription('cb_card', {}, t.clock.now) }));
    const paid = event('payment_succeeded', {
      subscription: subscription('cb_card', {}, t.clock.now + 1),
      invoice: { id: 'inv_1', subscription_id: 'cb_card', paid_at: seconds(t.clock.now), date: seconds(t.clock.now) },
      transaction: { id: 'txn_1', payment_method: 'card', masked_card_number: '************1881', date: seconds(t.clock.now) },
    });
    await send(paid);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 2, failed: 0, dead: 0 });
    expect(await row('cb_card')).toMatchObject([{ payment_method: 'Card •••• 1881', status: 'active' }]);
    expect((await stored(paid.id))[0]!.outcome).toMatch(/cb_card: paid with Card •••• 1881/);
  });

  it('100 copies at once: one stored, one effect', async () => {
    const body = event('subscription_created', { subscription: subscription('cb_hundred') });
    const answers = await Promise.all(Array.from({ length: 100 }, () => send(body)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array.from({ length: 100 }, () => 200));
    expect(answers.filter((a) => a.json().duplicate === false)).toHaveLength(1);
    expect(await stored(body.id)).toHaveLength(1);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    expect((await t.db.query(`SELECT 1 FROM subscriptions WHERE provider_subscription_id = 'cb_hundred'`)).rows).toHaveLength(1);
    expect((await t.db.query(`SELECT 1 FROM premium_slots p JOIN subscriptions s ON s.id = p.subscription_id WHERE s.provider_subscription_id = 'cb_hundred'`)).rows).toHaveLength(1);
  });

  it('applies in the order of resource_version: a cancel arriving before the creation stays cancelled; an old description under a new event id changes nothing', async () => {
    const version = t.clock.now;
    const created = event('subscription_created', { subscription: subscription('cb_order', {}, version) });
    const cancelled = event('subscription_cancelled', { subscription: subscription('cb_order', { status: 'cancelled', cancelled_at: seconds(version) + 60 }, version + 60_000) });
    await send(cancelled);
    await t.app.webhookInbox.work();
    await send(created);
    await t.app.webhookInbox.work();
    expect(await row('cb_order')).toMatchObject([{ status: 'cancelled', premium: false, user_id: ava.id }]);
    // Resent by hand long after (a new event id), carrying the subscription as it was then.
    const replayed = event('subscription_changed', { subscription: subscription('cb_order', {}, version + 30_000) });
    await send(replayed);
    await t.app.webhookInbox.work();
    expect(await row('cb_order')).toMatchObject([{ status: 'cancelled', premium: false }]);
    const { rows } = await t.db.query<{ outcome: string }>(`SELECT outcome FROM webhook_events WHERE subject = 'cb_order' ORDER BY id`);
    expect(rows.map((r) => r.outcome)).toEqual(['cb_order: cancelled', expect.stringMatching(/^stale/), expect.stringMatching(/^stale/)]);
    // The same version again (Chargebee describing it twice) is no newer either.
    await send(event('subscription_changed', { subscription: subscription('cb_order', { status: 'active' }, version + 60_000) }));
    await t.app.webhookInbox.work();
    expect(await row('cb_order')).toMatchObject([{ status: 'cancelled' }]);
  });

  it('a subscription of a customer linked to no user waits (not yet) and applies once the link exists', async () => {
    const body = event('subscription_created', { subscription: subscription('cb_waits', { customer_id: 'cust_not_linked_yet' }) });
    await send(body);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 0, failed: 1, dead: 0 });
    expect(await row('cb_waits')).toEqual([]);
    expect(await stored(body.id)).toMatchObject([{ state: 'pending', attempts: 1, last_error: expect.stringMatching(/^not yet: no user is known for chargebee subscription cb_waits \(customer cust_not_linked_yet\)/) }]);
    // Not due yet: nothing happens.
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 0, failed: 0, dead: 0 });
    await t.db.query(`INSERT INTO billing_customers (provider, customer_id, user_id, created_at) VALUES ('chargebee', 'cust_not_linked_yet', $1, now())`, [ben.id]);
    t.clock.advance(10 * MINUTE);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    expect(await row('cb_waits')).toMatchObject([{ status: 'active', user_id: ben.id, customer_id: 'cust_not_linked_yet' }]);
    expect(await stored(body.id)).toMatchObject([{ state: 'applied', attempts: 2, last_error: null }]);
  });

  it('one that never finds its user ends in the dead letters after its attempts; linked and replayed, it applies', async () => {
    const body = event('subscription_created', { subscription: subscription('cb_dead', { customer_id: 'cust_never_linked' }) });
    await send(body);
    const results = [];
    for (let i = 0; i < 8; i++) {
      results.push(await t.app.webhookInbox.work());
      t.clock.advance(2 * 3_600_000);
    }
    expect(results.at(-1)).toEqual({ applied: 0, failed: 0, dead: 1 });
    const [dead] = await stored(body.id);
    expect(dead).toMatchObject({ state: 'dead', attempts: 8, last_error: expect.stringMatching(/^not yet: no user is known/) });
    expect(await t.app.webhookInbox.backlog()).toEqual(expect.arrayContaining([expect.objectContaining({ provider: 'chargebee', dead: 1 })]));
    // A dead event stays dead: the worker does not take it again.
    t.clock.advance(DAY);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 0, failed: 0, dead: 0 });
    // Staff link the customer (e.g. a purchase made in Chargebee's own pages) and replay.
    await t.db.query(`INSERT INTO billing_customers (provider, customer_id, user_id, created_at) VALUES ('chargebee', 'cust_never_linked', $1, now())`, [ava.id]);
    expect(await t.app.webhookInbox.replay(dead!.id)).toBe(true);
    expect(await t.app.webhookInbox.replay(dead!.id)).toBe(false);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    expect(await row('cb_dead')).toMatchObject([{ status: 'active', user_id: ava.id }]);
    expect(await t.app.webhookInbox.backlog()).not.toEqual(expect.arrayContaining([expect.objectContaining({ provider: 'chargebee', dead: 1 })]));
  });

  it('a real database error while applying rolls that event back and retries it; the rest of the batch applies', async () => {
    const created = event('subscription_created', { subscription: subscription('cb_dberror') });
    const customerChanged = event('customer_changed', { customer: { id: customer, object: 'customer' } });
    await send(created);
    await send(customerChanged);
    await t.db.query('ALTER TABLE premium_slots RENAME TO premium_slots_away');
    try {
      expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 1, dead: 0 });
    } finally {
      await t.db.query('ALTER TABLE premium_slots_away RENAME TO premium_slots');
    }
    expect(await row('cb_dberror')).toEqual([]);
    expect(await stored(created.id)).toMatchObject([{ state: 'pending', attempts: 1, last_error: expect.stringMatching(/premium_slots/) }]);
    expect(await stored(customerChanged.id)).toMatchObject([{ state: 'applied', outcome: 'ignored: customer_changed changes nothing here' }]);
    t.clock.advance(10 * MINUTE);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    expect(await row('cb_dberror')).toMatchObject([{ status: 'active', premium: true }]);
    expect(await stored(created.id)).toMatchObject([{ state: 'applied', attempts: 2, last_error: null }]);
  });

  describe('through the stand-in (its own events, as Chargebee makes them)', () => {
    /** A purchase through the hosted page the API's client opens for Ava's customer. */
    async function buy(priceId = MONTHLY): Promise<string> {
      const page = await t.app.billingClients.chargebee.checkout(priceId, customer, `${t.config.publicUrl}/done`, `${t.config.publicUrl}/back`);
      const path = new URL(page.url).pathname;
      expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
      const form = new URLSearchParams({ email: 'ava@example.com', card_number: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', cardholder_name: 'Ava' });
      const paid = await t.app.inject({ method: 'POST', url: `${path}pay`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
      expect(paid.statusCode, paid.body).toBe(303);
      const { subscriptionId } = await t.app.billingClients.chargebee.hostedPage(page.id);
      return subscriptionId!;
    }
    const settle = async () => {
      await t.chargebee.flush({ ignoreBackoff: true });
      await t.app.webhookInbox.work();
    };
    const cover = async (providerId: string, guildId: string) => {
      const { rows } = await t.db.query<{ id: string }>(`SELECT id FROM subscriptions WHERE provider = 'chargebee' AND provider_subscription_id = $1`, [providerId]);
      await t.db.query(`UPDATE premium_slots SET guild_id = $2, assigned_at = now() WHERE subscription_id = $1 AND slot = 1`, [rows[0]!.id, guildId]);
      return rows[0]!.id;
    };

    it('a failed payment (payment_failed) keeps premium for the grace period only; the payment recovered, it is active again', async () => {
      const id = await buy();
      await settle();
      const guild = DEMO_GUILDS.bensWorkshop.id;
      await cover(id, guild);
      expect(await t.app.serverConfigs.limits(guild)).toMatchObject({ premium: true });

      t.chargebee.failPayment(id);
      await settle();
      expect(t.chargebee.deliveries().at(-1)).toMatchObject({ eventType: 'payment_failed', state: 'delivered' });
      const [dunning] = await row(id);
      expect(dunning).toMatchObject({ status: 'active', premium: false });
      expect(new Date(dunning!.grace_until!).getTime()).toBe(t.clock.now + 3 * DAY);
      expect(await t.app.serverConfigs.limits(guild)).toMatchObject({ premium: true });
      const shown = await t.app.billingAccounts.find('chargebee', id);
      expect(shown).toMatchObject({ premium: true, graceUntil: new Date(t.clock.now + 3 * DAY).toISOString() });
      // Chargebee describes the same dunning again (a redelivery under a new event id, a day later): the grace period does not move.
      t.clock.advance(DAY);
      const again = t.chargebee.events().at(-1)!;
      expect(again.event_type).toBe('payment_failed');
      await send({ ...again, id: `${again.id}_resent`, content: { ...again.content, subscription: { ...again.content.subscription!, resource_version: t.clock.now } } });
      await t.app.webhookInbox.work();
      expect(new Date((await row(id))[0]!.grace_until!).getTime()).toBe(t.clock.now + 2 * DAY);
      t.clock.advance(2 * DAY + 1);
      expect(await t.app.serverConfigs.limits(guild)).toMatchObject({ premium: false });
      expect(await t.app.billingAccounts.find('chargebee', id)).toMatchObject({ premium: false, graceUntil: null });

      t.chargebee.recover(id);
      await settle();
      expect(await row(id)).toMatchObject([{ status: 'active', premium: true, grace_until: null, payment_method: 'Card •••• 4242' }]);
      expect(await t.app.serverConfigs.limits(guild)).toMatchObject({ premium: true });
      expect(await t.app.billingAccounts.find('chargebee', id)).toMatchObject({ premium: true, graceUntil: null, status: 'active' });
      await t.db.query(`UPDATE premium_slots SET guild_id = NULL WHERE guild_id = $1`, [guild]);
    });

    it('a cancellation at the term’s end keeps premium to that end, then the server loses it; Chargebee’s subscription_cancelled follows', async () => {
      const id = await buy(YEARLY);
      await settle();
      const guild = DEMO_GUILDS.pixelPals.id;
      await cover(id, guild);
      await t.app.billingClients.chargebee.cancelAtPeriodEnd(id);
      await settle();
      const termEnd = t.chargebee.subscriptions().find((s) => s.id === id)!.current_term_end! * 1000;
      expect(await row(id)).toMatchObject([{ status: 'non_renewing', premium: true, cancel_at_period_end: true, billing_interval: 'year' }]);
      expect(await t.app.serverConfigs.limits(guild)).toMatchObject({ premium: true });

      t.clock.set(termEnd - MINUTE);
      t.chargebee.tick();
      await settle();
      expect(await t.app.serverConfigs.limits(guild)).toMatchObject({ premium: true });
      // The term ends: premium ends with it, before any webhook says so.
      t.clock.set(termEnd + 1);
      expect(await t.app.serverConfigs.limits(guild)).toMatchObject({ premium: false });
      // Chargebee's scheduled job cancels it at the term's end.
      t.chargebee.tick();
      await settle();
      expect(t.chargebee.subscriptions().find((s) => s.id === id)).toMatchObject({ status: 'cancelled' });
      expect(await row(id)).toMatchObject([{ status: 'cancelled', premium: false, cancel_at_period_end: false }]);
      expect(await t.app.serverConfigs.limits(guild)).toMatchObject({ premium: false });
      await t.db.query(`UPDATE premium_slots SET guild_id = NULL WHERE guild_id = $1`, [guild]);
    });
  });

  describe('two API instances on one database', () => {
    let second: TestApp | null = null;
    let secondDb: Awaited<ReturnType<typeof createPostgresDb>> | null = null;
    beforeAll(async () => {
      secondDb = database.url ? await createPostgresDb({ url: database.url, schema: t.db.schema }) : null;
      second = await createTestApp((secondDb ?? t.db) as typeof t.db, { env: ENV });
    });
    afterAll(async () => {
      await second?.close();
      await secondDb?.close();
    });

    it('a crash after storing and before applying: the event waits, and another instance applies it once', async () => {
      const body = event('subscription_created', { subscription: subscription('cb_crash') });
      second!.clock.set(t.clock.now);
      expect((await send(body, { app: second! })).statusCode).toBe(200);
      await second!.close();
      second = await createTestApp((secondDb ?? t.db) as typeof t.db, { env: ENV });
      second.clock.set(t.clock.now);
      const results = await Promise.all([t.app.webhookInbox.work(), second.app.webhookInbox.work()]);
      expect(results.reduce((sum, r) => sum + r.applied, 0)).toBe(1);
      expect(await row('cb_crash')).toMatchObject([{ status: 'active', user_id: ava.id }]);
      expect(await stored(body.id)).toMatchObject([{ state: 'applied', attempts: 1 }]);
    });

    it('duplicates sent to both at once: one stored; both working at once: every event applied exactly once', async () => {
      const bodies = Array.from({ length: 40 }, (_, i) => event('subscription_created', { subscription: subscription(`cb_pair_${i}`) }));
      second!.clock.set(t.clock.now);
      const answers = await Promise.all(bodies.flatMap((b) => [send(b), send(b, { app: second! })]));
      expect(answers.every((a) => a.statusCode === 200)).toBe(true);
      expect(answers.filter((a) => a.json().duplicate === false)).toHaveLength(40);
      const results = await Promise.all([t.app.webhookInbox.work(10), second!.app.webhookInbox.work(10), t.app.webhookInbox.work(), second!.app.webhookInbox.work()]);
      const applied = results.reduce((sum, r) => sum + r.applied, 0);
      expect(applied + results.reduce((sum, r) => sum + r.failed, 0)).toBeLessThanOrEqual(40);
      await t.app.webhookInbox.work();
      const { rows } = await t.db.query<{ state: string; attempts: number }>(`SELECT state, attempts FROM webhook_events WHERE subject LIKE 'cb_pair_%'`);
      expect(rows).toHaveLength(40);
      expect(rows.every((r) => r.state === 'applied' && r.attempts === 1)).toBe(true);
      expect((await t.db.query(`SELECT 1 FROM subscriptions WHERE provider_subscription_id LIKE 'cb_pair_%'`)).rows).toHaveLength(40);
      expect((await t.db.query(`SELECT 1 FROM premium_slots p JOIN subscriptions s ON s.id = p.subscription_id WHERE s.provider_subscription_id LIKE 'cb_pair_%'`)).rows).toHaveLength(40);
    });
  });
});
