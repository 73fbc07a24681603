import type { Queryable } from '../../db/driver';
import type { ChargebeeApi } from './chargebee-api';
import type { DiscordBillingClient } from './discord-api';
import type { FastspringApi } from './fastspring-api';
import type { PaddleApi } from './paddle-api';
import type { PriceBook } from './subscriptions';

export const PROVIDERS = ['paddle', 'fastspring', 'discord', 'chargebee'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** A verified provider event, as the inbox stores it. */
export interface InboxEvent {
  /** The provider's event id (or what identifies an event where the provider gives none): stored once. */
  key: string;
  type: string;
  /** The provider's subscription the event is about, when there is one. */
  subject: string | null;
  occurredAt: string | null;
  payload: unknown;
}

/** A stored event handed to its provider's applier. */
interface StoredEvent extends InboxEvent {
  id: string;
  provider: Provider;
  attempts: number;
}

/** Applies one event inside the worker's transaction; answers what it did (kept as the event's outcome). */
export type Applier = (tx: Queryable, event: StoredEvent) => Promise<string>;

/** An event that cannot be applied yet (what it needs has not arrived): retried later, like a failure. */
export class NotYetError extends Error {}

/** A subscription as its provider describes it, in the model's terms (services/billing/subscriptions.ts stores it). */
export interface SubscriptionState {
  provider: Provider;
  providerSubscriptionId: string;
  /**
   * The user the provider itself names as the buyer (Discord's entitlement names the Discord user,
   * who is our user); null for the others, whose buyer is found from what this server made (below).
   */
  userId: string | null;
  /**
   * The checkout this server made that the subscription came from (table `billing_checkouts`, its
   * user the buyer): Paddle's transaction id (`subscription.created`'s `transaction_id`), FastSpring's
   * checkout reference. Null when the description does not say (a later event: the stored owner holds).
   */
  checkout: string | null;
  /** Whether the provider's customer is ours, linked to its user before the checkout (Chargebee): the link names the owner. */
  ownerFromCustomer: boolean;
  /**
   * The server the provider sold it for (a Discord server subscription, an entitlement with a
   * `guild_id`): it gives premium to that server, its one slot covering it for good; null for the
   * others (the buyer places their slots).
   */
  guildId: string | null;
  customerId: string | null;
  status: string;
  /** Whether the status grants premium (before `accessEndsAt`). */
  premium: boolean;
  /** The status is a failed payment the provider is still retrying (premium kept for the grace period). */
  pastDue: boolean;
  /** Null: the price is no longer in the catalogue (the stored plan and slots stay). */
  planId: string | null;
  interval: 'month' | 'year' | null;
  slots: number | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  /** When premium ends on its own (a cancellation taking effect at the period's end). */
  accessEndsAt: string | null;
  /** The provider's ordering key of this description (a decimal string: larger is newer). */
  version: string;
}

/** Money as a provider states it: an amount in the currency's major unit (4.99) and its ISO code. */
export interface Money {
  amount: number;
  currency: string;
}

/** What a plan change would cost, as the provider computes it (its proration). */
export interface ChangePreview {
  /** Charged (positive) or credited (negative) now for the rest of the current period. */
  dueNow: Money;
  /** The next regular charge after the change, and when. */
  nextCharge: (Money & { at: string | null }) | null;
}

/** A receipt or invoice of a subscription. */
export interface Invoice {
  id: string;
  date: string;
  total: Money;
  status: string;
}

/**
 * A provider's API as billing uses it (each `<provider>-api.ts` implements it). Methods a provider
 * does not offer are absent; routes offer only the actions whose method exists.
 */
export interface ProviderClient {
  readonly provider: Provider;
  /** Whether its credentials are set (else every call answers PROVIDER_UNAVAILABLE). */
  readonly configured: boolean;
  cancelAtPeriodEnd?(subscriptionId: string): Promise<void>;
  resume?(subscriptionId: string): Promise<void>;
  /** A fresh, short-lived address of the provider's customer portal (never kept). */
  portal?(customerId: string, subscriptionId: string): Promise<string>;
  previewChange?(subscriptionId: string, priceId: string): Promise<ChangePreview>;
  changePlan?(subscriptionId: string, priceId: string): Promise<void>;
  invoices?(subscriptionId: string): Promise<Invoice[]>;
  /** A fresh address of one invoice's document (the provider's links expire). */
  invoiceUrl?(subscriptionId: string, invoiceId: string): Promise<string>;
  /** Every subscription the provider has, page by page, in the model's terms (reconciliation). */
  allSubscriptions(prices: PriceBook): AsyncGenerator<Array<SubscriptionState | { id: string; error: Error }>>;
}

/** Every provider's client, by provider (the app's `billingClients`). */
export interface BillingClients {
  paddle: PaddleApi;
  fastspring: FastspringApi;
  chargebee: ChargebeeApi;
  discord: DiscordBillingClient;
}
