import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DEMO_APP, DEMO_GUILDS, DEMO_USERS } from './demo-data';
import { API, authorizeQuery, exchange, type Harness, harness, location, PREFIX, pkcePair, REDIRECT_URI, stored } from './test-helpers';

let sandbox: Harness;
let app: FastifyInstance;

beforeEach(async () => {
  // controlRoutes: the tests read how many codes are stored (_control/state).
  sandbox = await harness({ controlRoutes: true });
  app = sandbox.app;
});
afterEach(async () => {
  await app.close();
});

const authorizeGet = (q: URLSearchParams | string) => app.inject({ method: 'GET', url: `${PREFIX}/oauth2/authorize?${q}` });
const authorizePost = (form: URLSearchParams) =>
  app.inject({
    method: 'POST',
    url: `${PREFIX}/oauth2/authorize`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form.toString(),
  });

/** The hidden fields of the chooser's form, as the browser would send them. */
function formFields(html: string): URLSearchParams {
  const form = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    form.append(decode(match[1]!), decode(match[2]!));
  }
  return form;
}

function decode(text: string): string {
  return text.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
}

describe('GET /oauth2/authorize: the chooser', () => {
  test('shows the consent screen with the app, the scopes in words, a button per demo user and Cancel', async () => {
    const res = await authorizeGet(authorizeQuery());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.body;
    expect(html).toContain('<title>Discord (sandbox) | Authorize access to your account</title>');
    expect(html).toContain(`<h1>${DEMO_APP.name}</h1>`);
    expect(html).toContain('Access your username, avatar, and banner');
    expect(html).toContain('Know what servers you&#39;re in');

    const buttons = [...html.matchAll(/<button type="submit" class="choice" name="user_id" value="(\d+)" aria-label="([^"]+)" aria-describedby="([^"]+)">/g)];
    expect(buttons.map((b) => b[2])).toEqual(['Sign in as Ava', 'Sign in as Ben', 'Sign in as Cleo', 'Sign in as Sam', 'Sign in as Nico']);
    expect(buttons.map((b) => b[1])).toEqual(Object.values(DEMO_USERS).map((u) => u.id));
    // The blurb is the button's description (secondary text), not part of its name.
    for (const user of Object.values(DEMO_USERS)) {
      expect(html).toContain(`<span class="blurb" id="blurb-${user.id}">${user.blurb.replace(/'/g, '&#39;')}`);
    }
    expect(html).toMatch(/<button type="submit" class="secondary" name="decision" value="cancel">Cancel<\/button>/);
    expect(html).toContain('<form method="post" action="authorize">');
    expect(html).toContain('redirected outside of Discord to: <strong>http://localhost:3000</strong>');
    expect(html).not.toMatch(/<script/i);
  });

  test('every image on the page loads from the sandbox CDN', async () => {
    const res = await authorizeGet(authorizeQuery());
    const sources = [...res.body.matchAll(/<img src="([^"]+)"/g)].map((m) => decode(m[1]!));
    expect(sources).toHaveLength(Object.keys(DEMO_USERS).length);
    for (const src of sources) {
      // Relative to the page (<prefix>/oauth2/authorize), as the browser resolves it.
      const url = new URL(src, `http://localhost${PREFIX}/oauth2/authorize`);
      const img = await app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      expect(img.statusCode).toBe(200);
      expect(img.headers['content-type']).toBe('image/svg+xml');
    }
  });

  test('carries every original parameter into the form and escapes them', async () => {
    const res = await authorizeGet(authorizeQuery({ state: '"><script>alert(1)</script>' }));
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<script>alert(1)</script>');
    const fields = formFields(res.body);
    expect(fields.get('state')).toBe('"><script>alert(1)</script>');
    expect(fields.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(fields.get('code_challenge_method')).toBe('S256');
    expect(fields.get('client_id')).toBe(DEMO_APP.clientId);
  });

  test('sets a strict CSP without script, no framing and no referrer', async () => {
    const res = await authorizeGet(authorizeQuery());
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("form-action 'self' http://localhost:3000");
    expect(csp).not.toContain('script-src');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  test('the style hash in the CSP matches the inline stylesheet', async () => {
    const { createHash } = await import('node:crypto');
    const res = await authorizeGet(authorizeQuery());
    const css = /<style>([\s\S]*?)<\/style>/.exec(res.body)![1]!;
    const hash = createHash('sha256').update(css).digest('base64');
    expect(String(res.headers['content-security-policy'])).toContain(`'sha256-${hash}'`);
  });
});

describe('POST /oauth2/authorize: the decision', () => {
  test('choosing a user redirects to redirect_uri with a code and the state', async () => {
    const page = await authorizeGet(authorizeQuery());
    const form = formFields(page.body);
    form.set('user_id', DEMO_USERS.ben.id);
    const res = await authorizePost(form);
    expect(res.statusCode).toBe(302);
    const url = location(res);
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT_URI);
    expect(url.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{30}$/);
    expect(url.searchParams.get('state')).toBe('state-123');
    expect(sandbox.control.grants()).toHaveLength(0); // a code is not a grant until it is exchanged
  });

  test('Cancel redirects with error=access_denied, a description and the state, and no code', async () => {
    const page = await authorizeGet(authorizeQuery());
    const form = formFields(page.body);
    form.set('decision', 'cancel');
    const res = await authorizePost(form);
    expect(res.statusCode).toBe(302);
    const url = location(res);
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('error_description')).toBe('The resource owner or authorization server denied the request');
    expect(url.searchParams.get('state')).toBe('state-123');
    expect(url.searchParams.has('code')).toBe(false);
  });

  test('keeps a query already in redirect_uri', async () => {
    const page = await authorizeGet(authorizeQuery({ redirect_uri: `${REDIRECT_URI}?from=popup` }));
    const form = formFields(page.body);
    form.set('user_id', DEMO_USERS.ava.id);
    const url = location(await authorizePost(form));
    expect(url.searchParams.get('from')).toBe('popup');
    expect(url.searchParams.get('code')).toBeTruthy();
  });

  test('a tampered form is validated again and an unknown user is refused', async () => {
    const page = await authorizeGet(authorizeQuery());
    const tampered = formFields(page.body);
    tampered.set('redirect_uri', 'javascript:alert(1)');
    tampered.set('user_id', DEMO_USERS.ava.id);
    const bad = await authorizePost(tampered);
    expect(bad.statusCode).toBe(400);
    expect(bad.headers.location).toBeUndefined();

    const nobody = formFields(page.body);
    nobody.set('user_id', '999');
    const res = await authorizePost(nobody);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Choose an account');
  });

  test('a JSON body is refused with an error page', async () => {
    const res = await app.inject({ method: 'POST', url: `${PREFIX}/oauth2/authorize`, payload: { user_id: DEMO_USERS.ava.id } });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toContain('application/x-www-form-urlencoded');
  });
});

describe('login_hint', () => {
  test('approves at once without the chooser', async () => {
    const params = authorizeQuery();
    params.set('login_hint', DEMO_USERS.cleo.id);
    const res = await authorizeGet(params);
    expect(res.statusCode).toBe(302);
    const url = location(res);
    expect(url.searchParams.get('code')).toBeTruthy();
    expect(url.searchParams.get('state')).toBe('state-123');
  });

  test('an unknown user is a 400 page, not a redirect', async () => {
    const params = authorizeQuery();
    params.set('login_hint', '42');
    const res = await authorizeGet(params);
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toContain('Unknown login_hint');
  });

  test('a bad request is refused even with login_hint', async () => {
    const params = authorizeQuery({ client_id: '1' });
    params.set('login_hint', DEMO_USERS.ava.id);
    const res = await authorizeGet(params);
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });
});

describe('invalid authorization requests: a 400 page, never a redirect', () => {
  const cases: Array<[string, Record<string, string | null>, string]> = [
    ['unknown client_id', { client_id: '1300000000000000999' }, 'Unknown application'],
    ['missing client_id', { client_id: null }, 'Invalid OAuth2 client_id'],
    ['relative redirect_uri', { redirect_uri: '/api/auth/callback' }, 'Invalid OAuth2 redirect_uri'],
    ['javascript: redirect_uri', { redirect_uri: 'javascript:alert(1)' }, 'must use http or https'],
    ['redirect_uri with a fragment', { redirect_uri: `${REDIRECT_URI}#x` }, 'fragment'],
    ['redirect_uri with credentials', { redirect_uri: 'http://user:pw@localhost:3000/cb' }, 'credentials'],
    ['missing redirect_uri', { redirect_uri: null }, 'no redirect_uri'],
    ['a challenge without its method', { code_challenge_method: null }, 'code_challenge_method is required'],
    ['the plain PKCE method', { code_challenge_method: 'plain' }, 'only S256'],
    ['a method without a challenge', { code_challenge: null }, 'no code_challenge'],
    ['a malformed challenge', { code_challenge: 'short' }, '43 characters'],
    ['response_type=token', { response_type: 'token' }, 'response_type'],
    ['missing response_type', { response_type: null }, 'response_type'],
    ['scope without guilds', { scope: 'identify' }, 'missing: guilds'],
    ['unknown scope', { scope: 'identify guilds messages.read' }, 'Unknown scope: messages.read'],
    ['missing scope', { scope: null }, 'no scope'],
  ];
  test.each(cases)('%s', async (_name, overrides, message) => {
    const res = await authorizeGet(authorizeQuery(overrides));
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain(message.replace(/'/g, '&#39;'));
    expect(res.body).toContain('role="alert"');
  });

  test('a repeated parameter', async () => {
    const res = await authorizeGet(`${authorizeQuery()}&client_id=${DEMO_APP.clientId}`);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('is repeated');
  });

  test('PKCE stays optional: a request without challenge and method is accepted', async () => {
    const res = await authorizeGet(authorizeQuery({ code_challenge: null, code_challenge_method: null }));
    expect(res.statusCode).toBe(200);
  });

  test('only registered redirect URIs when redirectUris is configured', async () => {
    const strict = await harness({ redirectUris: [REDIRECT_URI] });
    try {
      const ok = await strict.app.inject({ method: 'GET', url: `${PREFIX}/oauth2/authorize?${authorizeQuery()}` });
      expect(ok.statusCode).toBe(200);
      const other = authorizeQuery({ redirect_uri: 'http://localhost:3000/elsewhere' });
      const bad = await strict.app.inject({ method: 'GET', url: `${PREFIX}/oauth2/authorize?${other}` });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('is not registered');
    } finally {
      await strict.app.close();
    }
  });
});

describe('bot invite (scope=bot), as the dashboard\'s "Invite the bot" link sends it', () => {
  const inviteQuery = (extra = '') => `client_id=${DEMO_APP.clientId}&scope=bot%20applications.commands&permissions=2048${extra}`;

  test('lists the demo servers; adding the bot puts the server in the bot guild list', async () => {
    const page = await authorizeGet(inviteQuery());
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`aria-label="Add to Study Hall"`);
    expect(page.body).toContain(`aria-label="Pixel Pals: already added"`);
    // Its form posts back to itself: the page's CSP must allow that (a browser blocks it otherwise).
    expect(String(page.headers['content-security-policy'])).toContain("form-action 'self'");
    const form = formFields(page.body);
    form.set('add_guild_id', DEMO_GUILDS.studyHall.id);
    const res = await authorizePost(form);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Added to Study Hall');
    expect(sandbox.control.botGuildIds()).toContain(DEMO_GUILDS.studyHall.id);
    sandbox.control.reset();
    expect(sandbox.control.botGuildIds()).not.toContain(DEMO_GUILDS.studyHall.id);
  });

  test('with a redirect_uri it redirects with guild_id, permissions and state', async () => {
    const page = await authorizeGet(inviteQuery(`&redirect_uri=${encodeURIComponent(REDIRECT_URI)}&state=s1`));
    const form = formFields(page.body);
    form.set('add_guild_id', DEMO_GUILDS.bensWorkshop.id);
    const url = location(await authorizePost(form));
    expect(url.searchParams.get('guild_id')).toBe(DEMO_GUILDS.bensWorkshop.id);
    expect(url.searchParams.get('permissions')).toBe('2048');
    expect(url.searchParams.get('state')).toBe('s1');
  });

  test('its redirect_uri is held to the same allow-list: a foreign one is a 400 page, GET or POST', async () => {
    const evil = encodeURIComponent('https://evil.example/');
    const page = await authorizeGet(inviteQuery(`&redirect_uri=${evil}&state=s1`));
    expect(page.statusCode).toBe(400);
    expect(page.headers.location).toBeUndefined();
    expect(page.body).toContain('is not registered');

    const good = formFields((await authorizeGet(inviteQuery(`&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`))).body);
    good.set('redirect_uri', 'https://evil.example/');
    good.set('add_guild_id', DEMO_GUILDS.studyHall.id);
    const posted = await authorizePost(good);
    expect(posted.statusCode).toBe(400);
    expect(posted.headers.location).toBeUndefined();
    expect(sandbox.control.botGuildIds()).not.toContain(DEMO_GUILDS.studyHall.id);
  });
});

describe('redirect URIs: loopback only by default, the registered ones otherwise', () => {
  const evil = (extra: Record<string, string | null> = {}) => {
    const params = authorizeQuery({ redirect_uri: 'https://evil.example/', ...extra });
    params.set('login_hint', DEMO_USERS.ava.id);
    return params;
  };

  test('login_hint to a foreign site: a 400 page, no redirect, no code stored', async () => {
    const res = await authorizeGet(evil());
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toContain('Invalid OAuth2 redirect_uri');
    expect(res.body).toContain('is not registered');
    expect((await stored(app)).codes).toBe(0);
  });

  test('the consent form posted to a foreign site: a 400 page, no redirect, no code stored', async () => {
    const form = evil();
    form.delete('login_hint');
    form.set('user_id', DEMO_USERS.ava.id);
    const res = await authorizePost(form);
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    form.set('decision', 'cancel');
    expect((await authorizePost(form)).headers.location).toBeUndefined();
    expect((await stored(app)).codes).toBe(0);
  });

  test('with redirectUris, a loopback URI that is not listed is refused too', async () => {
    const strict = await harness({ redirectUris: ['https://tickety.example/api/auth/callback'] });
    try {
      const params = authorizeQuery();
      params.set('login_hint', DEMO_USERS.ava.id);
      expect((await strict.app.inject({ method: 'GET', url: `${PREFIX}/oauth2/authorize?${params}` })).statusCode).toBe(400);
      params.set('redirect_uri', 'https://tickety.example/api/auth/callback');
      const ok = await strict.app.inject({ method: 'GET', url: `${PREFIX}/oauth2/authorize?${params}` });
      expect(ok.statusCode).toBe(302);
      expect(location(ok).origin).toBe('https://tickety.example');
    } finally {
      await strict.app.close();
    }
  });
});

describe('over-long requests: a 400 page, nothing stored', () => {
  const long = (n: number) => 'x'.repeat(n);
  const cases: Array<[string, Record<string, string>, string]> = [
    ['state over 512', { state: long(513) }, '"state" is too long (512 characters at most)'],
    ['redirect_uri over 2048', { redirect_uri: `${REDIRECT_URI}?${long(2048)}` }, '"redirect_uri" is too long (2048 characters at most)'],
    ['scope over 512', { scope: `identify guilds ${long(600)}` }, '"scope" is too long'],
    ['login_hint over 64', { login_hint: `${DEMO_USERS.ava.id}${long(64)}` }, '"login_hint" is too long'],
    ['code_challenge over 128', { code_challenge: long(129) }, '"code_challenge" is too long'],
    ['an unknown parameter over 512', { nonce: long(513) }, '"nonce" is too long'],
    ['a query over 8 KB', Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, long(500)])), 'too long (8192 characters'],
    ['too many parameters', Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, '1'])), 'too many parameters'],
  ];

  test.each(cases)('GET: %s', async (_name, extra, message) => {
    const params = authorizeQuery();
    params.set('login_hint', DEMO_USERS.ava.id);
    for (const [key, value] of Object.entries(extra)) params.set(key, value);
    const res = await authorizeGet(params);
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('Request too long');
    expect(res.body).toContain(message.replace(/"/g, '&#34;'));
    expect((await stored(app)).codes).toBe(0);
  });

  test.each(cases)('POST: %s', async (_name, extra, message) => {
    const form = authorizeQuery();
    form.set('user_id', DEMO_USERS.ava.id);
    for (const [key, value] of Object.entries(extra)) form.set(key, value);
    const res = await authorizePost(form);
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).toContain(message.replace(/"/g, '&#34;'));
    expect((await stored(app)).codes).toBe(0);
  });

  test('values at the limits are accepted', async () => {
    const params = authorizeQuery({ state: long(512) });
    params.set('login_hint', DEMO_USERS.ava.id);
    const res = await authorizeGet(params);
    expect(res.statusCode).toBe(302);
    expect(location(res).searchParams.get('state')).toBe(long(512));
    expect((await stored(app)).codes).toBe(1);
  });
});

describe('stored codes are capped (maxCodes)', () => {
  let capped: Harness;
  beforeEach(async () => {
    capped = await harness({ maxCodes: 5, controlRoutes: true, rateLimit: { limit: 1000 } });
  });
  afterEach(async () => {
    await capped.app.close();
  });

  async function codeFor(userId: string = DEMO_USERS.ava.id) {
    const { verifier, challenge } = pkcePair();
    const params = authorizeQuery({}, challenge);
    params.set('login_hint', userId);
    const res = await capped.app.inject({ method: 'GET', url: `${PREFIX}/oauth2/authorize?${params}` });
    expect(res.statusCode).toBe(302);
    return { code: location(res).searchParams.get('code')!, verifier };
  }

  test('never more than maxCodes: the oldest unused codes are evicted, the newest still work', async () => {
    const codes = [];
    for (let i = 0; i < 12; i++) {
      codes.push(await codeFor());
      expect((await stored(capped.app)).codes).toBeLessThanOrEqual(5);
    }
    expect((await stored(capped.app)).codes).toBe(5);
    const oldest = await exchange(capped.app, codes[0]!.code, codes[0]!.verifier);
    expect(oldest.statusCode).toBe(400);
    expect(oldest.json().error).toBe('invalid_grant');
    const newest = await exchange(capped.app, codes[11]!.code, codes[11]!.verifier);
    expect(newest.statusCode).toBe(200);
  });

  test('used codes are evicted before unused ones', async () => {
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push(await codeFor());
    expect((await exchange(capped.app, codes[2]!.code, codes[2]!.verifier)).statusCode).toBe(200);
    await codeFor();
    expect((await stored(capped.app)).codes).toBe(5);
    // The oldest, unused, survived: the used one made room.
    expect((await exchange(capped.app, codes[0]!.code, codes[0]!.verifier)).statusCode).toBe(200);
  });

  test('expired codes are dropped as soon as a new code is issued (not after a day)', async () => {
    for (let i = 0; i < 4; i++) await codeFor();
    expect((await stored(capped.app)).codes).toBe(4);
    capped.tick(600_000 + 1); // codeTtlSeconds: 600
    await codeFor();
    expect((await stored(capped.app)).codes).toBe(1);
  });

  test('a used code is kept until it expires, so a replay still revokes its grant', async () => {
    const { code, verifier } = await codeFor();
    const tokens = (await exchange(capped.app, code, verifier)).json();
    await codeFor();
    const replay = await exchange(capped.app, code, verifier);
    expect(replay.json().error).toBe('invalid_grant');
    const me = await capped.app.inject({ method: 'GET', url: `${API}/users/@me`, headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(me.statusCode).toBe(401);
  });
});
