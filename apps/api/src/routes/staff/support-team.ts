import {
  ApiError,
  StaffEndSessionsAnswer,
  type StaffPermission,
  StaffSearchAnswer,
  StaffSearchQuery,
  StaffServerCard,
  StaffServerParams,
  StaffUserCard,
  StaffUserParams,
} from '@tickety/api-contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiHttpError } from '../../lib/errors';
import { perUserLimit } from '../../lib/rate-limits';
import { notDashboardFetch } from '../../plugins/app/security';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 429: ApiError };

/**
 * Support search (`/api/staff`, DASHBOARD_SUPPORT_SEARCH_READ): `GET /search?q=` finds users and
 * servers by id or name as staff type; `GET /users/:user` and `GET /servers/:server` are their cards.
 * A card is a staff view of someone's data: written to the staff audit, so only the dashboard's own
 * fetch may ask for one (a link, frame or image on another page is refused, nothing written).
 */
export default async function supportTeamRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Search answers as staff type, so its limit is per staff member (STAFF_RATE_LIMIT_MAX a minute,
  // each route its own), well above typing speed and well below what a script scraping users needs.
  const guard = (route: string) => ({ attachValidation: true, preHandler: app.requireStaff('DASHBOARD_SUPPORT_SEARCH_READ'), config: perUserLimit(`staff-${route}`, app.config.rateLimit.staffMax) }) as const;
  const dashboardOrigins = new Set(app.config.dashboardOrigins);

  /** The viewer, once the card may be read: refused unless the dashboard asked. */
  async function viewer(req: FastifyRequest): Promise<string> {
    const refusal = notDashboardFetch(req, dashboardOrigins);
    if (refusal) {
      req.log.info({ reason: refusal }, 'staff support card refused: not the dashboard');
      throw new ApiHttpError('CSRF_REJECTED', { message: 'Open this card in the Tickety dashboard (this request did not come from it).' });
    }
    return (await req.getSession())!.userId;
  }
  /** A card view, once per staff member and card within the audit's view window (a page's refreshes are one view). */
  const audit = (staffId: string, action: 'support.user.view' | 'support.server.view', target: string) => app.staffAudit.view({ staffId, action, target });
  /** Whether the viewer holds a flag (read fresh, like every staff flag). */
  const holds = async (staffId: string, flag: StaffPermission) => (await app.accounts.team(staffId))?.permissions.includes(flag) ?? false;
  /**
   * Why this staff member may not sign that user out everywhere, or null when they may: staff do not
   * sign out those above them, an owner only by an owner (1028), a staff member only by someone
   * holding every flag they hold (1026); else a holder of DASHBOARD_SUPPORT_SYSTEM_WRITE could keep an
   * owner, or the manager about to revoke them, signed out. Flags read now, like every staff check.
   */
  async function signOutRefusal(staffId: string, userId: string): Promise<ApiHttpError | null> {
    const [actor, target] = await Promise.all([app.accounts.team(staffId), app.accounts.team(userId)]);
    if (!actor?.permissions.includes('DASHBOARD_SUPPORT_SYSTEM_WRITE')) return new ApiHttpError('STAFF_PERMISSION_REQUIRED');
    if (target?.owner && !actor.owner) return new ApiHttpError('STAFF_OWNER_LOCKED', { message: 'Only an owner (STAFF_OWNER_IDS) signs an owner out: nothing was changed.' });
    const missing = target && !actor.owner ? target.permissions.filter((p) => !actor.permissions.includes(p)) : [];
    if (missing.length === 0) return null;
    return new ApiHttpError('STAFF_GRANT_FORBIDDEN', {
      message: `This staff member holds ${missing.join(', ')}, which you do not: only someone holding every flag they hold signs them out. Nothing was changed.`,
    });
  }
  /** Whether the viewer may open billing pages. */
  const canViewBilling = (staffId: string) => holds(staffId, 'DASHBOARD_SUPPORT_SYSTEM_READ');

  app.get('/search', { ...guard('search'), schema: { querystring: StaffSearchQuery, response: { 200: StaffSearchAnswer, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    return app.staffSearch.search(req.query.q);
  });

  app.get('/users/:user', { ...guard('user-card'), schema: { params: StaffUserParams, response: { 200: StaffUserCard, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    const staffId = await viewer(req);
    const card = await app.staffSearch.userCard(req.params.user);
    if (!card) throw new ApiHttpError('NOT_FOUND', { message: 'No user with this id has signed in to the dashboard.' });
    await audit(staffId, 'support.user.view', `user ${req.params.user}`);
    const billing = await canViewBilling(staffId);
    const sessions = { active: await app.sessions.countLive(req.params.user), canEnd: (await signOutRefusal(staffId, req.params.user)) === null };
    // Support search shows which subscriptions a user has (the product's design); what they pay with
    // is billing's, for DASHBOARD_SUPPORT_SYSTEM_READ only.
    return { ...card, subscriptions: billing ? card.subscriptions : card.subscriptions.map(withoutPayment), canViewBilling: billing, sessions };
  });

  /**
   * Signs a user out everywhere (a stolen session, an account in trouble): every live session ends
   * at once, in the transaction of its audit row (`user.sessions.end`, how many). Staff with
   * DASHBOARD_SUPPORT_SYSTEM_WRITE; the dashboard's own fetch (the CSRF rules of every change).
   */
  app.post(
    '/users/:user/sessions/end',
    { attachValidation: true, preHandler: app.requireStaff('DASHBOARD_SUPPORT_SYSTEM_WRITE'), schema: { params: StaffUserParams, response: { 200: StaffEndSessionsAnswer, ...errors } } },
    async (req, reply) => {
      if (req.validationError) throw req.validationError;
      reply.header('cache-control', 'no-store');
      const staffId = (await req.getSession())!.userId;
      if (!(await app.staffSearch.isKnownUser(req.params.user))) throw new ApiHttpError('NOT_FOUND', { message: 'No user with this id has signed in to the dashboard.' });
      const refusal = await signOutRefusal(staffId, req.params.user);
      if (refusal) throw refusal;
      const ended = await app.staffSearch.endSessions(staffId, req.params.user);
      req.log.info({ userId: req.params.user, ended }, 'staff ended every session of a user');
      return { ended };
    },
  );

  app.get('/servers/:server', { ...guard('server-card'), schema: { params: StaffServerParams, response: { 200: StaffServerCard, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    reply.header('cache-control', 'no-store');
    const staffId = await viewer(req);
    const card = await app.staffSearch.serverCard(req.params.server);
    if (!card) throw new ApiHttpError('NOT_FOUND', { message: 'No server with this id is known: nobody who signed in to the dashboard is on it.' });
    await audit(staffId, 'support.server.view', `server ${req.params.server}`);
    const billing = await canViewBilling(staffId);
    const cover = card.premium.coveredBy;
    return {
      ...card,
      premium: { ...card.premium, coveredBy: cover && !billing ? { ...cover, subscription: withoutPayment(cover.subscription) } : cover },
      canViewBilling: billing,
    };
  });
}

/** A subscription without its payment method and actions (for staff without billing's flag). */
function withoutPayment<T extends { paymentMethod: string | null; actions: unknown[] }>(subscription: T): T {
  return { ...subscription, paymentMethod: null, actions: [] };
}
