import {
  ApiError,
  BILLING_PROVIDERS,
  BillingActionAnswer,
  BillingCheckoutAnswer,
  BillingInvoicesAnswer,
  BillingProvider,
  BillingProvidersAnswer,
  BillingSubscription,
  BillingSubscriptionsAnswer,
  ChangePlanPreview,
  ChangePlanRequest,
  CheckoutRequest,
  CheckoutStatus,
  ProviderSubscriptionId,
  Snowflake,
} from '@tickety/api-contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { randomToken } from '../../lib/crypto';
import { ApiHttpError } from '../../lib/errors';
import { perUserLimit } from '../../lib/rate-limits';
import { notDashboardFetch } from '../../plugins/app/security';
import { encryptSecurePayload } from '../../services/billing/fastspring-secure';
import { priceOf as priceOfPlans } from '../../services/billing/checkouts';
import type { ProviderClient } from '../../services/billing/types';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 502: ApiError, 503: ApiError };
const SubscriptionParams = z.object({ provider: BillingProvider, id: ProviderSubscriptionId });
const UserParams = z.object({ user: Snowflake });
const UserSubscriptionParams = SubscriptionParams.extend({ user: Snowflake });
const ProviderParams = z.object({ provider: BillingProvider });
/** A provider's id in a path: letters, digits, `_ . -`, never starting with a dot (so never `.` or `..`: no path climbing at the provider). */
const PROVIDER_ID = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}$/;
const ReferenceParams = ProviderParams.extend({ reference: z.string().regex(PROVIDER_ID, 'must be a checkout reference of the provider') });
const ActionParams = SubscriptionParams.extend({ action: z.enum(['cancel', 'resume', 'payment-method', 'portal']) });
const InvoiceParams = SubscriptionParams.extend({ invoice: z.string().regex(PROVIDER_ID, 'must be an invoice id of the provider') });
const PROVIDER_NAMES: Record<BillingProvider, string> = { paddle: 'Paddle', fastspring: 'FastSpring', discord: 'Discord', chargebee: 'Chargebee' };

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
  const noStore = (reply: { header: (name: string, value: string) => unknown }) => reply.header('cache-control', 'no-store');

  const dashboardOrigins = new Set(app.config.dashboardOrigins);
  /** A staff read writes the audit: only the dashboard's own fetch may cause that, never another site's link or frame. */
  function assertDashboard(req: FastifyRequest): void {
    const refusal = notDashboardFetch(req, dashboardOrigins);
    if (refusal) {
      req.log.info({ reason: refusal }, 'staff billing read refused: not the dashboard');
      throw new ApiHttpError('CSRF_REJECTED', { message: 'Open this billing page in the Tickety dashboard (this request did not come from it).' });
    }
  }
  async function audit(req: FastifyRequest, action: 'billing.view', target: string): Promise<void> {
    assertDashboard(req);
    await app.staffAudit.write({ staffId: await userOf(req), action, target });
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
    assertDashboard(req);
    const found = await accounts.find(req.params.provider, req.params.id);
    if (!found || found.userId !== req.params.user) throw new ApiHttpError('NOT_FOUND', { message: 'This user has no such subscription.' });
    await audit(req, 'billing.view', `user ${req.params.user}, ${req.params.provider} ${req.params.id}`);
    return found;
  });

  const clients = app.billingClients;
  const providerMax = app.config.rateLimit.providerMax;
  /**
   * Routes that call a provider's API are limited per user (the providers limit our account as a
   * whole: one user looping must not use it up for everyone): `share` of PROVIDER_RATE_LIMIT_MAX, each
   * route its own counter.
   */
  const perUser = (route: string, share: number) => perUserLimit(`provider-calls:${route}`, Math.max(1, Math.round(providerMax * share)));
  const publicOrigin = app.config.dashboardOrigins[0] ?? app.config.publicUrl;
  const priceOf = (provider: BillingProvider, priceId: string) => priceOfPlans(app.config.plans, provider, priceId);
  /** Whether a provider can sell now: its API configured, what its checkout needs set, and a price in the catalogue. */
  const available = (provider: BillingProvider): boolean => {
    if (!clients[provider].configured || !app.config.plans.some((plan) => plan.providerPrices.some((p) => p.provider === provider))) return false;
    if (provider === 'paddle') return app.config.paddleToken !== null;
    if (provider === 'fastspring') {
      const fs = app.config.billing.fastspring;
      return fs.storefront !== null && fs.webhookSecrets.length > 0 && fs.securePayloadKey !== null;
    }
    if (provider === 'chargebee') return app.config.billing.chargebee.webhookCredentials.length > 0;
    return true;
  };

  app.get('/providers', { schema: { response: { 200: BillingProvidersAnswer } } }, async (_req, reply) => {
    reply.header('cache-control', 'public, max-age=60');
    return { available: BILLING_PROVIDERS.filter(available) };
  });

  // A checkout of a catalogue price: what the provider's checkout needs, tied to the signed-in user.
  app.post('/:provider/checkout', { ...own, config: perUser('provider-checkout', 0.5), schema: { params: ProviderParams, body: CheckoutRequest, response: { 200: BillingCheckoutAnswer, ...errors } } }, async (req) => {
    if (req.validationError) throw req.validationError;
    const { provider } = req.params;
    const { priceId } = req.body;
    if (!priceOf(provider, priceId)) throw new ApiHttpError('VALIDATION_FAILED', { message: 'This price is not one of the plans on sale.' });
    if (!available(provider)) throw new ApiHttpError('PROVIDER_UNAVAILABLE', { message: `${PROVIDER_NAMES[provider]} checkout is not configured on this server.` });
    const userId = await userOf(req);
    switch (provider) {
      case 'paddle': {
        // The transaction is made here for this user and recorded before Paddle.js sees it: the
        // subscription it makes belongs to the user who asked for it, whatever the browser adds.
        const transactionId = await paddle.createCheckoutTransaction(priceId, userId);
        await accounts.recordCheckout('paddle', transactionId, userId, priceId);
        return { transactionId };
      }
      case 'fastspring': {
        // A secure payload the browser can pass on but not change: its tags carry a reference this
        // server records for the user (the subscription's owner); the user id beside it is for
        // FastSpring's dashboard only. Tags the browser adds (builder.tag) are never read.
        const { scriptUrl, storefront, securePayloadKey } = app.config.billing.fastspring;
        const reference = `fsc_${randomToken(18)}`;
        await accounts.recordCheckout('fastspring', reference, userId, priceId);
        const session = { reset: true, products: [{ path: priceId, quantity: 1 }], tags: { checkout: reference, userId } };
        return { scriptUrl, storefront: storefront!, ...encryptSecurePayload(session, securePayloadKey!) };
      }
      case 'chargebee': {
        // The customer is ours before the checkout: its id is linked to the user here, so the
        // webhooks' subscription finds its owner (nothing from the browser decides it).
        const customer = await accounts.linkedCustomer('chargebee', userId);
        const back = `${publicOrigin}/billing/checkout?provider=chargebee`;
        const page = await clients.chargebee.checkout(priceId, customer, back, back);
        return { url: page.url };
      }
      case 'discord':
        // Discord sells in its own store; the purchase's entitlement names the Discord user.
        return { url: `${app.config.discord.origin}/application-directory/${app.config.discord.clientId}/store/${priceId}` };
    }
  });

  // After a provider's checkout: "activating" until its webhook has been applied.
  app.get('/checkouts/:provider/:reference', { ...own, config: perUser('checkouts-provider-reference', 3), schema: { params: ReferenceParams, response: { 200: CheckoutStatus, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    noStore(reply);
    return app.checkoutStatuses.status(await userOf(req), req.params.provider, req.params.reference, req.log);
  });

  /** The user's own subscription (someone else's is answered like one that does not exist). */
  async function ownSubscription(req: FastifyRequest, provider: BillingProvider, id: string) {
    const found = await accounts.find(provider, id);
    if (!found || found.userId !== (await userOf(req))) throw new ApiHttpError('NOT_FOUND', { message: 'You have no such subscription.' });
    return found;
  }

  app.post('/subscriptions/:provider/:id/:action', { ...own, config: perUser('subscriptions-provider-id-action', 1), schema: { params: ActionParams, response: { 200: BillingActionAnswer, ...errors } } }, async (req) => {
    if (req.validationError) throw req.validationError;
    const { provider } = req.params;
    const found = await ownSubscription(req, provider, req.params.id);
    const action = ({ cancel: 'cancel', resume: 'resume', 'payment-method': 'updatePaymentMethod', portal: 'portal' } as const)[req.params.action];
    if (!found.actions.includes(action)) throw new ApiHttpError('VALIDATION_FAILED', { message: `This subscription cannot ${req.params.action.replace('-', ' ')} in its state (${found.status}).` });
    const client: ProviderClient = clients[provider];
    switch (action) {
      case 'cancel':
        await client.cancelAtPeriodEnd!(found.id);
        return { requested: action, url: null, transactionId: null };
      case 'resume':
        await client.resume!(found.id);
        return { requested: action, url: null, transactionId: null };
      case 'updatePaymentMethod': {
        const txn = await paddle.paymentMethodTransaction(found.id);
        return { requested: action, url: txn.url, transactionId: txn.transactionId };
      }
      case 'portal': {
        // Only a customer linked to this user (by their own checkout), none of whose subscriptions is
        // another user's: providers match customers by email, so two users' purchases can share one,
        // and a portal shows all of its subscriptions.
        const customer = await accounts.customerOf(provider, found.id, found.userId);
        if (!customer) throw new ApiHttpError('VALIDATION_FAILED', { message: `${PROVIDER_NAMES[provider]} has no customer of yours for this subscription: manage it from the email ${PROVIDER_NAMES[provider]} sent you.` });
        return { requested: action, url: await client.portal!(customer, found.id), transactionId: null };
      }
    }
  });

  /** The catalogue price a plan change moves to: the same provider's, another than the current one. */
  function changeTarget(found: BillingSubscription, priceId: string) {
    const target = priceOf(found.provider, priceId);
    if (!target) throw new ApiHttpError('VALIDATION_FAILED', { message: `This price is not one of ${PROVIDER_NAMES[found.provider]}'s plans on sale.` });
    if (target.plan.id === found.planId && target.interval === found.interval) throw new ApiHttpError('VALIDATION_FAILED', { message: 'This subscription is already on that plan.' });
    if (!found.actions.includes('changePlan')) throw new ApiHttpError('VALIDATION_FAILED', { message: `This subscription cannot change plan in its state (${found.status}).` });
    return target;
  }

  app.post(
    '/subscriptions/:provider/:id/change-plan/preview',
    { ...own, config: perUser('subscriptions-provider-id-change-plan-preview', 1), schema: { params: SubscriptionParams, body: ChangePlanRequest, response: { 200: ChangePlanPreview, ...errors } } },
    async (req) => {
      if (req.validationError) throw req.validationError;
      const found = await ownSubscription(req, req.params.provider, req.params.id);
      const target = changeTarget(found, req.body.priceId);
      const preview = await (clients[found.provider] as ProviderClient).previewChange!(found.id, req.body.priceId);
      return { priceId: req.body.priceId, planName: target.plan.name, interval: target.interval, ...preview };
    },
  );

  app.post(
    '/subscriptions/:provider/:id/change-plan',
    { ...own, config: perUser('subscriptions-provider-id-change-plan', 0.5), schema: { params: SubscriptionParams, body: ChangePlanRequest, response: { 200: BillingActionAnswer, ...errors } } },
    async (req) => {
      if (req.validationError) throw req.validationError;
      const found = await ownSubscription(req, req.params.provider, req.params.id);
      changeTarget(found, req.body.priceId);
      await (clients[found.provider] as ProviderClient).changePlan!(found.id, req.body.priceId);
      return { requested: 'changePlan' as const, url: null, transactionId: null };
    },
  );

  async function invoicesOf(found: BillingSubscription) {
    const client: ProviderClient = clients[found.provider];
    if (!client.invoices) return { available: false, invoices: [] };
    return { available: true, invoices: await client.invoices(found.id) };
  }

  app.get('/subscriptions/:provider/:id/invoices', { ...own, config: perUser('subscriptions-provider-id-invoices', 1), schema: { params: SubscriptionParams, response: { 200: BillingInvoicesAnswer, ...errors } } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    noStore(reply);
    return invoicesOf(await ownSubscription(req, req.params.provider, req.params.id));
  });

  app.get(
    '/users/:user/subscriptions/:provider/:id/invoices',
    { ...staff, config: perUser('users-user-subscriptions-provider-id-invoices', 1), schema: { params: UserSubscriptionParams, response: { 200: BillingInvoicesAnswer, ...errors } } },
    async (req, reply) => {
      if (req.validationError) throw req.validationError;
      noStore(reply);
      assertDashboard(req);
      const found = await accounts.find(req.params.provider, req.params.id);
      if (!found || found.userId !== req.params.user) throw new ApiHttpError('NOT_FOUND', { message: 'This user has no such subscription.' });
      await audit(req, 'billing.view', `user ${req.params.user}, ${req.params.provider} ${req.params.id} receipts`);
      return invoicesOf(found);
    },
  );

  // The document of one receipt: a redirect to a fresh provider link (theirs expire).
  app.get('/subscriptions/:provider/:id/invoices/:invoice', { ...own, config: perUser('subscriptions-provider-id-invoices-invoice', 1), schema: { params: InvoiceParams, response: errors } }, async (req, reply) => {
    if (req.validationError) throw req.validationError;
    const found = await ownSubscription(req, req.params.provider, req.params.id);
    const client: ProviderClient = clients[found.provider];
    if (!client.invoiceUrl) throw new ApiHttpError('NOT_FOUND', { message: `${PROVIDER_NAMES[found.provider]} keeps this subscription's receipts.` });
    const url = await client.invoiceUrl(found.id, req.params.invoice);
    noStore(reply);
    return reply.redirect(url, 303);
  });
}
