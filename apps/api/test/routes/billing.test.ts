import { ApiError, BillingSubscription, BillingSubscriptionsAnswer, ServerConfigAnswer, ServerPremiumAnswer } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_ORIGIN, useTestApp } from '../helpers/app';
import { insertSubscriptions } from '../helpers/billing';
import { Browser } from '../helpers/browser';
import { HOUR } from '../helpers/clock';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';

const { ava, ben, cleo, sam } = DEMO_USERS;
const PALS = DEMO_GUILDS.pixelPals.id;
const ARCADE = DEMO_GUILDS.avasArcade.id;

describe.each(databases())('Billing (/api/billing) and server premium on $name', (database) => {
  const t = useTestApp(database);
  const as = async (userId: string) => {
    const browser = new Browser(t.app);
    await signIn(browser, userId);
    return browser;
  };
  const put = (browser: Browser, url: string, body: unknown) =>
    browser.request('PUT', url, { headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN }, payload: body });

  beforeAll(async () => {
    await insertSubscriptions(t.db, [
      { id: 'ava-paddle', userId: ava.id, provider: 'paddle', providerId: 'sub_ava', status: 'active', premium: true, servers: [] },
      { id: 'ava-old', userId: ava.id, provider: 'chargebee', providerId: 'cb_old', status: 'cancelled', premium: false, servers: [] },
    ]);
    await t.db.query(`UPDATE subscriptions SET plan_id = 'premium', billing_interval = 'month', customer_id = 'ctm_ava', payment_method = 'Visa •••• 4242' WHERE id = 'ava-paddle'`);
  });

  it('lists the signed-in user’s subscriptions with their slots and what the provider offers; an empty list for Cleo', async () => {
    const ava_ = await as(ava.id);
    const res = await ava_.get('/api/billing/subscriptions');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { subscriptions } = BillingSubscriptionsAnswer.parse(res.json());
    expect(subscriptions.map((s) => [s.provider, s.id, s.premium])).toEqual(
      expect.arrayContaining([
        ['paddle', 'sub_ava', true],
        ['chargebee', 'cb_old', false],
      ]),
    );
    const paddle = subscriptions.find((s) => s.id === 'sub_ava')!;
    expect(paddle).toMatchObject({ planName: 'Premium', interval: 'month', paymentMethod: 'Visa •••• 4242', actions: ['cancel', 'updatePaymentMethod', 'changePlan', 'portal'] });
    expect(paddle.slots).toEqual([{ slot: 1, guildId: null, guildName: null, assignedAt: null, movableAt: null }]);
    const cleo_ = await as(cleo.id);
    expect(BillingSubscriptionsAnswer.parse((await cleo_.get('/api/billing/subscriptions')).json())).toEqual({ subscriptions: [] });
  });

  it('authorization: a visitor 401; another user 404; staff with DASHBOARD_SUPPORT_SYSTEM_READ read any user’s (and it is audited); staff without it 403 1004', async () => {
    expect((await new Browser(t.app).get('/api/billing/subscriptions')).statusCode).toBe(401);
    expect((await new Browser(t.app).get(`/api/billing/users/${ava.id}/subscriptions`)).statusCode).toBe(401);
    const ben_ = await as(ben.id);
    const other = await ben_.get('/api/billing/subscriptions/paddle/sub_ava');
    expect(other.statusCode).toBe(404);
    expect(ApiError.parse(other.json()).code).toBe(1002);
    // Ben is no staff member.
    const refused = await ben_.get(`/api/billing/users/${ava.id}/subscriptions`);
    expect(refused.statusCode).toBe(403);
    expect(ApiError.parse(refused.json()).code).toBe(1004);
    // Sam owns the staff (every flag).
    const sam_ = await as(sam.id);
    // As the dashboard asks (its fetch, from its origin).
    const dashboard = { headers: { 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN } };
    const list = await sam_.get(`/api/billing/users/${ava.id}/subscriptions`, dashboard);
    expect(list.statusCode).toBe(200);
    expect(BillingSubscriptionsAnswer.parse(list.json()).subscriptions).toHaveLength(2);
    const one = await sam_.get(`/api/billing/users/${ava.id}/subscriptions/paddle/sub_ava`, dashboard);
    expect(BillingSubscription.parse(one.json()).id).toBe('sub_ava');
    expect((await sam_.get(`/api/billing/users/${ben.id}/subscriptions/paddle/sub_ava`, dashboard)).statusCode).toBe(404);
    const { rows } = await t.db.query<{ staff_id: string; action: string; target: string }>('SELECT staff_id, action, target FROM staff_audit ORDER BY id');
    expect(rows).toEqual([
      { staff_id: sam.id, action: 'billing.view', target: `user ${ava.id}` },
      { staff_id: sam.id, action: 'billing.view', target: `user ${ava.id}, paddle sub_ava` },
    ]);
    // A staff read writes the audit: another site's link or frame (no dashboard fetch) is refused and writes nothing.
    const foreign = await sam_.get(`/api/billing/users/${ava.id}/subscriptions`, { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' } });
    expect(foreign.statusCode).toBe(403);
    expect(ApiError.parse(foreign.json()).code).toBe(1005);
    expect((await t.db.query('SELECT 1 FROM staff_audit')).rows).toHaveLength(2);
    // Receipts: staff read them too (audited); no one else.
    expect((await new Browser(t.app).get(`/api/billing/users/${ava.id}/subscriptions/chargebee/cb_old/invoices`)).statusCode).toBe(401);
    expect((await ben_.get(`/api/billing/users/${ava.id}/subscriptions/chargebee/cb_old/invoices`, dashboard)).statusCode).toBe(403);
    expect((await ben_.get('/api/billing/subscriptions/chargebee/cb_old/invoices')).statusCode).toBe(404);
    const discordReceipts = await sam_.get(`/api/billing/users/${ava.id}/subscriptions/discord/dc_ava/invoices`, dashboard);
    expect(discordReceipts.statusCode).toBe(404);
    expect((await t.db.query('SELECT 1 FROM staff_audit')).rows).toHaveLength(2);
    const receipts = await sam_.get(`/api/billing/users/${ava.id}/subscriptions/chargebee/cb_old/invoices`, dashboard);
    expect(receipts.statusCode, receipts.body).toBe(200);
    expect(receipts.json()).toEqual({ available: true, invoices: [] });
    const audit = await t.db.query<{ staff_id: string; target: string }>('SELECT staff_id, target FROM staff_audit ORDER BY id');
    expect(audit.rows.at(-1)).toEqual({ staff_id: sam.id, target: `user ${ava.id}, chargebee cb_old receipts` });
    // A provider id never starts with a dot ('.' or '..' would climb a level in the provider's API);
    // ids of letters, digits, '_' and '-' (FastSpring's start with either) are ids.
    for (const id of ['%2E', '.hidden', '.x.']) {
      const res = await (await as(ava.id)).get(`/api/billing/subscriptions/paddle/sub_ava/invoices/${id}`);
      expect(res.statusCode, id).toBe(400);
      expect(ApiError.parse(res.json()).code).toBe(1001);
    }
    expect((await (await as(ava.id)).get('/api/billing/checkouts/fastspring/-Ab_9')).statusCode).not.toBe(400);
    // Actions are the owner's only.
    expect((await ben_.post('/api/billing/subscriptions/paddle/sub_ava/cancel')).statusCode).toBe(404);
    expect((await sam_.post('/api/billing/subscriptions/paddle/sub_ava/cancel')).statusCode).toBe(404);
  });

  it('the portal refuses a customer shared with another user’s subscription (a portal shows every subscription of its customer)', async () => {
    await insertSubscriptions(t.db, [{ id: 'cleo-shared', userId: cleo.id, provider: 'paddle', providerId: 'sub_cleo_shared', status: 'active', premium: true, servers: [] }]);
    await t.db.query(`UPDATE subscriptions SET customer_id = 'ctm_shared' WHERE id IN ('ava-paddle', 'cleo-shared')`);
    await t.db.query(`INSERT INTO billing_customers (provider, customer_id, user_id, created_at) VALUES ('paddle', 'ctm_shared', $1, now())`, [ava.id]);
    try {
      const res = await (await as(ava.id)).post('/api/billing/subscriptions/paddle/sub_ava/portal');
      expect(res.statusCode).toBe(400);
      expect(ApiError.parse(res.json()).message).toMatch(/no customer of yours/);
    } finally {
      await t.db.query(`DELETE FROM subscriptions WHERE id = 'cleo-shared'`);
      await t.db.query(`DELETE FROM billing_customers WHERE customer_id = 'ctm_shared'`);
      await t.db.query(`UPDATE subscriptions SET customer_id = 'ctm_ava' WHERE id = 'ava-paddle'`);
    }
  });

  it('the portal opens only for a Paddle customer linked to the user (a purchase naming someone else’s customer does not)', async () => {
    await t.db.query(`INSERT INTO billing_customers (provider, customer_id, user_id, created_at) VALUES ('paddle', 'ctm_ava', $1, now())`, [ben.id]);
    const ava_ = await as(ava.id);
    const res = await ava_.post('/api/billing/subscriptions/paddle/sub_ava/portal');
    expect(res.statusCode).toBe(400);
    expect(ApiError.parse(res.json()).message).toMatch(/no customer of yours/);
  });

  it('Paddle checkout: a catalogue price only, no user from the body; anything else 400 and nothing made (the transaction itself: billing-paddle-flow)', async () => {
    const ava_ = await as(ava.id);
    for (const body of [{ priceId: 'pri_unknown' }, { priceId: '' }, { priceId: 'pri_premium_yearly', userId: ben.id }, null]) {
      const res = await ava_.post('/api/billing/paddle/checkout', body ?? undefined);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(ApiError.parse(res.json()).code).toBe(1001);
    }
    expect((await t.db.query('SELECT 1 FROM billing_checkouts')).rows).toEqual([]);
  });

  it('where a Paddle purchase stands is asked of the user’s own checkouts only: one this server did not make is 404', async () => {
    const ava_ = await as(ava.id);
    const res = await ava_.get('/api/billing/checkouts/paddle/txn_unknown');
    expect(res.statusCode).toBe(404);
    expect(ApiError.parse(res.json()).code).toBe(1002);
    await t.db.query(`INSERT INTO billing_checkouts (provider, reference, user_id, price_id, created_at) VALUES ('paddle', 'txn_avas', $1, 'pri_premium_monthly', now())`, [ava.id]);
    try {
      expect((await ava_.get('/api/billing/checkouts/paddle/txn_avas')).json()).toEqual({ state: 'activating', subscription: null });
      expect((await (await as(ben.id)).get('/api/billing/checkouts/paddle/txn_avas')).statusCode).toBe(404);
    } finally {
      await t.db.query(`DELETE FROM billing_checkouts WHERE reference = 'txn_avas'`);
    }
    expect((await ava_.get('/api/billing/checkouts/paddle/bad%20id')).statusCode).toBe(400);
  });

  it('server premium: assign a free slot (the panel limit rises), move it only after the cooldown, both Web Logs record it', async () => {
    const ava_ = await as(ava.id);
    const before = ServerPremiumAnswer.parse((await ava_.get(`/api/guilds/${PALS}/premium`)).json());
    expect(before).toMatchObject({ premium: false, coveredBy: null, cooldownHours: 24 });
    expect(before.mine.map((s) => s.id)).toEqual(['sub_ava']);
    expect(ServerConfigAnswer.parse((await ava_.get(`/api/guilds/${PALS}/config`)).json())).toMatchObject({ premium: false, panelLimit: 3 });

    const assigned = await put(ava_, `/api/guilds/${PALS}/premium`, { provider: 'paddle', subscriptionId: 'sub_ava', slot: 1 });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(ServerPremiumAnswer.parse(assigned.json())).toMatchObject({ premium: true, coveredBy: { provider: 'paddle', id: 'sub_ava', mine: true, slot: 1, planName: 'Premium' } });
    expect(ServerConfigAnswer.parse((await ava_.get(`/api/guilds/${PALS}/config`)).json())).toMatchObject({ premium: true, panelLimit: 50 });

    // Moving it to the Arcade at once: refused with the time it may move.
    const early = await put(ava_, `/api/guilds/${ARCADE}/premium`, { provider: 'paddle', subscriptionId: 'sub_ava', slot: 1 });
    expect(early.statusCode).toBe(409);
    expect(ApiError.parse(early.json())).toMatchObject({ code: 1023, message: expect.stringContaining(new Date(t.clock.now + 24 * HOUR).toISOString()) });
    const slot = ServerPremiumAnswer.parse((await ava_.get(`/api/guilds/${ARCADE}/premium`)).json()).mine[0]!.slots[0]!;
    expect(slot).toMatchObject({ guildId: PALS, guildName: 'Pixel Pals', movableAt: new Date(t.clock.now + 24 * HOUR).toISOString() });

    t.clock.advance(24 * HOUR);
    // A day later (signed in again: the session was idle as long).
    const later = await as(ava.id);
    const moved = await put(later, `/api/guilds/${ARCADE}/premium`, { provider: 'paddle', subscriptionId: 'sub_ava', slot: 1 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(ServerConfigAnswer.parse((await later.get(`/api/guilds/${PALS}/config`)).json())).toMatchObject({ premium: false, panelLimit: 3 });
    const { rows } = await t.db.query<{ guild_id: string; action: string; target: string }>(`SELECT guild_id, action, target FROM web_logs WHERE action LIKE 'premium.%' ORDER BY id`);
    expect(rows).toEqual([
      { guild_id: PALS, action: 'premium.assigned', target: 'Premium slot 1' },
      { guild_id: ARCADE, action: 'premium.assigned', target: 'Premium slot 1' },
      { guild_id: PALS, action: 'premium.removed', target: 'Premium slot 1' },
    ]);
  });

  it('refuses slots that are not the user’s, do not exist or give no premium, and servers without Premium write access', async () => {
    const ava_ = await as(ava.id);
    const cases: Array<[unknown, number, number]> = [
      [{ provider: 'chargebee', subscriptionId: 'cb_old', slot: 1 }, 400, 1001],
      [{ provider: 'paddle', subscriptionId: 'sub_ava', slot: 2 }, 400, 1001],
      [{ provider: 'paddle', subscriptionId: 'sub_nobody', slot: 1 }, 404, 1002],
      [{ provider: 'paddle', subscriptionId: 'sub_ava' }, 400, 1001],
    ];
    for (const [body, status, code] of cases) {
      const res = await put(ava_, `/api/guilds/${PALS}/premium`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(ApiError.parse(res.json()).code).toBe(code);
    }
    // Ben cannot put his (nonexistent) slot on Ava's server: he has no access there.
    const ben_ = await as(ben.id);
    expect([403, 404]).toContain((await put(ben_, `/api/guilds/${PALS}/premium`, { provider: 'paddle', subscriptionId: 'sub_ava', slot: 1 })).statusCode);
    // Another user's slot covering a server is named by its plan only.
    const cleo_ = await as(cleo.id);
    expect((await cleo_.get(`/api/guilds/${ARCADE}/premium`)).statusCode).toBeGreaterThanOrEqual(403);
  });
  it('two moves at once: each assignment waits for the user’s other one (a lock per user), so the second meets the cooldown', async () => {
    await insertSubscriptions(t.db, [{ id: 'ava-race', userId: ava.id, provider: 'paddle', providerId: 'sub_race', status: 'active', premium: true, servers: [DEMO_GUILDS.studyHall.id] }]);
    await t.db.query(`UPDATE premium_slots SET assigned_at = $1 WHERE subscription_id = 'ava-race'`, [new Date(t.clock.now - 48 * HOUR).toISOString()]);
    // Both servers free of Ava's other slots.
    await t.db.query(`UPDATE premium_slots SET guild_id = NULL WHERE subscription_id = 'ava-paddle'`);
    const ava_ = await as(ava.id);
    const move = (server: string) => put(ava_, `/api/guilds/${server}/premium`, { provider: 'paddle', subscriptionId: 'sub_race', slot: 1 });
    if (database.url) {
      // Another assignment of Ava's holds her lock (another connection): this one waits for it.
      const other = new pg.Client({ connectionString: database.url });
      await other.connect();
      try {
        await other.query('BEGIN');
        await other.query(`SELECT pg_advisory_xact_lock(hashtextextended('tickety-premium:' || $1, 0))`, [ava.id]);
        let settled = false;
        const first = move(PALS).then((res) => {
          settled = true;
          return res;
        });
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(settled).toBe(false);
        await other.query('COMMIT');
        expect((await first).statusCode).toBe(200);
      } finally {
        await other.end();
      }
    } else {
      expect((await move(PALS)).statusCode).toBe(200);
    }
    const second = await move(ARCADE);
    expect(second.statusCode).toBe(409);
    expect(ApiError.parse(second.json()).code).toBe(1023);
    await t.db.query(`DELETE FROM subscriptions WHERE id = 'ava-race'`);
  });
});
