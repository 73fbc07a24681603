import type { Queryable } from '../../db/driver';

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
export interface StoredEvent extends InboxEvent {
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
  /** Who bought it: from the checkout's data, else the provider customer's link. */
  userId: string | null;
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
