import { createHmac } from 'node:crypto';
import { ApiError } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDb } from '../../src/db/postgres';
import { verifyFastspringSignature } from '../../src/services/billing/fastspring';
import { encryptSecurePayload } from '../../src/services/billing/fastspring-secure';
import { createTestApp, DASHBOARD_ORIGIN, type TestApp, useTestApp } from '../helpers/app';
import { DAY, HOUR, MINUTE } from '../helpers/clock';
import { databases } from '../helpers/db';

const { ava, ben } = DEMO_USERS;
const SECRETS = ['fs_hmac_test_current', 'fs_hmac_test_previous'];
/** A checkout the API made for Ava (recorded before the tests): its reference is in her secure payload's tags. */
const AVA_CHECKOUT = 'fsc_avas_checkout_for_the_webhook_tests';
const ENV = { FASTSPRING_WEBHOOK_SECRETS: SECRETS.join(',') };

const b64 = (raw: string, secret: string) => createHmac('sha256', secret).update(raw).digest('base64');

describe('FastSpring signatures (our verifier)', () => {
  const VECTOR_BODY =
    '{"events":[{"id":"evt1","type":"subscription.activated","live":false,"processed":false,"created":1700000000000,"data":{"id":"sub1","state":"active"}}]}';
  const VECTOR_SIG = 'YegfBU4Z98OzX3W3bb24ZRnimqMo0Q8GZXj0LJcBzpc=';

  it('matches the derived vector (base64 HMAC-SHA256 of the raw bytes), and nothing else', () => {
    expect(b64(VECTOR_BODY, 'fs_test_secret')).toBe(VECTOR_SIG);
    expect(verifyFastspringSignature(Buffer.from(VECTOR_BODY), VECTOR_SIG, ['fs_test_secret'])).toBeNull();
    // The same JSON re-spaced (what hashing JSON.stringify(req.body) would give), another secret.
    expect(verifyFastspringSignature(Buffer.from(VECTOR_BODY.replace('"live":false', '"live": false')), VECTOR_SIG, ['fs_test_secret'])).toBe('no signature matches');
    expect(verifyFastspringSignature(Buffer.from(VECTOR_BODY), VECTOR_SIG, ['other'])).toBe('no signature matches');
    // Freemius' style (the same header name, hex): refused.
    const hex = Buffer.from(VECTOR_SIG, 'base64').toString('hex');
    expect(verifyFastspringSignature(Buffer.from(VECTOR_BODY), hex, ['fs_test_secret'])).toMatch(/not a base64 HMAC-SHA256/);
    expect(verifyFastspringSignature(Buffer.from(VECTOR_BODY), undefined, ['fs_test_secret'])).toMatch(/missing/);
    expect(verifyFastspringSignature(Buffer.from(VECTOR_BODY), '', ['fs_test_secret'])).toMatch(/missing/);
  });

  it('accepts any of our secrets (ours rotating)', () => {
    expect(verifyFastspringSignature(Buffer.from(VECTOR_BODY), VECTOR_SIG, ['new_secret', 'fs_test_secret'])).toBeNull();
  });
});

/** What the webhook route receives, rewritten by a test before the route sees it (a FastSpring that sends a malformed event). */
let rewrite: ((raw: Buffer) => Buffer | null) | null = null;
function corruptor(app: FastifyInstance): void {
  app.addHook('preHandler', async (req: FastifyRequest) => {
    if (!rewrite || req.url !== '/api/webhooks/fastspring' || !Buffer.isBuffer(req.body)) return;
    const changed = rewrite(req.body);
    if (!changed) return;
    req.body = changed;
    req.headers['x-fs-signature'] = b64(changed.toString('utf8'), SECRETS[0]!);
  });
}

describe.each(databases())('FastSpring webhooks (/api/webhooks/fastspring) on $name', (database) => {
  const t = useTestApp(database, { env: ENV, extend: corruptor });
  let sequence = 0;

  beforeAll(async () => {
    // The stand-in's POSTs go out only when a test flushes them.
    t.fastspring.pause();
    await t.db.query(`INSERT INTO billing_checkouts (provider, reference, user_id, price_id, created_at) VALUES ('fastspring', $1, $2, 'tickety-premium-monthly', now())`, [AVA_CHECKOUT, ava.id]);
  });

  /** A FastSpring subscription object as its webhooks carry it. */
  const subscription = (id: string, over: Record<string, unknown> = {}, changed = t.clock.now) => ({
    id,
    subscription: id,
    active: true,
    state: 'active',
    changed,
    live: false,
    currency: 'USD',
    account: `acct_${id}`,
    product: 'tickety-premium-monthly',
    quantity: 1,
    next: t.clock.now + 30 * DAY,
    end: null,
    canceledDate: null,
    deactivationDate: null,
    tags: { checkout: AVA_CHECKOUT, userId: ava.id },
    initialOrderId: `ord_${id}`,
    ...over,
  });
  const event = (type: string, data: unknown, id = `EVT${String(++sequence).padStart(6, '0')}TEST${database.name.toUpperCase()}`) => ({
    id,
    type,
    live: false,
    processed: false,
    created: t.clock.now,
    data,
  });
  const send = (events: unknown[], options: { secret?: string; signature?: string | null; raw?: string; app?: TestApp } = {}) => {
    const raw = options.raw ?? JSON.stringify({ events });
    const signature = options.signature === undefined ? b64(raw, options.secret ?? SECRETS[0]!) : options.signature;
    return (options.app ?? t).app.inject({
      method: 'POST',
      url: '/api/webhooks/fastspring',
      headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'x-fs-signature': signature }) },
      payload: raw,
    });
  };
  const row = async (providerId: string) =>
    (
      await t.db.query<{ status: string; premium: boolean; cancel_at_period_end: boolean; slots: number; plan_id: string; billing_interval: string; user_id: string; grace_until: Date | null }>(
        `SELECT status, premium, cancel_at_period_end, slots, plan_id, billing_interval, user_id, grace_until FROM subscriptions WHERE provider = 'fastspring' AND provider_subscription_id = $1`,
        [providerId],
      )
    ).rows;
  const stored = async (keys: string[]) =>
    (await t.db.query<{ event_key: string; state: string; attempts: number }>(`SELECT event_key, state, attempts FROM webhook_events WHERE provider = 'fastspring' AND event_key = ANY($1::text[]) ORDER BY id`, [keys]))
      .rows;
  const count = async () => Number((await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM webhook_events`)).rows[0]!.n);

  /** Ava buys through the stand-in's popup (a secure payload as the API makes them, its form as the stand-in's tests post it); answers the order id. */
  async function buy(product = 'tickety-premium-monthly'): Promise<string> {
    const secure = encryptSecurePayload({ reset: true, products: [{ path: product, quantity: 1 }], tags: { checkout: AVA_CHECKOUT, userId: ava.id } }, t.config.billing.fastspring.securePayloadKey!);
    const query = new URLSearchParams({
      storefront: t.config.billing.fastspring.storefront!,
      products: '[]',
      tags: '{}',
      secure_payload: secure.securePayload,
      secure_key: secure.secureKey,
      parent_origin: DASHBOARD_ORIGIN,
    });
    const page = await t.app.inject({ method: 'GET', url: `/sandbox/fastspring/popup?${query}` });
    expect(page.statusCode, page.body).toBe(200);
    const session = /name="session" value="([A-Za-z0-9_-]+)"/.exec(page.body)![1]!;
    const form = new URLSearchParams({ session, email: 'ava@example.com', card_number: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' });
    const paid = await t.app.inject({ method: 'POST', url: '/sandbox/fastspring/popup', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
    expect(paid.statusCode, paid.body).toBe(200);
    return JSON.parse(/<script type="application\/json" id="fastspring-event">([^<]*)<\/script>/.exec(paid.body)![1]!).data.id;
  }
  const subOfOrder = (orderId: string) => t.fastspring.subscriptions().find((s) => s.initialOrderId === orderId)!.id;

  it('refuses what it cannot verify, stores nothing: wrong secret, no header, a body changed after signing, a hex signature', async () => {
    const events = [event('subscription.activated', subscription('fs_refused'))];
    const raw = JSON.stringify({ events });
    const before = await count();
    for (const res of [
      await send(events, { secret: 'someone_elses_secret' }),
      await send(events, { signature: null }),
      await send(events, { raw: raw.replace(ava.id, ben.id), signature: b64(raw, SECRETS[0]!) }),
      await send(events, { signature: createHmac('sha256', SECRETS[0]!).update(raw).digest('hex') }),
    ]) {
      expect(res.statusCode, res.body).toBe(401);
      expect(ApiError.parse(res.json())).toMatchObject({ code: 1022 });
    }
    expect(await count()).toBe(before);
    expect(await row('fs_refused')).toEqual([]);
  });

  it('refuses a signed body that is no batch (400 1001), one whose every event is malformed, and other media types', async () => {
    const before = await count();
    for (const raw of ['{}', '{"events":"x"}', 'not json', '{"events":[]}', JSON.stringify({ events: [{ id: 'x', type: 'subscription.activated', created: 'yesterday', data: {} }] })]) {
      const res = await send([], { raw });
      expect(res.statusCode, raw).toBe(400);
      expect(ApiError.parse(res.json())).toMatchObject({ code: 1001 });
    }
    const form = await t.app.inject({ method: 'POST', url: '/api/webhooks/fastspring', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-fs-signature': b64('a=1', SECRETS[0]!) }, payload: 'a=1' });
    expect(form.statusCode).toBe(415);
    expect(await count()).toBe(before);
  });

  it('stores a batch of several events in one POST before answering, and applies every one (any of our secrets)', async () => {
    const order = event('order.completed', { id: 'ord_batch', order: 'ord_batch', completed: true, total: 54.98, items: [] });
    const monthly = event('subscription.activated', subscription('fs_batch_a'));
    const yearly = event('subscription.activated', subscription('fs_batch_b', { product: 'tickety-premium-yearly', quantity: 2, next: t.clock.now + 365 * DAY }));
    const res = await send([order, monthly, yearly], { secret: SECRETS[1] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, duplicate: false });
    expect(await stored([order.id, monthly.id, yearly.id])).toEqual([order, monthly, yearly].map((e) => ({ event_key: e.id, state: 'pending', attempts: 0 })));
    expect(await row('fs_batch_a')).toEqual([]);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 3, failed: 0, dead: 0 });
    expect(await row('fs_batch_a')).toEqual([
      { status: 'active', premium: true, cancel_at_period_end: false, slots: 1, plan_id: 'premium', billing_interval: 'month', user_id: ava.id, grace_until: null },
    ]);
    expect(await row('fs_batch_b')).toMatchObject([{ status: 'active', premium: true, slots: 2, billing_interval: 'year' }]);
    const { rows } = await t.db.query<{ outcome: string }>(`SELECT outcome FROM webhook_events WHERE event_key = $1`, [order.id]);
    expect(rows[0]!.outcome).toMatch(/^ignored: order.completed/);
  });

  it('the buyer is the user of the checkout reference the API made (in its secure payload’s tags), never a userId tag; a reference it did not make buys nobody anything', async () => {
    await send([event('subscription.activated', subscription('fs_tag_ben', { tags: { checkout: AVA_CHECKOUT, userId: ben.id } }))]);
    await t.app.webhookInbox.work();
    expect(await row('fs_tag_ben')).toMatchObject([{ user_id: ava.id }]);
    const strangers = [
      event('subscription.activated', subscription('fs_no_ref', { tags: { userId: ben.id } })),
      event('subscription.activated', subscription('fs_forged_ref', { tags: { checkout: 'fsc_not_one_this_server_made', userId: ben.id } })),
      event('subscription.activated', subscription('fs_bad_ref', { tags: { checkout: { userId: ben.id } } })),
    ];
    await send(strangers);
    expect(await t.app.webhookInbox.work()).toMatchObject({ applied: 0, failed: 3 });
    for (const id of ['fs_no_ref', 'fs_forged_ref', 'fs_bad_ref']) expect(await row(id)).toEqual([]);
    const { rows } = await t.db.query<{ last_error: string }>(`SELECT last_error FROM webhook_events WHERE event_key = ANY($1::text[]) ORDER BY id`, [strangers.map((e) => e.id)]);
    expect(rows.map((r) => r.last_error)).toEqual([
      expect.stringMatching(/no user is known for fastspring subscription fs_no_ref \(customer acct_fs_no_ref, no checkout of this server named\)/),
      expect.stringMatching(/\(checkout fsc_not_one_this_server_made, not one this server made\)/),
      expect.stringMatching(/no checkout of this server named/),
    ]);
    await t.db.query('DELETE FROM webhook_events WHERE event_key = ANY($1::text[])', [strangers.map((e) => e.id)]);
  });

  it('a batch with a malformed event: 202 listing exactly the events stored (one a line); the malformed one is not stored', async () => {
    const good1 = event('subscription.activated', subscription('fs_partial_1'));
    const bad = { id: `BAD${sequence}${database.name}`, type: 'subscription.activated', created: 'not a time', data: subscription('fs_partial_bad') };
    const good2 = event('subscription.activated', subscription('fs_partial_2'));
    const res = await send([good1, bad, good2]);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe(`${good1.id}\n${good2.id}`);
    expect((await stored([good1.id, bad.id, good2.id])).map((r) => r.event_key)).toEqual([good1.id, good2.id]);
    // FastSpring sends the batch again: the stored ones are processed already (listed again), nothing new is stored.
    const before = await count();
    const again = await send([good1, bad, good2]);
    expect(again.statusCode).toBe(202);
    expect(again.body).toBe(`${good1.id}\n${good2.id}`);
    expect(await count()).toBe(before);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 2, failed: 0, dead: 0 });
    expect(await row('fs_partial_2')).toMatchObject([{ status: 'active', premium: true }]);
    expect(await row('fs_partial_bad')).toEqual([]);
  });

  it("the stand-in's batch with one malformed event: it re-sends only that one, which applies once it arrives whole", async () => {
    const orderId = await buy();
    const subId = subOfOrder(orderId);
    const [orderEvent, activated] = t.fastspring.deliveries().filter((d) => d.state === 'pending');
    expect([orderEvent!.type, activated!.type]).toEqual(['order.completed', 'subscription.activated']);
    // The subscription.activated event arrives malformed (no `created`).
    rewrite = (raw) => {
      const body = JSON.parse(raw.toString('utf8')) as { events: Array<Record<string, unknown>> };
      if (!body.events.some((e) => e.id === activated!.eventId)) return null;
      for (const e of body.events) if (e.id === activated!.eventId) delete e.created;
      return Buffer.from(JSON.stringify(body));
    };
    try {
      await t.fastspring.flush();
    } finally {
      rewrite = null;
    }
    const first = t.fastspring.posts().at(-1)!;
    expect(first).toMatchObject({ status: 202, eventIds: [orderEvent!.eventId, activated!.eventId], processedIds: [orderEvent!.eventId] });
    expect((await stored([orderEvent!.eventId, activated!.eventId])).map((r) => r.event_key)).toEqual([orderEvent!.eventId]);
    expect(t.fastspring.deliveries().find((d) => d.eventId === activated!.eventId)).toMatchObject({ state: 'pending', attempts: 1 });

    await t.fastspring.flush({ ignoreBackoff: true });
    const second = t.fastspring.posts().at(-1)!;
    expect(second).toMatchObject({ status: 200, eventIds: [activated!.eventId], processedIds: [activated!.eventId] });
    expect(t.fastspring.deliveries().filter((d) => d.state !== 'processed')).toEqual([]);
    await t.app.webhookInbox.work();
    expect(await row(subId)).toMatchObject([{ status: 'active', premium: true, user_id: ava.id }]);
  });

  it('an event the database refuses (a NUL in its data) is left out with 202 listing the others (FastSpring sends only it again); they are stored and applied', async () => {
    const good = event('subscription.activated', subscription('fs_beside_nul'));
    const bad = event('subscription.activated', subscription('fs_nul', { tags: { checkout: AVA_CHECKOUT, userId: ava.id, note: 'a\u0000b' } }));
    const res = await send([good, bad]);
    expect(res.statusCode).toBe(202);
    expect(res.body).toBe(good.id);
    expect((await stored([good.id, bad.id])).map((r) => r.event_key)).toEqual([good.id]);
    // Only the refused one in the POST: nothing is stored, and the answer is the catalogue's error (FastSpring retries the POST).
    const alone = await send([bad]);
    expect(alone.statusCode).toBeGreaterThanOrEqual(500);
    expect(ApiError.safeParse(alone.json()).success).toBe(true);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    expect(await row('fs_beside_nul')).toMatchObject([{ status: 'active' }]);
  });

  it('the same event again is a duplicate: stored once, applied once; a batch of a new and an old one stores the new one', async () => {
    const first = event('subscription.activated', subscription('fs_once'));
    expect((await send([first])).json()).toEqual({ received: true, duplicate: false });
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    // FastSpring's automatic retry: the same id.
    expect((await send([first])).json()).toEqual({ received: true, duplicate: true });
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 0, failed: 0, dead: 0 });
    expect(await stored([first.id])).toEqual([{ event_key: first.id, state: 'applied', attempts: 1 }]);
    const next = event('subscription.updated', subscription('fs_once', {}, t.clock.now + 1));
    expect((await send([first, next])).json()).toEqual({ received: true, duplicate: false });
    expect(await stored([first.id, next.id])).toEqual([
      { event_key: first.id, state: 'applied', attempts: 1 },
      { event_key: next.id, state: 'pending', attempts: 0 },
    ]);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    expect(await row('fs_once')).toHaveLength(1);
  });

  it('100 copies of one batch at once: each event stored once, one effect', async () => {
    const batch = [event('order.completed', { id: 'ord_hundred' }), event('subscription.activated', subscription('fs_hundred'))];
    const answers = await Promise.all(Array.from({ length: 100 }, () => send(batch)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array.from({ length: 100 }, () => 200));
    expect(answers.filter((a) => a.json().duplicate === false)).toHaveLength(1);
    expect(await stored(batch.map((e) => e.id))).toHaveLength(2);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 2, failed: 0, dead: 0 });
    expect(await row('fs_hundred')).toHaveLength(1);
  });

  it('applies in the order of the subscription’s own `changed`: a cancel and a deactivation arriving before the activation leave it deactivated', async () => {
    const base = t.clock.now;
    const activated = event('subscription.activated', subscription('fs_order', {}, base));
    const canceled = event('subscription.canceled', subscription('fs_order', { state: 'canceled', canceledDate: base + HOUR, deactivationDate: base + 30 * DAY }, base + HOUR));
    const deactivated = event('subscription.deactivated', subscription('fs_order', { state: 'deactivated', active: false, next: null, deactivationDate: base + 2 * HOUR }, base + 2 * HOUR));
    await send([deactivated]);
    await t.app.webhookInbox.work();
    await send([canceled, activated]);
    await t.app.webhookInbox.work();
    expect(await row('fs_order')).toMatchObject([{ status: 'deactivated', premium: false, user_id: ava.id }]);
    const { rows } = await t.db.query<{ event_key: string; outcome: string }>(`SELECT event_key, outcome FROM webhook_events WHERE subject = 'fs_order' ORDER BY id`);
    expect(rows.map((r) => r.outcome)).toEqual(['fs_order: deactivated', expect.stringMatching(/^stale/), expect.stringMatching(/^stale/)]);

    // A cancel before the activation: canceled (premium kept to the deactivation date) is the newest.
    const activated2 = event('subscription.activated', subscription('fs_order_2', {}, base));
    const canceled2 = event('subscription.canceled', subscription('fs_order_2', { state: 'canceled', canceledDate: base + MINUTE, deactivationDate: base + 30 * DAY }, base + MINUTE));
    await send([canceled2]);
    await t.app.webhookInbox.work();
    await send([activated2]);
    await t.app.webhookInbox.work();
    expect(await row('fs_order_2')).toMatchObject([{ status: 'canceled', premium: true, cancel_at_period_end: true }]);
  });

  it('an old event resent by hand (FastSpring gives it a NEW id) changes nothing: the `changed` guard', async () => {
    const base = t.clock.now;
    const activated = event('subscription.activated', subscription('fs_resend', {}, base));
    const canceled = event('subscription.canceled', subscription('fs_resend', { state: 'canceled', canceledDate: base + MINUTE, deactivationDate: base + 30 * DAY }, base + MINUTE));
    await send([activated, canceled]);
    await t.app.webhookInbox.work();
    expect(await row('fs_resend')).toMatchObject([{ status: 'canceled', cancel_at_period_end: true }]);
    // The activation resent from FastSpring's dashboard days later: a new event id, the old subscription.
    t.clock.advance(2 * DAY);
    const resent = { ...activated, id: `${activated.id}R`, created: t.clock.now };
    expect((await send([resent])).json()).toEqual({ received: true, duplicate: false });
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    expect(await row('fs_resend')).toMatchObject([{ status: 'canceled', cancel_at_period_end: true }]);
    const { rows } = await t.db.query<{ outcome: string }>(`SELECT outcome FROM webhook_events WHERE event_key = $1`, [resent.id]);
    expect(rows[0]!.outcome).toMatch(/^stale/);
  });

  it('a real database error while applying rolls that event back and retries it; the rest of the batch applies', async () => {
    const activated = event('subscription.activated', subscription('fs_dberror'));
    const completed = event('order.completed', { id: 'ord_dberror' });
    await send([activated, completed]);
    await t.db.query('ALTER TABLE premium_slots RENAME TO premium_slots_away');
    try {
      expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 1, dead: 0 });
    } finally {
      await t.db.query('ALTER TABLE premium_slots_away RENAME TO premium_slots');
    }
    expect(await row('fs_dberror')).toEqual([]);
    const { rows } = await t.db.query<{ state: string; attempts: number; last_error: string }>(`SELECT state, attempts, last_error FROM webhook_events WHERE event_key = $1`, [activated.id]);
    expect(rows[0]).toMatchObject({ state: 'pending', attempts: 1, last_error: expect.stringMatching(/premium_slots/) });
    // Not before its retry is due.
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 0, failed: 0, dead: 0 });
    t.clock.advance(10 * MINUTE);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    expect(await row('fs_dberror')).toMatchObject([{ status: 'active', premium: true, slots: 1 }]);
    expect(await stored([activated.id])).toEqual([{ event_key: activated.id, state: 'applied', attempts: 2 }]);
  });

  it('an event that keeps failing ends in the dead letters after its attempts; replayed, it applies', async () => {
    const body = event('subscription.activated', subscription('fs_dead', { product: 'tickety-not-in-catalogue' }));
    await send([body]);
    for (let i = 0; i < 8; i++) {
      await t.app.webhookInbox.work();
      t.clock.advance(2 * HOUR);
    }
    const { rows } = await t.db.query<{ id: string; state: string; attempts: number; last_error: string }>(`SELECT id, state, attempts, last_error FROM webhook_events WHERE event_key = $1`, [body.id]);
    expect(rows[0]).toMatchObject({ state: 'dead', attempts: 8, last_error: expect.stringMatching(/tickety-not-in-catalogue is not in the plan catalogue/) });
    expect(await t.app.webhookInbox.backlog()).toEqual(expect.arrayContaining([expect.objectContaining({ provider: 'fastspring', dead: 1 })]));
    expect(await row('fs_dead')).toEqual([]);
    // Staff fix the catalogue (here: the event's product) and replay.
    await t.db.query(`UPDATE webhook_events SET payload = jsonb_set(payload, '{data,product}', '"tickety-premium-yearly"') WHERE id = $1`, [rows[0]!.id]);
    expect(await t.app.webhookInbox.replay(rows[0]!.id)).toBe(true);
    expect(await t.app.webhookInbox.replay(rows[0]!.id)).toBe(false);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    expect(await row('fs_dead')).toMatchObject([{ status: 'active', plan_id: 'premium', billing_interval: 'year' }]);
  });

  it('overdue through the stand-in: premium for the grace period only; recovered, it is back; deactivation ends it', async () => {
    const settle = async () => {
      await t.fastspring.flush({ ignoreBackoff: true });
      await t.app.webhookInbox.work();
    };
    const guild = DEMO_GUILDS.bensWorkshop.id;
    const subId = subOfOrder(await buy());
    await settle();
    const { rows } = await t.db.query<{ id: string }>(`SELECT id FROM subscriptions WHERE provider_subscription_id = $1`, [subId]);
    await t.db.query(`UPDATE premium_slots SET guild_id = $2, assigned_at = $3 WHERE subscription_id = $1`, [rows[0]!.id, guild, new Date(t.clock.now).toISOString()]);
    expect(await t.app.serverConfigs.limits(guild)).toMatchObject({ premium: true });

    // The rebill fails: subscription.charge.failed + subscription.payment.overdue.
    t.clock.advance(MINUTE);
    t.fastspring.markOverdue(subId);
    await settle();
    const overdue = await row(subId);
    expect(overdue).toMatchObject([{ status: 'overdue', premium: false }]);
    expect(overdue[0]!.grace_until).not.toBeNull();
    expect(await t.app.serverConfigs.limits(guild)).toMatchObject({ premium: true });
    t.clock.advance(3 * DAY + 1);
    expect(await t.app.serverConfigs.limits(guild)).toMatchObject({ premium: false });

    // FastSpring's retry succeeds: subscription.charge.completed + subscription.updated.
    t.fastspring.recover(subId);
    await settle();
    expect(await row(subId)).toMatchObject([{ status: 'active', premium: true, grace_until: null }]);
    expect(await t.app.serverConfigs.limits(guild)).toMatchObject({ premium: true });

    // Ended now (DELETE ?billingPeriod=0): only subscription.deactivated, and premium ends.
    const { apiUsername, apiPassword } = t.config.billing.fastspring;
    const auth = `Basic ${Buffer.from(`${apiUsername}:${apiPassword}`).toString('base64')}`;
    t.clock.advance(MINUTE);
    const ended = await t.app.inject({ method: 'DELETE', url: `/sandbox/fastspring/subscriptions/${subId}?billingPeriod=0`, headers: { authorization: auth } });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(t.fastspring.deliveries().filter((d) => d.state === 'pending').map((d) => d.type)).toEqual(['subscription.deactivated']);
    await settle();
    expect(await row(subId)).toMatchObject([{ status: 'deactivated', premium: false }]);
    expect(await t.app.serverConfigs.limits(guild)).toMatchObject({ premium: false });
    await t.db.query(`UPDATE premium_slots SET guild_id = NULL WHERE subscription_id = $1`, [rows[0]!.id]);
  });

  it('a cancel at the period’s end keeps premium until FastSpring deactivates it', async () => {
    const settle = async () => {
      await t.fastspring.flush({ ignoreBackoff: true });
      await t.app.webhookInbox.work();
    };
    const guild = DEMO_GUILDS.pixelPals.id;
    const subId = subOfOrder(await buy());
    await settle();
    const { rows } = await t.db.query<{ id: string }>(`SELECT id FROM subscriptions WHERE provider_subscription_id = $1`, [subId]);
    await t.db.query(`UPDATE premium_slots SET guild_id = $2, assigned_at = $3 WHERE subscription_id = $1`, [rows[0]!.id, guild, new Date(t.clock.now).toISOString()]);
    t.clock.advance(MINUTE);
    await t.app.billingClients.fastspring.cancelAtPeriodEnd(subId);
    await settle();
    expect(await row(subId)).toMatchObject([{ status: 'canceled', premium: true, cancel_at_period_end: true }]);
    expect(await t.app.serverConfigs.limits(guild)).toMatchObject({ premium: true });
    // The period ends: the stand-in deactivates it (subscription.deactivated).
    const next = t.fastspring.subscriptions().find((s) => s.id === subId)!.next!;
    t.clock.set(next + MINUTE);
    t.fastspring.tick();
    await settle();
    expect(await row(subId)).toMatchObject([{ status: 'deactivated', premium: false }]);
    expect(await t.app.serverConfigs.limits(guild)).toMatchObject({ premium: false });
    await t.db.query(`UPDATE premium_slots SET guild_id = NULL WHERE subscription_id = $1`, [rows[0]!.id]);
  });

  // PostgreSQL only: two connection pools, as two processes have (PGlite is one connection in this process).
  // Two processes on one database exist on PostgreSQL only (PGlite is embedded in one process).
  if (database.url) describe('two API instances on one database', () => {
    let second: TestApp | null = null;
    let secondDb: Awaited<ReturnType<typeof createPostgresDb>> | null = null;
    beforeAll(async () => {
      // A pool of its own: another process, in effect.
      secondDb = await createPostgresDb({ url: database.url!, schema: t.db.schema });
      second = await createTestApp(secondDb as unknown as typeof t.db, { env: ENV });
    });
    afterAll(async () => {
      await second?.close();
      await secondDb?.close();
    });

    it('a crash after storing and before applying: the batch waits, and another instance applies each event once', async () => {
      const batch = [event('order.completed', { id: 'ord_crash' }), event('subscription.activated', subscription('fs_crash'))];
      second!.clock.set(t.clock.now);
      expect((await send(batch, { app: second! })).statusCode).toBe(200);
      await second!.close();
      second = await createTestApp(secondDb as unknown as typeof t.db, { env: ENV });
      second.clock.set(t.clock.now);
      const results = await Promise.all([t.app.webhookInbox.work(), second.app.webhookInbox.work()]);
      expect(results.reduce((sum, r) => sum + r.applied, 0)).toBe(2);
      expect(await stored(batch.map((e) => e.id))).toEqual(batch.map((e) => ({ event_key: e.id, state: 'applied', attempts: 1 })));
      expect(await row('fs_crash')).toMatchObject([{ status: 'active' }]);
    });

    it('the same batches sent to both at once: stored once; both working at once: every event applied exactly once', async () => {
      // Only this test's events in the queue (earlier tests may leave some due), so the sum below is theirs.
      await t.db.query(`DELETE FROM webhook_events WHERE state <> 'applied'`);
      const batches = Array.from({ length: 20 }, (_, i) => [event('subscription.activated', subscription(`fs_pair_${i}`)), event('subscription.updated', subscription(`fs_pair_${i}`, { quantity: 2 }, t.clock.now + 1))]);
      second!.clock.set(t.clock.now);
      const answers = await Promise.all(batches.flatMap((b) => [send(b), send(b, { app: second! })]));
      expect(answers.every((a) => a.statusCode === 200)).toBe(true);
      const keys = batches.flat().map((e) => e.id);
      expect(await stored(keys)).toHaveLength(40);
      const results = await Promise.all([t.app.webhookInbox.work(10), second!.app.webhookInbox.work(10), t.app.webhookInbox.work(), second!.app.webhookInbox.work()]);
      expect(results.reduce((sum, r) => sum + r.applied + r.failed, 0)).toBeLessThanOrEqual(40);
      await t.app.webhookInbox.work();
      const rows = await stored(keys);
      expect(rows).toHaveLength(40);
      expect(rows.every((r) => r.state === 'applied' && r.attempts === 1)).toBe(true);
      const subs = await t.db.query<{ slots: number }>(`SELECT slots FROM subscriptions WHERE provider_subscription_id LIKE 'fs_pair_%'`);
      expect(subs.rows).toHaveLength(20);
      // Whichever order they were applied in, the newer description (quantity 2) is what stays.
      expect(subs.rows.every((r) => r.slots === 2)).toBe(true);
    });
  });
});
