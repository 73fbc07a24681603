import {
  ApiError,
  BillingActionAnswer,
  BillingProvider,
  BillingSubscription,
  BillingSubscriptionsAnswer,
  CheckoutStatus,
  PaddleCheckoutAnswer,
  PaddleCheckoutRequest,
  ProviderSubscriptionId,
  Snowflake,
} from '@tickety/api-contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { iso } from '../../lib/clock';
import { ApiHttpError } from '../../lib/errors';
import { notDashboardFetch } from '../../plugins/app/security';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 502: ApiError, 503: ApiError };
const SubscriptionParams = z.object({ provider: BillingProvider, id: ProviderSubscriptionId });
const UserParams = z.object({ user: Snowflake });
const UserSubscriptionParams = SubscriptionParams.extend({ user: Snowflake });
const PaddleParams = z.object({ id: ProviderSubscriptionId });
const TransactionParams = z.object({ transaction: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/) });
const ActionParams = PaddleParams.extend({ action: z.enum(['cancel', 'resume', 'payment-method', 'portal']) });

async function userOf(req: FastifyRequest): Promise<string> {
  const session = await req.getSession();
  if (!session) throw new ApiHttpError('UNAUTHENTICATED');
  return session.userId;
}

/**
 * Billing (`/api/billing`): the signed-in user's subscriptions and their actions, Paddle's checkout
 * data and where a purchase stands; staff with DASHBOARD_SUPPORT_SYSTEM_READ read any user's, and
 * every such read is written to the staff audit. Actions are sent to the provider and answered at
 * once; their result shows when the provider's webhook lands (docs/api.md, "Billing").
 */
export default async function billingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const accounts = app.billingAccounts;
  const paddle = app.paddleApi;
  const own = { attachValidation: true, preHandler: app.requireSession } as const;
  const staff = { attachValidation: true, preHandler: app.requireStaff('DASHBOARD_SUPPORT_SYSTEM_READ') } as const;
  const noStore = (reply: { header: (k: string, v: string) => unknown }) => reply.header('cache-control', 'no-store');

  const dashboardOrigins = new Set(app.config.dashboardOrigins);
  /** A staff read writes the audit: only the dashboard's own fetch may cause that, never another site's link or frame. */
  async function audit(req: FastifyRequest, action: string, target: string): Promise<void> {
    const refusal = notDashboardFetch(req, dashboardOrigins);
    if (refusal) {
      req.log.info({ reason: refusal }, 'staff billing read refused: not the dashboard');
      throw new ApiHttpError('CSRF_REJECTED', { message: 'Open this billing page in the Tickety dashboard (this request did not come from it).' });
    }
    await app.db.query('INSERT INTO staff_audit (at, staff_id, action, target) VALUES ($1, $2, $3, $4)', [iso(app.clock()), await userOf(req), action, target]);
  }

  app.get('/subscriptions', { ...own, schema: { response: { 200: BillingSubscriptionsAnswer, ...errors } } }, async (req, reply) => {
    noStore(reply);
    return { subscriptions: await accounts.list(await userOf(req)) };
  });

  app.get('/subscriptions/:provider/:id', { ...own, schema: { params: SubscriptionParams, response: { 200: BillingSubscription, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    noStore(reply);
    const found = await accounts.find(req.params.provider, req.params.id);
    // Someone else's subscription is answered like one that does not exist.
    if (!found || found.userId !== (await userOf(req))) throw new ApiHttpError('NOT_FOUND', { message: 'You have no such subscription.' });
    return found;
  });

  app.get('/users/:user/subscriptions', { ...staff, schema: { params: UserParams, response: { 200: BillingSubscriptionsAnswer, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    noStore(reply);
    await audit(req, 'billing.view', `user ${req.params.user}`);
    return { subscriptions: await accounts.list(req.params.user) };
  });

  app.get('/users/:user/subscriptions/:provider/:id', { ...staff, schema: { params: UserSubscriptionParams, response: { 200: BillingSubscription, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    noStore(reply);
    const found = await accounts.find(req.params.provider, req.params.id);
    if (!found || found.userId !== req.params.user) throw new ApiHttpError('NOT_FOUND', { message: 'This user has no such subscription.' });
    await audit(req, 'billing.view', `user ${req.params.user}, ${req.params.provider} ${req.params.id}`);
    return found;
  });

  // What Paddle's checkout needs: a price of the catalogue and the user it is for (the webhook's custom data).
  app.post('/paddle/checkout', { ...own, schema: { body: PaddleCheckoutRequest, response: { 200: PaddleCheckoutAnswer, ...errors } } }, async (req) => {
    if (req.validationError) throw req.validationError;
    const known = app.config.plans.some((p) => p.providerPrices.some((x) => x.provider === 'paddle' && x.id === req.body.priceId));
    if (!known) throw new ApiHttpError('VALIDATION_FAILED', { message: 'This price is not one of the plans on sale.' });
    if (!app.config.paddleToken || !paddle.configured) throw new ApiHttpError('PROVIDER_UNAVAILABLE', { message: 'Paddle checkout is not configured on this server.' });
    return { priceId: req.body.priceId, customData: { userId: await userOf(req) }, email: null };
  });

  // After Paddle's checkout: "activating" until the webhook of its transaction has been applied.
  app.get('/checkouts/paddle/:transaction', { ...own, schema: { params: TransactionParams, response: { 200: CheckoutStatus, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    noStore(reply);
    const userId = await userOf(req);
    const { rows } = await app.db.query<{ subject: string | null }>(
      `SELECT subject FROM webhook_events WHERE provider = 'paddle' AND event_type = 'transaction.completed' AND state = 'applied' AND payload->'data'->>'id' = $1 LIMIT 1`,
      [req.params.transaction],
    );
    const subject = rows[0]?.subject;
    const subscription = subject ? await accounts.find('paddle', subject) : null;
    if (subscription && subscription.userId !== userId) throw new ApiHttpError('NOT_FOUND', { message: 'This purchase is not yours.' });
    return { state: subscription?.premium ? ('active' as const) : ('activating' as const), subscription };
  });

  app.post('/subscriptions/paddle/:id/:action', { ...own, schema: { params: ActionParams, response: { 200: BillingActionAnswer, ...errors } } }, async (req) => {
    if (req.validationError) throw req.validationError;
    const found = await accounts.find('paddle', req.params.id);
    if (!found || found.userId !== (await userOf(req))) throw new ApiHttpError('NOT_FOUND', { message: 'You have no such subscription.' });
    const action = ({ cancel: 'cancel', resume: 'resume', 'payment-method': 'updatePaymentMethod', portal: 'portal' } as const)[req.params.action];
    if (!found.actions.includes(action)) throw new ApiHttpError('VALIDATION_FAILED', { message: `This subscription cannot ${req.params.action.replace('-', ' ')} in its state (${found.status}).` });
    switch (action) {
      case 'cancel':
        await paddle.cancelAtPeriodEnd(found.id);
        return { requested: action, url: null, transactionId: null };
      case 'resume':
        await paddle.resume(found.id);
        return { requested: action, url: null, transactionId: null };
      case 'updatePaymentMethod': {
        const txn = await paddle.paymentMethodTransaction(found.id);
        return { requested: action, url: txn.url, transactionId: txn.transactionId };
      }
      case 'portal': {
        // Only a customer linked to this user (by their own checkout): a purchase can name another
        // user's customer (Paddle.js's data comes from the browser), and its portal is theirs.
        const customer = await accounts.customerOf('paddle', found.id, found.userId);
        if (!customer) throw new ApiHttpError('VALIDATION_FAILED', { message: 'Paddle has no customer of yours for this subscription: manage it from the email Paddle sent you.' });
        return { requested: action, url: await paddle.portal(customer, found.id), transactionId: null };
      }
    }
  });
}
