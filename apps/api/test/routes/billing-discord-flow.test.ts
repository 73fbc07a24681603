import { BillingInvoicesAnswer, BillingSubscription, CheckoutStatus, RedirectCheckoutAnswer, ServerConfigAnswer } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DISCORD_ENTITLEMENT } from '../../demo/demo';
import { DEMO_SUBSCRIPTION, seedDemo } from '../../demo/seed';
import { DASHBOARD_ORIGIN, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { MINUTE } from '../helpers/clock';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';
import { freePort } from '../helpers/redis-server';

const { ava } = DEMO_USERS;
const ARCADE = DEMO_GUILDS.avasArcade.id;
const PALS = DEMO_GUILDS.pixelPals.id;
/** The catalogue's Discord SKU: Premium, monthly. */
const SKU = '1300000000000000801';

const ports = await Promise.all(databases().map(() => freePort()));

describe.each(databases().map((d, i) => ({ ...d, port: ports[i]! })))('a Discord app subscription end to end through the stand-in on $name', (database) => {
  const PUBLIC_URL = `http://127.0.0.1:${database.port}`;
  const t = useTestApp(database, { env: { PUBLIC_URL } });
  let browser: Browser;

  beforeAll(async () => {
    await t.app.listen({ port: database.port, host: '127.0.0.1' });
    browser = new Browser(t.app);
    await signIn(browser, ava.id);
    // The demo's data: Ava's Discord subscription gives Ava's Arcade premium (the stand-in sold it).
    await seedDemo(t.app, t.sandbox);
  });

  /** A path of the app from an absolute address of it (the stand-in is mounted in the API). */
  const pathOf = (url: string) => {
    expect(url.startsWith(PUBLIC_URL), url).toBe(true);
    return url.slice(PUBLIC_URL.length);
  };
  /** A form as the stand-in's own pages send it. */
  const form = (url: string, fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_URL, host: new URL(PUBLIC_URL).host },
      payload: new URLSearchParams(fields).toString(),
    });

  /** Ava in Discord's store: the checkout's address, its page as her, then its form with a card. Answers her new entitlement. */
  async function buy(): Promise<{ entitlementId: string; subscriptionId: string }> {
    const checkout = await browser.post('/api/billing/discord/checkout', { priceId: SKU });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const store = pathOf(RedirectCheckoutAnswer.parse(checkout.json()).url);
    const page = await t.app.inject({ method: 'GET', url: `${store}?login_hint=${ava.id}` });
    expect(page.statusCode, page.body).toBe(200);
    const buyer = /name="user_id" value="(\d+)"/.exec(page.body)?.[1];
    expect(buyer).toBe(ava.id);
    const bought = await form(store, { user_id: buyer!, card_number: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', cardholder_name: 'Ava' });
    expect(bought.statusCode, bought.body).toBe(200);
    const entitlementId = /<dt>Entitlement<\/dt><dd><code>(\d+)<\/code>/.exec(bought.body)?.[1];
    const subscriptionId = /<dt>Subscription<\/dt><dd><code>(\d+)<\/code>/.exec(bought.body)?.[1];
    expect(entitlementId).toBeTruthy();
    expect(t.discordBilling.entitlements().find((e) => e.id === entitlementId)).toMatchObject({ user_id: ava.id, sku_id: SKU, subscription_id: subscriptionId });
    return { entitlementId: entitlementId!, subscriptionId: subscriptionId! };
  }

  /** Ava cancels in Discord's settings (the stand-in's page, its form). */
  async function cancelInDiscord(subscriptionId: string): Promise<void> {
    const page = await t.app.inject({ method: 'GET', url: `/sandbox/discord/settings/subscriptions?login_hint=${ava.id}` });
    expect(page.body).toContain(`action="subscriptions/${subscriptionId}/cancel"`);
    const res = await form(`/sandbox/discord/settings/subscriptions/${subscriptionId}/cancel`, { user_id: ava.id });
    expect(res.statusCode, res.body).toBe(303);
  }

  /** Moves both clocks (the API's and its Discord's) to the end of the subscription's period, and lets the stand-in act on it. */
  async function toPeriodEnd(subscriptionId: string): Promise<string> {
    const end = t.discordBilling.subscriptions().find((s) => s.id === subscriptionId)!.current_period_end;
    t.clock.set(Date.parse(end));
    t.discordBilling.tick();
    // A month later the dashboard session has long expired: Ava signs in again.
    await signIn(browser, ava.id);
    return end;
  }

  const subscription = async (id: string) => {
    const res = await browser.get(`/api/billing/subscriptions/discord/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return BillingSubscription.parse(res.json());
  };
  const checkoutStatus = async () => CheckoutStatus.parse((await browser.get(`/api/billing/checkouts/discord/${SKU}`)).json());
  const serverPremium = async (guildId: string) => ServerConfigAnswer.parse((await browser.get(`/api/guilds/${guildId}/config`)).json()).premium;
  /** Discord's events delivered, then the inbox worked through. */
  const settle = async () => {
    await t.discordBilling.flush({ ignoreBackoff: true });
    await t.app.webhookInbox.work();
  };
  const discordRows = async () =>
    (await t.db.query<{ id: string; provider_subscription_id: string }>(`SELECT id, provider_subscription_id FROM subscriptions WHERE provider = 'discord' ORDER BY id`)).rows;

  it('the checkout is Discord’s store page for the SKU; Discord is on offer; a price not on sale is refused', async () => {
    expect((await browser.get('/api/billing/providers')).json()).toMatchObject({ available: expect.arrayContaining(['discord']) });
    const checkout = await browser.post('/api/billing/discord/checkout', { priceId: SKU });
    expect(checkout.statusCode, checkout.body).toBe(200);
    expect(RedirectCheckoutAnswer.parse(checkout.json())).toEqual({ url: `${t.config.discord.origin}/application-directory/${t.config.discord.clientId}/store/${SKU}` });
    expect(t.config.discord.origin).toBe(`${PUBLIC_URL}/sandbox/discord`);
    // The store knows Ava holds it already (the demo's subscription): she cannot buy it twice.
    const page = await t.app.inject({ method: 'GET', url: `${pathOf(checkout.json().url)}?login_hint=${ava.id}` });
    expect(page.body).toContain('You already have Tickety Premium');
    expect((await browser.post('/api/billing/discord/checkout', { priceId: 'pri_premium_monthly' })).statusCode).toBe(400);
    expect((await browser.post('/api/billing/discord/checkout', { priceId: '1399999999999999999' })).statusCode).toBe(400);
  });

  it('the seeded demo entitlement reconciles to the seed’s subscription, its slot on Ava’s Arcade unchanged', async () => {
    expect(t.discordBilling.entitlements()).toEqual([expect.objectContaining({ id: DEMO_DISCORD_ENTITLEMENT.id, user_id: ava.id, sku_id: SKU, deleted: false, ends_at: null })]);
    expect(DEMO_SUBSCRIPTION.providerSubscriptionId).toBe(DEMO_DISCORD_ENTITLEMENT.id);
    const report = await t.app.billingReconciler.run();
    // The seed's row is the entitlement's: described anew (Discord gives a renewing entitlement no end), not a second one.
    expect(report).toEqual({ read: 1, healed: 1, failed: 0 });
    expect(await discordRows()).toEqual([{ id: DEMO_SUBSCRIPTION.id, provider_subscription_id: DEMO_DISCORD_ENTITLEMENT.id }]);
    const { rows } = await t.db.query<{ provider_version: string | null }>(`SELECT provider_version::text AS provider_version FROM subscriptions WHERE id = $1`, [DEMO_SUBSCRIPTION.id]);
    expect(rows[0]!.provider_version).not.toBeNull();
    expect(await subscription(DEMO_DISCORD_ENTITLEMENT.id)).toMatchObject({
      userId: ava.id,
      status: 'active',
      premium: true,
      planName: 'Premium',
      interval: 'month',
      cancelAtPeriodEnd: false,
      actions: [],
      slots: [{ slot: 1, guildId: ARCADE, guildName: "Ava's Arcade" }],
    });
    expect(await serverPremium(ARCADE)).toBe(true);
    // Nothing new: another pass changes nothing.
    t.clock.advance(MINUTE);
    expect(await t.app.billingReconciler.run()).toMatchObject({ healed: 0, failed: 0 });
  });

  it('a refund in Discord ends the demo subscription’s premium at once', async () => {
    t.clock.advance(MINUTE);
    t.discordBilling.refund(DEMO_DISCORD_ENTITLEMENT.id);
    await settle();
    expect(await subscription(DEMO_DISCORD_ENTITLEMENT.id)).toMatchObject({ status: 'deleted', premium: false, slots: [{ slot: 1, guildId: ARCADE }] });
    expect(await serverPremium(ARCADE)).toBe(false);
    expect(await checkoutStatus()).toEqual({ state: 'activating', subscription: null });
  });

  it('buys in Discord’s store, activates once the event is applied, covers a server, shows no actions nor receipts; cancelled in Discord, premium ends at ends_at', async () => {
    const { entitlementId, subscriptionId } = await buy();
    // Discord has sold it; its ENTITLEMENT_CREATE is delivered (stored), not applied yet.
    await t.discordBilling.flush({ ignoreBackoff: true });
    expect(t.discordBilling.deliveries().at(-1)).toMatchObject({ type: 'ENTITLEMENT_CREATE', entitlementId, state: 'delivered', lastStatus: 204 });
    expect(await checkoutStatus()).toEqual({ state: 'activating', subscription: null });
    await t.app.webhookInbox.work();
    const status = await checkoutStatus();
    expect(status).toMatchObject({ state: 'active', subscription: { provider: 'discord', id: entitlementId, userId: ava.id, planName: 'Premium', interval: 'month', status: 'active', premium: true } });

    // Managed in Discord: no actions here, no receipts; an action asked for anyway is refused.
    expect(await subscription(entitlementId)).toMatchObject({ actions: [], cancelAtPeriodEnd: false, slots: [{ slot: 1, guildId: null }] });
    const invoices = await browser.get(`/api/billing/subscriptions/discord/${entitlementId}/invoices`);
    expect(invoices.statusCode, invoices.body).toBe(200);
    expect(BillingInvoicesAnswer.parse(invoices.json())).toEqual({ available: false, invoices: [] });
    expect((await browser.post(`/api/billing/subscriptions/discord/${entitlementId}/cancel`)).statusCode).toBe(400);
    expect((await browser.post(`/api/billing/subscriptions/discord/${entitlementId}/portal`)).statusCode).toBe(400);

    // The slot goes on Pixel Pals: its panel limit rises.
    const put = await browser.request('PUT', `/api/guilds/${PALS}/premium`, {
      headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN },
      payload: { provider: 'discord', subscriptionId: entitlementId, slot: 1 },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(ServerConfigAnswer.parse((await browser.get(`/api/guilds/${PALS}/config`)).json())).toMatchObject({ premium: true, panelLimit: 50 });

    // Cancelled in Discord's settings: Discord sends nothing now, premium lasts to the period's end.
    await cancelInDiscord(subscriptionId);
    expect(t.discordBilling.subscriptions().find((s) => s.id === subscriptionId)).toMatchObject({ status: 2, canceled_at: expect.any(String) });
    await settle();
    expect(await subscription(entitlementId)).toMatchObject({ status: 'active', premium: true });

    // A minute before the period's end: still premium, nothing sent.
    const events = t.discordBilling.deliveries().length;
    t.clock.set(Date.parse(t.discordBilling.subscriptions().find((s) => s.id === subscriptionId)!.current_period_end) - MINUTE);
    t.discordBilling.tick();
    await signIn(browser, ava.id);
    await settle();
    expect(t.discordBilling.deliveries()).toHaveLength(events);
    expect(await serverPremium(PALS)).toBe(true);

    // The period ends: ENTITLEMENT_UPDATE with ends_at, and premium is over.
    const end = await toPeriodEnd(subscriptionId);
    expect(t.discordBilling.deliveries().at(-1)).toMatchObject({ type: 'ENTITLEMENT_UPDATE', entitlementId });
    await settle();
    expect(await subscription(entitlementId)).toMatchObject({ status: 'ended', premium: false, cancelAtPeriodEnd: true, currentPeriodEnd: new Date(end).toISOString() });
    expect(await serverPremium(PALS)).toBe(false);
    const { rows } = await t.db.query<{ access_ends_at: Date }>(`SELECT access_ends_at FROM subscriptions WHERE provider_subscription_id = $1`, [entitlementId]);
    expect(new Date(rows[0]!.access_ends_at).toISOString()).toBe(new Date(end).toISOString());
  });

  it('Discord at its worst (every event twice, out of order, the first attempts failing): one subscription, ended as the newest event says', async () => {
    t.discordBilling.pause();
    t.discordBilling.setChaos({ duplicate: 1, shuffle: true, failFirst: 3 });
    try {
      const { entitlementId, subscriptionId } = await buy();
      await cancelInDiscord(subscriptionId);
      const end = await toPeriodEnd(subscriptionId);
      // Both events wait together: delivered in random order, each twice, after failures.
      for (let i = 0; i < 3; i++) await settle();
      const mine = t.discordBilling.deliveries().filter((d) => d.entitlementId === entitlementId);
      expect(mine.map((d) => d.type).sort()).toEqual(['ENTITLEMENT_CREATE', 'ENTITLEMENT_UPDATE']);
      expect(mine.every((d) => d.state === 'delivered' && d.duplicates === 1)).toBe(true);
      expect(mine.reduce((sum, d) => sum + d.attempts, 0)).toBe(2 + 3);
      expect((await t.db.query(`SELECT 1 FROM subscriptions WHERE provider_subscription_id = $1`, [entitlementId])).rows).toHaveLength(1);
      const { rows: events } = await t.db.query<{ event_type: string; state: string }>(`SELECT event_type, state FROM webhook_events WHERE subject = $1 ORDER BY event_type`, [entitlementId]);
      expect(events).toEqual([
        { event_type: 'ENTITLEMENT_CREATE', state: 'applied' },
        { event_type: 'ENTITLEMENT_UPDATE', state: 'applied' },
      ]);
      expect(await subscription(entitlementId)).toMatchObject({ status: 'ended', premium: false, cancelAtPeriodEnd: true, currentPeriodEnd: new Date(end).toISOString() });
    } finally {
      t.discordBilling.setChaos({ duplicate: 0, shuffle: false, failFirst: 0 });
      t.discordBilling.resume();
    }
  });

  it('reconciliation heals events that never came: a purchase Discord never told us about, and a refund', async () => {
    const dropAll = () => {
      for (const d of t.discordBilling.deliveries()) if (d.state === 'pending') t.discordBilling.drop(d.id);
    };
    t.discordBilling.pause();
    const { entitlementId } = await buy();
    dropAll();
    t.discordBilling.resume();
    await settle();
    expect((await browser.get(`/api/billing/subscriptions/discord/${entitlementId}`)).statusCode).toBe(404);
    expect(await checkoutStatus()).toEqual({ state: 'activating', subscription: null });

    t.clock.advance(MINUTE);
    const healed = await t.app.billingReconciler.run();
    expect(healed).toMatchObject({ healed: 1, failed: 0 });
    expect(healed.read).toBe(t.discordBilling.entitlements().length);
    expect(await subscription(entitlementId)).toMatchObject({ status: 'active', premium: true, planName: 'Premium', userId: ava.id });
    expect(await checkoutStatus()).toMatchObject({ state: 'active', subscription: { id: entitlementId } });

    // Refunded, its ENTITLEMENT_DELETE lost: the next pass finds it; a pass with nothing new changes nothing.
    t.clock.advance(MINUTE);
    t.discordBilling.pause();
    t.discordBilling.refund(entitlementId);
    dropAll();
    t.discordBilling.resume();
    await settle();
    expect(await subscription(entitlementId)).toMatchObject({ status: 'active', premium: true });
    t.clock.advance(MINUTE);
    expect(await t.app.billingReconciler.run()).toMatchObject({ healed: 1, failed: 0 });
    expect(await subscription(entitlementId)).toMatchObject({ status: 'deleted', premium: false });
    t.clock.advance(MINUTE);
    expect(await t.app.billingReconciler.run()).toMatchObject({ healed: 0, failed: 0 });
    // Every Discord subscription stored once, the seed's still under its own id.
    expect((await discordRows()).map((r) => r.provider_subscription_id).sort()).toEqual(t.discordBilling.entitlements().map((e) => e.id).sort());
    expect(await discordRows()).toContainEqual({ id: DEMO_SUBSCRIPTION.id, provider_subscription_id: DEMO_DISCORD_ENTITLEMENT.id });
  });
  it('reconciliation reads every page of entitlements (100 a page): test grants beyond the first page are stored too', async () => {
    // Test entitlements (Discord's test grants: no dates, no subscription) for 120 users.
    const grant = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: `/sandbox/discord/api/v10/applications/${t.config.discord.clientId}/entitlements`,
        headers: { authorization: `Bot ${t.config.discord.botToken}`, 'content-type': 'application/json' },
        payload: { sku_id: SKU, owner_id: String(1_500_000_000_000_000_000n + BigInt(i)), owner_type: 2 },
      });
    for (let i = 0; i < 120; i++) {
      let res = await grant(i);
      // Discord's rate limit on the route: wait (on the shared clock) as it says, then again.
      if (res.statusCode === 429) {
        t.clock.advance(Math.ceil(Number(res.json().retry_after) * 1000));
        res = await grant(i);
      }
      expect(res.statusCode, res.body).toBe(200);
    }
    for (const d of t.discordBilling.deliveries()) if (d.state === 'pending') t.discordBilling.drop(d.id);
    t.clock.advance(MINUTE);
    const all = t.discordBilling.entitlements();
    expect(all.length).toBeGreaterThan(120);
    expect(await t.app.billingReconciler.run()).toEqual({ read: all.length, healed: 120, failed: 0 });
    const { rows } = await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM subscriptions WHERE provider = 'discord' AND status = 'active' AND user_id LIKE '15%'`);
    expect(Number(rows[0]!.n)).toBe(120);
  });
});
