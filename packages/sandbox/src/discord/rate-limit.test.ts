import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import { DEMO_APP, DEMO_GUILDS, DEMO_USERS } from './demo-data';
import { get, type Harness, harness, START, signIn, tokenRequest } from './test-helpers';

let sandbox: Harness | null = null;
afterEach(async () => {
  await sandbox?.app.close();
  sandbox = null;
});

const BOT = `Bot ${DEMO_APP.botToken}`;

function limits(res: LightMyRequestResponse) {
  return {
    limit: Number(res.headers['x-ratelimit-limit']),
    remaining: Number(res.headers['x-ratelimit-remaining']),
    reset: Number(res.headers['x-ratelimit-reset']),
    resetAfter: Number(res.headers['x-ratelimit-reset-after']),
    bucket: String(res.headers['x-ratelimit-bucket']),
  };
}

describe('rate-limit headers', () => {
  test('on every REST answer, success or error, with the remaining count going down', async () => {
    sandbox = await harness();
    const tokens = await signIn(sandbox.app, DEMO_USERS.ava.id);
    const first = await get(sandbox.app, '/users/@me', `Bearer ${tokens.access_token}`);
    const second = await get(sandbox.app, '/users/@me', `Bearer ${tokens.access_token}`);
    expect(limits(first)).toMatchObject({ limit: 100, remaining: 99, resetAfter: 1 });
    expect(limits(first).reset).toBe(START / 1000 + 1);
    expect(limits(first).bucket).toMatch(/^[0-9a-f]{32}$/);
    expect(limits(second).remaining).toBe(98);
    expect(limits(second).bucket).toBe(limits(first).bucket);

    const unauthorized = await get(sandbox.app, '/users/@me', 'Bearer nope');
    expect(unauthorized.statusCode).toBe(401);
    expect(limits(unauthorized)).toMatchObject({ limit: 100, remaining: 99 });
    const token = await tokenRequest(sandbox.app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(token.headers['x-ratelimit-bucket']).toMatch(/^[0-9a-f]{32}$/);
    const guilds = await get(sandbox.app, '/users/@me/guilds', `Bearer ${tokens.access_token}`);
    expect(limits(guilds).bucket).not.toBe(limits(first).bucket);
  });

  test('the CDN and the authorize page carry none', async () => {
    sandbox = await harness();
    const icon = await sandbox.app.inject({ method: 'GET', url: '/sandbox/discord/cdn/embed/avatars/0.png' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['x-ratelimit-limit']).toBeUndefined();
    const page = await sandbox.app.inject({ method: 'GET', url: `/sandbox/discord/oauth2/authorize?client_id=${DEMO_APP.clientId}` });
    expect(page.statusCode).toBe(400);
    expect(page.headers['x-ratelimit-limit']).toBeUndefined();
  });
});

describe('enforced buckets', () => {
  test('a real 429 with Retry-After, scope and Discord\'s body once the bucket is empty; refills after the window', async () => {
    sandbox = await harness({ rateLimit: { limit: 2, windowSeconds: 5 } });
    const tokens = await signIn(sandbox.app, DEMO_USERS.ava.id);
    const auth = `Bearer ${tokens.access_token}`;
    expect((await get(sandbox.app, '/users/@me/guilds', auth)).statusCode).toBe(200);
    sandbox.tick(1500);
    const last = await get(sandbox.app, '/users/@me/guilds', auth);
    expect(last.statusCode).toBe(200);
    expect(limits(last)).toMatchObject({ limit: 2, remaining: 0, resetAfter: 3.5 });

    const limited = await get(sandbox.app, '/users/@me/guilds', auth);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('4');
    expect(limited.headers['x-ratelimit-scope']).toBe('user');
    expect(limited.headers['x-ratelimit-global']).toBeUndefined();
    expect(limits(limited)).toMatchObject({ limit: 2, remaining: 0, resetAfter: 3.5 });
    expect(limited.json()).toEqual({ message: 'You are being rate limited.', retry_after: 3.5, global: false });
    expect(sandbox.control.requests('/api/v10/users/@me/guilds').map((r) => [r.status, r.rateLimited])).toEqual([
      [200, false],
      [200, false],
      [429, true],
    ]);

    // Another route, another token: other buckets.
    expect((await get(sandbox.app, '/users/@me', auth)).statusCode).toBe(200);
    const ben = await signIn(sandbox.app, DEMO_USERS.ben.id);
    expect((await get(sandbox.app, '/users/@me/guilds', `Bearer ${ben.access_token}`)).statusCode).toBe(200);

    sandbox.tick(3500);
    const refilled = await get(sandbox.app, '/users/@me/guilds', auth);
    expect(refilled.statusCode).toBe(200);
    expect(limits(refilled).remaining).toBe(1);
  });

  test('the guild id is a major parameter: each guild has its own bucket', async () => {
    sandbox = await harness({ rateLimit: { limit: 1, windowSeconds: 10 } });
    const arcade = await get(sandbox.app, `/guilds/${DEMO_GUILDS.avasArcade.id}`, BOT);
    expect(arcade.statusCode).toBe(200);
    expect((await get(sandbox.app, `/guilds/${DEMO_GUILDS.avasArcade.id}`, BOT)).statusCode).toBe(429);
    const pals = await get(sandbox.app, `/guilds/${DEMO_GUILDS.pixelPals.id}`, BOT);
    expect(pals.statusCode).toBe(200);
    // Like Discord, the bucket id names the route, not the guild.
    expect(pals.headers['x-ratelimit-bucket']).toBe(arcade.headers['x-ratelimit-bucket']);
  });

  test('control.setRateLimit tightens the limit at run time and reset() restores it', async () => {
    sandbox = await harness();
    sandbox.control.setRateLimit({ limit: 1 });
    expect((await get(sandbox.app, '/users/@me', BOT)).statusCode).toBe(200);
    expect((await get(sandbox.app, '/users/@me', BOT)).statusCode).toBe(429);
    sandbox.control.reset();
    const res = await get(sandbox.app, '/users/@me', BOT);
    expect(res.statusCode).toBe(200);
    expect(limits(res)).toMatchObject({ limit: 100, remaining: 99 });
  });

  test('the token endpoint is limited per client', async () => {
    sandbox = await harness({ rateLimit: { limit: 1, windowSeconds: 60 } });
    const tokenResponse = sandbox.control.issueTokens('ava');
    expect((await tokenRequest(sandbox.app, { grant_type: 'refresh_token', refresh_token: tokenResponse.refresh_token })).statusCode).toBe(200);
    const limited = await tokenRequest(sandbox.app, { grant_type: 'refresh_token', refresh_token: tokenResponse.refresh_token });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().retry_after).toBe(60);
  });
});
