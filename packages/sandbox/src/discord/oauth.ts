import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FormBody } from '../kit/body';
import { safeEqual } from '../kit/crypto';
import { queryOf } from '../kit/http';
import type { DemoUser } from './demo-data';
import { KNOWN_SCOPES, REQUIRED_SCOPES, type SandboxEngine } from './engine';
import { botInvitePage, chooserPage, errorPage, messagePage, type Page } from './pages';
import { demoGuilds, demoUsers, findGuild, findUser, SNOWFLAKE, s256 } from './util';

/** Discord's answer to a cancelled consent screen. */
const DENIED_DESCRIPTION = 'The resource owner or authorization server denied the request';
/** PKCE verifier: 43-128 characters of [A-Z a-z 0-9 - . _ ~]. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** base64url(SHA-256) without padding is always 43 characters. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** Parameters the authorize form carries from the GET to the POST. */
const CARRIED = [
  'response_type',
  'client_id',
  'scope',
  'redirect_uri',
  'state',
  'code_challenge',
  'code_challenge_method',
  'prompt',
  'permissions',
  'guild_id',
  'disable_guild_select',
  'integration_type',
] as const;

interface LoginRequest {
  kind: 'login';
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string | null;
  challenge: string | null;
  carried: Record<string, string>;
}

interface BotRequest {
  kind: 'bot';
  scopes: string[];
  permissions: string;
  guildId: string | null;
  redirectUri: string | null;
  state: string | null;
  carried: Record<string, string>;
}

interface Invalid {
  kind: 'error';
  title: string;
  detail: string;
}

function invalid(title: string, detail: string): Invalid {
  return { kind: 'error', title, detail };
}

/** Where a redirect may go when the registration lists no redirect URIs: this machine only. */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Longest value accepted per parameter of the authorize and token endpoints (characters). */
const MAX_PARAM: Readonly<Record<string, number>> = {
  state: 512,
  redirect_uri: 2048,
  scope: 512,
  client_id: 64,
  response_type: 32,
  code_challenge: 128,
  code_challenge_method: 16,
  prompt: 16,
  permissions: 32,
  guild_id: 32,
  disable_guild_select: 16,
  integration_type: 16,
  login_hint: 64,
  decision: 16,
  user_id: 64,
  add_guild_id: 64,
  grant_type: 64,
  // Sealed codes carry their redirect URI and sealed tokens their grant (the sealSecret option).
  code: 4096,
  code_verifier: 128,
  refresh_token: 1024,
  client_secret: 256,
  token: 1024,
  token_type_hint: 32,
};
/** Any other parameter (ignored, like Discord ignores it). */
const MAX_OTHER_PARAM = 512;
const MAX_PARAM_NAME = 64;
const MAX_PARAMS = 32;
/** The whole query of the GET, or the whole form of a POST. */
const MAX_PARAMS_SIZE = 8192;

/**
 * Refuses over-long requests before anything is looked at or stored: the whole query or form (`size`,
 * its encoded length), the number of parameters and each value. Returns the problem, or null.
 */
function paramsProblem(params: URLSearchParams, size: number): string | null {
  if (size > MAX_PARAMS_SIZE) return `The request is too long (${MAX_PARAMS_SIZE} characters of parameters at most).`;
  let count = 0;
  for (const [name, value] of params) {
    if (++count > MAX_PARAMS) return `The request has too many parameters (${MAX_PARAMS} at most).`;
    if (name.length > MAX_PARAM_NAME) return `A parameter name is too long (${MAX_PARAM_NAME} characters at most).`;
    const max = Object.hasOwn(MAX_PARAM, name) ? MAX_PARAM[name]! : MAX_OTHER_PARAM;
    if (value.length > max) return `"${name}" is too long (${max} characters at most).`;
  }
  return null;
}

/** The shape every redirect URI must have (registered or requested); null when it is fine. */
export function redirectUriProblem(raw: string): string | null {
  if (raw.length > MAX_PARAM.redirect_uri!) return `redirect_uri is too long (${MAX_PARAM.redirect_uri} characters at most).`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `redirect_uri "${raw}" is not an absolute URL.`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `redirect_uri must use http or https, not "${url.protocol}".`;
  if (raw.includes('#')) return 'redirect_uri must not contain a fragment (#).';
  if (url.username || url.password) return 'redirect_uri must not contain credentials.';
  return null;
}

/** `allowed`: the registered URIs (exact match), or null for loopback URLs only. */
function checkRedirectUri(raw: string, allowed: readonly string[] | null): string | null {
  const problem = redirectUriProblem(raw);
  if (problem) return problem;
  if (allowed ? !allowed.includes(raw) : !LOOPBACK_HOSTS.has(new URL(raw).hostname)) {
    return `redirect_uri "${raw}" is not registered for this application.`;
  }
  return null;
}

/** Validates an authorization request (query of the GET, or the form of the POST) the way Discord does. */
function checkAuthorize(params: URLSearchParams, engine: SandboxEngine): LoginRequest | BotRequest | Invalid {
  // The handlers checked the whole query or form already; any other caller gets the per-value limits.
  const tooLong = paramsProblem(params, 0);
  if (tooLong) return invalid('Request too long', tooLong);
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (seen.has(name)) return invalid('Invalid OAuth2 request', `The parameter "${name}" is repeated.`);
    seen.add(name);
  }
  const get = (name: string) => params.get(name) ?? undefined;
  const carried: Record<string, string> = {};
  for (const name of CARRIED) {
    const value = get(name);
    if (value !== undefined) carried[name] = value;
  }

  const clientId = get('client_id');
  if (!clientId) return invalid('Invalid OAuth2 client_id', 'The request has no client_id.');
  if (clientId !== engine.options.clientId) {
    return invalid('Unknown application', `client_id "${clientId}" is not an application of this sandbox.`);
  }
  const scopes = (get('scope') ?? '').split(/\s+/).filter(Boolean);
  if (scopes.length === 0) return invalid('Invalid OAuth2 scope', 'The request has no scope.');
  const state = get('state') ?? null;

  const rawRedirect = get('redirect_uri');
  if (scopes.includes('bot')) {
    const unknownBot = scopes.filter((s) => s !== 'bot' && s !== 'applications.commands' && !(KNOWN_SCOPES as readonly string[]).includes(s));
    if (unknownBot.length) return invalid('Invalid OAuth2 scope', `Unknown scope: ${unknownBot.join(', ')}.`);
    const permissions = get('permissions') ?? '0';
    if (!/^\d{1,20}$/.test(permissions)) return invalid('Invalid OAuth2 request', `permissions "${permissions}" is not a decimal permission integer.`);
    const guildId = get('guild_id') ?? null;
    if (guildId !== null && !SNOWFLAKE.test(guildId)) return invalid('Invalid OAuth2 request', `guild_id "${guildId}" is not a snowflake.`);
    if (rawRedirect !== undefined) {
      const problem = checkRedirectUri(rawRedirect, engine.options.redirectUris);
      if (problem) return invalid('Invalid OAuth2 redirect_uri', problem);
    }
    return { kind: 'bot', scopes, permissions, guildId, redirectUri: rawRedirect ?? null, state, carried };
  }

  const unknown = scopes.filter((s) => !(KNOWN_SCOPES as readonly string[]).includes(s));
  if (unknown.length) return invalid('Invalid OAuth2 scope', `Unknown scope: ${unknown.join(', ')}.`);
  const missing = REQUIRED_SCOPES.filter((s) => !scopes.includes(s));
  if (missing.length) {
    return invalid('Invalid OAuth2 scope', `The sandbox signs in with the scopes identify and guilds; missing: ${missing.join(', ')}.`);
  }
  const responseType = get('response_type');
  if (responseType !== 'code') {
    return invalid(
      'Invalid OAuth2 response_type',
      responseType ? `response_type "${responseType}" is not supported: use response_type=code.` : 'The request has no response_type: use response_type=code.',
    );
  }
  if (rawRedirect === undefined || rawRedirect === '') return invalid('Invalid OAuth2 redirect_uri', 'The request has no redirect_uri.');
  const problem = checkRedirectUri(rawRedirect, engine.options.redirectUris);
  if (problem) return invalid('Invalid OAuth2 redirect_uri', problem);

  const challenge = get('code_challenge');
  const method = get('code_challenge_method');
  if (challenge !== undefined || method !== undefined) {
    if (method === undefined) return invalid('Invalid PKCE request', 'code_challenge_method is required with a code_challenge: only S256 is supported.');
    if (method !== 'S256') return invalid('Invalid PKCE request', `code_challenge_method "${method}" is not supported: only S256 is.`);
    if (challenge === undefined) return invalid('Invalid PKCE request', 'code_challenge_method is set but the request has no code_challenge.');
    if (!CHALLENGE.test(challenge)) return invalid('Invalid PKCE request', 'code_challenge must be base64url(SHA-256(code_verifier)): 43 characters.');
  }
  const prompt = get('prompt');
  if (prompt !== undefined && prompt !== 'consent' && prompt !== 'none') {
    return invalid('Invalid OAuth2 request', `prompt "${prompt}" is not supported: use consent or none.`);
  }
  return { kind: 'login', clientId, redirectUri: rawRedirect, scopes: [...new Set(scopes)], state, challenge: challenge ?? null, carried };
}

/** Sends a sandbox page with its CSP and the headers every page carries. */
export function sendPage(reply: FastifyReply, status: number, page: Page) {
  return reply
    .code(status)
    .header('content-security-policy', page.csp)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .type('text/html; charset=utf-8')
    .send(page.html);
}

function redirectTo(reply: FastifyReply, base: string, add: Record<string, string | null>) {
  const url = new URL(base);
  for (const [name, value] of Object.entries(add)) if (value !== null) url.searchParams.append(name, value);
  return reply.code(302).header('location', url.toString()).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send();
}

function sendOauthError(reply: FastifyReply, status: number, error: string, description: string) {
  if (status === 401) reply.header('www-authenticate', 'Basic realm="Discord sandbox"');
  return reply.code(status).header('cache-control', 'no-store').header('pragma', 'no-cache').send({ error, error_description: description });
}

type ClientAuth = { ok: true; clientId: string } | { ok: false; status: number; error: string; description: string };

function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** Client authentication: HTTP Basic (form-encoded id and secret) or client_id/client_secret in the form; not both. */
function authenticateClient(req: FastifyRequest, form: FormBody, engine: SandboxEngine): ClientAuth {
  const fail = (status: number, error: string, description: string): ClientAuth => ({ ok: false, status, error, description });
  let basic: { id: string; secret: string } | null = null;
  const header = req.headers.authorization;
  if (header !== undefined) {
    const match = /^Basic +([A-Za-z0-9+/=_-]+) *$/i.exec(header);
    if (!match) return fail(401, 'invalid_client', 'The Authorization header must be HTTP Basic client authentication.');
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return fail(401, 'invalid_client', 'The Basic credentials must be client_id:client_secret.');
    basic = { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  }
  const formId = form.get('client_id');
  const formSecret = form.get('client_secret');
  if (basic && formSecret !== undefined) return fail(400, 'invalid_request', 'Use one client authentication method, not Basic and form fields.');
  if (basic && formId !== undefined && formId !== basic.id) return fail(400, 'invalid_request', 'client_id in the form differs from the Basic credentials.');
  const id = basic?.id ?? formId;
  const secret = basic?.secret ?? formSecret;
  if (!id || secret === undefined) return fail(401, 'invalid_client', 'Client authentication is required.');
  if (!safeEqual(id, engine.options.clientId) || !safeEqual(secret, engine.options.clientSecret)) {
    return fail(401, 'invalid_client', 'Client authentication failed.');
  }
  return { ok: true, clientId: id };
}

export function oauthRoutes(app: FastifyInstance, engine: SandboxEngine): void {
  const { store } = engine;

  const approve = (reply: FastifyReply, loginRequest: LoginRequest, user: DemoUser) => {
    const now = engine.now();
    const code = store.createCode({
      clientId: loginRequest.clientId,
      redirectUri: loginRequest.redirectUri,
      challenge: loginRequest.challenge,
      scopes: loginRequest.scopes,
      userId: user.id,
      issuedAt: now,
      expiresAt: now + engine.options.codeTtlSeconds * 1000,
    });
    return redirectTo(reply, loginRequest.redirectUri, { code: code.code, state: loginRequest.state });
  };

  const deny = (reply: FastifyReply, redirectUri: string, state: string | null) =>
    redirectTo(reply, redirectUri, { error: 'access_denied', error_description: DENIED_DESCRIPTION, state });

  const botPage = (reply: FastifyReply, botRequest: BotRequest) => {
    const guilds = botRequest.guildId ? demoGuilds().filter((g) => g.id === botRequest.guildId) : demoGuilds();
    if (guilds.length === 0) return sendPage(reply, 400, errorPage('Unknown server', `guild_id "${botRequest.guildId}" is not a demo server.`));
    return sendPage(
      reply,
      200,
      botInvitePage({
        appName: engine.options.appName,
        guilds,
        botGuilds: store.botGuilds,
        params: botRequest.carried,
        redirectOrigin: botRequest.redirectUri ? new URL(botRequest.redirectUri).origin : null,
      }),
    );
  };

  app.get('/oauth2/authorize', async (req, reply) => {
    const quantity = req.url.indexOf('?');
    const params = queryOf(req.url);
    const tooLong = paramsProblem(params, quantity === -1 ? 0 : req.url.length - quantity - 1);
    if (tooLong) return sendPage(reply, 400, errorPage('Request too long', tooLong));
    const loginRequest = checkAuthorize(params, engine);
    if (loginRequest.kind === 'error') return sendPage(reply, 400, errorPage(loginRequest.title, loginRequest.detail));
    if (loginRequest.kind === 'bot') return botPage(reply, loginRequest);
    const hint = params.get('login_hint');
    if (hint !== null) {
      const user = findUser(hint);
      if (!user) return sendPage(reply, 400, errorPage('Unknown login_hint', `login_hint "${hint}" is not a demo user id.`));
      return approve(reply, loginRequest, user);
    }
    return sendPage(
      reply,
      200,
      chooserPage({ appName: engine.options.appName, scopes: loginRequest.scopes, redirectUri: loginRequest.redirectUri, users: demoUsers(), params: loginRequest.carried }),
    );
  });

  app.post('/oauth2/authorize', async (req, reply) => {
    if (!(req.body instanceof FormBody)) {
      return sendPage(reply, 400, errorPage('Invalid OAuth2 request', 'The consent form must be sent as application/x-www-form-urlencoded.'));
    }
    const tooLong = paramsProblem(req.body.params, req.body.params.toString().length);
    if (tooLong) return sendPage(reply, 400, errorPage('Request too long', tooLong));
    const params = new URLSearchParams(req.body.params);
    const decision = params.get('decision');
    const userId = params.get('user_id');
    const addGuild = params.get('add_guild_id');
    params.delete('decision');
    params.delete('user_id');
    params.delete('add_guild_id');
    params.delete('login_hint');
    const loginRequest = checkAuthorize(params, engine);
    if (loginRequest.kind === 'error') return sendPage(reply, 400, errorPage(loginRequest.title, loginRequest.detail));

    if (loginRequest.kind === 'bot') {
      if (decision === 'cancel') {
        if (loginRequest.redirectUri) return deny(reply, loginRequest.redirectUri, loginRequest.state);
        return sendPage(reply, 200, messagePage('Cancelled', 'The bot was not added to any server.'));
      }
      const guild = addGuild ? findGuild(addGuild) : undefined;
      if (!guild || (loginRequest.guildId !== null && guild.id !== loginRequest.guildId)) {
        return sendPage(reply, 400, errorPage('Choose a server', 'Pick one of the demo servers to add the bot to.'));
      }
      store.botGuilds.add(guild.id);
      if (loginRequest.redirectUri) return redirectTo(reply, loginRequest.redirectUri, { guild_id: guild.id, permissions: loginRequest.permissions, state: loginRequest.state });
      return sendPage(reply, 200, messagePage(`Added to ${guild.name}`, `${engine.options.appName} is now in ${guild.name}.`));
    }

    if (decision === 'cancel') return deny(reply, loginRequest.redirectUri, loginRequest.state);
    const user = userId ? demoUsers().find((u) => u.id === userId) : undefined;
    if (!user) return sendPage(reply, 400, errorPage('Choose an account', 'Pick one of the demo accounts to sign in with, or Cancel.'));
    return approve(reply, loginRequest, user);
  });

  app.post('/api/v10/oauth2/token', { config: { sandboxBucket: 'POST /oauth2/token' } }, async (req, reply) => {
    const form = req.body;
    // Discord reads nothing from a JSON (or any non-form) body, so it sees no grant_type.
    if (!(form instanceof FormBody)) return sendOauthError(reply, 400, 'unsupported_grant_type', 'Grant type None is not supported');
    const tooLong = paramsProblem(form.params, form.params.toString().length);
    if (tooLong) return sendOauthError(reply, 400, 'invalid_request', tooLong);
    const repeated = form.repeated();
    if (repeated) return sendOauthError(reply, 400, 'invalid_request', `The parameter "${repeated}" is repeated.`);
    const client = authenticateClient(req, form, engine);
    if (!client.ok) return sendOauthError(reply, client.status, client.error, client.description);
    const grantType = form.get('grant_type');
    const now = engine.now();

    if (grantType === 'authorization_code') {
      const code = form.get('code');
      const redirectUri = form.get('redirect_uri');
      const verifier = form.get('code_verifier');
      if (!code) return sendOauthError(reply, 400, 'invalid_request', 'Missing "code".');
      const record = store.findCode(code);
      if (!record || record.clientId !== client.clientId) return sendOauthError(reply, 400, 'invalid_grant', 'Invalid "code" in request.');
      if (record.usedAt !== null) {
        // A code used twice revokes what it issued.
        const grant = record.grantId ? store.grants.get(record.grantId) : undefined;
        if (grant) store.endGrant(grant, 'code_replay', now);
        return sendOauthError(reply, 400, 'invalid_grant', 'Invalid "code" in request: it was already used.');
      }
      if (record.expiresAt <= now) return sendOauthError(reply, 400, 'invalid_grant', 'Invalid "code" in request: it has expired.');
      if (redirectUri === undefined || redirectUri !== record.redirectUri) {
        return sendOauthError(reply, 400, 'invalid_grant', 'Invalid "redirect_uri" in request.');
      }
      if (record.challenge !== null) {
        if (verifier === undefined) return sendOauthError(reply, 400, 'invalid_request', 'Missing "code_verifier".');
        if (!VERIFIER.test(verifier)) {
          return sendOauthError(reply, 400, 'invalid_request', '"code_verifier" must be 43-128 characters of A-Z a-z 0-9 - . _ ~.');
        }
        if (!safeEqual(s256(verifier), record.challenge)) return sendOauthError(reply, 400, 'invalid_grant', 'Invalid "code_verifier".');
      } else if (verifier !== undefined) {
        return sendOauthError(reply, 400, 'invalid_request', '"code_verifier" sent but the authorization request had no code_challenge.');
      }
      const pair = engine.issue(record.userId, record.scopes, 'authorization_code');
      record.usedAt = now;
      record.grantId = pair.grant.id;
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(engine.tokenResponse(pair));
    }

    if (grantType === 'refresh_token') {
      const token = form.get('refresh_token');
      if (!token) return sendOauthError(reply, 400, 'invalid_request', 'Missing "refresh_token".');
      const live = store.live(token, 'refresh', now);
      if (!live || live.grant.clientId !== client.clientId) return sendOauthError(reply, 400, 'invalid_grant', 'Invalid "refresh_token" in request.');
      const pair = store.rotate(live.grant, live.record, now, engine.accessTtlMs, engine.refreshTtlMs);
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(engine.tokenResponse(pair));
    }

    return sendOauthError(reply, 400, 'unsupported_grant_type', `Grant type ${grantType ?? 'None'} is not supported`);
  });

  app.post('/api/v10/oauth2/token/revoke', { config: { sandboxBucket: 'POST /oauth2/token/revoke' } }, async (req, reply) => {
    const form = req.body;
    if (!(form instanceof FormBody)) return sendOauthError(reply, 400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
    const tooLong = paramsProblem(form.params, form.params.toString().length);
    if (tooLong) return sendOauthError(reply, 400, 'invalid_request', tooLong);
    const repeated = form.repeated();
    if (repeated) return sendOauthError(reply, 400, 'invalid_request', `The parameter "${repeated}" is repeated.`);
    const client = authenticateClient(req, form, engine);
    if (!client.ok) return sendOauthError(reply, client.status, client.error, client.description);
    const token = form.get('token');
    if (!token) return sendOauthError(reply, 400, 'invalid_request', 'Missing "token".');
    // Revocation: the hint is only a hint; unknown or already-ended tokens still answer 200.
    const record = store.findToken(token);
    const grant = record ? store.grants.get(record.grantId) : undefined;
    if (grant && grant.clientId === client.clientId) store.endGrant(grant, 'revoked', engine.now());
    return reply.header('cache-control', 'no-store').send({});
  });
}
