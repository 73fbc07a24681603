import { z } from './zod-setup';
import { Snowflake } from './auth';

export const BILLING_PROVIDERS = ['paddle', 'fastspring', 'discord', 'chargebee'] as const;
export const BillingProvider = z.enum(BILLING_PROVIDERS);
export type BillingProvider = z.infer<typeof BillingProvider>;

/** A provider's subscription id as it appears in addresses (/billing/<provider>/:id). */
export const ProviderSubscriptionId = z.string().regex(/^[A-Za-z0-9_-][A-Za-z0-9_.:-]{0,99}$/, 'must be a subscription id of the provider');

/** A premium slot of a subscription and the server it covers (null: free). */
export const PremiumSlot = z.object({
  slot: z.number().int().min(1),
  guildId: Snowflake.nullable(),
  /** The server's name as the dashboard knows it (null when it never saw the server). */
  guildName: z.string().nullable(),
  assignedAt: z.string().nullable(),
  /** When the slot may move to another server (the cooldown after its last assignment); null: now. */
  movableAt: z.string().nullable(),
});
export type PremiumSlot = z.infer<typeof PremiumSlot>;

/** Actions the provider offers on a subscription (what the detail page shows). */
export const BillingAction = z.enum(['cancel', 'resume', 'updatePaymentMethod', 'portal', 'changePlan']);
export type BillingAction = z.infer<typeof BillingAction>;

/** A subscription as the billing pages show it. */
export const BillingSubscription = z.object({
  provider: BillingProvider,
  id: ProviderSubscriptionId,
  userId: Snowflake,
  planId: z.string().nullable(),
  planName: z.string().nullable(),
  interval: z.enum(['month', 'year']).nullable(),
  /** The provider's status word (active, trialing, past_due, paused, canceled, …). */
  status: z.string(),
  /** Whether it gives premium now (grace after a failed payment included). */
  premium: z.boolean(),
  /** In the grace period after a failed payment: premium until this time unless the payment recovers. */
  graceUntil: z.string().nullable(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  paymentMethod: z.string().nullable(),
  /**
   * A Discord server subscription: the server it was bought for. It gives that server premium (its
   * one slot covers it and never moves); null for every other subscription (the buyer places its slots).
   */
  guildId: Snowflake.nullable(),
  slots: z.array(PremiumSlot),
  actions: z.array(BillingAction),
  updatedAt: z.string(),
});
export type BillingSubscription = z.infer<typeof BillingSubscription>;

export const BillingSubscriptionsAnswer = z.object({ subscriptions: z.array(BillingSubscription) });
export type BillingSubscriptionsAnswer = z.infer<typeof BillingSubscriptionsAnswer>;

/** `GET /api/billing/checkouts/:provider/:reference`: where a purchase stands after the provider's checkout. */
export const CheckoutStatus = z.object({
  state: z.enum(['activating', 'active']),
  subscription: BillingSubscription.nullable(),
});
export type CheckoutStatus = z.infer<typeof CheckoutStatus>;

/** A checkout of one of the catalogue's prices (`providerPrices` of a plan) with a provider. */
export const CheckoutRequest = z.object({ priceId: z.string().min(1).max(200) }).strict();
export type CheckoutRequest = z.infer<typeof CheckoutRequest>;
/**
 * Paddle's checkout: the transaction the API created at Paddle for the signed-in user and the price
 * (Paddle.js opens it with `Paddle.Checkout.open({ transactionId })`; its buyer is the transaction's user).
 */
export const PaddleCheckoutAnswer = z.object({ transactionId: z.string() });
export type PaddleCheckoutAnswer = z.infer<typeof PaddleCheckoutAnswer>;
/**
 * FastSpring's popup checkout: the Store Builder Library to load, the storefront, and the secure
 * payload the API encrypted for the signed-in user (the product and a reference tying the order to
 * them), for `fastspring.builder.secure(securePayload, secureKey)`: the browser passes it on and cannot change it.
 */
export const FastspringCheckoutAnswer = z.object({ scriptUrl: z.string(), storefront: z.string(), securePayload: z.string(), secureKey: z.string() });
export type FastspringCheckoutAnswer = z.infer<typeof FastspringCheckoutAnswer>;
/** A provider page to send the buyer to (Chargebee's hosted checkout, Discord's store page). */
export const RedirectCheckoutAnswer = z.object({ url: z.string() });
export type RedirectCheckoutAnswer = z.infer<typeof RedirectCheckoutAnswer>;

/** `POST /api/billing/:provider/checkout`: what the provider's checkout needs (its kind follows the provider). */
export const BillingCheckoutAnswer = z.union([PaddleCheckoutAnswer, FastspringCheckoutAnswer, RedirectCheckoutAnswer]);
export type BillingCheckoutAnswer = z.infer<typeof BillingCheckoutAnswer>;

/** `GET /api/billing/providers`: the providers whose checkout is configured on this server. */
export const BillingProvidersAnswer = z.object({ available: z.array(BillingProvider) });
export type BillingProvidersAnswer = z.infer<typeof BillingProvidersAnswer>;

/** Money as providers state it: the amount in the currency's major unit and its ISO code. */
export const Money = z.object({ amount: z.number(), currency: z.string() });
export type Money = z.infer<typeof Money>;

/** `POST /api/billing/subscriptions/:provider/:id/change-plan[/preview]`: the catalogue price to move to. */
export const ChangePlanRequest = CheckoutRequest;
/** The provider's proration for a plan change, before it is made. */
export const ChangePlanPreview = z.object({
  priceId: z.string(),
  planName: z.string().nullable(),
  interval: z.enum(['month', 'year']),
  /** Charged now (positive) or credited (negative) for the rest of the current period. */
  dueNow: Money,
  nextCharge: Money.extend({ at: z.string().nullable() }).nullable(),
});
export type ChangePlanPreview = z.infer<typeof ChangePlanPreview>;

/** A receipt or invoice; its document is at `GET /api/billing/subscriptions/:provider/:id/invoices/:invoice`. */
export const BillingInvoice = z.object({ id: z.string(), date: z.string(), total: Money, status: z.string() });
export type BillingInvoice = z.infer<typeof BillingInvoice>;
/** `available`: whether the provider keeps invoices we can show (Discord's are in Discord). */
export const BillingInvoicesAnswer = z.object({ available: z.boolean(), invoices: z.array(BillingInvoice) });
export type BillingInvoicesAnswer = z.infer<typeof BillingInvoicesAnswer>;

/** An action was sent to the provider; the page shows its result once the provider's webhook confirms it. */
export const BillingActionAnswer = z.object({
  requested: BillingAction,
  /** A provider page to open (payment method update, portal), when the action is one. */
  url: z.string().nullable(),
  /** Paddle's update-payment-method transaction, for Paddle.js. */
  transactionId: z.string().nullable(),
});
export type BillingActionAnswer = z.infer<typeof BillingActionAnswer>;

/** `GET /api/guilds/:server/premium`. */
export const ServerPremiumAnswer = z.object({
  premium: z.boolean(),
  /** The subscription whose slot covers this server, when one does (its owner may be someone else). */
  coveredBy: z
    .object({ provider: BillingProvider, id: ProviderSubscriptionId.nullable(), planName: z.string().nullable(), mine: z.boolean(), slot: z.number().int() })
    .nullable(),
  /** The signed-in user's subscriptions that give premium, and their slots (to assign or move one here). */
  mine: z.array(BillingSubscription),
  cooldownHours: z.number(),
});
export type ServerPremiumAnswer = z.infer<typeof ServerPremiumAnswer>;

export const AssignPremiumRequest = z.object({ provider: BillingProvider, subscriptionId: ProviderSubscriptionId, slot: z.number().int().min(1).max(1000) }).strict();
export type AssignPremiumRequest = z.infer<typeof AssignPremiumRequest>;

/** `POST /api/webhooks/:provider`: the event is stored (`duplicate`: it was already). */
export const WebhookReceivedAnswer = z.object({ received: z.literal(true), duplicate: z.boolean() });
export type WebhookReceivedAnswer = z.infer<typeof WebhookReceivedAnswer>;
