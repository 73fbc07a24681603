import { MeResponse } from '@tickety/api-contract';
import { DEMO_USERS } from '@tickety/sandbox';
import { describe, expect, it } from 'vitest';
import { ANONYMOUS } from '../../src/routes/auth/index';
import { useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { SECOND } from '../helpers/clock';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';

const { ava, ben } = DEMO_USERS;
const MAX = 3;

async function me(browser: Browser): Promise<MeResponse> {
  const res = await browser.get('/api/auth/@me');
  expect(res.statusCode).toBe(200);
  return MeResponse.parse(res.json());
}

describe.each(databases())('sessions per user (SESSIONS_PER_USER_MAX) on $name', (database) => {
  const t = useTestApp(database, { env: { SESSIONS_PER_USER_MAX: String(MAX) } });

  it(`signing in ${MAX + 1} times in ${MAX + 1} browsers ends the oldest session only`, async () => {
    const other = new Browser(t.app);
    await signIn(other, ben.id);
    const browsers: Browser[] = [];
    for (let i = 0; i <= MAX; i++) {
      t.clock.advance(SECOND);
      const browser = new Browser(t.app);
      await signIn(browser, ava.id);
      browsers.push(browser);
    }
    const [oldest, ...rest] = browsers;
    expect(await me(oldest!)).toEqual(ANONYMOUS);
    for (const browser of rest) expect((await me(browser)).isAuthenticated).toBe(true);
    expect((await me(other)).isAuthenticated).toBe(true); // another user's sessions are not counted

    const { rows } = await t.db.query<{ revoked_at: unknown; discord_access_token: string | null; discord_refresh_token: string | null }>(
      'SELECT revoked_at, discord_access_token, discord_refresh_token FROM sessions WHERE user_id = $1 ORDER BY created_at',
      [ava.id],
    );
    expect(rows).toHaveLength(MAX + 1);
    expect(rows[0]).toEqual({ revoked_at: expect.anything(), discord_access_token: null, discord_refresh_token: null });
    expect(rows.slice(1).every((r) => r.revoked_at === null && r.discord_access_token !== null)).toBe(true);

    // Once more: the next oldest goes.
    t.clock.advance(SECOND);
    await signIn(new Browser(t.app), ava.id);
    expect(await me(rest[0]!)).toEqual(ANONYMOUS);
    for (const browser of rest.slice(1)) expect((await me(browser)).isAuthenticated).toBe(true);
  });
});
