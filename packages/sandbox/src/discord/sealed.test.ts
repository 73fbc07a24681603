import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Sealer } from '../kit/seal';
import { DEMO_USERS } from './demo-data';
import { API, authorize, basicAuth, exchange, get, type Harness, harness, REDIRECT_URI, type Tokens, tokenRequest } from './test-helpers';

const SECRET = 'a secret every instance of the deployment shares';

/**
 * Two registrations sharing `sealSecret` stand for two instances behind a balancer: each accepts the
 * codes and tokens the other sealed. One with another secret and one without any accept neither.
 */
let first: Harness;
let second: Harness;
let foreign: Harness;
let unsealed: Harness;

beforeAll(async () => {
  first = await harness({ sealSecret: SECRET, controlRoutes: true });
  second = await harness({ sealSecret: SECRET, controlRoutes: true });
  foreign = await harness({ sealSecret: 'another deployment, another secret' });
  unsealed = await harness();
});

afterAll(async () => {
  for (const registration of [first, second, foreign, unsealed]) await registration.app.close();
});

/** Both instances' clocks move together, as one deployment's do. */
function tick(ms: number) {
  for (const registration of [first, second, foreign, unsealed]) registration.tick(ms);
}

const me = (registration: Harness, token: string) => get(registration.app, '/users/@me', `Bearer ${token}`);
const refresh = (registration: Harness, token: string) => tokenRequest(registration.app, { grant_type: 'refresh_token', refresh_token: token });

describe('sealed authorization codes', () => {
  test('a code sealed by one instance is exchanged at the other, whose tokens work at both', async () => {
    const { code, verifier } = await authorize(first.app, DEMO_USERS.ava.id);
    expect(code.startsWith('sx1.')).toBe(true);
    const res = await exchange(second.app, code, verifier);
    expect(res.statusCode, res.body).toBe(200);
    const tokens = res.json<Tokens>();
    for (const registration of [first, second]) expect((await me(registration, tokens.access_token)).json().id).toBe(DEMO_USERS.ava.id);
    const rotated = await refresh(first, tokens.refresh_token);
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect((await me(second, rotated.json<Tokens>().access_token)).statusCode).toBe(200);
  });

  test('expired: refused after codeTtlSeconds, whichever instance is asked', async () => {
    const { code, verifier } = await authorize(first.app, DEMO_USERS.ava.id);
    tick(601_000);
    const res = await exchange(second.app, code, verifier);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'invalid_grant', error_description: expect.stringContaining('expired') });
  });

  test('a wrong PKCE verifier or redirect_uri is refused by the other instance', async () => {
    const { code } = await authorize(first.app, DEMO_USERS.ava.id);
    const wrongVerifier = await exchange(second.app, code, 'x'.repeat(43));
    expect(wrongVerifier.json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid "code_verifier".' });
    const other = await authorize(first.app, DEMO_USERS.ava.id);
    const wrongRedirect = await exchange(second.app, other.code, other.verifier, `${REDIRECT_URI}/elsewhere`);
    expect(wrongRedirect.json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid "redirect_uri" in request.' });
  });

  test('a tampered code, or one sealed with another secret, is unknown', async () => {
    const { code, verifier } = await authorize(first.app, DEMO_USERS.ava.id);
    const flipped = `${code.slice(0, 20)}${code[20] === 'A' ? 'B' : 'A'}${code.slice(21)}`;
    expect((await exchange(second.app, flipped, verifier)).json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
    for (const registration of [foreign, unsealed]) {
      expect((await exchange(registration.app, code, verifier)).json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
    }
    // Untouched, it still works.
    expect((await exchange(second.app, code, verifier)).statusCode).toBe(200);
  });

  test('replay: caught on the instance that took the code (the grant ends), not on another one', async () => {
    const { code, verifier } = await authorize(first.app, DEMO_USERS.ben.id);
    const tokens = (await exchange(second.app, code, verifier)).json<Tokens>();
    const replayed = await exchange(second.app, code, verifier);
    expect(replayed.json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid "code" in request: it was already used.' });
    expect((await me(second, tokens.access_token)).statusCode).toBe(401);
    // The issuer holds its own, unused record of the code: single use is per instance (docs/sandbox.md).
    expect((await exchange(first.app, code, verifier)).statusCode).toBe(200);
  });
});

describe('sealed tokens', () => {
  test('tampered, foreign or of the wrong kind: refused', async () => {
    const { code, verifier } = await authorize(first.app, DEMO_USERS.ava.id);
    const tokens = (await exchange(first.app, code, verifier)).json<Tokens>();
    const flipped = `${tokens.access_token.slice(0, 30)}${tokens.access_token[30] === 'A' ? 'B' : 'A'}${tokens.access_token.slice(31)}`;
    expect((await me(second, flipped)).statusCode).toBe(401);
    expect((await me(foreign, tokens.access_token)).statusCode).toBe(401);
    expect((await me(unsealed, tokens.access_token)).statusCode).toBe(401);
    expect((await me(second, tokens.refresh_token)).statusCode).toBe(401);
    expect((await refresh(second, tokens.access_token)).json().error).toBe('invalid_grant');
  });

  test('an access token expires everywhere after tokenTtlSeconds', async () => {
    const { code, verifier } = await authorize(first.app, DEMO_USERS.ava.id);
    const tokens = (await exchange(first.app, code, verifier)).json<Tokens>();
    tick(604_801_000);
    expect((await me(second, tokens.access_token)).statusCode).toBe(401);
    expect((await me(first, tokens.access_token)).statusCode).toBe(401);
  });

  test('revocation, a user removing the app and clearGrants hold on the instance that saw them', async () => {
    const signIn = async () => {
      const { code, verifier } = await authorize(first.app, DEMO_USERS.cleo.id);
      return (await exchange(first.app, code, verifier)).json<Tokens>();
    };
    const revoked = await signIn();
    const answer = await second.app.inject({
      method: 'POST',
      url: `${API}/oauth2/token/revoke`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth() },
      payload: new URLSearchParams({ token: revoked.access_token }).toString(),
    });
    expect(answer.statusCode).toBe(200);
    expect((await me(second, revoked.access_token)).statusCode).toBe(401);
    // The issuer did not see it (per instance, docs/sandbox.md).
    expect((await me(first, revoked.access_token)).statusCode).toBe(200);
    const removed = await signIn();
    second.control.revokeUser('cleo');
    expect((await me(second, removed.access_token)).statusCode).toBe(401);
    expect((await me(first, removed.access_token)).statusCode).toBe(200);
    tick(1000);
    const later = await signIn();
    expect((await me(second, later.access_token)).statusCode).toBe(200);
    tick(1000);
    const cleared = await signIn();
    second.control.clearGrants();
    expect((await me(second, cleared.access_token)).statusCode).toBe(401);
    // A grant that ended at an instance stays ended there, even once its records are dropped.
    expect((await refresh(second, cleared.refresh_token)).json().error).toBe('invalid_grant');
  });
});

describe('Sealer', () => {
  test('opens what it sealed for the same purpose only', () => {
    const sealer = new Sealer(SECRET);
    const value = sealer.seal('code', { a: 1 });
    expect(sealer.open('code', value)).toEqual({ a: 1 });
    expect(sealer.open('token', value)).toBeNull();
    expect(new Sealer(`${SECRET}!`).open('code', value)).toBeNull();
    expect(sealer.open('code', 'not sealed')).toBeNull();
    expect(() => new Sealer('short')).toThrow(RangeError);
  });
});
