import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createSandboxControl } from './control';
import { DEMO_APP, DEMO_GUILDS, DEMO_USERS } from './demo-data';
import { discordSandbox } from './plugin';
import { get, type Harness, harness, PREFIX, signIn, tokenRequest } from './test-helpers';

let sandbox: Harness;
let app: FastifyInstance;

beforeEach(async () => {
  // The HTTP controls are off by default (see "are not mounted by default" below).
  sandbox = await harness({ controlRoutes: true });
  app = sandbox.app;
});
afterEach(async () => {
  vi.useRealTimers();
  await app.close();
});

const BOT = `Bot ${DEMO_APP.botToken}`;
const controlPost = (action: string, body?: unknown) =>
  app.inject({ method: 'POST', url: `${PREFIX}/_control/${action}`, ...(body === undefined ? {} : { payload: body as object }) });

describe('failNext', () => {
  test('fails the next N matching requests with the status, then answers normally', async () => {
    sandbox.control.failNext('GET /api/v10/users/@me/guilds', { status: 503, retryAfter: 7, times: 2 });
    expect(sandbox.control.pendingFaults()).toEqual([{ match: 'GET /api/v10/users/@me/guilds', status: 503, remaining: 2 }]);
    // Other routes are not affected.
    expect((await get(app, '/users/@me', BOT)).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) {
      const res = await get(app, '/users/@me/guilds', BOT);
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('7');
      expect(res.json()).toEqual({ message: '503: Service Unavailable', code: 0 });
    }
    expect((await get(app, '/users/@me/guilds', BOT)).statusCode).toBe(200);
    expect(sandbox.control.pendingFaults()).toEqual([]);
    expect(sandbox.control.requests('/api/v10/users/@me/guilds').map((r) => [r.status, r.fault])).toEqual([
      [503, true],
      [503, true],
      [200, false],
    ]);
  });

  test('an injected 429 looks like Discord\'s: user scope by default, global on request', async () => {
    sandbox.control.failNext('/api/v10/users/@me', { status: 429, retryAfter: 2.5 });
    const user = await get(app, '/users/@me', BOT);
    expect(user.statusCode).toBe(429);
    expect(user.headers['retry-after']).toBe('3');
    expect(user.headers['x-ratelimit-scope']).toBe('user');
    expect(user.headers['x-ratelimit-remaining']).toBe('0');
    expect(user.json()).toEqual({ message: 'You are being rate limited.', retry_after: 2.5, global: false });

    sandbox.control.failNext('*', { status: 429, retryAfter: 0.2, scope: 'global' });
    const global = await get(app, '/users/@me/guilds', BOT);
    expect(global.statusCode).toBe(429);
    expect(global.headers['x-ratelimit-global']).toBe('true');
    expect(global.headers['x-ratelimit-scope']).toBe('global');
    expect(global.json()).toEqual({ message: 'You are being rate limited.', retry_after: 0.2, global: true });

    sandbox.control.failNext('POST /api/v10/oauth2/*', { status: 429, scope: 'shared' });
    const shared = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: 'x' });
    expect(shared.headers['x-ratelimit-scope']).toBe('shared');
    expect(shared.json().retry_after).toBe(1);
  });

  test('matchers: exact path, method, prefix, RegExp, function; a custom body', async () => {
    sandbox.control.failNext('POST /api/v10/users/@me', { status: 500 });
    expect((await get(app, '/users/@me', BOT)).statusCode).toBe(200); // wrong method: not matched
    sandbox.control.clearFaults();
    sandbox.control.failNext(/^\/api\/v10\/guilds\//, { status: 502, body: { message: 'upstream', code: 0 } });
    const res = await get(app, `/guilds/${DEMO_GUILDS.avasArcade.id}`, BOT);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ message: 'upstream', code: 0 });
    sandbox.control.failNext(({ method, path }) => method === 'GET' && path.startsWith('/cdn/'), { status: 500 });
    expect((await app.inject({ method: 'GET', url: `${PREFIX}/cdn/embed/avatars/1.png` })).statusCode).toBe(500);
    sandbox.control.failNext('/api/v10/users/*', { status: 500, times: Number.POSITIVE_INFINITY });
    for (let i = 0; i < 3; i++) expect((await get(app, '/users/@me', BOT)).statusCode).toBe(500);
    expect(sandbox.control.pendingFaults()[0]).toMatchObject({ remaining: Number.POSITIVE_INFINITY });
    sandbox.control.reset();
    expect((await get(app, '/users/@me', BOT)).statusCode).toBe(200);
  });

  test('can fail the authorize page and the token endpoint (sign-in while Discord is down)', async () => {
    sandbox.control.failNext('/oauth2/authorize', { status: 503 });
    expect((await app.inject({ method: 'GET', url: `${PREFIX}/oauth2/authorize` })).statusCode).toBe(503);
    sandbox.control.failNext('/api/v10/oauth2/token', { status: 500 });
    const res = await tokenRequest(app, { grant_type: 'authorization_code', code: 'x' });
    expect(res.statusCode).toBe(500);
  });

  test('refuses nonsense', () => {
    expect(() => sandbox.control.failNext('*', { status: 200 })).toThrow(RangeError);
    expect(() => sandbox.control.failNext('*', { status: 500, times: 0 })).toThrow(RangeError);
    expect(() => sandbox.control.failNext('*', { status: 500, retryAfter: -1 })).toThrow(RangeError);
  });
});

describe('setLatency', () => {
  test('delays answers by the configured time (fake timers)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    sandbox.control.setLatency(250);
    let done = false;
    const pending = get(app, '/users/@me', BOT).then((res) => {
      done = true;
      return res;
    });
    await vi.advanceTimersByTimeAsync(249);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).statusCode).toBe(200);
    expect(done).toBe(true);
  });

  test('a per-route latency applies only to matching requests', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    sandbox.control.setLatency(1000, '/api/v10/users/@me/guilds');
    // Not matched: answered without advancing the timers.
    expect((await get(app, '/users/@me', BOT)).statusCode).toBe(200);
    let done = false;
    const pending = get(app, '/users/@me/guilds', BOT).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(done).toBe(true);
  });
});

describe('tokens, grants and users', () => {
  test('issueTokens, isTokenActive and revokeUser', async () => {
    const tokenResponse = sandbox.control.issueTokens('ava');
    expect(tokenResponse).toMatchObject({ token_type: 'Bearer', expires_in: 604800, scope: 'identify guilds' });
    expect((await get(app, '/users/@me', `Bearer ${tokenResponse.access_token}`)).json().id).toBe(DEMO_USERS.ava.id);
    expect(sandbox.control.isTokenActive(tokenResponse.access_token)).toBe(true);
    const other = await signIn(app, DEMO_USERS.ben.id);
    expect(sandbox.control.revokeUser(DEMO_USERS.ava.id)).toBe(1);
    expect((await get(app, '/users/@me', `Bearer ${tokenResponse.access_token}`)).statusCode).toBe(401);
    expect(sandbox.control.isTokenActive(other.access_token)).toBe(true);
    expect(sandbox.control.grants().map((g) => [g.userId, g.via, g.endReason])).toEqual([
      [DEMO_USERS.ava.id, 'control', 'user_revoked'],
      [DEMO_USERS.ben.id, 'authorization_code', null],
    ]);
    expect(() => sandbox.control.issueTokens('nobody')).toThrow(/not a demo user/);
    sandbox.control.clearGrants();
    expect(sandbox.control.tokens()).toEqual([]);
    expect((await get(app, '/users/@me', `Bearer ${other.access_token}`)).statusCode).toBe(401);
  });

  test('a control drives one live registration; it can be reused once that app is closed', async () => {
    const control = createSandboxControl();
    const first = Fastify();
    await first.register(discordSandbox, { prefix: PREFIX, control });
    await first.ready();
    const second = Fastify();
    const registering = (async () => {
      await second.register(discordSandbox, { prefix: PREFIX, control });
      await second.ready();
    })();
    await expect(registering).rejects.toThrow(/already drives another/);
    await first.close();
    const third = Fastify();
    await third.register(discordSandbox, { prefix: PREFIX, control });
    await third.ready();
    expect(control.issueTokens('sam').scope).toBe('identify guilds');
    await third.close();
  });

  test('methods that need the sandbox explain when the control is not attached', () => {
    const control = createSandboxControl();
    expect(() => control.issueTokens('ava')).toThrow(/not attached/);
    expect(control.tokens()).toEqual([]);
  });
});

describe('the controls over HTTP (POST <prefix>/_control/...)', () => {
  test('fail, then state and requests, then reset', async () => {
    const armed = await controlPost('fail', { match: 'GET /api/v10/users/@me', status: 500, times: 2 });
    expect(armed.statusCode).toBe(200);
    expect(armed.json().pendingFaults).toEqual([{ match: 'GET /api/v10/users/@me', status: 500, remaining: 2 }]);
    expect((await get(app, '/users/@me', BOT)).statusCode).toBe(500);
    const state = (await controlPost('state')).json();
    expect(state).toMatchObject({ clientId: DEMO_APP.clientId, baseUrl: `http://localhost:3000${PREFIX}`, rateLimit: { limit: 100, windowSeconds: 1 } });
    expect(state.pendingFaults[0].remaining).toBe(1);
    const requests = (await controlPost('requests', { match: '/api/v10/*' })).json().requests;
    expect(requests).toEqual([expect.objectContaining({ method: 'GET', path: '/api/v10/users/@me', status: 500, fault: true, auth: 'bot' })]);
    expect((await controlPost('reset')).json()).toEqual({ ok: true });
    expect((await get(app, '/users/@me', BOT)).statusCode).toBe(200);
  });

  test('"always" faults by a prefix match, cleared by clear-faults', async () => {
    await controlPost('fail', { match: 'GET /api/v10/users/@me/gui*', status: 429, retryAfter: 3, times: 'always', scope: 'global' });
    for (let i = 0; i < 3; i++) expect((await get(app, '/users/@me/guilds', BOT)).headers['x-ratelimit-global']).toBe('true');
    await controlPost('clear-faults');
    expect((await get(app, '/users/@me/guilds', BOT)).statusCode).toBe(200);
  });

  test('grants list fingerprints, never raw tokens; revoke-user, issue-token, time, bot-guild, rate-limit', async () => {
    const issued = (await controlPost('issue-token', { user: 'cleo' })).json();
    expect(issued.token_type).toBe('Bearer');
    const grants = (await controlPost('grants', { userId: DEMO_USERS.cleo.id })).json().grants;
    expect(grants).toHaveLength(1);
    expect(JSON.stringify(grants)).not.toContain(issued.access_token);
    expect(grants[0].tokens[0]).toMatchObject({ kind: 'access', active: true, fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) });

    expect((await controlPost('revoke-user', { user: 'cleo' })).json()).toEqual({ ok: true, revoked: 1 });
    expect((await get(app, '/users/@me', `Bearer ${issued.access_token}`)).statusCode).toBe(401);

    const before = (await controlPost('state')).json().now;
    expect((await controlPost('time', { advanceMs: 60_000 })).json().now).toBe(before + 60_000);

    const joined = await controlPost('bot-guild', { guildId: DEMO_GUILDS.studyHall.id, present: true });
    expect(joined.json().botGuildIds).toContain(DEMO_GUILDS.studyHall.id);

    await controlPost('rate-limit', { limit: 1, windowSeconds: 30 });
    expect((await get(app, '/users/@me', BOT)).statusCode).toBe(200);
    expect((await get(app, '/users/@me', BOT)).statusCode).toBe(429);
    expect((await controlPost('rate-limit', { reset: true })).json().rateLimit).toEqual({ limit: 100, windowSeconds: 1 });
    expect((await get(app, '/users/@me', BOT)).statusCode).toBe(200);

    await controlPost('reset', { grants: true });
    expect(sandbox.control.grants()).toEqual([]);
    expect(sandbox.control.botGuildIds()).not.toContain(DEMO_GUILDS.studyHall.id);
  });

  test('latency over HTTP', async () => {
    expect((await controlPost('latency', { ms: 5, match: '/cdn/*' })).statusCode).toBe(200);
    expect((await controlPost('latency', { ms: -1 })).statusCode).toBe(400);
  });

  test.each([
    ['fail', { status: 500 }, 'required'],
    ['fail', { match: '*', status: 'x' }, 'must be a number'],
    ['fail', { match: '*', status: 200 }, 'status'],
    ['fail', { pattern: '(', status: 500 }, '"pattern" (a regular expression) is not accepted'],
    ['fail', { match: `/${'a'.repeat(600)}`, status: 500 }, 'too long'],
    ['fail', { match: '*', status: 429, scope: 'everyone' }, 'scope'],
    ['time', {}, 'required'],
    ['issue-token', { user: 'nobody' }, 'not a demo user'],
    ['bot-guild', { guildId: '1' }, 'present'],
  ])('%s %j: 400 with a clear message', async (action, body, message) => {
    const res = await controlPost(action, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
    expect(res.json().message).toContain(message);
  });

  test('bad JSON is a 400, unknown actions a 404', async () => {
    const bad = await app.inject({ method: 'POST', url: `${PREFIX}/_control/fail`, headers: { 'content-type': 'application/json' }, payload: '{nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('invalid_request');
    expect((await controlPost('explode', {})).statusCode).toBe(404);
  });

  test('a "pattern" (regular expression) is refused with 400 on every action and arms nothing', async () => {
    for (const [action, body] of [
      ['fail', { pattern: '^/api/v10/users/@me$', status: 500 }],
      ['fail', { pattern: '^(a+)+$', status: 500, times: 'always' }],
      ['latency', { ms: 5000, pattern: '.*' }],
      ['requests', { pattern: '.*' }],
    ] as const) {
      const res = await controlPost(action, body);
      expect(res.statusCode, `${action} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('"pattern"') });
    }
    // Nothing was armed: the request answers normally.
    expect(sandbox.control.pendingFaults()).toEqual([]);
    expect((await get(app, '/users/@me', BOT)).statusCode).toBe(200);
  });

  test('are not mounted by default: every action answers 404 and changes nothing', async () => {
    const plain = await harness();
    try {
      for (const action of ['state', 'fail', 'time', 'reset', 'issue-token']) {
        const res = await plain.app.inject({ method: 'POST', url: `${PREFIX}/_control/${action}`, payload: { match: '*', status: 500, advanceMs: 1000, user: 'ava' } });
        expect(res.statusCode, action).toBe(404);
      }
      expect(plain.control.pendingFaults()).toEqual([]);
      expect(plain.control.grants()).toEqual([]);
      expect((await get(plain.app, '/users/@me', BOT)).statusCode).toBe(200);
    } finally {
      await plain.app.close();
    }
  });

  test('are not mounted with controlRoutes: false', async () => {
    const closed = await harness({ controlRoutes: false });
    try {
      const res = await closed.app.inject({ method: 'POST', url: `${PREFIX}/_control/state`, payload: {} });
      expect(res.statusCode).toBe(404);
    } finally {
      await closed.app.close();
    }
  });

  test('the control routes are never failed, delayed or logged themselves', async () => {
    sandbox.control.failNext('*', { status: 500, times: Number.POSITIVE_INFINITY });
    expect((await controlPost('state')).statusCode).toBe(200);
    expect((await controlPost('clear-faults')).statusCode).toBe(200);
    expect(sandbox.control.requests()).toEqual([]);
  });
});
