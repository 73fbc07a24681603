import { describe, expect, test } from 'vitest';
import { verifyDiscordEvent } from './keys';
import { APP_ID, AVA, AVAS_ARCADE, BEN, DAY, GUILD_SKU_ID, PUBLIC_KEY, SKU_ID, START, until, useHarness } from './test-helpers';

const setup = useHarness();
const STORE = `/application-directory/${APP_ID}/store/${SKU_ID}`;

describe('the store page', () => {
  test('without login_hint lists the demo accounts; with it shows the SKU, its price and the test-card form', async () => {
    const sandbox = await setup();
    const chooser = await sandbox.page(STORE);
    expect(chooser.statusCode).toBe(200);
    expect(chooser.body).toContain(`href="${SKU_ID}?login_hint=${AVA}"`);
    const res = await sandbox.page(`${STORE}?login_hint=ava`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'none'; style-src 'sha256-[^']+'.*form-action 'self'.*frame-ancestors 'none'/);
    expect(res.body).toContain('Tickety Premium');
    expect(res.body).toContain('$4.99 / month');
    expect(res.body).toContain(`name="user_id" value="${AVA}"`);
    expect(res.body).toMatch(/<label for="card_number">Card number<\/label>\s*<input id="card_number" name="card_number"/);
    expect(res.body).toContain('4000 0000 0000 0002');
    expect(res.body).toContain('prefers-color-scheme:dark');
    expect(res.body).not.toMatch(/<script|\son[a-z]+=/i);
  });

  test('a purchase makes an ACTIVE subscription and its entitlement, and sends a signed ENTITLEMENT_CREATE', async () => {
    const sandbox = await setup();
    const res = await sandbox.buy();
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("You're subscribed!");
    await until(() => sandbox.receiver.got.length === 1, 3000, 'ENTITLEMENT_CREATE');
    const received = sandbox.receiver.got[0]!;
    expect(received.contentType).toBe('application/json');
    expect(received.timestamp).toBe(String(Math.floor(START / 1000)));
    expect(verifyDiscordEvent(received.raw, received.timestamp, received.signature, PUBLIC_KEY)).toBe(true);
    expect(received.body).toEqual({
      version: 1,
      application_id: APP_ID,
      type: 1,
      event: {
        type: 'ENTITLEMENT_CREATE',
        timestamp: '2026-01-15T12:00:00.000000',
        data: {
          id: expect.stringMatching(/^\d{17,20}$/),
          sku_id: SKU_ID,
          application_id: APP_ID,
          user_id: AVA,
          promotion_id: null,
          type: 8,
          deleted: false,
          gift_code_flags: 0,
          consumed: false,
          starts_at: '2026-01-15T12:00:00.000000+00:00',
          ends_at: null,
          subscription_id: expect.stringMatching(/^\d{17,20}$/),
        },
      },
    });
    const [sub] = sandbox.control.subscriptions();
    expect(sub).toMatchObject({
      user_id: AVA,
      sku_ids: [SKU_ID],
      entitlement_ids: [received.body.event.data.id],
      status: 0,
      canceled_at: null,
      current_period_start: '2026-01-15T12:00:00.000000+00:00',
      current_period_end: '2026-02-14T12:00:00.000000+00:00',
    });
    expect(sub!.id).toBe(received.body.event.data.subscription_id);
  });

  test('a user who holds the SKU is told so and cannot buy twice', async () => {
    const sandbox = await setup();
    expect((await sandbox.buy()).statusCode).toBe(200);
    const page = await sandbox.page(`${STORE}?login_hint=${AVA}`);
    expect(page.body).toContain('You already have Tickety Premium');
    expect(page.body).not.toContain('name="card_number"');
    const again = await sandbox.buy();
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('You cannot buy it twice');
    expect(sandbox.control.entitlements()).toHaveLength(1);
    // Another user still can.
    expect((await sandbox.buy(BEN)).statusCode).toBe(200);
    expect(sandbox.control.entitlements()).toHaveLength(2);
  });

  test('a declined card or bad input changes nothing and says why', async () => {
    const sandbox = await setup();
    const declined = await sandbox.buy(AVA, SKU_ID, { card_number: '4000 0000 0000 0002' });
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card was declined. Try another card.');
    const bad = await sandbox.buy(AVA, SKU_ID, { card_number: '1234', expiry: '13/29', cvc: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('aria-invalid="true"');
    expect(bad.body).toContain('Enter a valid card number.');
    expect(bad.body).toContain('<a href="#expiry">');
    const nobody = await sandbox.buy('42');
    expect(nobody.statusCode).toBe(400);
    const paid = await sandbox.buy(AVA, SKU_ID, {});
    expect(paid.statusCode).toBe(200);
    await sandbox.control.flush();
    expect(sandbox.receiver.types()).toEqual(['ENTITLEMENT_CREATE']);
    const refused = await sandbox.form(STORE, { user_id: BEN, card_number: '4242424242424242', expiry: '12/29', cvc: '123' }, { 'sec-fetch-site': 'cross-site' });
    expect(refused.statusCode).toBe(403);
    expect(sandbox.control.entitlements()).toHaveLength(1);
  });

  test('unknown SKU, application or account: an error page', async () => {
    const sandbox = await setup();
    expect((await sandbox.page(`/application-directory/${APP_ID}/store/1`)).statusCode).toBe(404);
    expect((await sandbox.page(`/application-directory/1/store/${SKU_ID}`)).statusCode).toBe(404);
    const who = await sandbox.page(`${STORE}?login_hint=nobody`);
    expect(who.statusCode).toBe(400);
    expect(who.body).toContain('is not a demo user');
  });

  test('a guild subscription is bought for one of the buyer’s servers (guild_id on the entitlement)', async () => {
    const sandbox = await setup();
    const store = `/application-directory/${APP_ID}/store/${GUILD_SKU_ID}`;
    const page = await sandbox.page(`${store}?login_hint=${AVA}`);
    expect(page.body).toContain('<label for="guild_id">Server</label>');
    expect(page.body).toContain('€9.99 / year');
    const missing = await sandbox.buy(AVA, GUILD_SKU_ID);
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('Choose one of your servers.');
    expect((await sandbox.buy(AVA, GUILD_SKU_ID, { guild_id: AVAS_ARCADE })).statusCode).toBe(200);
    expect(sandbox.control.entitlements()[0]).toMatchObject({ user_id: AVA, guild_id: AVAS_ARCADE, type: 8 });
    // Ben is a member of Ava's Arcade too: the server already has it.
    expect((await sandbox.buy(BEN, GUILD_SKU_ID, { guild_id: AVAS_ARCADE })).statusCode).toBe(409);
    expect(sandbox.control.subscriptions()[0]!.current_period_end).toBe(new Date(START + 365 * DAY).toISOString().replace('Z', '000+00:00'));
  });
});

describe('the subscription lifecycle', () => {
  const manage = (user: string = AVA) => `/settings/subscriptions?login_hint=${user}`;

  test('cancel → ENDING with canceled_at; at period end ENTITLEMENT_UPDATE with ends_at and INACTIVE', async () => {
    const sandbox = await setup();
    await sandbox.buy();
    const [sub] = sandbox.control.subscriptions();
    const list = await sandbox.page(manage());
    expect(list.body).toContain('Renews on 14 February 2026');
    expect(list.body).toContain(`action="subscriptions/${sub!.id}/cancel"`);
    sandbox.advance(2 * DAY);
    const res = await sandbox.form(`/settings/subscriptions/${sub!.id}/cancel`, { user_id: AVA });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`../../subscriptions?login_hint=${AVA}&done=canceled`);
    expect(sandbox.control.subscriptions()[0]).toMatchObject({ status: 2, canceled_at: '2026-01-17T12:00:00.000000+00:00' });
    expect((await sandbox.page(manage())).body).toContain('Ends on 14 February 2026');
    await sandbox.control.flush();
    expect(sandbox.receiver.types()).toEqual(['ENTITLEMENT_CREATE']);
    // Still entitled until the period ends.
    const active = await sandbox.api('GET', `/applications/${APP_ID}/entitlements?user_id=${AVA}&exclude_ended=true`);
    expect(active.json()).toHaveLength(1);
    sandbox.advance(28 * DAY);
    // Any request applies what the clock made due.
    await sandbox.api('GET', `/applications/${APP_ID}/skus`);
    await sandbox.control.flush();
    expect(sandbox.receiver.types()).toEqual(['ENTITLEMENT_CREATE', 'ENTITLEMENT_UPDATE']);
    const update = sandbox.receiver.events()[1]!;
    expect(update.data).toMatchObject({ id: sub!.entitlement_ids[0], ends_at: '2026-02-14T12:00:00.000000+00:00', deleted: false });
    expect(sandbox.control.subscriptions()[0]!.status).toBe(1);
    expect((await sandbox.api('GET', `/applications/${APP_ID}/entitlements?user_id=${AVA}&exclude_ended=true`)).json()).toEqual([]);
    expect((await sandbox.page(manage())).body).toContain('Ended on 14 February 2026');
    // Now it can be bought again.
    expect((await sandbox.buy()).statusCode).toBe(200);
  });

  test('undo a cancel before the end: ACTIVE again, canceled_at null, then it renews without an event', async () => {
    const sandbox = await setup();
    await sandbox.buy();
    const [sub] = sandbox.control.subscriptions();
    await sandbox.form(`/settings/subscriptions/${sub!.id}/cancel`, { user_id: AVA });
    expect((await sandbox.page(manage())).body).toContain(`action="subscriptions/${sub!.id}/uncancel"`);
    const res = await sandbox.form(`/settings/subscriptions/${sub!.id}/uncancel`, { user_id: AVA });
    expect(res.statusCode).toBe(303);
    expect(sandbox.control.subscriptions()[0]).toMatchObject({ status: 0, canceled_at: null });
    sandbox.advance(31 * DAY);
    sandbox.control.tick();
    expect(sandbox.control.subscriptions()[0]).toMatchObject({
      status: 0,
      current_period_start: '2026-02-14T12:00:00.000000+00:00',
      current_period_end: '2026-03-16T12:00:00.000000+00:00',
    });
    expect(sandbox.control.entitlements()[0]).toMatchObject({ ends_at: null, deleted: false });
    await sandbox.control.flush();
    expect(sandbox.receiver.types()).toEqual(['ENTITLEMENT_CREATE']);
  });

  test('someone else cannot cancel it; an ended one cannot be uncanceled', async () => {
    const sandbox = await setup();
    await sandbox.buy();
    const [sub] = sandbox.control.subscriptions();
    expect((await sandbox.form(`/settings/subscriptions/${sub!.id}/cancel`, { user_id: BEN })).statusCode).toBe(404);
    expect(sandbox.control.subscriptions()[0]!.status).toBe(0);
    sandbox.control.cancelSubscription(sub!.id);
    sandbox.advance(31 * DAY);
    const late = await sandbox.form(`/settings/subscriptions/${sub!.id}/uncancel`, { user_id: AVA });
    expect(late.statusCode).toBe(400);
    expect(late.body).toContain('This subscription has ended.');
  });

  test('refund(entitlementId): deleted, ENTITLEMENT_DELETE, subscription INACTIVE', async () => {
    const sandbox = await setup();
    await sandbox.buy();
    const [ent] = sandbox.control.entitlements();
    const refunded = sandbox.control.refund(ent!.id);
    expect(refunded).toMatchObject({ id: ent!.id, deleted: true });
    await sandbox.control.flush();
    expect(sandbox.receiver.types()).toEqual(['ENTITLEMENT_CREATE', 'ENTITLEMENT_DELETE']);
    expect(sandbox.receiver.events()[1]!.data).toMatchObject({ id: ent!.id, deleted: true, type: 8 });
    expect(sandbox.control.subscriptions()[0]!.status).toBe(1);
    expect((await sandbox.api('GET', `/applications/${APP_ID}/entitlements`)).json()).toEqual([]);
    expect((await sandbox.api('GET', `/applications/${APP_ID}/entitlements?exclude_deleted=false`)).json()).toHaveLength(1);
    expect((await sandbox.page(manage())).body).toContain('Refunded');
    expect(() => sandbox.control.refund(ent!.id)).toThrow(/already deleted/);
  });

  test('the settings page without an account lists the demo accounts', async () => {
    const sandbox = await setup();
    const res = await sandbox.page('/settings/subscriptions');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`href="subscriptions?login_hint=${AVA}"`);
    const empty = await sandbox.page(manage(BEN));
    expect(empty.body).toContain('You have no app subscriptions.');
    expect(empty.body).toContain(`store/${SKU_ID}?login_hint=${BEN}`);
  });
});
