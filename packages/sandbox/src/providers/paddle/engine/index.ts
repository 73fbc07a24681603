import type { PaddlePortalSession, PaddleSubscription } from '../types';
import { evict, invalidField, notFound } from './model';
import { PaddleSubscriptions } from './subscriptions';

export { type CheckoutResult, type CheckoutSession, type ItemChange, invalidField, type LineInput, PaddleApiError, type PaddlePriceOption, type SubscriptionPatch, type TransactionQuery } from './model';

/**
 * The stand-in's state (customers, subscriptions, transactions, checkout and portal sessions) and every
 * change Paddle would make to it, each sending its notification through the queue.
 */
export class PaddleEngine extends PaddleSubscriptions {
  /** POST /customers/{id}/portal-sessions. `base`: this stand-in's absolute URL (no trailing slash). */
  portalSession(customerId: string, subscriptionIds: string[], base: string, management = false): PaddlePortalSession {
    const customer = this.customerRecords.get(customerId);
    if (!customer) throw notFound('Customer', customerId);
    for (const [count, id] of subscriptionIds.entries()) {
      const sub = this.subscriptionRecords.get(id);
      if (!sub || sub.customerId !== customerId) throw invalidField(`subscription_ids[${count}]`, `subscription ${id} does not belong to customer ${customerId}`);
    }
    const now = this.now();
    evict(this.portalRecords, now);
    const id = this.ids.next('cpls', now);
    const root = `${base}/portal/${id}`;
    const session: PaddlePortalSession = {
      id,
      customer_id: customerId,
      urls: {
        general: { overview: root },
        subscriptions: subscriptionIds.map((text) => ({
          id: text,
          cancel_subscription: `${root}/subscriptions/${text}/cancel`,
          update_subscription_payment_method: `${root}/subscriptions/${text}/payment-method`,
        })),
      },
      created_at: this.stamp(),
    };
    this.portalRecords.set(id, { session, expiresAt: now + this.options.portalTtlMs, management });
    // A session made for management_urls comes from reading a subscription: kept by the next snapshot,
    // but not worth one of its own (made again on demand).
    if (!management) this.changed();
    return structuredClone(session);
  }

  /** A live portal session, or null (unknown or expired). */
  portal(id: string): PaddlePortalSession | null {
    const portal = this.portalRecords.get(id);
    return portal && portal.expiresAt > this.now() ? structuredClone(portal.session) : null;
  }

  /**
   * management_urls of a subscription in API answers: links into a portal session of its customer
   * (reused while it has at least half its lifetime left).
   */
  managementUrls(id: string, base: string): NonNullable<PaddleSubscription['management_urls']> {
    const sub = this.subscriptionRecord(id);
    const now = this.now();
    let session: PaddlePortalSession | null = null;
    for (const portal of this.portalRecords.values()) {
      if (portal.management && portal.session.customer_id === sub.customerId && portal.expiresAt - now > this.options.portalTtlMs / 2 && portal.session.urls.general.overview.startsWith(`${base}/`)) session = portal.session;
    }
    session ??= this.portalSession(sub.customerId, [], base, true);
    const root = session.urls.general.overview;
    return {
      update_payment_method: sub.status === 'canceled' ? null : `${root}/subscriptions/${sub.id}/payment-method`,
      cancel: `${root}/subscriptions/${sub.id}/cancel`,
    };
  }
}
