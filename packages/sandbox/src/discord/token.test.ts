import { describe, expect, test } from 'vitest';
import { DEMO_APP, DEMO_USERS } from './demo-data';
import {
  API,
  authorize,
  basicAuth,
  exchange,
  get,
  harness,
  REDIRECT_URI,
  signIn,
  stored,
  type Tokens,
  tokenRequest, useHarness } from './test-helpers';

const session = useHarness();

const me = (token: string) => get(session.app, '/users/@me', `Bearer ${token}`);
const revoke = (form: Record<string, string>, authorization: string | null = basicAuth()) =>
  session.app.inject({
    method: 'POST',
    url: `${API}/oauth2/token/revoke`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) },
    payload: new URLSearchParams(form).toString(),
  });

describe('authorization_code exchange', () => {
  test('answers Discord\'s token response, and the access token reads the user', async () => {
    const { code, verifier } = await authorize(session.app, DEMO_USERS.ava.id);
    const res = await exchange(session.app, code, verifier);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json<Tokens>();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBe(604800);
    expect(body.scope).toBe('identify guilds');
    expect(body.access_token).not.toBe(body.refresh_token);
    const user = await me(body.access_token);
    expect(user.statusCode).toBe(200);
    expect(user.json().id).toBe(DEMO_USERS.ava.id);
    const [grant] = session.h.control.grants();
    expect(grant).toMatchObject({ userId: DEMO_USERS.ava.id, clientId: DEMO_APP.clientId, via: 'authorization_code', endedAt: null });
    expect(grant!.tokens.map((t) => [t.kind, t.active])).toEqual([
      ['access', true],
      ['refresh', true],
    ]);
  });

  test('client credentials in the form work as well as HTTP Basic', async () => {
    const { code, verifier } = await authorize(session.app, DEMO_USERS.ben.id);
    const res = await tokenRequest(
      session.app,
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
        client_id: DEMO_APP.clientId,
        client_secret: DEMO_APP.clientSecret,
      },
      null,
    );
    expect(res.statusCode).toBe(200);
  });

  test('a JSON body is rejected like Discord does (no grant type read)', async () => {
    const { code, verifier } = await authorize(session.app, DEMO_USERS.ava.id);
    const res = await session.app.inject({
      method: 'POST',
      url: `${API}/oauth2/token`,
      headers: { authorization: basicAuth(), 'content-type': 'application/json' },
      payload: JSON.stringify({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'unsupported_grant_type', error_description: 'Grant type None is not supported' });
    // The code was not consumed by the refused request.
    expect((await exchange(session.app, code, verifier)).statusCode).toBe(200);
  });

  test.each([
    ['a wrong secret', basicAuth(DEMO_APP.clientId, 'nope')],
    ['another client', basicAuth('1300000000000000999', DEMO_APP.clientSecret)],
    ['no client authentication', null],
    ['a Bearer header', 'Bearer abc'],
  ])('%s: 401 invalid_client', async (_name, authorization) => {
    const { code, verifier } = await authorize(session.app, DEMO_USERS.ava.id);
    const res = await tokenRequest(session.app, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier }, authorization);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_client');
  });

  test('Basic and a form secret together: invalid_request', async () => {
    const { code, verifier } = await authorize(session.app, DEMO_USERS.ava.id);
    const res = await tokenRequest(session.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_secret: DEMO_APP.clientSecret,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });

  test('a wrong PKCE verifier: invalid_grant, and no tokens issued', async () => {
    const { code } = await authorize(session.app, DEMO_USERS.ava.id);
    const other = 'x'.repeat(43);
    const res = await exchange(session.app, code, other);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_grant', error_description: 'Invalid "code_verifier".' });
    expect(session.h.control.tokens()).toHaveLength(0);
  });

  test('a verifier outside 43-128 characters or a missing one: invalid_request', async () => {
    const { code } = await authorize(session.app, DEMO_USERS.ava.id);
    expect((await exchange(session.app, code, 'short')).json().error).toBe('invalid_request');
    expect((await exchange(session.app, code, 'a'.repeat(129))).json().error).toBe('invalid_request');
    const missing = await tokenRequest(session.app, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('invalid_request');
  });

  test('a code requested without PKCE refuses a verifier and works without one', async () => {
    const { code, verifier } = await authorize(session.app, DEMO_USERS.ava.id, { code_challenge: null, code_challenge_method: null });
    expect((await exchange(session.app, code, verifier)).json().error).toBe('invalid_request');
    const res = await tokenRequest(session.app, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI });
    expect(res.statusCode).toBe(200);
  });

  test('replaying a code: invalid_grant, and the tokens it issued are revoked', async () => {
    const { code, verifier } = await authorize(session.app, DEMO_USERS.ava.id);
    const first = (await exchange(session.app, code, verifier)).json<Tokens>();
    expect((await me(first.access_token)).statusCode).toBe(200);

    const replay = await exchange(session.app, code, verifier);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe('invalid_grant');

    const after = await me(first.access_token);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ message: '401: Unauthorized', code: 0 });
    const refresh = await tokenRequest(session.app, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(refresh.json().error).toBe('invalid_grant');
    expect(session.h.control.tokens().map((t) => [t.kind, t.active, t.endReason])).toEqual([
      ['access', false, 'code_replay'],
      ['refresh', false, 'code_replay'],
    ]);
  });

  test('redirect_uri must equal the authorize one', async () => {
    const { code, verifier } = await authorize(session.app, DEMO_USERS.ava.id);
    const res = await exchange(session.app, code, verifier, 'http://localhost:3000/api/auth/other');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_grant', error_description: 'Invalid "redirect_uri" in request.' });
    const missing = await tokenRequest(session.app, { grant_type: 'authorization_code', code, code_verifier: verifier });
    expect(missing.json().error).toBe('invalid_grant');
  });

  test('a code expires after 10 minutes', async () => {
    const { code, verifier } = await authorize(session.app, DEMO_USERS.ava.id);
    session.h.tick(10 * 60 * 1000);
    const res = await exchange(session.app, code, verifier);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('expired') });
  });

  test('an unknown code, a missing code, an unknown grant type', async () => {
    const unknown = await exchange(session.app, 'not-a-code', 'v'.repeat(43));
    expect(unknown.json().error).toBe('invalid_grant');
    const missing = await tokenRequest(session.app, { grant_type: 'authorization_code', redirect_uri: REDIRECT_URI });
    expect(missing.json().error).toBe('invalid_request');
    const password = await tokenRequest(session.app, { grant_type: 'password', username: 'ava', password: 'x' });
    expect(password.statusCode).toBe(400);
    expect(password.json()).toEqual({ error: 'unsupported_grant_type', error_description: 'Grant type password is not supported' });
    const none = await tokenRequest(session.app, {});
    expect(none.json().error).toBe('unsupported_grant_type');
  });
});

describe('refresh_token', () => {
  test('rotates: a new access and refresh token; the old refresh token stops working', async () => {
    const first = await signIn(session.app, DEMO_USERS.ava.id);
    session.h.tick(1000);
    const res = await tokenRequest(session.app, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(res.statusCode).toBe(200);
    const second = res.json<Tokens>();
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.scope).toBe('identify guilds');
    expect(second.expires_in).toBe(604800);
    expect((await me(second.access_token)).json().id).toBe(DEMO_USERS.ava.id);

    const again = await tokenRequest(session.app, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('invalid_grant');
    // The rotated token is recorded as such; the new pair is live.
    const tokens = session.h.control.tokens();
    expect(tokens.find((t) => t.token === first.refresh_token)).toMatchObject({ active: false, endReason: 'rotated' });
    expect(tokens.find((t) => t.token === second.refresh_token)).toMatchObject({ active: true });
  });

  test('a refresh token is not an access token and vice versa', async () => {
    const tokens = await signIn(session.app, DEMO_USERS.ava.id);
    expect((await me(tokens.refresh_token)).statusCode).toBe(401);
    const res = await tokenRequest(session.app, { grant_type: 'refresh_token', refresh_token: tokens.access_token });
    expect(res.json().error).toBe('invalid_grant');
  });

  test('tokens expire after tokenTtlSeconds; the refresh token still renews them', async () => {
    const short = await harness({ tokenTtlSeconds: 60 });
    try {
      const tokens = await signIn(short.app, DEMO_USERS.ben.id);
      expect(tokens.expires_in).toBe(60);
      expect((await get(short.app, '/users/@me', `Bearer ${tokens.access_token}`)).statusCode).toBe(200);
      short.tick(60_000);
      const expired = await get(short.app, '/users/@me', `Bearer ${tokens.access_token}`);
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toEqual({ message: '401: Unauthorized', code: 0 });
      const renewed = await tokenRequest(short.app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      expect(renewed.statusCode).toBe(200);
      expect((await get(short.app, '/users/@me', `Bearer ${renewed.json<Tokens>().access_token}`)).statusCode).toBe(200);
    } finally {
      await short.app.close();
    }
  });

  test('control.advanceTime expires tokens too', async () => {
    const tokens = await signIn(session.app, DEMO_USERS.ava.id);
    session.h.control.advanceTime(604_800_000);
    expect((await me(tokens.access_token)).statusCode).toBe(401);
    expect(session.h.control.isTokenActive(tokens.access_token)).toBe(false);
    expect(session.h.control.isTokenActive(tokens.refresh_token)).toBe(true);
  });
});

describe('POST /oauth2/token/revoke', () => {
  test.each(['refresh_token', 'access_token'] as const)('revoking the %s ends the whole grant', async (which) => {
    const tokens = await signIn(session.app, DEMO_USERS.ava.id);
    const res = await revoke({ token: tokens[which], token_type_hint: which });
    expect(res.statusCode).toBe(200);
    expect((await me(tokens.access_token)).statusCode).toBe(401);
    const refresh = await tokenRequest(session.app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refresh.json().error).toBe('invalid_grant');
    expect(session.h.control.grants()[0]).toMatchObject({ endReason: 'revoked' });
    expect(session.h.control.tokens().every((x) => !x.active)).toBe(true);
  });

  test('the hint is only a hint, and other grants are untouched', async () => {
    const tokens = await signIn(session.app, DEMO_USERS.ava.id);
    const again = await signIn(session.app, DEMO_USERS.ava.id);
    expect((await revoke({ token: tokens.access_token, token_type_hint: 'refresh_token' })).statusCode).toBe(200);
    expect((await me(tokens.access_token)).statusCode).toBe(401);
    expect((await me(again.access_token)).statusCode).toBe(200);
  });

  test('an unknown or already revoked token answers 200', async () => {
    expect((await revoke({ token: 'never-issued' })).statusCode).toBe(200);
    const tokens = await signIn(session.app, DEMO_USERS.ava.id);
    expect((await revoke({ token: tokens.refresh_token })).statusCode).toBe(200);
    expect((await revoke({ token: tokens.refresh_token })).statusCode).toBe(200);
  });

  test('needs client authentication and a token', async () => {
    const tokens = await signIn(session.app, DEMO_USERS.ava.id);
    const anonymous = await revoke({ token: tokens.refresh_token }, null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error).toBe('invalid_client');
    expect((await me(tokens.access_token)).statusCode).toBe(200);
    const missing = await revoke({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('invalid_request');
  });
});

describe('GET /oauth2/@me', () => {
  test('describes the authorization', async () => {
    const tokens = await signIn(session.app, DEMO_USERS.sam.id);
    const res = await get(session.app, '/oauth2/@me', `Bearer ${tokens.access_token}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.application).toMatchObject({ id: DEMO_APP.clientId, name: DEMO_APP.name });
    expect(body.scopes).toEqual(['identify', 'guilds']);
    expect(Date.parse(body.expires)).toBe(session.h.control.now() + 604_800_000);
    expect(body.user.id).toBe(DEMO_USERS.sam.id);
    expect((await get(session.app, '/oauth2/@me', `Bot ${DEMO_APP.botToken}`)).statusCode).toBe(401);
  });
});

describe('over-long token requests: 400 invalid_request, nothing looked up or stored', () => {
  const long = (n: number) => 'x'.repeat(n);
  test.each([
    ['code', { grant_type: 'authorization_code', code: long(4097), redirect_uri: REDIRECT_URI }, '"code" is too long (4096 characters at most)'],
    ['redirect_uri', { grant_type: 'authorization_code', code: 'c', redirect_uri: `${REDIRECT_URI}?${long(2048)}` }, '"redirect_uri" is too long'],
    ['code_verifier', { grant_type: 'authorization_code', code: 'c', redirect_uri: REDIRECT_URI, code_verifier: long(129) }, '"code_verifier" is too long'],
    ['refresh_token', { grant_type: 'refresh_token', refresh_token: long(1025) }, '"refresh_token" is too long'],
    ['grant_type', { grant_type: long(65) }, '"grant_type" is too long'],
    ['the whole form', Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, long(500)])), 'too long (8192 characters'],
  ])('%s', async (_name, form, message) => {
    const res = await tokenRequest(session.app, form as Record<string, string>);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'invalid_request', error_description: expect.stringContaining(message) });
  });

  test('revoke: an over-long token', async () => {
    const tokens = await signIn(session.app, DEMO_USERS.ava.id);
    const res = await revoke({ token: `${tokens.refresh_token}${long(1000)}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('"token" is too long') });
    expect((await me(tokens.access_token)).statusCode).toBe(200);
  });
});

describe('grants and tokens are bounded', () => {
  test('never more than maxGrants: the least recently used grant is dropped and its tokens stop working', async () => {
    const capped = await harness({ maxGrants: 3, controlRoutes: true });
    try {
      const issued: Tokens[] = [];
      for (let i = 0; i < 6; i++) {
        issued.push(await signIn(capped.app, DEMO_USERS.ben.id));
        expect(capped.control.grants().length).toBeLessThanOrEqual(3);
      }
      expect(await stored(capped.app)).toMatchObject({ grants: 3, tokens: 6 });
      const meOn = (token: string) => get(capped.app, '/users/@me', `Bearer ${token}`);
      expect((await meOn(issued[0]!.access_token)).statusCode).toBe(401);
      expect((await meOn(issued[5]!.access_token)).statusCode).toBe(200);
    } finally {
      await capped.app.close();
    }
  });

  test('a flood of new grants evicts idle ones, never a grant whose token is in use', async () => {
    const capped = await harness({ maxGrants: 3, controlRoutes: true });
    try {
      const meOn = (token: string) => get(capped.app, '/users/@me', `Bearer ${token}`);
      const victim = await signIn(capped.app, DEMO_USERS.ava.id);
      for (let i = 0; i < 5; i++) {
        await signIn(capped.app, DEMO_USERS.ben.id);
        // The victim keeps using the dashboard between the attacker's sign-ins.
        expect((await meOn(victim.access_token)).statusCode).toBe(200);
      }
      expect(capped.control.grants().length).toBe(3);
      expect((await meOn(victim.access_token)).statusCode).toBe(200);
    } finally {
      await capped.app.close();
    }
  });

  test('ended grants are dropped an hour after they ended, on the next grant (not after a day)', async () => {
    const tokens = await signIn(session.app, DEMO_USERS.ava.id);
    await revoke({ token: tokens.refresh_token });
    session.h.tick(30 * 60_000);
    await signIn(session.app, DEMO_USERS.ben.id);
    expect(session.h.control.grants().map((g) => g.userId)).toEqual([DEMO_USERS.ava.id, DEMO_USERS.ben.id]);
    session.h.tick(31 * 60_000);
    await signIn(session.app, DEMO_USERS.cleo.id);
    expect(session.h.control.grants().map((g) => g.userId)).toEqual([DEMO_USERS.ben.id, DEMO_USERS.cleo.id]);
  });

  test('refresh-token rotation keeps at most 20 tokens per grant, the ended ones go first', async () => {
    let tokens = await signIn(session.app, DEMO_USERS.ava.id);
    const first = tokens;
    for (let i = 0; i < 30; i++) {
      const res = await tokenRequest(session.app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      expect(res.statusCode).toBe(200);
      tokens = res.json<Tokens>();
    }
    const [grant] = session.h.control.grants();
    expect(grant!.tokens.length).toBeLessThanOrEqual(20);
    expect(grant!.tokens.filter((x) => x.kind === 'refresh' && x.active)).toHaveLength(1);
    expect((await me(tokens.access_token)).statusCode).toBe(200);
    // The first access token was dropped to make room (the sandbox forgets it: 401).
    expect((await me(first.access_token)).statusCode).toBe(401);
  });
});
