import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DEMO_TICKET_FILES } from '../demo-bot/files';
import { addBodyParsers } from '../kit/body';
import { sha256 } from '../kit/crypto';
import { pathBelow } from '../kit/http';
import { AttachmentStore, attachmentRoutes } from './attachments';
import { cdnRoutes } from './cdn';
import { channelRoutes } from './channel-routes';
import { createSandboxControl, type FaultOptions, internalsOf, type SandboxControl, type SandboxRequestRecord } from './control';
import { controlRoutes } from './control-routes';
import { DEMO_APP } from './demo-data';
import { type ResolvedOptions, SandboxEngine } from './engine';
import { guildRoutes } from './guild-routes';
import { messageRoutes } from './message-routes';
import { type MonetizationOptions, registerMonetization } from './monetization/plugin';
import { oauthRoutes, redirectUriProblem } from './oauth';
import { errorPage } from './pages';
import { DEFAULT_MESSAGE_RATE_LIMIT, DEFAULT_RATE_LIMIT, type RateLimitSettings, seconds } from './rate-limit';
import { restRoutes } from './rest';
import { sandboxPages } from './sandbox-pages';
import { DEFAULT_STORE_LIMITS } from './store';

export interface DiscordSandboxOptions {
  /**
   * Public URL the sandbox is reached at (e.g. `http://localhost:3000/sandbox/discord`). Informational
   * (reported by `POST /_control/state`): the sandbox's pages use relative links, so they work behind
   * any host or proxy. Must be an absolute http(s) URL when given.
   */
  baseUrl?: string;
  /** The one OAuth2 application the sandbox knows. Defaults: DEMO_APP's. */
  clientId?: string;
  clientSecret?: string;
  /** Token accepted as `Authorization: Bot <token>`. Default DEMO_APP.botToken. */
  botToken?: string;
  /** Shown on the consent screen and as the bot's name. Default DEMO_APP.name. */
  appName?: string;
  /** Access tokens' lifetime (`expires_in`). Default 604800 (7 days, like Discord). */
  tokenTtlSeconds?: number;
  /** Refresh tokens' lifetime; default null (they work until rotated or revoked). */
  refreshTokenTtlSeconds?: number | null;
  /** Authorization codes' lifetime. Default 600 (10 minutes). */
  codeTtlSeconds?: number;
  /**
   * Registered redirect URIs (exact match): a host that serves the sandbox on a public origin must give
   * its own callback here, since the consent screen sends a working code wherever the request says.
   * Default: loopback only, any http(s) URL on `localhost`, `127.0.0.1` or `[::1]` (any port and path).
   */
  redirectUris?: string[];
  /** Per-token, per-route bucket of the REST routes. Default 100 requests per 1 s window. */
  rateLimit?: Partial<RateLimitSettings>;
  /**
   * The bucket of `POST /channels/{id}/messages`, per channel and token. Default 5 messages per 5 s.
   * `SandboxControl.setRateLimit` overrides it with every other bucket while set.
   */
  messageRateLimit?: Partial<RateLimitSettings>;
  /** The sandbox's time source (epoch ms). Default Date.now. */
  clock?: () => number;
  /** Drives this registration from tests (faults, latency, time, tokens). Default: a private one. */
  control?: SandboxControl;
  /**
   * Mount the controls over HTTP at `<prefix>/_control/...` (anyone who reaches them can fail, slow
   * down or reset the sandbox for everyone). Default false: enable for end-to-end tests only.
   */
  controlRoutes?: boolean;
  /**
   * Authorization codes held at most (default 1000). Expired codes are dropped on every new code;
   * when the store is still full, used codes and then the oldest ones are evicted (refused like expired).
   */
  maxCodes?: number;
  /**
   * Grants held at most (default 1000, each with at most 20 tokens). Grants ended or expired for an
   * hour are dropped on every new grant; when the store is still full the oldest grant is dropped.
   */
  maxGrants?: number;
  /**
   * A secret shared by every instance of one deployment (at least 16 characters): authorization codes
   * and access and refresh tokens are then sealed with it (AES-256-GCM), so an instance accepts what
   * another issued, behind a balancer without sticky sessions. Revocation and single use stay per
   * instance (docs/sandbox.md#several-instances). Default: none, random tokens known to this one only.
   */
  sealSecret?: string;
  /** Discord app subscriptions (SKUs, entitlements, store page, webhook events): see monetization/index.ts. Default: off. */
  monetization?: MonetizationOptions;
}

/** Global setTimeout on purpose: tests can drive latency with fake timers. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(Number.isFinite(value) && value > 0)) throw new RangeError(`discordSandbox: ${name} must be a number > 0, not ${value}`);
  return value;
}

function count(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(Number.isInteger(value) && value >= 1)) throw new RangeError(`discordSandbox: ${name} must be an integer >= 1, not ${value}`);
  return value;
}

function sealSecretOf(secret: string | undefined): string | null {
  if (secret === undefined) return null;
  if (secret.length < 16) throw new RangeError('discordSandbox: sealSecret must be at least 16 characters');
  return secret;
}

function redirectUrisOf(list: string[] | undefined): string[] | null {
  if (list === undefined) return null;
  for (const uri of list) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new RangeError(`discordSandbox: redirectUris: ${problem}`);
  }
  return [...list];
}

function resolveOptions(options: DiscordSandboxOptions): ResolvedOptions {
  if (options.baseUrl !== undefined) {
    let ok = false;
    try {
      const url = new URL(options.baseUrl);
      ok = url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      ok = false;
    }
    if (!ok) throw new RangeError(`discordSandbox: baseUrl must be an absolute http(s) URL, not "${options.baseUrl}"`);
  }
  const rateLimit = {
    limit: Math.floor(positive('rateLimit.limit', options.rateLimit?.limit, DEFAULT_RATE_LIMIT.limit)),
    windowSeconds: positive('rateLimit.windowSeconds', options.rateLimit?.windowSeconds, DEFAULT_RATE_LIMIT.windowSeconds),
  };
  const messageRateLimit = {
    limit: Math.floor(positive('messageRateLimit.limit', options.messageRateLimit?.limit, DEFAULT_MESSAGE_RATE_LIMIT.limit)),
    windowSeconds: positive('messageRateLimit.windowSeconds', options.messageRateLimit?.windowSeconds, DEFAULT_MESSAGE_RATE_LIMIT.windowSeconds),
  };
  return {
    clientId: options.clientId || DEMO_APP.clientId,
    clientSecret: options.clientSecret || DEMO_APP.clientSecret,
    botToken: options.botToken || DEMO_APP.botToken,
    appName: options.appName || DEMO_APP.name,
    baseUrl: options.baseUrl ? options.baseUrl.replace(/\/+$/, '') : null,
    tokenTtlSeconds: positive('tokenTtlSeconds', options.tokenTtlSeconds, 604_800),
    refreshTokenTtlSeconds: options.refreshTokenTtlSeconds == null ? null : positive('refreshTokenTtlSeconds', options.refreshTokenTtlSeconds, 0),
    codeTtlSeconds: positive('codeTtlSeconds', options.codeTtlSeconds, 600),
    redirectUris: redirectUrisOf(options.redirectUris),
    rateLimit,
    messageRateLimit,
    controlRoutes: options.controlRoutes === true,
    maxCodes: count('maxCodes', options.maxCodes, DEFAULT_STORE_LIMITS.maxCodes),
    maxGrants: count('maxGrants', options.maxGrants, DEFAULT_STORE_LIMITS.maxGrants),
    sealSecret: sealSecretOf(options.sealSecret),
  };
}

function authKind(req: FastifyRequest): SandboxRequestRecord['auth'] {
  const header = req.headers.authorization;
  if (!header) return 'none';
  const scheme = header.split(' ', 1)[0]!.toLowerCase();
  return scheme === 'bearer' ? 'bearer' : scheme === 'bot' ? 'bot' : scheme === 'basic' ? 'basic' : 'other';
}

/** Rate-limit identity: the credentials presented (hashed), else the client address. */
function callerKey(req: FastifyRequest): string {
  const header = req.headers.authorization;
  return header ? `t:${sha256(header).toString('hex').slice(0, 24)}` : `ip:${req.ip}`;
}

function sendFault(reply: FastifyReply, fault: FaultOptions, now: number) {
  reply.code(fault.status).header('cache-control', 'no-store');
  if (fault.status === 429) {
    const retryAfter = fault.retryAfter ?? 1;
    const scope = fault.scope ?? 'user';
    const global = scope === 'global';
    reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfter)))).header('x-ratelimit-scope', scope);
    if (global) reply.header('x-ratelimit-global', 'true');
    else {
      reply
        .header('x-ratelimit-limit', '1')
        .header('x-ratelimit-remaining', '0')
        .header('x-ratelimit-reset', seconds(now / 1000 + retryAfter))
        .header('x-ratelimit-reset-after', seconds(retryAfter))
        .header('x-ratelimit-bucket', 'sandbox-injected-fault');
    }
    return reply.send(fault.body ?? { message: 'You are being rate limited.', retry_after: retryAfter, global });
  }
  if (fault.retryAfter !== undefined) reply.header('retry-after', String(Math.max(0, Math.ceil(fault.retryAfter))));
  return reply.send(fault.body ?? { message: `${fault.status}: ${STATUS_CODES[fault.status] ?? 'Error'}`, code: 0 });
}

/**
 * The Discord sandbox: Discord's OAuth2 consent screen, token and revoke endpoints, the REST routes the
 * dashboard uses, rate-limit headers and the CDN, served on loopback with demo data.
 *
 * Register it encapsulated (it is deliberately not wrapped in fastify-plugin) with a prefix, e.g.
 * `app.register(discordSandbox, { prefix: '/sandbox/discord' })`: its body parsers (form, JSON, raw),
 * error and 404 handlers and hooks stay inside. State (codes, grants, tokens, buckets) is per
 * registration.
 */
export const discordSandbox: FastifyPluginAsync<DiscordSandboxOptions> = async function discordSandbox(
  app: FastifyInstance,
  opts: DiscordSandboxOptions,
) {
  const options = resolveOptions(opts);
  const control = opts.control ?? createSandboxControl();
  const internals = internalsOf(control);
  const engine = new SandboxEngine(options, opts.clock ?? Date.now, control);
  internals.bind(engine);
  app.addHook('onClose', async () => internals.unbind(engine));

  const prefix = app.prefix;
  const relative = pathBelow(prefix);
  const faulted = new WeakSet<FastifyRequest>();
  const limited = new WeakSet<FastifyRequest>();

  // Body parsers of this context only: the host keeps its own (the API accepts JSON only).
  // The token endpoints answer any non-form body like Discord (they read no grant from it): JSON to /api/v10/ stays raw.
  addBodyParsers(app, { json: true, rawJson: (url) => relative(url).startsWith('/api/v10/') });

  app.addHook('onRequest', async (req, reply) => {
    const path = relative(req.url);
    if (path.startsWith('/_control/')) return;
    const method = req.method;
    const latency = internals.latencyFor(method, path) + internals.takeDelay(method, path);
    if (latency > 0) await sleep(latency);
    const fault = internals.takeFault(method, path);
    if (fault) {
      if (fault.delayMs) await sleep(fault.delayMs);
      faulted.add(req);
      sendFault(reply, fault, engine.now());
      return reply;
    }
    const config = req.routeOptions.config as { sandboxBucket?: string; sandboxMajor?: string; sandboxLimit?: 'message' } | undefined;
    if (!config?.sandboxBucket) return;
    const params = req.params as Record<string, string | undefined>;
    const major = config.sandboxMajor ? (params[config.sandboxMajor] ?? '') : '';
    const now = engine.now();
    const settings = config.sandboxLimit === 'message' ? engine.messageRateLimit() : engine.rateLimit();
    const outcome = engine.limiter.take(config.sandboxBucket, `${major}:${callerKey(req)}`, now, settings);
    reply
      .header('x-ratelimit-limit', String(outcome.limit))
      .header('x-ratelimit-remaining', String(outcome.remaining))
      .header('x-ratelimit-reset', seconds(outcome.reset))
      .header('x-ratelimit-reset-after', seconds(outcome.resetAfter))
      .header('x-ratelimit-bucket', outcome.bucket);
    if (outcome.limited) {
      limited.add(req);
      const retryAfter = Math.max(0.001, outcome.resetAfter);
      reply
        .code(429)
        .header('retry-after', String(Math.ceil(retryAfter)))
        .header('x-ratelimit-scope', 'user')
        .header('cache-control', 'no-store')
        .send({ message: 'You are being rate limited.', retry_after: Math.round(retryAfter * 1000) / 1000, global: false });
      return reply;
    }
  });

  app.addHook('onResponse', async (req, reply) => {
    const path = relative(req.url);
    if (path.startsWith('/_control/')) return;
    const quantity = req.url.indexOf('?');
    internals.record({
      method: req.method,
      path,
      query: quantity === -1 ? '' : req.url.slice(quantity + 1),
      status: reply.statusCode,
      at: engine.now(),
      auth: authKind(req),
      fault: faulted.has(req),
      rateLimited: limited.has(req),
    });
  });

  app.setErrorHandler(async (error: FastifyError, req, reply) => {
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) req.log.error({ err: error }, 'discord sandbox: unexpected error');
    const path = relative(req.url);
    const message = status >= 500 ? 'The sandbox failed to answer.' : error.message;
    reply.code(status).header('cache-control', 'no-store');
    if (path.startsWith('/oauth2/')) {
      const page = errorPage('Invalid request', message);
      return reply.header('content-security-policy', page.csp).type('text/html; charset=utf-8').send(page.html);
    }
    if (path.startsWith('/api/v10/oauth2/token')) return reply.send({ error: 'invalid_request', error_description: message });
    if (path.startsWith('/_control/')) return reply.send({ error: 'invalid_request', message });
    // Discord's 40005 for a body over the limit (a message body here: 64 KiB).
    if (status === 413) return reply.send({ message: 'Request entity too large', code: 40005 });
    return reply.send({ message: `${status}: ${STATUS_CODES[status] ?? 'Error'}`, code: 0 });
  });

  app.setNotFoundHandler(async (_req, reply) => reply.code(404).header('cache-control', 'no-store').send({ message: '404: Not Found', code: 0 }));

  oauthRoutes(app, engine);
  restRoutes(app, engine);
  guildRoutes(app, engine);
  // Signed attachment links (the demo's legacy transcripts, files the bot uploads) and the bot's refresh of them.
  const attachments = new AttachmentStore();
  for (const file of DEMO_TICKET_FILES) attachments.put(file);
  messageRoutes(app, engine, attachments);
  channelRoutes(app, engine);
  sandboxPages(app, engine);
  cdnRoutes(app);
  attachmentRoutes(app, engine, attachments, `${engine.options.baseUrl ?? ''}/cdn`);
  if (options.controlRoutes) controlRoutes(app, engine);
  if (opts.monetization) registerMonetization(app, engine, opts.monetization);
};
