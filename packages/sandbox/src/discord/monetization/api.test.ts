import { describe, expect, test } from 'vitest';
import { APP_ID, AVA, AVAS_ARCADE, BEN, CONSUMABLE_SKU_ID, DAY, GUILD_SKU_ID, SKU_ID, useHarness } from './test-helpers';

const setup = useHarness();
const ENTS = `/applications/${APP_ID}/entitlements`;

describe('bot auth, errors and rate-limit headers', () => {
  test('every route requires the bot token (401 { message, code })', async () => {
    const sandbox = await setup();
    for (const [method, path] of [
      ['GET', `/applications/${APP_ID}/skus`],
      ['GET', ENTS],
      ['GET', `${ENTS}/1`],
      ['POST', `${ENTS}/1/consume`],
      ['POST', ENTS],
      ['DELETE', `${ENTS}/1`],
      ['GET', `/skus/${SKU_ID}/subscriptions?user_id=${AVA}`],
      ['GET', `/skus/${SKU_ID}/subscriptions/1`],
    ] as const) {
      for (const auth of [null, 'Bot wrong-token', 'Bearer x']) {
        const res = await sandbox.api(method, path, undefined, auth);
        expect(res.statusCode, `${method} ${path} ${auth}`).toBe(401);
        expect(res.json()).toEqual({ message: '401: Unauthorized', code: 0 });
      }
    }
  });

  test('answers carry the rate-limit headers; another application is Missing Access', async () => {
    const sandbox = await setup();
    const res = await sandbox.api('GET', `/applications/${APP_ID}/skus`);
    expect(res.statusCode).toBe(200);
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-reset-after', 'x-ratelimit-bucket']) expect(res.headers[name]).toBeDefined();
    const other = await sandbox.api('GET', '/applications/1234567890123456789/entitlements');
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ message: 'Missing Access', code: 50001 });
  });

  test('the sandbox rate limit applies (429 with retry_after)', async () => {
    const sandbox = await setup();
    sandbox.sandbox.setRateLimit({ limit: 2, windowSeconds: 60 });
    await sandbox.api('GET', ENTS);
    await sandbox.api('GET', ENTS);
    const res = await sandbox.api('GET', ENTS);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ message: 'You are being rate limited.', global: false });
  });
});

describe('SKUs', () => {
  test('each subscription SKU comes with its SUBSCRIPTION_GROUP twin (type 6)', async () => {
    const sandbox = await setup();
    const skus = (await sandbox.api('GET', `/applications/${APP_ID}/skus`)).json();
    expect(skus.map((s: { id: string; type: number }) => [s.id, s.type])).toEqual([
      [SKU_ID, 5],
      [String(BigInt(SKU_ID) + 1n), 6],
      [GUILD_SKU_ID, 5],
      [String(BigInt(GUILD_SKU_ID) + 1n), 6],
      [CONSUMABLE_SKU_ID, 3],
    ]);
    expect(skus[0]).toEqual({
      id: SKU_ID,
      type: 5,
      dependent_sku_id: null,
      application_id: APP_ID,
      manifest_labels: null,
      access_type: 1,
      name: 'Tickety Premium',
      features: [],
      release_date: null,
      premium: false,
      slug: 'tickety-premium',
      flags: 260,
      show_age_gate: false,
    });
  });
});

describe('entitlements', () => {
  test('list filters: user_id, guild_id, sku_ids, exclude_ended, exclude_deleted; get by id', async () => {
    const sandbox = await setup();
    await sandbox.buy(AVA);
    sandbox.advance(1000);
    await sandbox.buy(BEN);
    sandbox.advance(1000);
    await sandbox.buy(AVA, GUILD_SKU_ID, { guild_id: AVAS_ARCADE });
    const all = (await sandbox.api('GET', ENTS)).json();
    expect(all).toHaveLength(3);
    expect(all.map((e: { id: string }) => e.id)).toEqual([...all.map((e: { id: string }) => e.id)].sort());
    expect((await sandbox.api('GET', `${ENTS}?user_id=${AVA}`)).json()).toHaveLength(2);
    expect((await sandbox.api('GET', `${ENTS}?guild_id=${AVAS_ARCADE}`)).json()).toMatchObject([{ sku_id: GUILD_SKU_ID }]);
    expect((await sandbox.api('GET', `${ENTS}?sku_ids=${SKU_ID}`)).json()).toHaveLength(2);
    expect((await sandbox.api('GET', `${ENTS}?sku_ids=${SKU_ID},${GUILD_SKU_ID}&user_id=${AVA}`)).json()).toHaveLength(2);
    const one = await sandbox.api('GET', `${ENTS}/${all[1].id}`);
    expect(one.json()).toEqual(all[1]);
    expect((await sandbox.api('GET', `${ENTS}/1`)).json()).toEqual({ message: 'Unknown Entitlement', code: 10029 });
    // Ava's user subscription ends: included by default, left out with exclude_ended.
    sandbox.control.cancelSubscription(all[0].subscription_id);
    sandbox.advance(31 * DAY);
    expect((await sandbox.api('GET', `${ENTS}?user_id=${AVA}`)).json()).toHaveLength(2);
    expect((await sandbox.api('GET', `${ENTS}?user_id=${AVA}&exclude_ended=true`)).json()).toHaveLength(1);
    expect((await sandbox.api('GET', `${ENTS}?user_id=${AVA}&exclude_ended=True`)).json()).toHaveLength(1);
    sandbox.control.refund(all[1].id);
    expect((await sandbox.api('GET', ENTS)).json()).toHaveLength(2);
    expect((await sandbox.api('GET', `${ENTS}?exclude_deleted=false`)).json()).toHaveLength(3);
    expect((await sandbox.api('GET', `${ENTS}?exclude_deleted=0`)).json()).toHaveLength(3);
  });

  test('paging: limit (1-100, default 100), after, before', async () => {
    const sandbox = await setup();
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) {
      ids.push((await sandbox.api('POST', ENTS, { sku_id: CONSUMABLE_SKU_ID, owner_id: String(2000000000000000000n + BigInt(n)), owner_type: 2 })).json().id);
      sandbox.advance(10);
    }
    const page = async (q: string) => (await sandbox.api('GET', `${ENTS}?${q}`)).json().map((e: { id: string }) => e.id);
    expect(await page('limit=2')).toEqual(ids.slice(0, 2));
    expect(await page(`limit=2&after=${ids[1]}`)).toEqual(ids.slice(2, 4));
    expect(await page(`limit=2&before=${ids[4]}`)).toEqual(ids.slice(2, 4));
    expect(await page(`after=${ids[0]}&before=${ids[3]}`)).toEqual(ids.slice(1, 3));
    for (const [query, code] of [
      ['limit=0', 'NUMBER_TYPE_MIN'],
      ['limit=101', 'NUMBER_TYPE_MAX'],
      ['limit=x', 'NUMBER_TYPE_COERCE'],
      ['after=abc', 'NUMBER_TYPE_COERCE'],
      ['exclude_ended=maybe', 'BASE_TYPE_BOOLEAN'],
      ['sku_ids=1,x', 'NUMBER_TYPE_COERCE'],
    ] as const) {
      const res = await sandbox.api('GET', `${ENTS}?${query}`);
      expect(res.statusCode, query).toBe(400);
      const body = res.json();
      expect(body).toMatchObject({ message: 'Invalid Form Body', code: 50035 });
      expect(JSON.stringify(body.errors)).toContain(code);
    }
  });

  test('test entitlements: POST grants type 4 without dates (ENTITLEMENT_CREATE), DELETE only them (204, ENTITLEMENT_DELETE)', async () => {
    const sandbox = await setup();
    const res = await sandbox.api('POST', ENTS, { sku_id: SKU_ID, owner_id: BEN, owner_type: 2 });
    expect(res.statusCode).toBe(200);
    const created = res.json();
    expect(created).toEqual({
      id: expect.stringMatching(/^\d+$/),
      sku_id: SKU_ID,
      application_id: APP_ID,
      user_id: BEN,
      promotion_id: null,
      type: 4,
      deleted: false,
      gift_code_flags: 0,
      consumed: false,
    });
    expect((await sandbox.api('GET', `${ENTS}/${created.id}`)).json()).toMatchObject({ type: 4, starts_at: null, ends_at: null });
    const again = await sandbox.api('POST', ENTS, { sku_id: SKU_ID, owner_id: BEN, owner_type: 2 });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: 'An entitlement has already been granted for this resource', code: 40074 });
    const guild = (await sandbox.api('POST', ENTS, { sku_id: GUILD_SKU_ID, owner_id: AVAS_ARCADE, owner_type: 1 })).json();
    expect(guild).toMatchObject({ guild_id: AVAS_ARCADE, type: 4 });
    expect(guild.user_id).toBeUndefined();
    // A purchased entitlement cannot be deleted.
    await sandbox.buy(AVA);
    const bought = sandbox.control.entitlements().find((e) => e.type === 8)!;
    const refused = await sandbox.api('DELETE', `${ENTS}/${bought.id}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: 'You can only delete sandbox entitlements.', code: 40019 });
    const del = await sandbox.api('DELETE', `${ENTS}/${created.id}`);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect((await sandbox.api('DELETE', `${ENTS}/${created.id}`)).statusCode).toBe(404);
    await sandbox.control.flush();
    expect(sandbox.receiver.types()).toEqual(['ENTITLEMENT_CREATE', 'ENTITLEMENT_CREATE', 'ENTITLEMENT_CREATE', 'ENTITLEMENT_DELETE']);
    const test = sandbox.receiver.events()[0]!.data;
    expect(test).not.toHaveProperty('starts_at');
    expect(test).not.toHaveProperty('subscription_id');
  });

  test('POST body errors: Discord 50035 / 50109 / unknown SKU, and nothing changes', async () => {
    const sandbox = await setup();
    const missing = await sandbox.api('POST', ENTS, { sku_id: SKU_ID });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 50035, errors: { owner_id: { _errors: [{ code: 'BASE_TYPE_REQUIRED' }] }, owner_type: { _errors: [{ code: 'BASE_TYPE_REQUIRED' }] } } });
    expect((await sandbox.api('POST', ENTS, { sku_id: SKU_ID, owner_id: BEN, owner_type: 3 })).json()).toMatchObject({ errors: { owner_type: { _errors: [{ code: 'ENUM_TYPE_COERCE' }] } } });
    const badJson = await sandbox.app.inject({ method: 'POST', url: `/sandbox/discord/api/v10${ENTS}`, headers: { authorization: `Bot ${'sandbox-bot-token-not-a-real-token'}`, 'content-type': 'application/json' }, payload: '{nope' });
    expect(badJson.json()).toEqual({ message: 'The request body contains invalid JSON.', code: 50109 });
    const unknown = await sandbox.api('POST', ENTS, { sku_id: '1', owner_id: BEN, owner_type: 2 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Unknown SKU', code: 10027 });
    expect(sandbox.control.entitlements()).toEqual([]);
  });

  test('consume: 204 for a consumable, Discord 40018 otherwise', async () => {
    const sandbox = await setup();
    const card = (await sandbox.api('POST', ENTS, { sku_id: CONSUMABLE_SKU_ID, owner_id: AVA, owner_type: 2 })).json();
    const res = await sandbox.api('POST', `${ENTS}/${card.id}/consume`);
    expect(res.statusCode).toBe(204);
    expect((await sandbox.api('GET', `${ENTS}/${card.id}`)).json()).toMatchObject({ consumed: true });
    await sandbox.buy(AVA);
    const sub = sandbox.control.entitlements().find((e) => e.type === 8)!;
    const refused = await sandbox.api('POST', `${ENTS}/${sub.id}/consume`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: 'Only consumable SKUs can be consumed.', code: 40018 });
    expect((await sandbox.api('POST', `${ENTS}/1/consume`)).json()).toEqual({ message: 'Unknown Entitlement', code: 10029 });
  });
});

describe('SKU subscriptions', () => {
  test('list by user (required), paging, get by id; Discord objects', async () => {
    const sandbox = await setup();
    await sandbox.buy(AVA);
    const [first] = sandbox.control.subscriptions();
    sandbox.control.cancelSubscription(first!.id);
    sandbox.advance(31 * DAY);
    await sandbox.buy(AVA);
    await sandbox.buy(BEN);
    const path = `/skus/${SKU_ID}/subscriptions`;
    const mine = (await sandbox.api('GET', `${path}?user_id=${AVA}`)).json();
    expect(mine).toHaveLength(2);
    expect(mine[0]).toEqual({
      id: first!.id,
      user_id: AVA,
      sku_ids: [SKU_ID],
      entitlement_ids: first!.entitlement_ids,
      renewal_sku_ids: null,
      current_period_start: '2026-01-15T12:00:00.000000+00:00',
      current_period_end: '2026-02-14T12:00:00.000000+00:00',
      status: 1,
      canceled_at: '2026-01-15T12:00:00.000000+00:00',
    });
    expect(mine[1]).toMatchObject({ status: 0, canceled_at: null });
    expect((await sandbox.api('GET', `${path}?user_id=${AVA}&limit=1`)).json().map((s: { id: string }) => s.id)).toEqual([first!.id]);
    expect((await sandbox.api('GET', `${path}?user_id=${AVA}&after=${first!.id}`)).json()).toHaveLength(1);
    expect((await sandbox.api('GET', `${path}?user_id=${AVA}&before=${mine[1].id}`)).json().map((s: { id: string }) => s.id)).toEqual([first!.id]);
    const required = await sandbox.api('GET', path);
    expect(required.statusCode).toBe(400);
    expect(required.json()).toMatchObject({ code: 50035, errors: { user_id: { _errors: [{ code: 'BASE_TYPE_REQUIRED' }] } } });
    expect((await sandbox.api('GET', `${path}?user_id=${AVA}&limit=101`)).statusCode).toBe(400);
    expect((await sandbox.api('GET', `${path}/${first!.id}`)).json()).toEqual(mine[0]);
    expect((await sandbox.api('GET', `/skus/${GUILD_SKU_ID}/subscriptions/${first!.id}`)).statusCode).toBe(404);
    expect((await sandbox.api('GET', `${path}/1`)).json()).toEqual({ message: '404: Not Found', code: 0 });
    expect((await sandbox.api('GET', `/skus/1/subscriptions?user_id=${AVA}`)).json()).toEqual({ message: 'Unknown SKU', code: 10027 });
  });
});
