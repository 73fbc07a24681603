import { randomBytes } from 'node:crypto';
import { AuthenticatedMe, ERROR_CODES, MeResponse } from '@tickety/api-contract';
import { DEMO_USERS } from '@tickety/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox, tokenKeyId } from '../../src/lib/crypto';
import type { FetchLike } from '../../src/lib/discord';
import { injectFetch } from '../../src/lib/inject-fetch';
import { ANONYMOUS } from '../../src/routes/auth/index';
import { OAuthStates } from '../../src/services/oauth-states';
import { createTestApp, DASHBOARD_ORIGIN, type TestApp } from '../helpers/app';
import { Browser, setCookie } from '../helpers/browser';
import { SECOND } from '../helpers/clock';
import { databases, openSuiteDb, type SuiteDb } from '../helpers/db';
import { approveAs, runPopup, signIn, startLogin } from '../helpers/oauth';
import { useServiceDeps } from '../services/helpers';

const SESSION = 'tickety_session';
const { ava, ben, cleo, sam } = DEMO_USERS;

/** What the dashboard's own fetch of /api/auth/logout sends. */
const LOGOUT_HEADERS = {
  origin: DASHBOARD_ORIGIN,
  'sec-fetch-site': 'same-origin',
  'sec-fetch-mode': 'cors',
  'sec-fetch-dest': 'empty',
};

function footer(html: string): string | null {
  return /<small>([^<]*)<\/small>/.exec(html)?.[1] ?? null;
}

interface Row {
  id: string;
  revoked_at: unknown;
  discord_access_token: string | null;
  discord_refresh_token: string | null;
}

/**
 * The API restarted with another TOKEN_ENCRYPTION_KEY on the same database (a rotation, or the key
 * lost). Instance `original` (first key) is where users signed in; later instances use its Discord
 * sandbox, so the Discord grants they hold stay valid and only the key differs.
 */
describe.each(databases())('token encryption key changes on $name', (database) => {
  const keyA = randomBytes(32).toString('base64');
  const keyB = randomBytes(32).toString('base64');
  let db: SuiteDb;
  let drop: () => Promise<void>;
  let original: TestApp;
  const instances: TestApp[] = [];
  /** Requests each later instance sent to "Discord" (the original's sandbox). */
  const sent = new Map<TestApp, string[]>();

  beforeAll(async () => {
    ({ db, drop } = await openSuiteDb(database));
    original = await createTestApp(db, { env: { TOKEN_ENCRYPTION_KEY: keyA } });
    instances.push(original);
  });

  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await drop();
  });

  /** Another API instance on the same database with this key configuration; its Discord is the original's sandbox. */
  async function restartWith(env: Record<string, string>): Promise<TestApp> {
    const calls: string[] = [];
    const toA = injectFetch(original.app);
    const fetch: FetchLike = (input, init) => {
      calls.push(`${(init?.method ?? 'GET').toUpperCase()} ${new URL(input).pathname}`);
      return toA(input, init);
    };
    const instance = await createTestApp(db, { env, wrapFetch: () => fetch });
    instance.clock.set(original.clock.now);
    instances.push(instance);
    sent.set(instance, calls);
    return instance;
  }

  function advance(ms: number) {
    for (const instance of instances) instance.clock.advance(ms);
  }

  /** The same browser (its cookies) talking to another instance. */
  function moveTo(browser: Browser, instance: TestApp): Browser {
    const moved = new Browser(instance.app);
    for (const [name, value] of browser.jar) moved.jar.set(name, value);
    return moved;
  }

  async function rows(userId: string): Promise<Row[]> {
    return (
      await db.query<Row>(
        'SELECT id, revoked_at, discord_access_token, discord_refresh_token FROM sessions WHERE user_id = $1 ORDER BY created_at, id',
        [userId],
      )
    ).rows;
  }

  async function me(browser: Browser): Promise<MeResponse> {
    const res = await browser.get('/api/auth/@me');
    expect(res.statusCode).toBe(200);
    return MeResponse.parse(res.json());
  }

  it('new key, old one not kept: /guilds/refresh answers 401 and ends the session (no 500, nothing secret logged)', async () => {
    const before = new Browser(original.app);
    await signIn(before, ava.id);
    const rotated = await restartWith({ TOKEN_ENCRYPTION_KEY: keyB });
    const browser = moveTo(before, rotated);
    expect((await me(browser)).isAuthenticated).toBe(true); // the session itself does not depend on the key
    advance(11 * SECOND);
    original.sandbox.clearRequests();

    const res = await browser.post('/api/auth/guilds/refresh');
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json()).toEqual({
      code: ERROR_CODES.UNAUTHENTICATED.code,
      message: 'Your Discord authorization has expired or was revoked: log in again.',
      isAuthenticated: false,
    });
    expect(setCookie(res, SESSION)?.value).toBe('');
    expect(browser.jar.has(SESSION)).toBe(false);
    expect(await me(moveTo(before, rotated))).toEqual(ANONYMOUS); // the old cookie is dead server-side
    const [row] = await rows(ava.id);
    expect(row!.revoked_at).not.toBeNull();
    expect(row!.discord_access_token).toBeNull();
    expect(row!.discord_refresh_token).toBeNull();
    // Discord was not asked anything with tokens it could not read.
    expect(sent.get(rotated)).toEqual([]);
    expect(original.sandbox.requests()).toEqual([]);

    const [warning] = rotated.logs.messages(/do not decrypt/);
    expect(warning).toMatchObject({ level: 40, sessionId: row!.id, reason: 'unknown-key', keyId: tokenKeyId(Buffer.from(keyA, 'base64')) });
    expect(rotated.logs.text()).not.toContain(keyA);
    expect(rotated.logs.text()).not.toContain(before.jar.get(SESSION));
    for (const token of original.sandbox.tokens().filter((t) => t.userId === ava.id)) expect(rotated.logs.text()).not.toContain(token.token);
  });

  it('new key, old one not kept: logout answers 200 and clears the cookie; nothing is revoked at Discord', async () => {
    const before = new Browser(original.app);
    await signIn(before, ben.id);
    const rotated = await restartWith({ TOKEN_ENCRYPTION_KEY: keyB });
    const browser = moveTo(before, rotated);
    original.sandbox.clearRequests();

    const res = await browser.get('/api/auth/logout', { headers: LOGOUT_HEADERS });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ isAuthenticated: false });
    expect(setCookie(res, SESSION)?.value).toBe('');
    expect(browser.jar.has(SESSION)).toBe(false);
    expect(await me(moveTo(before, rotated))).toEqual(ANONYMOUS);
    const [row] = await rows(ben.id);
    expect(row!.revoked_at).not.toBeNull();
    expect(row!.discord_access_token).toBeNull();
    await rotated.close(); // waits for background tasks (a revoke would be one)
    expect(sent.get(rotated)).toEqual([]);
    expect(original.sandbox.requests('POST /api/v10/oauth2/token/revoke')).toEqual([]);
  });

  it('old key in TOKEN_ENCRYPTION_PREVIOUS_KEYS: the refresh works and the tokens are sealed again with the new key', async () => {
    const before = new Browser(original.app);
    await signIn(before, cleo.id);
    const [sealed] = await rows(cleo.id);
    expect(sealed!.discord_access_token).toMatch(new RegExp(`^v2\\.${tokenKeyId(Buffer.from(keyA, 'base64'))}\\.`));

    const withPrevious = await restartWith({ TOKEN_ENCRYPTION_KEY: keyB, TOKEN_ENCRYPTION_PREVIOUS_KEYS: keyA });
    expect(withPrevious.logs.messages('token encryption keys')[0]).toMatchObject({
      keyId: tokenKeyId(Buffer.from(keyB, 'base64')),
      previousKeyIds: [tokenKeyId(Buffer.from(keyA, 'base64'))],
    });
    advance(11 * SECOND);
    original.sandbox.clearRequests();
    const res = await moveTo(before, withPrevious).post('/api/auth/guilds/refresh');
    expect(res.statusCode, res.body).toBe(200);
    expect(AuthenticatedMe.parse(res.json()).user.id).toBe(cleo.id);
    // The user's tokens, opened with the previous key, were used at Discord.
    expect(original.sandbox.requests('GET /api/v10/users/@me/guilds').filter((r) => r.auth === 'bearer')).toHaveLength(1);

    const [resealed] = await rows(cleo.id);
    expect(resealed!.revoked_at).toBeNull();
    for (const value of [resealed!.discord_access_token, resealed!.discord_refresh_token]) {
      expect(value).toMatch(new RegExp(`^v2\\.${tokenKeyId(Buffer.from(keyB, 'base64'))}\\.`));
    }
    // Sealed again: an instance that no longer knows the old key reads them.
    const rotated = await restartWith({ TOKEN_ENCRYPTION_KEY: keyB });
    advance(11 * SECOND);
    expect((await moveTo(before, rotated).post('/api/auth/guilds/refresh')).statusCode).toBe(200);
  });

  it('a sign-in started before the change: OAUTH_STATE_INVALID without the old key, completes with it', async () => {
    const lost = await restartWith({ TOKEN_ENCRYPTION_KEY: keyB });
    const kept = await restartWith({ TOKEN_ENCRYPTION_KEY: keyB, TOKEN_ENCRYPTION_PREVIOUS_KEYS: keyA });

    const first = new Browser(original.app);
    const callback = await approveAs(first, (await startLogin(first)).authorize, sam.id);
    const refused = await moveTo(first, lost).get(callback.toString());
    expect(refused.statusCode).toBe(ERROR_CODES.OAUTH_STATE_INVALID.httpStatus);
    expect(footer(refused.body)).toBe(`${ERROR_CODES.OAUTH_STATE_INVALID.code} - ${ERROR_CODES.OAUTH_STATE_INVALID.httpStatus}`);
    expect(await rows(sam.id)).toEqual([]);

    const second = new Browser(original.app);
    const again = await approveAs(second, (await startLogin(second)).authorize, sam.id);
    const browser = moveTo(second, kept);
    const done = await browser.get(again.toString());
    expect(done.statusCode, done.body).toBe(200);
    expect(runPopup(done.body).posted).toEqual([{ message: { auth: true }, targetOrigin: DASHBOARD_ORIGIN }]);
    expect((await me(browser)).isAuthenticated).toBe(true);
  });

  it('signing in again in a browser whose session holds undecryptable tokens works, and ends that session', async () => {
    const before = new Browser(original.app);
    await signIn(before, ben.id);
    const oldCookie = before.jar.get(SESSION)!;
    const rotated = await restartWith({ TOKEN_ENCRYPTION_KEY: keyB });
    const browser = moveTo(before, rotated);
    // Login and callback at the new instance; the consent at "Discord" (the original's sandbox, which `rotated` uses).
    const { authorize } = await startLogin(browser);
    const callback = await approveAs(new Browser(original.app), authorize, ben.id);
    const res = await browser.get(callback.toString());
    expect(res.statusCode, res.body).toBe(200);
    expect(runPopup(res.body).posted).toEqual([{ message: { auth: true }, targetOrigin: DASHBOARD_ORIGIN }]);
    expect(browser.jar.get(SESSION)).not.toBe(oldCookie);
    const stale = new Browser(rotated.app);
    stale.jar.set(SESSION, oldCookie);
    expect(await me(stale)).toEqual(ANONYMOUS);
    const me2 = await me(browser);
    expect(me2.isAuthenticated && me2.user.id).toBe(ben.id);
  });
});

describe.each(databases())('OAuthStates after a key change on $name', (database) => {
  const deps = useServiceDeps(database);

  it('a state whose PKCE verifier no longer decrypts is refused (null) and used up, not an exception', async () => {
    const oldKey = randomBytes(32);
    const started = await new OAuthStates(deps.db, new SecretBox(oldKey), deps.clock).start('https://tickety.test');
    const states = new OAuthStates(deps.db, new SecretBox(randomBytes(32)), deps.clock);
    expect(await states.consume(started.state)).toBeNull();
    expect((await deps.db.query('SELECT 1 FROM oauth_states')).rows).toEqual([]);

    const again = await new OAuthStates(deps.db, new SecretBox(oldKey), deps.clock).start('https://tickety.test');
    const rotated = new OAuthStates(deps.db, new SecretBox(randomBytes(32), [oldKey]), deps.clock);
    expect(await rotated.consume(again.state)).toEqual({ codeVerifier: again.codeVerifier, returnOrigin: 'https://tickety.test' });
  });
});
