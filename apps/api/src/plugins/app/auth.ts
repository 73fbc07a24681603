import { Snowflake, type StaffPermission } from '@tickety/api-contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiHttpError } from '../../lib/errors';
import type { Session } from '../../services/sessions';

export interface CookieNames {
  session: string;
  state: string;
}

/** `__Host-` names when cookies are Secure (no Domain, Path=/), plain names on http localhost. */
export function cookieNames(secure: boolean): CookieNames {
  return secure
    ? { session: '__Host-tickety_session', state: '__Host-tickety_oauth' }
    : { session: 'tickety_session', state: 'tickety_oauth' };
}

export function setSessionCookie(app: FastifyInstance, reply: FastifyReply, token: string): void {
  reply.setCookie(cookieNames(app.config.secureCookies).session, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: app.config.secureCookies,
    path: '/',
    maxAge: app.config.session.maxAgeSeconds,
  });
}

export function clearSessionCookie(app: FastifyInstance, reply: FastifyReply): void {
  reply.clearCookie(cookieNames(app.config.secureCookies).session, {
    httpOnly: true,
    sameSite: 'lax',
    secure: app.config.secureCookies,
    path: '/',
  });
}

/**
 * Sessions on requests (`req.getSession()`, resolved lazily once per request) and the guard
 * preHandlers: requireSession (401), requireStaff(flag) (1004), requireGuildAccess (403 / 405).
 */
export default fp(
  async function auth(app: FastifyInstance) {
    const names = cookieNames(app.config.secureCookies);

    app.decorateRequest('sessionPromise', null);
    app.decorateRequest('guild', null);
    app.decorateRequest('getSession', function getSession(this: FastifyRequest): Promise<Session | null> {
      if (!this.sessionPromise) {
        const token = this.cookies?.[names.session];
        this.sessionPromise = token ? app.sessions.resolve(token) : Promise.resolve(null);
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

    app.decorate('requireSession', requireSession);

    app.decorate('requireStaff', (permission: StaffPermission) => async function requireStaff(req: FastifyRequest) {
      const session = await req.getSession();
      if (!session) throw new ApiHttpError('UNAUTHENTICATED');
      const team = await app.accounts.team(session.userId);
      if (!team?.permissions.includes(permission)) {
        throw new ApiHttpError('STAFF_PERMISSION_REQUIRED', {
          message: `This needs the staff permission ${permission}, which your account does not have.`,
        });
      }
    });

    app.decorate('requireGuildAccess', async function requireGuildAccess(req: FastifyRequest) {
      const session = await req.getSession();
      if (!session) throw new ApiHttpError('UNAUTHENTICATED');
      const server = (req.params as { server?: unknown } | undefined)?.server;
      const parsed = Snowflake.safeParse(server);
      if (!parsed.success) {
        throw new ApiHttpError('VALIDATION_FAILED', { message: 'server: must be a Discord server id (15 to 21 digits).', selector: true });
      }
      const guild = await app.accounts.guild(session.userId, parsed.data);
      if (!guild) throw new ApiHttpError('SERVER_NOT_FOUND', { selector: true });
      if (!guild.canManage) throw new ApiHttpError('NO_SERVER_ACCESS', { selector: true });
      req.guild = guild;
    });
  },
  { name: 'tickety-auth', dependencies: ['tickety-services'] },
);
