import './types';
import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import type { AppConfig } from './config';
import type { Db } from './db/driver';
import { type Clock, systemClock } from './lib/clock';
import type { FetchLike } from './lib/discord';
import { ApiHttpError } from './lib/errors';
import { injectFetch } from './lib/inject-fetch';
import { DEFAULT_BODY_LIMIT } from './lib/json-body';
import { redactUrl, serializeError } from './lib/log';
import { SharedSnapshot } from './lib/shared-snapshot';
import { createSiteConfig } from './lib/site-config';
import authPlugin, { cookieNames } from './plugins/app/auth';
import corsPlugin from './plugins/app/cors';
import dbPlugin from './plugins/app/db';
import errorsPlugin, { clientErrorHandler, frameworkErrors, hasOverlongSegment, MAX_PARAM_LENGTH } from './plugins/app/errors';
import lifecyclePlugin from './plugins/app/lifecycle';
import securityPlugin, { checkoutSources, decodedPathOf, htmlCsp } from './plugins/app/security';
import servicesPlugin from './plugins/app/services';
import staticSite, { cspWithOrigins, type StaticSite } from './plugins/app/static-site';
import compressionPlugin from './plugins/external/compression';
import openapiPlugin from './plugins/external/openapi';
import rateLimitPlugin from './plugins/external/rate-limit';
import redisPlugin from './plugins/external/redis';
import underPressurePlugin from './plugins/external/under-pressure';
import authRoutes from './routes/auth/index';
import billingRoutes from './routes/billing';
import botRoutes from './routes/bot/index';
import configsRoutes from './routes/guilds/configs';
import guildRoutes from './routes/guilds/index';
import logsWebRoutes from './routes/guilds/logs-web';
import premiumRoutes from './routes/guilds/premium';
import serverConfigsRoutes from './routes/guilds/server-configs';
import statisticsRoutes from './routes/guilds/statistics';
import ticketsRoutes from './routes/guilds/tickets';
import healthRoutes from './routes/health/index';
import planRoutes from './routes/plans/index';
import runtimeConfigRoutes from './routes/runtime-config/index';
import supportTeamRoutes from './routes/staff/support-team';
import staffSystemRoutes from './routes/staff/system';
import systemUpdateRoutes from './routes/staff/system-update';
import teamManagerRoutes from './routes/staff/team-manager';
import staffTestRoutes from './routes/staff/test';
import statusRoutes from './routes/status/index';
import transcriptV1Routes from './routes/transcripts/v1';
import transcriptV2Routes, { serverTranscriptRoutes } from './routes/transcripts/v2';
import webhookRoutes from './routes/webhooks';
import { audiencesFor } from './services/announcements';

export interface BuildOptions {
  /** The clock (tests move time). */
  clock?: Clock;
  /** A ready database driver (tests isolate each suite); migrated at start, not closed by the app. */
  db?: Db;
  /** Where logs go (tests capture them); defaults to stdout. */
  logStream?: { write(line: string): void };
  /** Each request's log lines also carry `route` (method and redacted URL): the launcher's readable lines show it; production's JSON does not. */
  logRequestRoute?: boolean;
  /** fetch used for Discord (defaults to global fetch; in demo mode, the in-process sandbox). */
  discordFetch?: FetchLike;
  /**
   * Plugins mounted beside the API before its routes: in demo mode, the Discord sandbox (the
   * all-in-one launcher and the tests add it, apps/api/demo/; the API's own code never imports it).
   */
  extensions?: Array<(app: FastifyInstance) => Promise<void>>;
}

/** How old the notices named on a visitor's page may be, and how long a page waits for them (ms). */
export const NOTICES_MAX_AGE_MS = 5_000;
export const NOTICES_WAIT_MS = 300;

/** An answer that took this long (ms) is logged at info whatever its status. */
const SLOW_REQUEST_MS = 1_000;

/** Pino settings: secrets (auth headers, cookies, OAuth query values) never reach the logs. */
export function loggerOptions(config: AppConfig, stream?: { write(line: string): void }): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        'res.headers["set-cookie"]',
        'headers.authorization',
        'headers.cookie',
        'headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(req: { method: string; url: string; hostname?: string; ip?: string; id?: string }) {
        return { method: req.method, url: redactUrl(req.url), host: req.hostname, remoteAddress: req.ip };
      },
      err: (error: unknown) => serializeError(error) as never,
    },
  };
}

/** Builds the Fastify app: external plugins, app plugins, routes, then (all-in-one) the static site. */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const names = cookieNames(config.secureCookies);
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    trustProxy: config.trustProxy,
    // Bodies are small unless a route says otherwise (the configuration, its file import, webhooks,
    // the bot API): docs/api.md, "Request bodies".
    bodyLimit: DEFAULT_BODY_LIMIT,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // A request arriving during shutdown gets the catalogue's 503 (plugins/app/lifecycle.ts).
    return503OnClosing: false,
    // 12 hex digits of a v4 UUID: random, from an entropy pool node refills in batches (randomBytes
    // per request cost 7 % of a warm @me).
    genReqId: () => {
      const uuid = randomUUID();
      return uuid.slice(0, 8) + uuid.slice(9, 13);
    },
    ...(options.logRequestRoute
      ? { childLoggerFactory: (logger, bindings, childOptions, rawReq) => logger.child({ ...bindings, route: `${rawReq.method} ${redactUrl(rawReq.url ?? '')}` }, childOptions) }
      : {}),
    // Starting the embedded database (PGlite, its extensions and every migration) can take more
    // than Fastify's default 10 s on a busy machine; a plugin that truly hangs still fails start-up.
    pluginTimeout: 60_000,
    // One line per request (the hook below), not Fastify's two: two cost 11-15 % of @me's
    // throughput on PostgreSQL (docs/operations.md, "Logs").
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors: frameworkErrors(names.session),
    clientErrorHandler: clientErrorHandler(names.session),
    // Fastify turns Node's own timeouts off by default: a client that sends its headers and then
    // trickles its body would hold a socket forever (docs/operations.md, "HTTP server limits").
    requestTimeout: config.http.requestTimeoutMs,
    connectionTimeout: config.http.connectionTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    maxRequestsPerSocket: config.http.maxRequestsPerSocket,
    http: {
      requireHostHeader: false,
      headersTimeout: config.http.headersTimeoutMs,
      // How often Node checks the two timeouts above (its default, 30 s, would let them overrun).
      connectionsCheckingInterval: Math.min(1_000, config.http.headersTimeoutMs),
    },
  });
  app.decorate('config', config);
  app.decorate('clock', options.clock ?? systemClock);

  // The error handler first: every route, the ones external plugins add included (CORS's preflight
  // route), answers its errors with the catalogue's body.
  await app.register(errorsPlugin, { sessionCookie: names.session, productName: config.productName, popupOrigin: config.dashboardOrigins[0]! });
  // Node answers an HTTP/1.1 request without a Host header with an empty 400 before Fastify sees it
  // unless told not to (http.requireHostHeader): it gets the catalogue's 400 instead.
  // Hooks on every request take a callback rather than return a promise: no microtask per hook.
  app.addHook('onRequest', (req, _reply, done) => {
    if (!req.headers.host && req.raw.httpVersion !== '1.0') throw new ApiHttpError('VALIDATION_FAILED', { message: 'The request has no Host header.' });
    done();
  });

  // The request's one log line, once it is answered (its method, redacted URL, status and time): at
  // info when it failed or was slow, at debug otherwise. A line for every request costs a quarter of
  // a warm read's throughput (docs/operations.md, "Logs"), over the 5 % a default may cost.
  app.addHook('onResponse', (req, reply, done) => {
    const responseTime = reply.elapsedTime;
    const level = reply.statusCode >= 400 || responseTime >= SLOW_REQUEST_MS ? 'info' : 'debug';
    req.log[level]({ req, res: reply, responseTime }, 'request completed');
    done();
  });

  // External plugins.
  await app.register(cookie);
  await app.register(corsPlugin, { origins: config.dashboardOrigins });
  await app.register(redisPlugin, { url: config.redisUrl ?? null, timeoutMs: config.redisTimeoutMs });
  await app.register(underPressurePlugin, config.pressure);
  await app.register(rateLimitPlugin, {
    max: config.rateLimit.max,
    sandboxMax: config.rateLimit.sandboxMax,
    botMax: config.rateLimit.botMax,
    webhookMax: config.rateLimit.webhookMax,
    windowMs: config.rateLimit.windowMs,
    redis: app.redisLink,
  });
  await app.register(compressionPlugin);
  await app.register(openapiPlugin, { title: `${config.productName} API` });

  // App plugins.
  const cdnOrigin = new URL(config.discord.cdnBase).origin;
  await app.register(lifecyclePlugin);
  await app.register(securityPlugin, {
    allowedOrigins: config.dashboardOrigins,
    secure: config.secureCookies,
    htmlCsp: htmlCsp({ imgOrigins: [cdnOrigin], connectOrigins: [new URL(config.publicUrl).origin], checkout: checkoutSources(config) }),
  });
  await app.register(dbPlugin, { db: options.db });
  // Discord (REST and CDN): the given fetch, the in-process sandbox in demo mode, else the network.
  const discordFetch = options.discordFetch ?? (config.demo ? injectFetch(app) : undefined);
  // Payment providers' APIs: the network, or in demo mode their stand-ins in this process.
  // (only what is addressed to this server's stand-ins; any other configured provider is the network).
  const inProcess = injectFetch(app);
  const standIns = `${config.publicUrl}/sandbox/`;
  const providerFetch: FetchLike | undefined = config.demo ? (input, init) => (String(input).startsWith(standIns) ? inProcess(input, init) : fetch(input, init)) : undefined;
  await app.register(servicesPlugin, { discordFetch, providerFetch });
  await app.register(authPlugin);
  for (const extend of options.extensions ?? []) await extend(app);

  // Routes.
  await app.register(authRoutes, { prefix: '/api/auth' });
  // One route file per dashboard page, named by the page's URL segment (docs/api.md#route-files).
  await app.register(guildRoutes, { prefix: '/api/guilds' });
  await app.register(configsRoutes, { prefix: '/api/guilds' });
  await app.register(serverConfigsRoutes, { prefix: '/api/guilds' });
  await app.register(logsWebRoutes, { prefix: '/api/guilds' });
  await app.register(serverTranscriptRoutes, { prefix: '/api/guilds' });
  await app.register(statisticsRoutes, { prefix: '/api/guilds' });
  await app.register(ticketsRoutes, { prefix: '/api/guilds' });
  await app.register(premiumRoutes, { prefix: '/api/guilds' });
  await app.register(billingRoutes, { prefix: '/api/billing' });
  await app.register(staffSystemRoutes, { prefix: '/api/staff' });
  await app.register(supportTeamRoutes, { prefix: '/api/staff' });
  await app.register(teamManagerRoutes, { prefix: '/api/staff' });
  await app.register(staffTestRoutes, { prefix: '/api/staff' });
  await app.register(systemUpdateRoutes, { prefix: '/api' });
  await app.register(transcriptV2Routes, { prefix: '/api/transcripts' });
  await app.register(transcriptV1Routes, { prefix: '/api/transcripts', fetch: discordFetch ?? ((input, init) => fetch(input, init)) });
  await app.register(botRoutes, { prefix: '/api/bot/v1' });
  await app.register(webhookRoutes, { prefix: '/api/webhooks' });
  await app.register(planRoutes, { prefix: '/api/plans' });
  await app.register(statusRoutes, { prefix: '/api/status' });
  await app.register(healthRoutes, { prefix: '/api/health' });
  // The site's composition (its config.json, REMOTE_<NAME>_URL overrides): GET /config.json and the
  // status of page addresses read it.
  const siteConfig = createSiteConfig({ root: config.staticRoot, overrides: config.remotes, log: app.log, required: config.allInOne });
  await app.register(runtimeConfigRoutes, { site: siteConfig });

  let site: StaticSite | null = null;
  if (config.allInOne) {
    const publicOrigin = new URL(config.publicUrl).origin;
    // The notices a visitor's page names (its boot script then needs no request): read once per
    // NOTICES_MAX_AGE_MS for every visitor, and never holding a page longer than NOTICES_WAIT_MS (a
    // page without them asks once idle, as on a static host).
    const visitorNotices = new SharedSnapshot(
      async () => (await app.announcements.active(audiencesFor('visitor'))).map((notice) => `${notice.id}:${notice.revision}`),
      { maxAgeMs: NOTICES_MAX_AGE_MS, waitMs: NOTICES_WAIT_MS, clock: app.clock, onError: (error) => app.log.warn({ err: String(error) }, 'visitor notices: the read failed') },
    );
    // A change made here shows on this instance's next page; other instances' within NOTICES_MAX_AGE_MS.
    app.announcements.onChange(() => visitorNotices.clear());
    await app.register(staticSite, {
      root: config.staticRoot,
      site: siteConfig,
      origin: publicOrigin,
      sessionCookie: names.session,
      visitorNotices: () => visitorNotices.get(),
      csp: (remoteOrigins: string[], scriptHashes: string[]) =>
        cspWithOrigins(htmlCsp({ imgOrigins: [cdnOrigin], connectOrigins: [publicOrigin], scriptSources: scriptHashes, checkout: checkoutSources(config) }), remoteOrigins),
      onReady: (s: StaticSite) => {
        site = s;
      },
    });
  }

  // Requests no route matched count against the /api limit too (the handler may read the session).
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, async (req, reply) => {
    const staticSite = site as StaticSite | null;
    // A page address gets the shell with 200, any other navigation the shell with 404.
    if (staticSite?.wantsShell(req)) return staticSite.sendShell(req, reply);
    const path = decodedPathOf(req);
    if (path.startsWith('/api/') && hasOverlongSegment(path)) {
      throw new ApiHttpError('VALIDATION_FAILED', { httpStatus: 414, message: 'A part of the address is too long.' });
    }
    throw new ApiHttpError('NOT_FOUND', { message: `Nothing at ${req.method} ${(req.url.split('?')[0] ?? '').slice(0, 200)}.` });
  });

  return app;
}
