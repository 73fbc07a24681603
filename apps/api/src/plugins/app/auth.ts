import type { CookieSerializeOptions } from '@fastify/cookie';
import {
  type AccessArea,
  type AccessLevel,
  allowsAny,
  type Guild,
  type ServerAccess,
  Snowflake,
  STAFF_READ_ACCESS,
  type StaffPermission,
} from '@tickety/api-contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DiscordError } from '../../lib/discord';
import { ApiHttpError } from '../../lib/errors';
import { DiscordGrantEndedError, FAILED_RETRY_AFTER } from '../../services/guild-sync';
import { areaRefusal } from '../../services/server-access';
import type { Session } from '../../services/sessions';
import { STAFF_VIEW_AUDIT_WINDOW_MS, writeStaffView } from '../../services/staff-audit';
import { notDashboardFetch, notDashboardMedia } from './security';

interface CookieNames {
  session: string;
  state: string;
}

/** `__Host-` names when cookies are Secure (no Domain, Path=/), plain names on http localhost. */
export function cookieNames(secure: boolean): CookieNames {
  return secure
    ? { session: '__Host-tickety_session', state: '__Host-tickety_oauth' }
    : { session: 'tickety_session', state: 'tickety_oauth' };
}

/** The one set of cookie options (HttpOnly, SameSite=Lax, Secure but on http localhost, Path=/): every cookie the API sets. */
export function cookieOptions(app: FastifyInstance, maxAgeSeconds?: number): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'lax', secure: app.config.secureCookies, path: '/', ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }) };
}

export function setSessionCookie(app: FastifyInstance, reply: FastifyReply, token: string): void {
  reply.setCookie(cookieNames(app.config.secureCookies).session, token, cookieOptions(app, app.config.session.maxAgeSeconds));
}

export function clearSessionCookie(app: FastifyInstance, reply: FastifyReply): void {
  reply.clearCookie(cookieNames(app.config.secureCookies).session, cookieOptions(app));
}

/** The staff flag that opens a server's dashboard read-only (`via: 'staff'`) to a staff member without access of their own. */
const STAFF_READ_PERMISSION: StaffPermission = 'DASHBOARD_SUPPORT_SEARCH_READ';

/**
 * A transcript's copied attachment: the viewer loads it as an image, video or download, which sends
 * no dashboard header, so staff read here checks the looser notDashboardMedia instead of the
 * dashboard-fetch check: a cross-site page's image or link must not write an audited view. The file
 * is also served `cross-origin-resource-policy: same-site`, so another site cannot use it.
 */
const STAFF_READ_MEDIA_ROUTE = '/api/transcripts/v2/:server/:fileid/attachments/:attachment';

/**
 * The routes a staff member's read-only view opens (Fastify's route URLs; HEAD and GET only): the
 * reads the dashboard's own pages make. Default-deny: a route not named here is refused to staff read
 * as to anyone without access (404 code 405 / 403 code 403), so a new route is closed until it is
 * reviewed. Left out on purpose: `GET /api/guilds/:server/config/export` (a file signed by the
 * product, vouching that someone with access to the server exported it: staff read produces no
 * signed artefact), and every write (never staff read, whatever the route).
 */
export const STAFF_READ_ROUTES: ReadonlySet<string> = new Set([
  '/api/guilds/:server',
  '/api/guilds/:server/config',
  '/api/guilds/:server/config/versions',
  '/api/guilds/:server/config/versions/:version',
  '/api/guilds/:server/config/health',
  '/api/guilds/:server/logs',
  '/api/guilds/:server/logs/actors',
  '/api/guilds/:server/resources',
  '/api/guilds/:server/posts',
  '/api/guilds/:server/statistics',
  '/api/guilds/:server/statistics/feedback',
  '/api/guilds/:server/premium',
  '/api/guilds/:server/transcripts',
  // The Tickets page's reads (its live stream too): what transcripts show, while the ticket is open.
  '/api/guilds/:server/tickets',
  '/api/guilds/:server/tickets/:ticket',
  '/api/guilds/:server/tickets/stream',
  // The transcript viewer (routes/transcripts/v2.ts decides with requireGuildAccess: reason 'staff').
  '/api/transcripts/v2/:server/:fileid',
  STAFF_READ_MEDIA_ROUTE,
]);

/**
 * A staff member's read-only visit to a server is written to `staff_audit` (`server.view`, target
 * `server <id>`) on its first request, then at most once per STAFF_VIEW_AUDIT_WINDOW_MS per staff
 * member and server (a visit's pages and their calls are one view, not dozens of rows), across instances.
 */
/** Staff views remembered in memory at most (the oldest go first; the database decides anyway). */
const STAFF_VIEWS_MAX = 10_000;

/** Times a guard tries again when the shared guild fetch it joined was another session's, whose grant ended. */
const FOREIGN_GRANT_RETRIES = 2;

/**
 * Sessions on requests (`req.getSession()`, resolved lazily once per request) and the guard
 * preHandlers: requireSession (401), requireStaff(flag) (1004), requireGuildAccess and
 * requireGuildWriteAccess (403 / 405, on a guild list at most GUILD_ACCESS_MAX_AGE_SECONDS /
 * GUILD_WRITE_ACCESS_MAX_AGE_SECONDS old: an older one is fetched again from Discord first), and
 * requireArea(area, level) (the same, plus the dashboard area the route belongs to: 1017). Staff
 * with DASHBOARD_SUPPORT_SEARCH_READ read (never write) a server they have no access to (`via: 'staff'`).
 */
export default fp(
  async function auth(app: FastifyInstance) {
    const names = cookieNames(app.config.secureCookies);
    const dashboardOrigins = new Set(app.config.dashboardOrigins);
    /** `<staff id>:<server id>` → when this instance last audited that view (epoch ms) and that row's write. */
    const staffViews = new Map<string, { at: number; written: Promise<void> }>();

    app.decorateRequest('sessionPromise', null);
    app.decorateRequest('guild', null);
    app.decorateRequest('serverAccess', null);
    app.decorateRequest('accessRecheck', false);
    app.decorateRequest('getSession', function getSession(this: FastifyRequest): Promise<Session | null> {
      if (!this.sessionPromise) {
        const token = this.cookies?.[names.session];
        // A write never rests on this instance's cached copy: a session revoked elsewhere cannot write
        // here even while the news cannot travel (Redis down). Reads may, for SESSION_CACHE_SECONDS.
        const fresh = this.method !== 'GET' && this.method !== 'HEAD';
        this.sessionPromise = token ? app.sessions.resolve(token, { fresh }) : Promise.resolve(null);
        // A failed lookup (database down) is not cached: the error handler may ask again.
        this.sessionPromise.catch(() => {
          this.sessionPromise = null;
        });
      }
      return this.sessionPromise;
    });

    async function requireSession(req: FastifyRequest): Promise<void> {
      if (!(await req.getSession())) throw new ApiHttpError('UNAUTHENTICATED');
    }

    /**
     * The guards below need a session. A route that has one as its preHandler also checks the session
     * in preParsing, before its body is read: an anonymous request is answered 401 without its body
     * being received or parsed (docs/api.md, "Request bodies"), and costs one session lookup, which
     * the guard then reuses. The guard itself still decides everything else after validation.
     */
    const sessionGuards = new WeakSet<object>();
    const guard = <T extends object>(fn: T): T => {
      sessionGuards.add(fn);
      return fn;
    };
    const sessionBeforeBody = async (req: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
      await requireSession(req);
      return payload;
    };
    app.addHook('onRoute', (route) => {
      const handlers = [route.preHandler].flat().filter(Boolean) as object[];
      if (!handlers.some((fn) => sessionGuards.has(fn))) return;
      route.preParsing = [sessionBeforeBody as never, ...([route.preParsing].flat().filter(Boolean) as never[])];
    });

    app.decorate('requireSession', guard(requireSession));

    app.decorate('requireStaff', (permission: StaffPermission) => guard(async function requireStaff(req: FastifyRequest) {
      const session = await req.getSession();
      if (!session) throw new ApiHttpError('UNAUTHENTICATED');
      const team = await app.accounts.team(session.userId);
      if (!team?.permissions.includes(permission)) {
        throw new ApiHttpError('STAFF_PERMISSION_REQUIRED', {
          message: `This needs the staff permission ${permission}, which your account does not have.`,
        });
      }
      await requireRecentStaffSession(req, session);
    }));

    /**
     * Staff powers have shorter lifetimes than the session that carries them (docs/api.md, "Staff
     * sessions"): a session signed in more than STAFF_SESSION_MAX_AGE_SECONDS ago (12 h), or whose last
     * staff request (the sign-in, before the first) is STAFF_SESSION_IDLE_SECONDS old (30 min), gets
     * 401 code 1030 on staff routes and staff reads until the user signs in again. Everything else the
     * session does is unaffected. Otherwise this request (not an access recheck) is the session's latest staff activity.
     */
    async function requireRecentStaffSession(req: FastifyRequest, cached: Session): Promise<void> {
      const now = app.clock();
      let session = cached;
      let lapsed = staffLifetimeLapsed(session, now);
      if (lapsed) {
        // This instance's copy may predate staff activity another instance saw: the database decides a refusal.
        const token = req.cookies?.[names.session];
        const fresh = token ? await app.sessions.resolve(token, { fresh: true }) : null;
        if (!fresh) throw new ApiHttpError('UNAUTHENTICATED');
        session = fresh;
        lapsed = staffLifetimeLapsed(session, now);
      }
      if (lapsed) throw new ApiHttpError('STAFF_SIGN_IN_AGAIN', { message: lapsed });
      // Only the dashboard's own requests are staff activity: another page's link or image (the Lax
      // cookie goes along on same-site requests and top-level navigations) must not keep it alive; nor
      // an open stream checking its access again (req.accessRecheck).
      if (!req.accessRecheck && notDashboardFetch(req, dashboardOrigins) === null) await app.sessions.touchStaff(session, now);
    }

    /** Why a session is past the staff lifetimes (the 1030 message), or null while it is within them. */
    function staffLifetimeLapsed(session: Session, now: number): string | null {
      const { staffIdleSeconds, staffMaxAgeSeconds } = app.config.session;
      const minutes = (seconds: number) => `${Math.round(seconds / 60)} minutes`;
      const hours = (seconds: number) => (seconds % 3600 === 0 ? `${seconds / 3600} hours` : minutes(seconds));
      if (now - session.createdAt >= staffMaxAgeSeconds * 1000) {
        return `Staff pages need a recent sign-in: log in with Discord again (you signed in more than ${hours(staffMaxAgeSeconds)} ago).`;
      }
      const lastStaffActivity = Math.max(session.staffSeenAt ?? session.createdAt, session.createdAt);
      if (now - lastStaffActivity >= staffIdleSeconds * 1000) {
        return `Staff pages need a recent sign-in: log in with Discord again (${minutes(staffIdleSeconds)} passed without staff activity).`;
      }
      return null;
    }
    app.decorate('isStaffSessionRecent', (session: Session) => staffLifetimeLapsed(session, app.clock()) === null);

    /**
     * Decides on a guild list younger than `maxAgeMs` (fetched again from Discord first, never an
     * older one: 503 1008 when Discord cannot be asked, 401 when the grant has ended), then on what the
     * user may do there (full access, the access rules for the member's roles, or staff read); with a
     * `need`, that access must allow it (1017). docs/api.md#server-access-decisions.
     */
    async function guildAccess(
      req: FastifyRequest,
      reply: FastifyReply,
      mode: 'read' | 'write',
      need?: { areas: readonly AccessArea[]; level: AccessLevel },
    ): Promise<void> {
      const session = await req.getSession();
      if (!session) throw new ApiHttpError('UNAUTHENTICATED');
      const server = (req.params as { server?: unknown } | undefined)?.server;
      const parsed = Snowflake.safeParse(server);
      if (!parsed.success) {
        throw new ApiHttpError('VALIDATION_FAILED', { message: 'server: must be a Discord server id (17 to 20 digits).', selector: true });
      }
      // A route that attaches its schema's verdict (to decide access first) is refused here, never run.
      if (req.validationError) throw new ApiHttpError('VALIDATION_FAILED', { message: `The request is not valid: ${req.validationError.message}.` });
      const { guildAccess: windows } = app.config;
      const maxAgeMs = (mode === 'write' ? windows.writeMaxAgeSeconds : windows.readMaxAgeSeconds) * 1000;
      // A read decides on the user's cached state (dropped on every change to it, at most SESSION_CACHE_SECONDS old); a write on the stored rows.
      const stored = await app.accounts.guildAccess(session.userId, parsed.data, { cached: mode === 'read' });
      const age = stored.refreshedAt === null ? Number.POSITIVE_INFINITY : app.clock() - stored.refreshedAt;
      // A timestamp ahead of this clock (another instance's) counts only within the window.
      let guild: Guild | null;
      if (age < maxAgeMs && age > -maxAgeMs) guild = stored.guild;
      else {
        await refreshGuilds(req, reply, session, mode, { server: parsed.data, seen: stored.refreshedAt, maxAgeMs });
        guild = await app.accounts.guild(session.userId, parsed.data);
      }
      let access: ServerAccess;
      try {
        if (!guild) throw new ApiHttpError('SERVER_NOT_FOUND', { selector: true });
        // The user's own access first: a staff member who manages or is granted the server keeps it.
        access = await app.serverAccess.decide(guild, session.userId, { fresh: mode === 'write' });
      } catch (error) {
        const none = error instanceof ApiHttpError && (error.errorName === 'SERVER_NOT_FOUND' || error.errorName === 'NO_SERVER_ACCESS');
        const viewed = none ? await staffRead(req, session, parsed.data, mode) : null;
        if (!viewed) throw error;
        guild = viewed;
        access = STAFF_READ_ACCESS;
      }
      if (need && !allowsAny(access, need.areas, need.level)) throw areaRefusal(guild, access, need.areas, need.level);
      req.guild = guild;
      req.serverAccess = access;
    }

    /**
     * Staff read: the server as the product knows it (the `guilds` row; 404 code 405 if it never saw
     * it) for a staff member with no access of their own, or null when this request does not qualify
     * (the caller's own refusal stands): only a read (mode 'read', GET or HEAD) of a route in
     * STAFF_READ_ROUTES, by a user whose staff flags, read now (a revoked flag fails on the next
     * request), hold STAFF_READ_PERMISSION. The dashboard's own fetch only (1005 otherwise: the view is
     * audited, and another site must not cause that), audited before anything is answered.
     */
    async function staffRead(req: FastifyRequest, session: Session, guildId: string, mode: 'read' | 'write'): Promise<Guild | null> {
      if (mode !== 'read' || (req.method !== 'GET' && req.method !== 'HEAD')) return null;
      const route = req.routeOptions.url ?? '';
      if (!STAFF_READ_ROUTES.has(route)) return null;
      const userId = session.userId;
      const team = await app.accounts.team(userId);
      if (!team?.permissions.includes(STAFF_READ_PERMISSION)) return null;
      const refusal = route === STAFF_READ_MEDIA_ROUTE ? notDashboardMedia(req, dashboardOrigins) : notDashboardFetch(req, dashboardOrigins);
      if (refusal) {
        req.log.info({ reason: refusal, guildId }, 'staff read of a server refused: not the dashboard');
        throw new ApiHttpError('CSRF_REJECTED', { message: 'Open this server from the Tickety dashboard (this request did not come from it).' });
      }
      await requireRecentStaffSession(req, session);
      const guild = await app.accounts.knownGuild(guildId);
      if (!guild) throw new ApiHttpError('SERVER_NOT_FOUND', { selector: true });
      await auditStaffView(userId, guildId);
      return guild;
    }

    /**
     * Writes `server.view` to the staff audit unless this staff member's view of this server was
     * audited within STAFF_VIEW_AUDIT_WINDOW_MS (this instance's memory first, then the audit itself,
     * so other instances' rows count). Claimed in memory before the write: the calls of one page load
     * write one row, and a call that finds the claim waits for its write, so nothing is answered
     * before the view's row is in the audit. A failed write fails every request waiting on it (no
     * unaudited view) and frees the claim.
     */
    async function auditStaffView(staffId: string, guildId: string): Promise<void> {
      const key = `${staffId}:${guildId}`;
      const now = app.clock();
      const last = staffViews.get(key);
      if (last !== undefined && now - last.at >= 0 && now - last.at < STAFF_VIEW_AUDIT_WINDOW_MS) return last.written;
      staffViews.delete(key);
      const written = writeStaffView(app.db, { at: now, staffId, action: 'server.view', target: `server ${guildId}` });
      const claim = { at: now, written };
      staffViews.set(key, claim);
      while (staffViews.size > STAFF_VIEWS_MAX) staffViews.delete(staffViews.keys().next().value!);
      try {
        await written;
      } catch (error) {
        if (staffViews.get(key) === claim) staffViews.delete(key);
        throw error;
      }
    }

    /** Fetches and stores the user's guild list (shared by concurrent checks), or throws the answer. */
    async function refreshGuilds(
      req: FastifyRequest,
      reply: FastifyReply,
      session: Session,
      mode: 'read' | 'write',
      check?: { server: string; seen: number | null; maxAgeMs: number },
    ): Promise<void> {
      for (let attempt = 0; ; attempt++) {
        try {
          await app.guildSync.shared(session.userId, async () => {
            // Another check may have fetched the list between our read and this flight (it ended just
            // before we joined): fresh now, nothing to ask Discord.
            if (check) {
              const now = await app.accounts.guildAccess(session.userId, check.server);
              const age = now.refreshedAt === null ? Number.POSITIVE_INFINITY : app.clock() - now.refreshedAt;
              if (now.refreshedAt !== check.seen && age < check.maxAgeMs && age > -check.maxAgeMs) return;
            }
            try {
              const guilds = await app.guildSync.userGuildsPaced(app.sessions, session.userId, session.id);
              // null: the bot's list is not fetched here; each guild keeps its stored bot flag.
              await app.db.transaction((tx) => app.accounts.replaceGuilds(tx, session.userId, guilds, null));
              req.log.info({ userId: session.userId, guilds: guilds.length, mode }, 'guild list fetched again for an access check');
            } catch (error) {
              if (error instanceof DiscordGrantEndedError) await app.sessions.revoke(error.sessionId ?? session.id);
              throw error;
            }
          });
          return;
        } catch (error) {
          if (error instanceof DiscordGrantEndedError) {
            const ours = error.sessionId === null || error.sessionId === session.id;
            // Another session of this user led the fetch and lost its grant: this one asks with its own token.
            if (!ours && attempt < FOREIGN_GRANT_RETRIES) continue;
            if (!ours) throw new ApiHttpError('DISCORD_UNAVAILABLE', { retryAfter: 1, message: unconfirmed(mode) });
            req.log.info({ sessionId: session.id, userId: session.userId }, 'Discord grant ended: session ended at an access check');
            clearSessionCookie(app, reply);
            throw new ApiHttpError('UNAUTHENTICATED', { message: 'Your Discord authorization has expired or was revoked: log in again.' });
          }
          if (error instanceof DiscordError && (error.kind === 'unavailable' || error.kind === 'failed')) {
            req.log.warn({ err: error.message, kind: error.kind, mode }, 'access check: Discord could not be asked for the guild list');
            const retryAfter = error.kind === 'unavailable' ? (error.retryAfter ?? FAILED_RETRY_AFTER) : FAILED_RETRY_AFTER;
            throw new ApiHttpError('DISCORD_UNAVAILABLE', { retryAfter, message: unconfirmed(mode) });
          }
          throw error;
        }
      }
    }

    function unconfirmed(mode: 'read' | 'write'): string {
      return mode === 'write'
        ? 'Discord is not answering, so your access to this server could not be confirmed and nothing was changed. Try again shortly.'
        : 'Discord is not answering, so your access to this server could not be confirmed. Try again shortly.';
    }

    const requireGuildAccess = guard(async function requireGuildAccess(req: FastifyRequest, reply: FastifyReply) {
      await guildAccess(req, reply, 'read');
    });
    app.decorate('requireGuildAccess', requireGuildAccess);

    const requireGuildWriteAccess = guard(async function requireGuildWriteAccess(req: FastifyRequest, reply: FastifyReply) {
      await guildAccess(req, reply, 'write');
    });
    app.decorate('requireGuildWriteAccess', requireGuildWriteAccess);

    app.decorate('requireArea', (area: AccessArea | readonly AccessArea[], level: AccessLevel) => {
      const areas: readonly AccessArea[] = typeof area === 'string' ? [area] : area;
      if (areas.length === 0) throw new Error('requireArea: name at least one area');
      return guard(async function requireArea(req: FastifyRequest, reply: FastifyReply) {
        await guildAccess(req, reply, level, { areas, level });
      });
    });

    // A bot guild list still being read in the background (sign-in stopped waiting) ends with the app.
    app.addHook('preClose', async () => {
      await app.guildSync.close();
    });
  },
  { name: 'tickety-auth', dependencies: ['tickety-services'] },
);
