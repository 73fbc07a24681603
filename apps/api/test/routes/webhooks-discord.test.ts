import { createPrivateKey, type KeyObject, sign } from 'node:crypto';
import { ApiError, BillingSubscription, ServerPremiumAnswer } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoProviderSecrets } from '../../src/config';
import { createPostgresDb } from '../../src/db/postgres';
import { isoMicros } from '../../src/services/billing/paddle';
import { createTestApp, DASHBOARD_ORIGIN, type TestApp, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { DAY, HOUR, MINUTE, START } from '../helpers/clock';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';

const { ava, ben } = DEMO_USERS;
/** The catalogue's Discord SKU (Premium, monthly). */
const SKU = '1300000000000000801';
/** A SKU the catalogue does not sell. */
const RETIRED_SKU = '1399999999999999999';
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

/** Discord's event time: ISO with microseconds and no zone (meaning UTC), e.g. `2024-10-18T18:41:21.109604`. */
const stamp = (ms: number, micros = 0) => new Date(ms).toISOString().replace(/Z$/, String(micros).padStart(3, '0'));
/** Discord's entitlement dates: with an offset. */
const dated = (ms: number) => new Date(ms).toISOString().replace(/Z$/, '000+00:00');

describe.each(databases())('Discord Webhook Events (/api/webhooks/discord) on $name', (database) => {
  const t = useTestApp(database);
  let key: KeyObject;
  let other: KeyObject;
  let sequence = 0;
  beforeAll(() => {
    // The sandbox application's key: the API's configured public key is derived from it (demo mode).
    key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, demoProviderSecrets(t.config.tokenEncryptionKey).discordEventSeed]), format: 'der', type: 'pkcs8' });
    other = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, Buffer.alloc(32, 7)]), format: 'der', type: 'pkcs8' });
  });

  /** A fresh entitlement id (a snowflake). */
  const snowflake = () => String(1_400_000_000_000_000_000n + BigInt(++sequence));
  /** An entitlement as Discord's events carry it: an app subscription of Ava's, renewing. */
  const entitlement = (id: string, over: Record<string, unknown> = {}) => ({
    id,
    sku_id: SKU,
    application_id: t.config.discord.clientId,
    user_id: ava.id,
    promotion_id: null,
    type: 8,
    deleted: false,
    gift_code_flags: 0,
    consumed: false,
    starts_at: dated(START),
    ends_at: null,
    subscription_id: String(BigInt(id) + 1n),
    ...over,
  });
  const event = (type: string, data: unknown, at = t.clock.now) => ({ version: 1, application_id: t.config.discord.clientId, type: 1, event: { type, timestamp: stamp(at), data } });
  /** A POST signed as Discord signs it (the timestamp header, then the raw body). */
  const send = (body: unknown, options: { key?: KeyObject; ts?: number; raw?: string; app?: TestApp } = {}) => {
    const raw = options.raw ?? JSON.stringify(body);
    const ts = String(options.ts ?? Math.floor((options.app ?? t).clock.now / 1000));
    const signature = sign(null, Buffer.from(ts + raw), options.key ?? key).toString('hex');
    return (options.app ?? t).app.inject({
      method: 'POST',
      url: '/api/webhooks/discord',
      headers: { 'content-type': 'application/json', 'x-signature-ed25519': signature, 'x-signature-timestamp': ts },
      payload: raw,
    });
  };
  const row = async (entitlementId: string) =>
    (
      await t.db.query<{ status: string; premium: boolean; cancel_at_period_end: boolean; slots: number; plan_id: string | null; user_id: string; access_ends_at: Date | null; provider_version: string }>(
        `SELECT status, premium, cancel_at_period_end, slots, plan_id, user_id, access_ends_at, provider_version::text AS provider_version
         FROM subscriptions WHERE provider = 'discord' AND provider_subscription_id = $1`,
        [entitlementId],
      )
    ).rows;
  /** Whether the subscription gives premium now, as the billing pages say. */
  const premiumNow = async (entitlementId: string) => (await t.app.billingAccounts.find('discord', entitlementId))?.premium ?? null;
  const stored = async () => Number((await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM webhook_events WHERE provider = 'discord'`)).rows[0]!.n);
  const outcomes = async (entitlementId: string) =>
    (await t.db.query<{ outcome: string | null }>(`SELECT outcome FROM webhook_events WHERE subject = $1 ORDER BY id`, [entitlementId])).rows.map((r) => r.outcome);
  /** Puts the subscription's slot on a server (as the premium page would). */
  const cover = async (entitlementId: string, guildId: string) =>
    t.db.query(`UPDATE premium_slots SET guild_id = $2, assigned_at = now() WHERE subscription_id = (SELECT id FROM subscriptions WHERE provider = 'discord' AND provider_subscription_id = $1)`, [
      entitlementId,
      guildId,
    ]);
  const forget = (entitlementId: string) => t.db.query(`DELETE FROM subscriptions WHERE provider = 'discord' AND provider_subscription_id = $1`, [entitlementId]);

  it('refuses what it cannot verify (401 code 1022) and stores nothing: another key, no headers, an old timestamp, a body changed after signing', async () => {
    const id = snowflake();
    const body = event('ENTITLEMENT_CREATE', entitlement(id));
    const before = await stored();
    const raw = JSON.stringify(body);
    const ts = String(Math.floor(t.clock.now / 1000));
    const signature = sign(null, Buffer.from(ts + raw), key).toString('hex');
    const post = (headers: Record<string, string>, payload = raw) =>
      t.app.inject({ method: 'POST', url: '/api/webhooks/discord', headers: { 'content-type': 'application/json', ...headers }, payload });
    for (const res of [
      await send(body, { key: other }),
      await post({}),
      await post({ 'x-signature-timestamp': ts }),
      await post({ 'x-signature-ed25519': signature }),
      await post({ 'x-signature-ed25519': 'zz', 'x-signature-timestamp': ts }),
      await send(body, { ts: Number(ts) - 301 }),
      await send(body, { ts: Number(ts) + 301 }),
      await post({ 'x-signature-ed25519': signature, 'x-signature-timestamp': ts }, raw.replace(ava.id, ben.id)),
    ]) {
      expect(res.statusCode, res.body).toBe(401);
      expect(ApiError.parse(res.json())).toMatchObject({ code: 1022 });
    }
    expect(await stored()).toBe(before);
    // Five minutes of skew either way are accepted.
    expect((await send(body, { ts: Number(ts) - 299 })).statusCode).toBe(204);
    expect(await stored()).toBe(before + 1);
    await t.app.webhookInbox.work();
    await forget(id);
  });

  it('passes Discord’s endpoint checks through the stand-in: its invalid-signature probe gets 401, its PING 204; a PING stores nothing', async () => {
    const before = await stored();
    expect(await t.discordBilling.probe()).toEqual({ status: 401, ok: true, error: null });
    expect(await t.discordBilling.ping()).toEqual({ status: 204, ok: true, error: null });
    const ping = await send({ version: 1, application_id: t.config.discord.clientId, type: 0 });
    expect(ping.statusCode).toBe(204);
    expect(ping.body).toBe('');
    expect(await stored()).toBe(before);
  });

  it('refuses (400 code 1001) a signed event of another application, and a signed body that is no event; stores nothing', async () => {
    const before = await stored();
    const foreign = { ...event('ENTITLEMENT_CREATE', entitlement(snowflake())), application_id: '1234567890123456789' };
    const res = await send(foreign);
    expect(res.statusCode).toBe(400);
    expect(ApiError.parse(res.json())).toMatchObject({ code: 1001, message: expect.stringMatching(/application_id/) });
    expect((await send(null, { raw: '{"version":1,"type":1}' })).statusCode).toBe(400);
    expect((await send(null, { raw: 'not json' })).statusCode).toBe(400);
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/discord',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-signature-ed25519': '00', 'x-signature-timestamp': '1' },
      payload: 'a=1',
    });
    expect(form.statusCode).toBe(415);
    expect(await stored()).toBe(before);
  });

  it('reads a timestamp without a zone (Discord’s format) as UTC, whatever the server’s time zone', async () => {
    const id = snowflake();
    const zone = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      const at = (type: string, timestamp: string) => ({ version: 1, application_id: t.config.discord.clientId, type: 1, event: { type, timestamp, data: entitlement(id) } });
      expect((await send(at('ENTITLEMENT_UPDATE', '2026-03-02T09:15:00.123456'))).statusCode).toBe(204);
      // 10:00 at +02:00 is 08:00 UTC: older than 09:15 UTC (but newer, were 09:15 read in Los Angeles).
      expect((await send(at('ENTITLEMENT_DELETE', '2026-03-02T10:00:00.000000+02:00'))).statusCode).toBe(204);
      await t.app.webhookInbox.work();
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
    const { rows } = await t.db.query<{ occurred_at: Date }>(`SELECT occurred_at FROM webhook_events WHERE subject = $1 ORDER BY id`, [id]);
    expect(rows.map((r) => new Date(r.occurred_at).toISOString())).toEqual(['2026-03-02T09:15:00.123Z', '2026-03-02T08:00:00.000Z']);
    expect(await row(id)).toMatchObject([{ status: 'active', premium: true, provider_version: isoMicros('2026-03-02T09:15:00.123456Z') }]);
    expect(await outcomes(id)).toEqual([`${id}: active`, expect.stringMatching(/^stale/)]);
    await forget(id);
  });

  it('stores a verified event before answering and applies it once; the same event again (Discord’s redelivery, signed anew) has no second effect', async () => {
    const id = snowflake();
    const body = event('ENTITLEMENT_CREATE', entitlement(id));
    const first = await send(body);
    expect(first.statusCode, first.body).toBe(204);
    expect(first.body).toBe('');
    expect(await row(id)).toEqual([]);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    expect(await row(id)).toMatchObject([{ status: 'active', premium: true, cancel_at_period_end: false, slots: 1, plan_id: 'premium', user_id: ava.id, access_ends_at: null }]);
    t.clock.advance(40_000);
    expect((await send(body)).statusCode).toBe(204);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 0, failed: 0, dead: 0 });
    const { rows } = await t.db.query<{ event_key: string; state: string; attempts: number }>(`SELECT event_key, state, attempts FROM webhook_events WHERE subject = $1`, [id]);
    expect(rows).toEqual([{ event_key: `ENTITLEMENT_CREATE:${id}:${body.event.timestamp}Z`, state: 'applied', attempts: 1 }]);
  });

  it('100 copies at once: one stored, one subscription', async () => {
    const id = snowflake();
    const body = event('ENTITLEMENT_CREATE', entitlement(id));
    const answers = await Promise.all(Array.from({ length: 100 }, () => send(body)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array.from({ length: 100 }, () => 204));
    expect((await t.db.query(`SELECT 1 FROM webhook_events WHERE subject = $1`, [id])).rows).toHaveLength(1);
    expect(await t.app.webhookInbox.work()).toMatchObject({ applied: 1 });
    expect((await t.db.query(`SELECT 1 FROM subscriptions WHERE provider_subscription_id = $1`, [id])).rows).toHaveLength(1);
  });

  it('out of order: an ENTITLEMENT_UPDATE with ends_at before its ENTITLEMENT_CREATE ends where the newest says', async () => {
    const id = snowflake();
    const ends = t.clock.now + 10 * DAY;
    const update = event('ENTITLEMENT_UPDATE', entitlement(id, { ends_at: dated(ends) }), t.clock.now + 2 * HOUR);
    const create = event('ENTITLEMENT_CREATE', entitlement(id), t.clock.now + HOUR);
    await send(update);
    await t.app.webhookInbox.work();
    await send(create);
    await t.app.webhookInbox.work();
    expect(await row(id)).toMatchObject([{ status: 'ending', premium: true, cancel_at_period_end: true, access_ends_at: new Date(ends) }]);
    expect(await outcomes(id)).toEqual([`${id}: ending, cancels at period end`, expect.stringMatching(/^stale/)]);
    await forget(id);
  });

  it('out of order: an ENTITLEMENT_DELETE before its ENTITLEMENT_CREATE stays deleted; older events replayed later change nothing', async () => {
    const id = snowflake();
    const created = t.clock.now + HOUR;
    await send(event('ENTITLEMENT_DELETE', entitlement(id, { deleted: true }), t.clock.now + 3 * HOUR));
    await t.app.webhookInbox.work();
    const create = event('ENTITLEMENT_CREATE', entitlement(id), created);
    await send(create);
    await t.app.webhookInbox.work();
    expect(await row(id)).toMatchObject([{ status: 'deleted', premium: false, plan_id: 'premium' }]);
    expect(await premiumNow(id)).toBe(false);
    // Replayed by hand long after: the same CREATE is a duplicate; an older UPDATE is stale.
    t.clock.advance(HOUR);
    await send(create);
    await send(event('ENTITLEMENT_UPDATE', entitlement(id, { ends_at: dated(t.clock.now + 30 * DAY) }), t.clock.now - 2 * HOUR));
    await t.app.webhookInbox.work();
    expect(await row(id)).toMatchObject([{ status: 'deleted', premium: false }]);
    expect(await outcomes(id)).toEqual([`${id}: deleted`, expect.stringMatching(/^stale/), expect.stringMatching(/^stale/)]);
    await forget(id);
  });

  it('an entitlement with ends_at keeps premium until then, and loses it after without another event', async () => {
    const id = snowflake();
    await send(event('ENTITLEMENT_CREATE', entitlement(id)));
    await t.app.webhookInbox.work();
    await cover(id, DEMO_GUILDS.pixelPals.id);
    expect(await t.app.serverConfigs.limits(DEMO_GUILDS.pixelPals.id)).toMatchObject({ premium: true });
    const ends = t.clock.now + 2 * HOUR;
    await send(event('ENTITLEMENT_UPDATE', entitlement(id, { ends_at: dated(ends) }), t.clock.now + MINUTE));
    await t.app.webhookInbox.work();
    expect(await row(id)).toMatchObject([{ status: 'ending', cancel_at_period_end: true }]);
    expect(await premiumNow(id)).toBe(true);
    t.clock.advance(2 * HOUR - 1);
    expect(await t.app.serverConfigs.limits(DEMO_GUILDS.pixelPals.id)).toMatchObject({ premium: true });
    t.clock.advance(1);
    expect(await t.app.serverConfigs.limits(DEMO_GUILDS.pixelPals.id)).toMatchObject({ premium: false });
    expect(await premiumNow(id)).toBe(false);
    await forget(id);
  });

  it('a refund in Discord (the stand-in’s ENTITLEMENT_DELETE) ends premium at once', async () => {
    const WORKSHOP = DEMO_GUILDS.bensWorkshop.id;
    const bought = await t.app.inject({
      method: 'POST',
      url: `/sandbox/discord/application-directory/${t.config.discord.clientId}/store/${SKU}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ user_id: ben.id, card_number: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' }).toString(),
    });
    expect(bought.statusCode, bought.body).toBe(200);
    const bens = t.discordBilling.entitlements().find((e) => e.user_id === ben.id)!;
    await t.discordBilling.flush({ ignoreBackoff: true });
    await t.app.webhookInbox.work();
    expect(await row(bens.id)).toMatchObject([{ status: 'active', premium: true, user_id: ben.id }]);
    await cover(bens.id, WORKSHOP);
    expect(await t.app.serverConfigs.limits(WORKSHOP)).toMatchObject({ premium: true });
    t.clock.advance(MINUTE);
    expect(t.discordBilling.refund(bens.id)).toMatchObject({ id: bens.id, deleted: true });
    await t.discordBilling.flush({ ignoreBackoff: true });
    expect(t.discordBilling.deliveries().filter((d) => d.entitlementId === bens.id).map((d) => [d.type, d.state])).toEqual([
      ['ENTITLEMENT_CREATE', 'delivered'],
      ['ENTITLEMENT_DELETE', 'delivered'],
    ]);
    await t.app.webhookInbox.work();
    expect(await row(bens.id)).toMatchObject([{ status: 'deleted', premium: false }]);
    expect(await t.app.serverConfigs.limits(WORKSHOP)).toMatchObject({ premium: false });
    await forget(bens.id);
  });

  it('a SKU not in the catalogue that grants nothing still applies: its deletion ends the subscription (plan and slots stay); an ended one is stored without premium', async () => {
    const id = snowflake();
    await send(event('ENTITLEMENT_CREATE', entitlement(id)));
    await t.app.webhookInbox.work();
    // Deleted, with the SKU retired since (and the data's own flag not saying so).
    await send(event('ENTITLEMENT_DELETE', entitlement(id, { sku_id: RETIRED_SKU }), t.clock.now + MINUTE));
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    expect(await row(id)).toMatchObject([{ status: 'deleted', premium: false, plan_id: 'premium', slots: 1 }]);

    const ended = snowflake();
    await send(event('ENTITLEMENT_UPDATE', entitlement(ended, { sku_id: RETIRED_SKU, ends_at: dated(t.clock.now - DAY) })));
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    expect(await row(ended)).toMatchObject([{ status: 'ended', plan_id: null, slots: 0 }]);
    expect(await premiumNow(ended)).toBe(false);
    await forget(id);
    await forget(ended);
  });

  it('a server subscription (an entitlement with a guild_id) gives premium to that server, not a slot to the buyer', async () => {
    const PALS = DEMO_GUILDS.pixelPals.id;
    const ARCADE = DEMO_GUILDS.avasArcade.id;
    const id = snowflake();
    await send(event('ENTITLEMENT_CREATE', entitlement(id, { guild_id: PALS })));
    await t.app.webhookInbox.work();
    expect(await row(id)).toMatchObject([{ status: 'active', premium: true, slots: 1, user_id: ava.id }]);
    // Pixel Pals has premium at once: its one slot is on it, and no time to move is counted.
    expect(await t.app.serverConfigs.limits(PALS)).toMatchObject({ premium: true });
    const browser = new Browser(t.app);
    await signIn(browser, ava.id);
    const mine = BillingSubscription.parse((await browser.get(`/api/billing/subscriptions/discord/${id}`)).json());
    expect(mine).toMatchObject({ guildId: PALS, slots: [{ slot: 1, guildId: PALS, movableAt: null }] });
    // The buyer has no slot of it to place: not offered on another server, and moving it is refused.
    const arcade = ServerPremiumAnswer.parse((await browser.get(`/api/guilds/${ARCADE}/premium`)).json());
    expect(arcade.mine.map((s) => s.id)).not.toContain(id);
    const pals = ServerPremiumAnswer.parse((await browser.get(`/api/guilds/${PALS}/premium`)).json());
    expect(pals).toMatchObject({ premium: true, coveredBy: { provider: 'discord', id, mine: true, slot: 1 } });
    const arcadeBefore = await t.app.serverConfigs.limits(ARCADE);
    const move = await browser.request('PUT', `/api/guilds/${ARCADE}/premium`, {
      headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN },
      payload: { provider: 'discord', subscriptionId: id, slot: 1 },
    });
    expect(move.statusCode).toBe(400);
    expect(ApiError.parse(move.json())).toMatchObject({ code: 1001, message: "This is a Discord server subscription of Pixel Pals: its premium stays on that server." });
    expect(await t.app.serverConfigs.limits(ARCADE)).toEqual(arcadeBefore);
    expect(await t.app.serverConfigs.limits(PALS)).toMatchObject({ premium: true });
    // A slot found elsewhere (stored before server subscriptions were told apart) goes back with the next description.
    await cover(id, ARCADE);
    await send(event('ENTITLEMENT_UPDATE', entitlement(id, { guild_id: PALS }), t.clock.now + MINUTE));
    await t.app.webhookInbox.work();
    expect(BillingSubscription.parse((await browser.get(`/api/billing/subscriptions/discord/${id}`)).json()).slots).toMatchObject([{ slot: 1, guildId: PALS }]);
    // Its end ends the server's premium.
    await send(event('ENTITLEMENT_DELETE', entitlement(id, { guild_id: PALS, deleted: true }), t.clock.now + 2 * MINUTE));
    await t.app.webhookInbox.work();
    expect(await t.app.serverConfigs.limits(PALS)).toMatchObject({ premium: false });
    await forget(id);
  });

  it('ignores events billing has no use for (APPLICATION_AUTHORIZED): stored, applied as nothing', async () => {
    const body = event('APPLICATION_AUTHORIZED', { integration_type: 1, scopes: ['applications.commands'], user: { id: ava.id, username: 'ava' } });
    expect((await send(body)).statusCode).toBe(204);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    const { rows } = await t.db.query<{ outcome: string }>(`SELECT outcome FROM webhook_events WHERE event_type = 'APPLICATION_AUTHORIZED'`);
    expect(rows).toEqual([{ outcome: 'ignored: APPLICATION_AUTHORIZED changes nothing here' }]);
  });

  it('a real database error while applying rolls that event back and retries it; the rest of the batch applies', async () => {
    const id = snowflake();
    await send(event('ENTITLEMENT_CREATE', entitlement(id)));
    await send(event('APPLICATION_DEAUTHORIZED', { user: { id: ben.id, username: 'ben' } }));
    await t.db.query('ALTER TABLE premium_slots RENAME TO premium_slots_away');
    try {
      expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 1, dead: 0 });
    } finally {
      await t.db.query('ALTER TABLE premium_slots_away RENAME TO premium_slots');
    }
    expect(await row(id)).toEqual([]);
    const { rows } = await t.db.query<{ state: string; attempts: number; last_error: string }>(`SELECT state, attempts, last_error FROM webhook_events WHERE subject = $1`, [id]);
    expect(rows).toEqual([{ state: 'pending', attempts: 1, last_error: expect.stringMatching(/premium_slots/) }]);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 0, failed: 0, dead: 0 });
    t.clock.advance(10 * MINUTE);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    expect(await row(id)).toMatchObject([{ status: 'active', premium: true, slots: 1 }]);
    await forget(id);
  });

  it('an event that keeps failing (a live SKU not in the catalogue) ends in the dead letters; fixed and replayed, it applies', async () => {
    const id = snowflake();
    await send(event('ENTITLEMENT_CREATE', entitlement(id, { sku_id: RETIRED_SKU })));
    for (let i = 0; i < 8; i++) {
      await t.app.webhookInbox.work();
      t.clock.advance(2 * HOUR);
    }
    const { rows } = await t.db.query<{ id: string; state: string; attempts: number; last_error: string }>(`SELECT id, state, attempts, last_error FROM webhook_events WHERE subject = $1`, [id]);
    expect(rows).toEqual([{ id: expect.anything(), state: 'dead', attempts: 8, last_error: expect.stringMatching(new RegExp(`SKU ${RETIRED_SKU} is not in the plan catalogue`)) }]);
    expect(await row(id)).toEqual([]);
    expect(await t.app.webhookInbox.backlog()).toEqual(expect.arrayContaining([expect.objectContaining({ provider: 'discord', dead: 1 })]));
    // Staff fix the catalogue (here: the event's SKU) and replay.
    await t.db.query(`UPDATE webhook_events SET payload = jsonb_set(payload, '{data,sku_id}', to_jsonb($2::text)) WHERE id = $1`, [rows[0]!.id, SKU]);
    expect(await t.app.webhookInbox.replay(String(rows[0]!.id))).toBe(true);
    expect(await t.app.webhookInbox.replay(String(rows[0]!.id))).toBe(false);
    expect(await t.app.webhookInbox.work()).toEqual({ applied: 1, failed: 0, dead: 0 });
    expect(await row(id)).toMatchObject([{ status: 'active', premium: true, plan_id: 'premium' }]);
    await forget(id);
  });

  describe('two API instances on one database', () => {
    let second: TestApp | null = null;
    let secondDb: Awaited<ReturnType<typeof createPostgresDb>> | null = null;
    // Another instance of the same deployment: the same application's public key (its own token key
    // would derive another in demo mode).
    const env = () => ({ DISCORD_PUBLIC_KEYS: t.config.billing.discord.publicKeys.join(',') });
    beforeAll(async () => {
      secondDb = database.url ? await createPostgresDb({ url: database.url, schema: t.db.schema }) : null;
      second = await createTestApp((secondDb ?? t.db) as typeof t.db, { env: env() });
    });
    afterAll(async () => {
      await second?.close();
      await secondDb?.close();
    });

    it('a crash after storing and before applying: the event waits, and another instance applies it once', async () => {
      const id = snowflake();
      second!.clock.set(t.clock.now);
      expect((await send(event('ENTITLEMENT_CREATE', entitlement(id)), { app: second! })).statusCode).toBe(204);
      await second!.close();
      second = await createTestApp((secondDb ?? t.db) as typeof t.db, { env: env() });
      second.clock.set(t.clock.now);
      const results = await Promise.all([t.app.webhookInbox.work(), second.app.webhookInbox.work()]);
      expect(results.reduce((sum, r) => sum + r.applied, 0)).toBe(1);
      expect(await row(id)).toMatchObject([{ status: 'active', premium: true }]);
      const { rows } = await t.db.query<{ state: string; attempts: number }>(`SELECT state, attempts FROM webhook_events WHERE subject = $1`, [id]);
      expect(rows).toEqual([{ state: 'applied', attempts: 1 }]);
    });

    it('copies sent to both at once: one stored each; both working at once: every event applied exactly once', async () => {
      second!.clock.set(t.clock.now);
      const ids = Array.from({ length: 40 }, () => snowflake());
      const bodies = ids.map((id) => event('ENTITLEMENT_CREATE', entitlement(id)));
      const answers = await Promise.all(bodies.flatMap((b) => [send(b), send(b, { app: second! })]));
      expect(answers.every((a) => a.statusCode === 204)).toBe(true);
      const results = await Promise.all([t.app.webhookInbox.work(10), second!.app.webhookInbox.work(10), t.app.webhookInbox.work(), second!.app.webhookInbox.work()]);
      expect(results.reduce((sum, r) => sum + r.applied + r.failed, 0)).toBeLessThanOrEqual(40);
      await t.app.webhookInbox.work();
      const { rows } = await t.db.query<{ state: string; attempts: number }>(`SELECT state, attempts FROM webhook_events WHERE subject = ANY($1::text[])`, [ids]);
      expect(rows).toHaveLength(40);
      expect(rows.every((r) => r.state === 'applied' && r.attempts === 1)).toBe(true);
      expect((await t.db.query(`SELECT 1 FROM subscriptions WHERE provider = 'discord' AND provider_subscription_id = ANY($1::text[])`, [ids])).rows).toHaveLength(40);
    });
  });
});
