import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach } from 'vitest';
import { createSandboxControl, type SandboxControl } from './control';
import { DEMO_APP } from './demo-data';
import { type DiscordSandboxOptions, discordSandbox } from './plugin';
import { s256 } from './util';

export const PREFIX = '/sandbox/discord';
export const API = `${PREFIX}/api/v10`;
export const REDIRECT_URI = 'http://localhost:3000/api/auth/callback';
export const START = Date.UTC(2026, 0, 15, 12, 0, 0);

export interface Harness {
  app: FastifyInstance;
  control: SandboxControl;
  /** Moves the `clock` option forward. */
  tick(ms: number): void;
}

/** A bare Fastify with the sandbox registered under PREFIX and a controllable clock. */
export async function harness(options: Partial<DiscordSandboxOptions> = {}): Promise<Harness> {
  const app = Fastify({ logger: false });
  const control = options.control ?? createSandboxControl();
  let now = START;
  await app.register(discordSandbox, {
    prefix: PREFIX,
    baseUrl: `http://localhost:3000${PREFIX}`,
    clientId: DEMO_APP.clientId,
    clientSecret: DEMO_APP.clientSecret,
    botToken: DEMO_APP.botToken,
    clock: () => now,
    ...options,
    control,
  });
  await app.ready();
  return {
    app,
    control,
    tick: (ms) => {
      now += ms;
    },
  };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier) };
}

/** The query the API's /api/auth/login sends (override or drop parameters with null). */
export function authorizeQuery(overrides: Record<string, string | null> = {}, challenge = pkcePair().challenge): URLSearchParams {
  const base: Record<string, string | null> = {
    response_type: 'code',
    client_id: DEMO_APP.clientId,
    scope: 'identify guilds',
    prompt: 'consent',
    redirect_uri: REDIRECT_URI,
    state: 'state-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(base)) if (value !== null) params.set(key, value);
  return params;
}

export function basicAuth(id: string = DEMO_APP.clientId, secret: string = DEMO_APP.clientSecret): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

export function location(res: LightMyRequestResponse): URL {
  const value = res.headers.location;
  if (typeof value !== 'string') throw new Error(`expected a redirect, got HTTP ${res.statusCode}: ${res.body.slice(0, 200)}`);
  return new URL(value);
}

/** Signs a demo user in with login_hint; returns the code and the PKCE verifier. */
export async function authorize(app: FastifyInstance, userId: string, extra: Record<string, string | null> = {}) {
  const { verifier, challenge } = pkcePair();
  const params = authorizeQuery(extra, challenge);
  params.set('login_hint', userId);
  const res = await app.inject({ method: 'GET', url: `${PREFIX}/oauth2/authorize?${params}` });
  const url = location(res);
  return { code: url.searchParams.get('code')!, state: url.searchParams.get('state'), verifier, redirect: url };
}

export function tokenRequest(app: FastifyInstance, form: Record<string, string>, authorization: string | null = basicAuth()) {
  return app.inject({
    method: 'POST',
    url: `${API}/oauth2/token`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) },
    payload: new URLSearchParams(form).toString(),
  });
}

export function exchange(app: FastifyInstance, code: string, verifier: string, redirectUri = REDIRECT_URI) {
  return tokenRequest(app, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier });
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

/** The whole flow: authorize with login_hint, exchange the code; returns the token answer. */
export async function signIn(app: FastifyInstance, userId: string): Promise<Tokens> {
  const { code, verifier } = await authorize(app, userId);
  const res = await exchange(app, code, verifier);
  if (res.statusCode !== 200) throw new Error(`token exchange failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

export function get(app: FastifyInstance, path: string, authorization?: string) {
  return app.inject({ method: 'GET', url: `${API}${path}`, headers: authorization ? { authorization } : {} });
}

/** How many codes, grants and tokens the registration holds (needs `controlRoutes: true`). */
export async function stored(app: FastifyInstance): Promise<{ codes: number; grants: number; tokens: number }> {
  const res = await app.inject({ method: 'POST', url: `${PREFIX}/_control/state`, payload: {} });
  if (res.statusCode !== 200) throw new Error(`_control/state answered ${res.statusCode}: mount with controlRoutes: true`);
  return res.json().stored;
}

/**
 * A fresh sandbox app for every test of the calling file (beforeEach/afterEach): read `h` and `app`
 * inside tests and hooks.
 */
export function useHarness(options: Partial<DiscordSandboxOptions> = {}): { readonly h: Harness; readonly app: FastifyInstance } {
  let current: Harness | null = null;
  beforeEach(async () => {
    current = await harness(options);
  });
  afterEach(async () => {
    await current?.app.close();
    current = null;
  });
  const get = (): Harness => {
    if (!current) throw new Error('useHarness: use it inside tests or hooks');
    return current;
  };
  return {
    get h() {
      return get();
    },
    get app() {
      return get().app;
    },
  };
}

/** `Authorization` of the demo bot. */
export const BOT_AUTH = `Bot ${DEMO_APP.botToken}`;

/** A JSON request to the REST API (`payload` is sent as JSON unless it is a string). */
export function send(app: FastifyInstance, method: 'POST' | 'PATCH' | 'DELETE' | 'GET', path: string, payload?: unknown, authorization: string | null = BOT_AUTH) {
  return app.inject({
    method,
    url: `${API}${path}`,
    headers: { ...(authorization ? { authorization } : {}), ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(payload !== undefined ? { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) } : {}),
  });
}

/** POST /channels/{id}/messages as the bot. */
export function postMessage(app: FastifyInstance, channelId: string, body: unknown, authorization: string | null = BOT_AUTH) {
  return send(app, 'POST', `/channels/${channelId}/messages`, body, authorization);
}
