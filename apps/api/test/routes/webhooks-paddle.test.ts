import { createHmac } from 'node:crypto';
import { ApiError } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDb } from '../../src/db/postgres';
import { isoMicros, verifyPaddleSignature } from '../../src/services/billing/paddle';
import { createTestApp, type TestApp, useTestApp } from '../helpers/app';
import { DAY, HOUR, MINUTE } from '../helpers/clock';
import { databases } from '../helpers/db';

const { ava, ben } = DEMO_USERS;
const SECRETS = ['pdl_ntfset_test_current', 'pdl_ntfset_test_previous'];

describe('Paddle signatures (our verifier)', () => {
  const ts = 1_698_796_800;
  const at = (s: number) => s * 1000;
  const sign = (body: string, secret = 'VALID_SECRET', t = ts) => createHmac('sha256', secret).update(`${t}:${body}`).digest('hex');

  it("matches the SDK's published vectors, and nothing else", () => {
    expect(sign('{"data": ["1", "2"]}')).toBe('a300428748dce5c70e4da19bffd60769591ea969c99dea3105d0ec9612cf43f9');
    expect(sign('{"data": "value"}')).toBe('28981e941fae76e53db32f3d2a83cb69db41476595e84e1970a1b5d98f62b261');
    const header = `ts=${ts};h1=a300428748dce5c70e4da19bffd60769591ea969c99dea3105d0ec9612cf43f9`;
    expect(verifyPaddleSignature(Buffer.from('{"data": ["1", "2"]}'), header, ['VALID_SECRET'], at(ts), 5)).toBeNull();
    // Re-spaced body, another secret, no header, no h1.
    expect(verifyPaddleSignature(Buffer.from('{"data":["1","2"]}'), header, ['VALID_SECRET'], at(ts), 5)).toBe('no signature matches');
    expect(verifyPaddleSignature(Buffer.from('{"data": ["1", "2"]}'), header, ['OTHER'], at(ts), 5)).toBe('no signature matches');
    expect(verifyPaddleSignature(Buffer.from('{}'), undefined, ['VALID_SECRET'], at(ts), 5)).toMatch(/missing/);
    expect(verifyPaddleSignature(Buffer.from('{}'), `ts=${ts}`, ['VALID_SECRET'], at(ts), 5)).toMatch(/no ts or h1/);
  });

  it('allows 5 s of age (either way), not 6', () => {
    const body = '{"data": "value"}';
    const header = `ts=${ts};h1=${sign(body)}`;
    expect(verifyPaddleSignature(Buffer.from(body), header, ['VALID_SECRET'], at(ts + 5), 5)).toBeNull();
    expect(verifyPaddleSignature(Buffer.from(body), header, ['VALID_SECRET'], at(ts + 6), 5)).toMatch(/6 s old/);
    expect(verifyPaddleSignature(Buffer.from(body), header, ['VALID_SECRET'], at(ts - 6), 5)).toMatch(/old/);
  });

  it('accepts any h1 of the header (Paddle rotating) and any of our secrets (ours rotating)', () => {
    const body = '{"data": "value"}';
    const header = `ts=${ts};h1=${'0'.repeat(64)};h2=whatever;h1=${sign(body, 'NEW')}`;
    expect(verifyPaddleSignature(Buffer.from(body), header, ['OLD', 'NEW'], at(ts), 5)).toBeNull();
    expect(verifyPaddleSignature(Buffer.from(body), header, ['OLD'], at(ts), 5)).toBe('no signature matches');
  });

  it('orders by microseconds', () => {
    expect(isoMicros('2024-04-12T10:18:49.738972Z')).toBe('1712917129738972');
    expect(isoMicros('2024-04-12T10:18:49Z')).toBe('1712917129000000');
    expect(BigInt(isoMicros('2024-04-12T10:18:49.738973Z'))).toBeGreaterThan(BigInt(isoMicros('2024-04-12T10:18:49.738972Z')));
  });
});

describe.each(databases())('Paddle webhooks (/api/webhooks/paddle) on $name', (database) => {
  const t = useTestApp(database, { env: { PADDLE_WEBHOOK_SECRETS: SECRETS.join(',') } });
  let sequence = 0;

  /** A Paddle subscription object as its webhooks carry it. */
  const subscription = (id: string, over: Record<string, unknown> = {}, updatedAt = new Date(t.clock.now).toISOString()) => ({
    id,
    status: 'active',
    customer_id: `ctm_${id}`,
    updated_at: updatedAt,
    current_billing_period: { starts_at: new Date(t.clock.now).toISOString(), ends_at: new Date(t.clock.now + 30 * DAY).toISOString() },
    scheduled_change: null,
    items: [{ quantity: 1, price: { id: 'pri_premium_monthly' } }],
    custom_data: { userId: ava.id },
    ...over,
  });
  /**
   * A notification. Like Paddle's, only `subscription.created` names the transaction that made the
   * subscription (`transaction_id`): here `txn_<subscription>`, a checkout the API made for Ava (see
   * `send`), unless the data gives its own.
   */
  const envelope = (type: string, data: unknown, eventId = `evt_${++sequence}`) => {
    const fields = data as Record<string, unknown>;
    const withTxn = type === 'subscription.created' && typeof fields.id === 'string' && !('transaction_id' in fields) ? { ...fields, transaction_id: `txn_${fields.id}` } : data;
    return { event_id: eventId, event_type: type, occurred_at: new Date(t.clock.now).toISOString(), notification_id: `ntf_${sequence}`, data: withTxn };
  };
  /** The checkouts the API made: `txn_<subscription>` of a `subscription.created` is Ava's, as if she had bought it through the API. */
  const recordCheckout = async (body: unknown) => {
    const notification = body as { event_type?: string; data?: { transaction_id?: unknown } } | null;
    const txn = notification?.event_type === 'subscription.created' ? notification.data?.transaction_id : null;
    if (typeof txn === 'string' && txn.startsWith('txn_sub_')) {
      await t.db.query(`INSERT INTO billing_checkouts (provider, reference, user_id, price_id, created_at) VALUES ('paddle', $1, $2, 'pri_premium_monthly', now()) ON CONFLICT DO NOTHING`, [txn, ava.id]);
    }
  };
  const send = async (body: unknown, options: { secret?: string; ts?: number; raw?: string; app?: TestApp } = {}) => {
    await recordCheckout(body);
    const raw = options.raw ?? JSON.stringify(body);
    const ts = options.ts ?? Math.floor(t.clock.now / 1000);
    const h1 = createHmac('sha256', options.secret ?? SECRETS[0]!).update(`${ts}:${raw}`).digest('hex');
    return (options.app ?? t).app.inject({ method: 'POST', url: '/api/webhooks/paddle', headers: { 'content-type': 'application/json', 'paddle-signature': `ts=${ts};h1=${h1}` }, payload: raw });
  };
  const row = async (providerId: string) =>
    (
      await t.db.query<{ status: string; premium: boolean; cancel_at_period_end: boolean; slots: number; plan_id: string; payment_method: string | null; user_id: string; grace_until: Date | null }>(
        'SELECT status, premium, cancel_at_period_end, slots, plan_id, payment_method, user_id, grace_until FROM subscriptions WHERE provider = $1 AND provider_subscription_id = $2',
        ['paddle', providerId],
      )
    ).rows;
  const events = async () => (await t.db.query<{ n: string }>('SELECT count(*) AS n FROM webhook_events')).rows[0]!.n;

  it('refuses what it cannot verify, stores nothing: wrong secret, stale time, no header, a body changed after signing', async () => {
    const body = envelope('subscription.created', subscription('sub_refused'));
    const before = await events();
    for (const res of [
      await send(body, { secret: 'pdl_ntfset_someone_else' }),
      await send(body, { ts: Math.floor(t.clock.now / 1000) - 60 }),
      await t.app.inject({ method: 'POST', url: '/api/webhooks/paddle', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }),
    ]) {
      expect(res.statusCode, res.body).toBe(401);
      expect(ApiError.parse(res.json())).toMatchObject({ code: 1022 });
    }
    const signed = JSON.stringify(body);
    const ts = Math.floor(t.clock.now / 1000);
    const h1 = createHmac('sha256', SECRETS[0]!).update(`${ts}:${signed}`).digest('hex');
    const tampered = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/paddle',
      headers: { 'content-type': 'application/json', 'paddle-signature': `ts=${ts};h1=${h1}` },
      payload: signed.replace(ava.id, ben.id),
    });
    expect(tampered.statusCode).toBe(401);
    expect(await events()).toBe(before);
  });

  it('refuses a signed body that is not a notification (400 1001), and other media types', async () => {
    const before = await events();
    const res = await send(null, { raw: '{"event_id":"evt_x"}' });
    expect(res.statusCode).toBe(400);
    expect(ApiError.parse(res.json())).toMatchObject({ code: 1001, message: expect.stringMatching(/event_type/) });
    expect((await send(null, { raw: 'not json' })).statusCode).toBe(400);
    const form = await t.app.inject({ method: 'POST', url: '/api/webhooks/paddle', headers: { 'content-type': 'application/x-www-form-urlencoded', 'paddle-signature': 'ts=1;h1=00' }, payload: 'a=1' });
    expect(form.statusCode).toBe(415);
    // Without any signature header the body is not even read: 401 at once.
    const unsigned = await t.app.inject({ method: 'POST', url: '/api/webhooks/paddle', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(unsigned.statusCode).toBe(401);
    expect(ApiError.parse(unsigned.json())).toMatchObject({ code: 1022, message: expect.stringMatching(/Paddle-Signature header is missing/) });
    expect(ApiError.safeParse(form.json()).success).toBe(true);
    expect(await events()).toBe(before);
  });

  it('stores a verified event before answering, applies it once; the same event again is a duplicate', async () => {
    const body = envelope('subscription.created', subscription('sub_once'));
    const first = await send(body, { secret: SECRETS[1] });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    expect(await row('sub_once')).toEqual([]);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    expect(await row('sub_once')).toEqual([
      { status: 'active', premium: true, cancel_at_period_end: false, slots: 1, plan_id: 'premium', payment_method: null, user_id: ava.id, grace_until: null },
    ]);
    // Paddle's replay: a new notification id, the same event id.
    const again = await send({ ...body, notification_id: 'ntf_replayed' });
    expect(again.json()).toEqual({ received: true, duplicate: true });
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 0, failed: 0, dead: 0 });
    const { rows } = await t.db.query<{ state: string; attempts: number }>(`SELECT state, attempts FROM webhook_events WHERE event_key = $1`, [body.event_id]);
    expect(rows).toEqual([{ state: 'applied', attempts: 1 }]);
  });

  it('gives a slot per server the plan covers, times the quantity bought', async () => {
    await send(envelope('subscription.created', subscription('sub_three', { items: [{ quantity: 3, price: { id: 'pri_premium_yearly' } }] })));
    await t.app.webhookInbox.work();
    expect(await row('sub_three')).toMatchObject([{ slots: 3, plan_id: 'premium' }]);
    const { rows } = await t.db.query<{ slot: number; guild_id: string | null }>(
      `SELECT p.slot, p.guild_id FROM premium_slots p JOIN subscriptions s ON s.id = p.subscription_id WHERE s.provider_subscription_id = 'sub_three' ORDER BY 1`,
    );
    expect(rows).toEqual([1, 2, 3].map((slot) => ({ slot, guild_id: null })));
  });

  it('a retired price still ends a subscription: the cancel applies, plan and slots stay; it never grants premium', async () => {
    await send(envelope('subscription.created', subscription('sub_retired')));
    await t.app.webhookInbox.work();
    const retired = { items: [{ quantity: 1, price: { id: 'pri_retired_since' } }] };
    await send(envelope('subscription.canceled', subscription('sub_retired', { ...retired, status: 'canceled' }, new Date(t.clock.now + 1).toISOString())));
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    expect(await row('sub_retired')).toMatchObject([{ status: 'canceled', premium: false, plan_id: 'premium', slots: 1 }]);
    // An unknown price that would grant premium waits (and ends in the dead letters).
    await send(envelope('subscription.created', subscription('sub_unknown', retired)));
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 0, failed: 1, dead: 0 });
    expect(await row('sub_unknown')).toEqual([]);
    await t.db.query(`DELETE FROM webhook_events WHERE subject = 'sub_unknown'`);
  });

  it('an empty body with a signature header is refused in the catalogue (415), not a crash', async () => {
    const ts = Math.floor(t.clock.now / 1000);
    const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/paddle', headers: { 'paddle-signature': `ts=${ts};h1=${'0'.repeat(64)}` } });
    expect(res.statusCode).toBe(415);
    expect(ApiError.parse(res.json()).code).toBe(1010);
  });

  it('an event the database refuses (a NUL in its data) fails alone: the webhooks written with it are stored', async () => {
    const bad = envelope('subscription.created', subscription('sub_nul', { custom_data: { userId: ava.id, note: 'a\u0000b' } }));
    const good = envelope('subscription.created', subscription('sub_beside_nul'));
    const [badRes, goodRes] = await Promise.all([send(bad), send(good)]);
    expect(goodRes.statusCode, goodRes.body).toBe(200);
    expect(badRes.statusCode).toBeGreaterThanOrEqual(500);
    expect(ApiError.safeParse(badRes.json()).success).toBe(true);
    expect((await t.db.query(`SELECT event_key FROM webhook_events WHERE event_key IN ($1, $2)`, [bad.event_id, good.event_id])).rows).toEqual([{ event_key: good.event_id }]);
  });

  it('100 copies at once: one stored, one effect', async () => {
    const body = envelope('subscription.created', subscription('sub_hundred'));
    const answers = await Promise.all(Array.from({ length: 100 }, () => send(body)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array.from({ length: 100 }, () => 200));
    expect(answers.filter((a) => a.json().duplicate === false)).toHaveLength(1);
    expect((await t.db.query(`SELECT 1 FROM webhook_events WHERE event_key = $1`, [body.event_id])).rows).toHaveLength(1);
    await t.app.webhookInbox.work();
    expect((await t.db.query(`SELECT 1 FROM subscriptions WHERE provider_subscription_id = 'sub_hundred'`)).rows).toHaveLength(1);
  });

  it('applies in the order of the subscription’s own time: a cancel arriving before the creation waits for it (which names the buyer), then stays canceled; an older description replayed later changes nothing', async () => {
    const created = envelope('subscription.created', subscription('sub_order', {}, '2026-03-02T09:00:00.000001Z'));
    const canceled = envelope('subscription.canceled', subscription('sub_order', { status: 'canceled' }, '2026-03-02T09:30:00.000002Z'));
    await send(canceled);
    expect(await t.app.webhookInbox.work()).toMatchObject({ applied: 0, failed: 1 });
    await send(created);
    await t.app.webhookInbox.work();
    t.clock.advance(10 * MINUTE); // the cancel's retry comes due
    await t.app.webhookInbox.work();
    expect(await row('sub_order')).toMatchObject([{ status: 'canceled', premium: false }]);
    // Paddle replayed by hand long after: a new event id, an old subscription.
    await send(envelope('subscription.updated', subscription('sub_order', {}, '2026-03-02T09:00:00.000001Z')));
    await t.app.webhookInbox.work();
    expect(await row('sub_order')).toMatchObject([{ status: 'canceled', premium: false }]);
    const { rows } = await t.db.query<{ outcome: string }>(`SELECT outcome FROM webhook_events WHERE subject = 'sub_order' ORDER BY id`);
    expect(rows.map((r) => r.outcome)).toEqual(['sub_order: canceled', 'sub_order: active', expect.stringMatching(/^stale/)]);
  });

  it('the buyer is the user of the transaction the API made (subscription.created’s transaction_id), never custom_data; a transaction it did not make buys nobody anything', async () => {
    // Custom data naming Ben, on a subscription from Ava's checkout: Ava's.
    await send(envelope('subscription.created', subscription('sub_custom', { custom_data: { userId: ben.id } })));
    await t.app.webhookInbox.work();
    expect(await row('sub_custom')).toMatchObject([{ user_id: ava.id }]);
    // A transaction the API never made (a checkout opened in the browser with items): nobody's, even
    // with custom data naming a user; it waits, then ends in the dead letters.
    const stranger = envelope('subscription.created', subscription('sub_stranger', { transaction_id: 'txn_web_made', custom_data: { userId: ben.id } }));
    await send(stranger);
    for (let i = 0; i < 8; i++) {
      await t.app.webhookInbox.work();
      t.clock.advance(2 * HOUR);
    }
    expect(await row('sub_stranger')).toEqual([]);
    const { rows } = await t.db.query<{ state: string; last_error: string }>(`SELECT state, last_error FROM webhook_events WHERE event_key = $1`, [stranger.event_id]);
    expect(rows[0]).toMatchObject({ state: 'dead', last_error: expect.stringMatching(/no user is known for paddle subscription sub_stranger \(checkout txn_web_made, not one this server made\)/) });
    await t.db.query('DELETE FROM webhook_events WHERE event_key = $1', [stranger.event_id]);
    // Later events of a stored subscription keep its owner whatever they say.
    await send(envelope('subscription.updated', subscription('sub_custom', { custom_data: { userId: ben.id } }, new Date(t.clock.now + 1).toISOString())));
    await t.app.webhookInbox.work();
    expect(await row('sub_custom')).toMatchObject([{ user_id: ava.id }]);
  });

  it('a scheduled cancel keeps premium to the period’s end, then the server loses it on its own', async () => {
    await send(envelope('subscription.created', subscription('sub_cancel')));
    await t.app.webhookInbox.work();
    const { rows } = await t.db.query<{ id: string }>(`SELECT id FROM subscriptions WHERE provider_subscription_id = 'sub_cancel'`);
    await t.db.query(`UPDATE premium_slots SET guild_id = $2, assigned_at = now() WHERE subscription_id = $1`, [rows[0]!.id, DEMO_GUILDS.pixelPals.id]);
    expect(await t.app.serverConfigs.limits(DEMO_GUILDS.pixelPals.id)).toMatchObject({ premium: true });
    const end = new Date(t.clock.now + 2 * HOUR).toISOString();
    await send(envelope('subscription.updated', subscription('sub_cancel', { scheduled_change: { action: 'cancel', effective_at: end } }, new Date(t.clock.now + MINUTE).toISOString())));
    await t.app.webhookInbox.work();
    expect(await row('sub_cancel')).toMatchObject([{ status: 'active', cancel_at_period_end: true }]);
    expect(await t.app.serverConfigs.limits(DEMO_GUILDS.pixelPals.id)).toMatchObject({ premium: true });
    t.clock.advance(2 * HOUR + 1);
    expect(await t.app.serverConfigs.limits(DEMO_GUILDS.pixelPals.id)).toMatchObject({ premium: false });
    await t.db.query(`DELETE FROM subscriptions WHERE id = $1`, [rows[0]!.id]);
  });

  it('a failed payment keeps premium for the grace period only', async () => {
    await send(envelope('subscription.created', subscription('sub_grace')));
    await t.app.webhookInbox.work();
    const { rows } = await t.db.query<{ id: string }>(`SELECT id FROM subscriptions WHERE provider_subscription_id = 'sub_grace'`);
    await t.db.query(`UPDATE premium_slots SET guild_id = $2 WHERE subscription_id = $1`, [rows[0]!.id, DEMO_GUILDS.bensWorkshop.id]);
    await send(envelope('subscription.past_due', subscription('sub_grace', { status: 'past_due' }, new Date(t.clock.now + 1).toISOString())));
    await t.app.webhookInbox.work();
    expect(await t.app.serverConfigs.limits(DEMO_GUILDS.bensWorkshop.id)).toMatchObject({ premium: true });
    t.clock.advance(3 * DAY + 1);
    expect(await t.app.serverConfigs.limits(DEMO_GUILDS.bensWorkshop.id)).toMatchObject({ premium: false });
    await t.db.query(`DELETE FROM subscriptions WHERE id = $1`, [rows[0]!.id]);
  });

  it('a payment method waits for its subscription, and the later charge’s wins', async () => {
    const charge = (id: string, last4: string, billedAt: string) =>
      envelope('transaction.completed', { id, subscription_id: 'sub_card', billed_at: billedAt, updated_at: billedAt, payments: [{ status: 'captured', method_details: { type: 'card', card: { type: 'visa', last4 } } }] });
    await send(charge('txn_2', '4444', '2026-03-02T09:00:00Z'));
    expect(await t.app.webhookInbox.work()).toMatchObject({ applied: 0, failed: 1 });
    await send(envelope('subscription.created', subscription('sub_card')));
    await send(charge('txn_1', '1111', '2026-03-01T09:00:00Z'));
    await t.app.webhookInbox.work();
    expect(await row('sub_card')).toMatchObject([{ payment_method: 'Visa •••• 1111' }]);
    t.clock.advance(10 * MINUTE); // the retry comes due
    await t.app.webhookInbox.work();
    expect(await row('sub_card')).toMatchObject([{ payment_method: 'Visa •••• 4444' }]);
  });

  it('a real database error while applying rolls that event back and retries it; the rest of the batch applies', async () => {
    const created = envelope('subscription.created', subscription('sub_dberror_a'));
    const paid = envelope('transaction.paid', { id: 'txn_ignored' });
    await send(created);
    await send(paid);
    await t.db.query('ALTER TABLE premium_slots RENAME TO premium_slots_away');
    try {
      expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 1, dead: 0 });
    } finally {
      await t.db.query('ALTER TABLE premium_slots_away RENAME TO premium_slots');
    }
    expect(await row('sub_dberror_a')).toEqual([]);
    const { rows } = await t.db.query<{ state: string; attempts: number; last_error: string }>(`SELECT state, attempts, last_error FROM webhook_events WHERE event_key = $1`, [created.event_id]);
    expect(rows[0]).toMatchObject({ state: 'pending', attempts: 1, last_error: expect.stringMatching(/premium_slots/) });
    t.clock.advance(10 * MINUTE);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    expect(await row('sub_dberror_a')).toMatchObject([{ status: 'active' }]);
  });

  it('an event that keeps failing ends in the dead letters after its attempts; replayed, it applies', async () => {
    const body = envelope('subscription.created', subscription('sub_dead', { items: [{ quantity: 1, price: { id: 'pri_not_in_catalogue' } }] }));
    await send(body);
    for (let i = 0; i < 8; i++) {
      await t.app.webhookInbox.work();
      t.clock.advance(2 * HOUR);
    }
    const { rows } = await t.db.query<{ id: string; state: string; attempts: number; last_error: string }>(`SELECT id, state, attempts, last_error FROM webhook_events WHERE event_key = $1`, [body.event_id]);
    expect(rows[0]).toMatchObject({ state: 'dead', attempts: 8, last_error: expect.stringMatching(/pri_not_in_catalogue is not in the plan catalogue/) });
    expect(await t.app.webhookInbox.backlog()).toEqual(expect.arrayContaining([expect.objectContaining({ provider: 'paddle', dead: 1 })]));
    // Staff fix the catalogue (here: the event's price) and replay.
    await t.db.query(`UPDATE webhook_events SET payload = jsonb_set(payload, '{data,items,0,price,id}', '"pri_premium_yearly"') WHERE id = $1`, [rows[0]!.id]);
    expect(await t.app.webhookInbox.replay(rows[0]!.id)).toBe(true);
    expect(await t.app.webhookInbox.replay(rows[0]!.id)).toBe(false);
    await t.app.webhookInbox.work();
    expect(await row('sub_dead')).toMatchObject([{ status: 'active', plan_id: 'premium' }]);
  });

  describe('two API instances on one database', () => {
    let second: TestApp | null = null;
    let secondDb: Awaited<ReturnType<typeof createPostgresDb>> | null = null;
    beforeAll(async () => {
      secondDb = database.url ? await createPostgresDb({ url: database.url, schema: t.db.schema }) : null;
      second = await createTestApp((secondDb ?? t.db) as typeof t.db, { env: { PADDLE_WEBHOOK_SECRETS: SECRETS.join(',') } });
    });
    afterAll(async () => {
      await second?.close();
      await secondDb?.close();
    });

    it('a crash after storing and before applying: the event waits, and another instance applies it once', async () => {
      const body = envelope('subscription.created', subscription('sub_crash'));
      second!.clock.set(t.clock.now);
      expect((await send(body, { app: second! })).statusCode).toBe(200);
      await second!.close();
      second = await createTestApp((secondDb ?? t.db) as typeof t.db, { env: { PADDLE_WEBHOOK_SECRETS: SECRETS.join(',') } });
      second.clock.set(t.clock.now);
      const results = await Promise.all([t.app.webhookInbox.work(), second.app.webhookInbox.work()]);
      expect(results.reduce((sum, r) => sum + r.applied, 0)).toBe(1);
      expect(await row('sub_crash')).toMatchObject([{ status: 'active' }]);
    });

    it('duplicates sent to both at once: one stored; both working at once: every event applied exactly once', async () => {
      const bodies = Array.from({ length: 40 }, (_, i) => envelope('subscription.created', subscription(`sub_pair_${i}`)));
      second!.clock.set(t.clock.now);
      const answers = await Promise.all(bodies.flatMap((b) => [send(b), send(b, { app: second! })]));
      expect(answers.every((a) => a.statusCode === 200)).toBe(true);
      expect(answers.filter((a) => a.json().duplicate === false)).toHaveLength(40);
      const results = await Promise.all([t.app.webhookInbox.work(10), second!.app.webhookInbox.work(10), t.app.webhookInbox.work(), second!.app.webhookInbox.work()]);
      const applied = results.reduce((sum, r) => sum + r.applied, 0);
      expect(applied + results.reduce((sum, r) => sum + r.failed, 0)).toBeLessThanOrEqual(40);
      await t.app.webhookInbox.work();
      const { rows } = await t.db.query<{ state: string; attempts: number }>(`SELECT state, attempts FROM webhook_events WHERE subject LIKE 'sub_pair_%'`);
      expect(rows).toHaveLength(40);
      expect(rows.every((r) => r.state === 'applied' && r.attempts === 1)).toBe(true);
      expect((await t.db.query(`SELECT 1 FROM subscriptions WHERE provider_subscription_id LIKE 'sub_pair_%'`)).rows).toHaveLength(40);
    });
  });
});
