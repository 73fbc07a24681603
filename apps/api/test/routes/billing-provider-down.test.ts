import { ApiError } from '@tickety/api-contract';
import { DEMO_USERS } from '@tickety/sandbox';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app';
import { insertSubscriptions } from '../helpers/billing';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';

const { ava } = DEMO_USERS;
/** Nothing listens there: a real refused connection, as when a provider is down. */
const DOWN = 'http://127.0.0.1:9';

describe.each(databases())('a payment provider that does not answer, on $name', (database) => {
  const t = useTestApp(database, {
    env: { FASTSPRING_API_URL: DOWN, FASTSPRING_API_PASSWORD: 'fs-password-never-logged', CHARGEBEE_API_URL: `${DOWN}/api/v2`, CHARGEBEE_API_KEY: 'cb-key-never-logged' },
  });

  it('answers 502 code 1024 from the catalogue, changes nothing, and logs why without the credentials', async () => {
    await insertSubscriptions(t.db, [
      { id: 'down-fs', userId: ava.id, provider: 'fastspring', providerId: 'fs_down', status: 'active', premium: true, servers: [] },
      { id: 'down-cb', userId: ava.id, provider: 'chargebee', providerId: 'cb_down', status: 'active', premium: true, servers: [] },
    ]);
    await t.db.query(`UPDATE subscriptions SET plan_id = 'premium', billing_interval = 'month' WHERE id LIKE 'down-%'`);
    const browser = new Browser(t.app);
    await signIn(browser, ava.id);
    for (const [provider, id] of [
      ['fastspring', 'fs_down'],
      ['chargebee', 'cb_down'],
    ]) {
      const res = await browser.post(`/api/billing/subscriptions/${provider}/${id}/cancel`);
      expect(res.statusCode, res.body).toBe(502);
      expect(ApiError.parse(res.json()).code).toBe(1024);
      const receipts = await browser.get(`/api/billing/subscriptions/${provider}/${id}/invoices`);
      expect(receipts.statusCode).toBe(502);
    }
    expect((await t.db.query(`SELECT status, cancel_at_period_end FROM subscriptions WHERE id LIKE 'down-%' ORDER BY id`)).rows).toEqual([
      { status: 'active', cancel_at_period_end: false },
      { status: 'active', cancel_at_period_end: false },
    ]);
    const logged = t.logs.messages('payment provider unavailable');
    expect(logged.length).toBeGreaterThanOrEqual(4);
    expect(logged.every((l) => typeof l.cause === 'string' && (l.cause as string).length > 0)).toBe(true);
    expect(t.logs.text()).not.toContain('fs-password-never-logged');
    expect(t.logs.text()).not.toContain('cb-key-never-logged');
    // Reconciliation goes on past a provider that is down, and says which.
    const report = await t.app.billingReconciler.run();
    expect(report.failed).toBeGreaterThanOrEqual(2);
    const down = t.logs.messages('billing reconciliation: the provider could not be read').map((l) => l.provider);
    expect(down).toEqual(expect.arrayContaining(['fastspring', 'chargebee']));
  });
});

describe.each(databases())('routes that call a provider are limited per session, on $name', (database) => {
  const t = useTestApp(database, { env: { PROVIDER_RATE_LIMIT_MAX: '4' } });

  it('a session past its share gets 429 code 1003 with Retry-After; another session has its own', async () => {
    const first = new Browser(t.app);
    await signIn(first, ava.id);
    const checkout = () => first.post('/api/billing/discord/checkout', { priceId: '1300000000000000801' });
    // Checkout creation: half of PROVIDER_RATE_LIMIT_MAX a minute.
    expect((await checkout()).statusCode).toBe(200);
    expect((await checkout()).statusCode).toBe(200);
    const refused = await checkout();
    expect(refused.statusCode).toBe(429);
    expect(ApiError.parse(refused.json()).code).toBe(1003);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const second = new Browser(t.app);
    await signIn(second, DEMO_USERS.ben.id);
    expect((await second.post('/api/billing/discord/checkout', { priceId: '1300000000000000801' })).statusCode).toBe(200);
  });
});
