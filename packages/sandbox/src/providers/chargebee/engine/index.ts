import { randomBytes } from 'node:crypto';
import { randomId } from '../delivery';
import { notFound } from '../errors';
import type { ChargebeePortalSession } from '../types';
import { evict, type PortalRecord } from './model';
import { ChargebeeSubscriptions } from './subscriptions';

export { type ChargebeeItemPriceOption, type PlanChange, periodLabel } from './model';

/**
 * The Chargebee state of one registration: customers, subscriptions, invoices, hosted pages, portal
 * sessions, and the events it sends (through its WebhookQueue).
 */
export class ChargebeeEngine extends ChargebeeSubscriptions {
  protected portalJson(portal: PortalRecord): ChargebeePortalSession {
    return {
      id: portal.id,
      token: portal.token,
      access_url: portal.accessUrl,
      ...(portal.redirectUrl !== null ? { redirect_url: portal.redirectUrl } : {}),
      status: portal.status,
      created_at: portal.createdAt,
      expires_at: portal.expiresAt,
      customer_id: portal.customerId,
      ...(portal.loginAt !== null ? { login_at: portal.loginAt } : {}),
      ...(portal.logoutAt !== null ? { logout_at: portal.logoutAt } : {}),
      object: 'portal_session',
    };
  }

  portalSession(customerId: string, redirectUrl: string | null, accessUrlOf: (token: string) => string): ChargebeePortalSession {
    if (!this.customerRecords.has(customerId)) throw notFound('Customer', customerId, 'customer[id]');
    const nowS = this.sec();
    evict(this.portalRecords, nowS);
    const token = randomId('', 32);
    const portal: PortalRecord = {
      id: randomId('portal_'),
      token,
      accessUrl: accessUrlOf(token),
      customerId,
      createdAt: nowS,
      expiresAt: nowS + Math.floor(this.options.portalTtlMs / 1000),
      redirectUrl,
      status: 'created',
      loginAt: null,
      logoutAt: null,
      loginSecret: null,
    };
    this.portalRecords.set(portal.id, portal);
    this.changed();
    return this.portalJson(portal);
  }

  /** Uses an access URL's token (once): the session and its new cookie secret, or null (unknown, used or expired). */
  portalLogin(token: string): { session: ChargebeePortalSession; secret: string } | null {
    const nowS = this.sec();
    const portal = [...this.portalRecords.values()].find((x) => x.token === token);
    if (portal?.status !== 'created' || portal.expiresAt <= nowS) return null;
    portal.status = 'logged_in';
    portal.loginAt = nowS;
    portal.loginSecret = randomBytes(24).toString('base64url');
    portal.expiresAt = Math.max(portal.expiresAt, nowS + Math.floor(this.options.portalTtlMs / 1000));
    this.changed();
    return { session: this.portalJson(portal), secret: portal.loginSecret };
  }

  /** A logged-in portal session whose cookie secret matches, or null. */
  portal(id: string, secret: string | undefined, equal: (left: string, right: string) => boolean): ChargebeePortalSession | null {
    const portal = this.portalRecords.get(id);
    if (portal?.status !== 'logged_in' || portal.loginSecret === null || !secret || !equal(secret, portal.loginSecret) || portal.expiresAt <= this.sec()) return null;
    return this.portalJson(portal);
  }

  portalLogout(id: string): ChargebeePortalSession | null {
    const portal = this.portalRecords.get(id);
    if (!portal) return null;
    portal.status = 'logged_out';
    portal.logoutAt = this.sec();
    portal.loginSecret = null;
    this.changed();
    return this.portalJson(portal);
  }

  portalApi(id: string): ChargebeePortalSession {
    const portal = this.portalRecords.get(id);
    if (!portal) throw notFound('Portal session', id);
    return this.portalJson(portal);
  }
}
