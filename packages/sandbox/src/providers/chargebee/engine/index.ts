import { randomBytes } from 'node:crypto';
import { randomId } from '../delivery';
import { notFound } from '../errors';
import type { ChargebeePortalSession } from '../types';
import { evict, type PortalRecord } from './model';
import { ChargebeeSubscriptions } from './subscriptions';

export { type ChargebeeItemPriceOption, type CheckoutInput, type EngineOptions, type PlanChange, periodLabel } from './model';

/**
 * The Chargebee state of one registration: customers, subscriptions, invoices, hosted pages, portal
 * sessions, and the events it sends (through its WebhookQueue).
 */
export class ChargebeeEngine extends ChargebeeSubscriptions {
  protected portalJson(p: PortalRecord): ChargebeePortalSession {
    return {
      id: p.id,
      token: p.token,
      access_url: p.accessUrl,
      ...(p.redirectUrl !== null ? { redirect_url: p.redirectUrl } : {}),
      status: p.status,
      created_at: p.createdAt,
      expires_at: p.expiresAt,
      customer_id: p.customerId,
      ...(p.loginAt !== null ? { login_at: p.loginAt } : {}),
      ...(p.logoutAt !== null ? { logout_at: p.logoutAt } : {}),
      object: 'portal_session',
    };
  }

  portalSession(customerId: string, redirectUrl: string | null, accessUrlOf: (token: string) => string): ChargebeePortalSession {
    if (!this.customerRecords.has(customerId)) throw notFound('Customer', customerId, 'customer[id]');
    const nowS = this.sec();
    evict(this.portalRecords, nowS);
    const token = randomId('', 32);
    const p: PortalRecord = {
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
    this.portalRecords.set(p.id, p);
    this.changed();
    return this.portalJson(p);
  }

  /** Uses an access URL's token (once): the session and its new cookie secret, or null (unknown, used or expired). */
  portalLogin(token: string): { session: ChargebeePortalSession; secret: string } | null {
    const nowS = this.sec();
    const p = [...this.portalRecords.values()].find((x) => x.token === token);
    if (p?.status !== 'created' || p.expiresAt <= nowS) return null;
    p.status = 'logged_in';
    p.loginAt = nowS;
    p.loginSecret = randomBytes(24).toString('base64url');
    p.expiresAt = Math.max(p.expiresAt, nowS + Math.floor(this.options.portalTtlMs / 1000));
    this.changed();
    return { session: this.portalJson(p), secret: p.loginSecret };
  }

  /** A logged-in portal session whose cookie secret matches, or null. */
  portal(id: string, secret: string | undefined, equal: (a: string, b: string) => boolean): ChargebeePortalSession | null {
    const p = this.portalRecords.get(id);
    if (p?.status !== 'logged_in' || p.loginSecret === null || !secret || !equal(secret, p.loginSecret) || p.expiresAt <= this.sec()) return null;
    return this.portalJson(p);
  }

  portalLogout(id: string): ChargebeePortalSession | null {
    const p = this.portalRecords.get(id);
    if (!p) return null;
    p.status = 'logged_out';
    p.logoutAt = this.sec();
    p.loginSecret = null;
    this.changed();
    return this.portalJson(p);
  }

  portalApi(id: string): ChargebeePortalSession {
    const p = this.portalRecords.get(id);
    if (!p) throw notFound('Portal session', id);
    return this.portalJson(p);
  }
}
