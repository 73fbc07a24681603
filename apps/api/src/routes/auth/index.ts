import { type AnonymousMe, AuthCallbackQuery, AuthLoginQuery, canManageGuild, ERROR_CODES, LogoutResponse, MeResponse } from '@tickety/api-contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { pkceChallenge } from '../../lib/crypto';
import { DiscordError } from '../../lib/discord';
import { sendEncoded } from '../../lib/encoded-answer';
import { ApiHttpError } from '../../lib/errors';
import { popupErrorPage, popupPage } from '../../lib/pages';
import { clearSessionCookie, cookieNames, cookieOptions, setSessionCookie } from '../../plugins/app/auth';
import { notDashboardFetch } from '../../plugins/app/security';
import { DiscordGrantEndedError, SIGN_IN_BOT_WAIT_MS } from '../../services/guild-sync';
import { STATE_TTL_MS } from '../../services/oauth-states';

export const ANONYMOUS: AnonymousMe = {
  isAuthenticated: false,
  user: null,
  guilds: [],
  team: null,
  sub: null,
  guildsRefreshedAt: null,
};

/** At most one guild refresh per user in this window. */
const GUILD_REFRESH_INTERVAL_MS = 10_000;
/** How long sign-in and a refresh wait for the role-access lookups (they go on in the background). */
const ROLE_ACCESS_WAIT_MS = 3_000;

/** docs/behaviour.md#sign-in-sign-out-and-the-user-cache: /api/auth/@me, /logout, /login (popup), /callback; plus POST /guilds/refresh. */
export default async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { config } = app;
  const names = cookieNames(config.secureCookies);
  // The popup's routes: tighter rate limit, and errors (rate limit, database down...) answered as a
  // popup page that tells the opener, not as JSON (plugins/app/errors.ts).
  const popupRoute = { rateLimit: { max: config.rateLimit.authMax, timeWindow: config.rateLimit.windowMs }, popup: true };

  /**
   * After the user's list was stored: the servers they can open through a role the server's access
   * rules name (services/server-access.ts), so /@me lists them. Waited for a moment, then finished in
   * the background; a failure leaves the stored flags (logged, never the sign-in's problem).
   */
  async function checkRoleAccess(req: FastifyRequest, userId: string): Promise<void> {
    const task = app.serverAccess.refreshList(userId, req.log);
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ROLE_ACCESS_WAIT_MS);
    });
    app.background(task);
    await Promise.race([task.catch(() => undefined), waited]);
    clearTimeout(timer);
  }

  // The hottest read: a warm session's answer comes from its user's cached state, serialised (by
  // the route's own serialiser) and compressed once while that state lasts.
  app.get('/@me', { compress: false, schema: { response: { 200: MeResponse } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const session = await req.getSession();
    const state = session ? await app.accounts.state(session.userId) : null;
    if (!state) return ANONYMOUS;
    return sendEncoded(req, reply, state.me);
  });

  // The sign-in and sign-out routes change state, so no automatic HEAD twin (HEAD must be safe:
  // a link checker or prefetcher must not sign anyone out or spend a sign-in state).
  const dashboardOrigins = new Set(config.dashboardOrigins);
  app.get('/logout', { exposeHeadRoute: false, schema: { response: { 200: LogoutResponse } } }, async (req, reply): Promise<LogoutResponse> => {
    reply.header('cache-control', 'no-store');
    // A GET that ends the session: only the dashboard's own fetch may trigger it, never a link,
    // a form, a frame, an image or a prefetch from another page.
    const refusal = notDashboardFetch(req, dashboardOrigins);
    if (refusal) {
      req.log.info({ reason: refusal }, 'logout refused: not the dashboard');
      throw new ApiHttpError('CSRF_REJECTED', {
        message: 'Nobody was signed out: log out from the Tickety dashboard (this request did not come from it).',
      });
    }
    const session = await req.getSession();
    if (session) {
      const tokens = await app.sessions.revoke(session.id);
      req.log.info({ sessionId: session.id, userId: session.userId }, 'signed out');
      if (tokens) {
        // Best effort, in the background: revoking the refresh token ends the whole Discord grant.
        app.background(app.discord.revoke(tokens.refreshToken, 'refresh_token'));
      }
    }
    clearSessionCookie(app, reply);
    return { isAuthenticated: false };
  });

  app.get('/login', { config: popupRoute, exposeHeadRoute: false, schema: { querystring: AuthLoginQuery } }, async (req, reply) => {
    const returnOrigin = openerOrigin(req, config.dashboardOrigins);
    const { state, codeVerifier } = await app.oauthStates.start(returnOrigin);
    reply.setCookie(names.state, app.signer.sign(state), cookieOptions(app, STATE_TTL_MS / 1000));
    const url = new URL(`${config.discord.origin}/oauth2/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: config.discord.clientId,
      scope: 'identify guilds',
      prompt: 'consent',
      redirect_uri: `${config.publicUrl}/api/auth/callback`,
      state,
      code_challenge: pkceChallenge(codeVerifier),
      code_challenge_method: 'S256',
    }).toString();
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    return reply.redirect(url.toString(), 302);
  });

  // A malformed query (a repeated or overlong parameter) is refused by its schema before this runs:
  // the popup's VALIDATION_FAILED page (plugins/app/errors.ts).
  app.get('/callback', { config: popupRoute, exposeHeadRoute: false, schema: { querystring: AuthCallbackQuery } }, async (req, reply) => {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    const fallbackOrigin = config.dashboardOrigins[0]!;
    const query = req.query;

    // The state must match the signed cookie of this browser and a live server-side record (single use).
    const cookie = req.cookies[names.state];
    reply.clearCookie(names.state, cookieOptions(app));
    const cookieState = cookie ? app.signer.unsign(cookie) : null;
    const stateMatches = Boolean(query.state && cookieState && query.state === cookieState);
    const consumed = query.state && stateMatches ? await app.oauthStates.consume(query.state) : null;
    const target = consumed?.returnOrigin ?? fallbackOrigin;

    if (query.error) {
      const denied = query.error === 'access_denied';
      req.log.info({ error: query.error.slice(0, 40) }, 'sign-in cancelled or refused at Discord');
      return sendPage(reply, 200, {
        title: denied ? 'Login cancelled' : 'Login failed',
        heading: denied ? 'Login cancelled' : 'Login failed',
        text: denied ? 'You cancelled the login. You can close this window.' : 'Discord refused the login. Close this window and try again.',
        message: { auth: false, error: denied ? 'access_denied' : 'oauth_error' },
        targetOrigin: target,
        close: denied,
        fallbackUrl: denied ? `${target}/` : null,
      });
    }

    if (!consumed) {
      const reason = !query.state
        ? 'missing state'
        : !cookie
          ? 'missing state cookie'
          : !cookieState
            ? 'bad cookie signature'
            : !stateMatches
              ? 'state does not match cookie'
              : 'state unknown, used or expired';
      req.log.warn({ reason }, 'sign-in refused: invalid state');
      return errorPage(reply, 'OAUTH_STATE_INVALID', target);
    }
    if (!query.code) {
      return errorPage(reply, 'VALIDATION_FAILED', target, 'Discord did not send an authorization code. Close this window and log in again.');
    }

    try {
      const tokens = await app.discord.exchangeCode(query.code, consumed.codeVerifier);
      const scopes = new Set(tokens.scope.split(/\s+/));
      if (!scopes.has('identify') || !scopes.has('guilds')) {
        req.log.warn({ scope: tokens.scope }, 'sign-in refused: missing scopes');
        app.background(app.discord.revoke(tokens.refreshToken, 'refresh_token'));
        return errorPage(reply, 'OAUTH_FAILED', target, 'Discord did not grant access to your server list. Close this window and log in again.');
      }
      const [user, guilds, botGuilds] = await Promise.all([
        app.discord.getUser(tokens.accessToken),
        app.discord.getUserGuilds(tokens.accessToken),
        // Bounded: a big bot list that is not read yet does not hold the sign-in (null = keep the
        // stored bot flags); it goes on in the background and fills the cache.
        app.guildSync.botGuildsWithin(req.log, SIGN_IN_BOT_WAIT_MS),
      ]);
      const previous = await req.getSession().catch(() => null);
      const created = await app.signIns.complete({ user, guilds, botGuilds, tokens, previousSessionId: previous?.id ?? null, userAgent: req.headers['user-agent'] });
      if (Math.random() < 0.05) app.background(app.sessions.purge());
      await checkRoleAccess(req, user.id);
      setSessionCookie(app, reply, created.token);
      req.log.info({ userId: user.id, sessionId: created.session.id, guilds: guilds.length }, 'signed in');
      return sendPage(reply, 200, {
        title: 'Logged in',
        heading: 'Logged in',
        text: 'You are logged in. This window closes by itself.',
        message: { auth: true },
        targetOrigin: target,
        close: true,
        fallbackUrl: `${target}/dashboard`,
      });
    } catch (error) {
      if (error instanceof DiscordError) {
        req.log.warn({ err: error.message, kind: error.kind }, 'sign-in failed at Discord');
        if (error.kind === 'unavailable') {
          if (error.retryAfter) reply.header('retry-after', String(error.retryAfter));
          return errorPage(reply, 'DISCORD_UNAVAILABLE', target, 'Discord is not answering right now. Close this window and try again shortly.');
        }
        return errorPage(reply, 'OAUTH_FAILED', target);
      }
      throw error;
    }
  });

  app.post('/guilds/refresh', { preHandler: app.requireSession, schema: { response: { 200: MeResponse } } }, async (req, reply): Promise<MeResponse> => {
    reply.header('cache-control', 'no-store');
    const session = (await req.getSession())!;
    const wait = await app.accounts.claimRefresh(session.userId, GUILD_REFRESH_INTERVAL_MS);
    if (wait > 0) {
      throw new ApiHttpError('RATE_LIMITED', {
        retryAfter: wait,
        message: `Your server list was refreshed moments ago: try again in ${wait} s.`,
      });
    }
    // Fetch and store as one flight per user, shared with the access checks (plugins/app/auth.ts): two
    // fetches for one session at once would both spend its rotating refresh token, and the second
    // would look like an ended grant. Joining an access check's flight (which stores without the
    // bot check) is followed by our own.
    const refreshTask = async () => {
      // Within Discord's Retry-After for this user (shared with the access checks).
      const fetched = await app.guildSync.userGuildsPaced(app.sessions, session.userId, session.id);
      // A refresh is often "I just added the bot": the servers the user manages are checked directly.
      const manageable = fetched.filter((g) => canManageGuild(g.owner, g.permissions)).map((g) => g.id);
      const botGuilds = await app.guildSync.botGuildsFor(req.log, manageable);
      await app.accounts.storeGuilds(session.userId, fetched, botGuilds);
      return fetched;
    };
    try {
      let outcome: unknown;
      for (let attempt = 0; attempt < 2 && !Array.isArray(outcome); attempt++) outcome = await app.guildSync.shared(session.userId, refreshTask);
    } catch (error) {
      if (error instanceof DiscordGrantEndedError) {
        await app.sessions.revoke(session.id);
        clearSessionCookie(app, reply);
        throw new ApiHttpError('UNAUTHENTICATED', {
          message: 'Your Discord authorization has expired or was revoked: log in again.',
        });
      }
      if (error instanceof DiscordError && error.kind === 'failed') {
        req.log.warn({ err: error.message }, 'guild refresh failed');
        throw new ApiHttpError('DISCORD_UNAVAILABLE', { retryAfter: 30 });
      }
      throw error; // unavailable → 503 1008 with Discord's Retry-After (error handler)
    }
    await checkRoleAccess(req, session.userId);
    return (await app.accounts.me(session.userId)) ?? ANONYMOUS;
  });

  function sendPage(reply: FastifyReply, status: number, options: Omit<Parameters<typeof popupPage>[0], 'productName'>) {
    const page = popupPage({ productName: config.productName, ...options });
    return reply.code(status).header('content-security-policy', page.csp).type('text/html; charset=utf-8').send(page.html);
  }

  function errorPage(reply: FastifyReply, name: keyof typeof ERROR_CODES, target: string, message?: string) {
    const entry = ERROR_CODES[name];
    const page = popupErrorPage({
      productName: config.productName,
      targetOrigin: target,
      code: entry.code,
      httpStatus: entry.httpStatus,
      message: message ?? entry.message,
    });
    return reply.code(entry.httpStatus).header('content-security-policy', page.csp).type('text/html; charset=utf-8').send(page.html);
  }
}

/** The dashboard origin that opened the popup (from Referer), if allowed; else the first allowed one. */
function openerOrigin(req: FastifyRequest, allowed: string[]): string {
  const referer = req.headers.referer;
  if (referer) {
    try {
      const origin = new URL(referer).origin;
      if (allowed.includes(origin)) return origin;
    } catch {
      // not a URL: use the default
    }
  }
  return allowed[0]!;
}
