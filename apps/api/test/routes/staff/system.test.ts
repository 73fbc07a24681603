import { ApiError } from '@tickety/api-contract';
import { DEMO_USERS } from '@tickety/sandbox';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_ORIGIN, useTestApp } from '../../helpers/app';
import { Browser } from '../../helpers/browser';
import { databases } from '../../helpers/db';
import { signIn } from '../../helpers/oauth';

const { ava, ben, cleo, sam } = DEMO_USERS;

describe.each(databases())('Staff: webhook queues and dead letters (/api/staff/webhooks) on $name', (database) => {
  const t = useTestApp(database);
  const as = async (userId: string) => {
    const browser = new Browser(t.app);
    await signIn(browser, userId);
    return browser;
  };
  const dashboard = { headers: { 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN } };

  /** A dead event (every attempt failed) and two pending ones, one of them retrying. */
  async function seed(): Promise<string[]> {
    await t.db.query('DELETE FROM webhook_events');
    const ids: string[] = [];
    for (const [provider, key, state, attempts] of [
      ['paddle', 'evt_dead_1', 'dead', 8],
      ['chargebee', 'ev_dead_2', 'dead', 8],
      ['fastspring', 'fs_dead_3', 'dead', 8],
      ['paddle', 'evt_pending', 'pending', 0],
      ['paddle', 'evt_retrying', 'pending', 2],
    ] as const) {
      const { rows } = await t.db.query<{ id: string }>(
        `INSERT INTO webhook_events (provider, event_key, event_type, subject, payload, received_at, state, attempts, next_attempt_at, last_error)
         VALUES ($1, $2, 'x.y', null, '{}', now() - interval '1 hour', $3, $4, now() + interval '1 day', CASE WHEN $4 > 0 THEN 'boom' END) RETURNING id::text AS id`,
        [provider, key, state, attempts],
      );
      ids.push(rows[0]!.id);
    }
    return ids;
  }

  it('only staff with DASHBOARD_SUPPORT_SYSTEM_READ read the queues; only …_WRITE replay, audited; nothing written on a refusal', async () => {
    const ids = await seed();
    expect((await new Browser(t.app).get('/api/staff/webhooks')).statusCode).toBe(401);
    const cleo_ = await as(cleo.id);
    const refused = await cleo_.get('/api/staff/webhooks');
    expect(refused.statusCode).toBe(403);
    expect(ApiError.parse(refused.json()).code).toBe(1004);
    // Ben holds the read flag only.
    await t.db.query(`INSERT INTO staff_members (user_id, permissions) VALUES ($1, ARRAY['DASHBOARD_SUPPORT_SYSTEM_READ']) ON CONFLICT (user_id) DO UPDATE SET permissions = EXCLUDED.permissions`, [ben.id]);
    const ben_ = await as(ben.id);
    const res = await ben_.get('/api/staff/webhooks', dashboard);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.queues.find((q: { provider: string }) => q.provider === 'paddle')).toMatchObject({ pending: 2, failing: 1, dead: 1 });
    expect(body.queues.find((q: { provider: string }) => q.provider === 'discord')).toMatchObject({ pending: 0, dead: 0, oldestPendingAt: null });
    expect(body.dead.map((d: { key: string }) => d.key)).toEqual(['fs_dead_3', 'ev_dead_2', 'evt_dead_1']);
    expect(body.dead[0]).toMatchObject({ provider: 'fastspring', attempts: 8, lastError: 'boom' });
    const replay = await ben_.post(`/api/staff/webhooks/${ids[0]}/replay`);
    expect(replay.statusCode).toBe(403);
    expect(ApiError.parse(replay.json()).code).toBe(1004);
    expect((await t.db.query(`SELECT state FROM webhook_events WHERE id = $1`, [ids[0]])).rows[0]).toEqual({ state: 'dead' });

    // Sam (an owner: every flag) replays it: queued again, and the audit says who.
    const sam_ = await as(sam.id);
    const ok = await sam_.post(`/api/staff/webhooks/${ids[0]}/replay`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await t.db.query(`SELECT state, attempts FROM webhook_events WHERE id = $1`, [ids[0]])).rows[0]).toEqual({ state: 'pending', attempts: 0 });
    const audit = await t.db.query<{ staff_id: string; action: string; target: string }>(`SELECT staff_id, action, target FROM staff_audit WHERE action = 'webhook.replay'`);
    expect(audit.rows).toEqual([{ staff_id: sam.id, action: 'webhook.replay', target: `paddle event evt_dead_1 (#${ids[0]})` }]);
    // Again: it is not dead any more (404, nothing written); a pending one is not replayed either.
    expect((await sam_.post(`/api/staff/webhooks/${ids[0]}/replay`)).statusCode).toBe(404);
    expect((await sam_.post(`/api/staff/webhooks/${ids[3]}/replay`)).statusCode).toBe(404);
    expect((await t.db.query(`SELECT 1 FROM staff_audit WHERE action = 'webhook.replay'`)).rows).toHaveLength(1);
    // From another site: refused, nothing replayed.
    expect((await sam_.post(`/api/staff/webhooks/${ids[1]}/replay`, undefined, { headers: { origin: 'https://evil.test', 'sec-fetch-site': 'cross-site' } })).statusCode).toBe(403);
    expect((await t.db.query(`SELECT state FROM webhook_events WHERE id = $1`, [ids[1]])).rows[0]).toEqual({ state: 'dead' });
    // Ava is no staff member at all.
    expect((await (await as(ava.id)).post(`/api/staff/webhooks/${ids[1]}/replay`)).statusCode).toBe(403);
  });

  it('pages the dead letters by cursor, filters by provider, refuses bad queries', async () => {
    await seed();
    const sam_ = await as(sam.id);
    const first = (await sam_.get('/api/staff/webhooks?limit=2', dashboard)).json();
    expect(first.dead.map((d: { key: string }) => d.key)).toEqual(['fs_dead_3', 'ev_dead_2']);
    const second = (await sam_.get(`/api/staff/webhooks?limit=2&cursor=${first.nextCursor}`, dashboard)).json();
    expect(second.dead.map((d: { key: string }) => d.key)).toEqual(['evt_dead_1']);
    expect(second.nextCursor).toBeNull();
    const chargebee = (await sam_.get('/api/staff/webhooks?provider=chargebee', dashboard)).json();
    expect(chargebee.dead.map((d: { key: string }) => d.key)).toEqual(['ev_dead_2']);
    for (const q of ['provider=stripe', 'cursor=abc', 'cursor=9999999999999999999', 'limit=0', 'limit=101']) {
      const bad = await sam_.get(`/api/staff/webhooks?${q}`, dashboard);
      expect(bad.statusCode, q).toBe(400);
      expect(ApiError.parse(bad.json()).code).toBe(1001);
    }
  });

  it('System health: the database, shards, this instance\'s recent server errors with request ids, the API\'s version; staff with the read flag only', async () => {
    expect((await new Browser(t.app).get('/api/staff/system')).statusCode).toBe(401);
    expect((await (await as(cleo.id)).get('/api/staff/system')).statusCode).toBe(403);
    const sam_ = await as(sam.id);
    // A real server error: the table the route reads is gone for a moment.
    await t.db.query('ALTER TABLE webhook_events RENAME TO webhook_events_away');
    let failed: Awaited<ReturnType<typeof sam_.get>>;
    try {
      failed = await sam_.get('/api/staff/webhooks', dashboard);
    } finally {
      await t.db.query('ALTER TABLE webhook_events_away RENAME TO webhook_events');
    }
    expect(failed.statusCode).toBe(500);
    const res = await sam_.get('/api/staff/system', dashboard);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.database).toMatchObject({ kind: database.url ? 'postgres' : 'pglite', reachable: true });
    expect(body.database.latencyMs).toBeGreaterThanOrEqual(0);
    expect(body.database.sizeBytes).toBeGreaterThan(0);
    if (database.url) expect(body.database.pool).toMatchObject({ max: expect.any(Number) });
    else expect(body.database.pool).toBeNull();
    expect(body.errors[0]).toMatchObject({ method: 'GET', route: '/api/staff/webhooks', status: 500, code: 1500 });
    expect(body.errors[0].requestId).toBe(String(failed.headers['x-request-id'] ?? body.errors[0].requestId));
    expect(body.api.version).toMatch(/^\d+\.\d+\.\d+/);
    // No REDIS_URL: nothing to show (test/plugins/redis-fallback.test.ts has a Redis).
    expect(body.redis).toBeNull();
    expect(Array.isArray(body.shards)).toBe(true);
  });
});
