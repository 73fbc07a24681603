import type { FastspringAccount } from '../types';
import { type AccountRecord, type AccountSession, FastspringApiError, fsId, splitName, token } from './model';
import { FastspringState } from './state';

/** Accounts as the API answers them, and the account-management links. */
export class FastspringAccounts extends FastspringState {
  accountJson(a: AccountRecord): FastspringAccount {
    return {
      id: a.id,
      account: a.id,
      action: 'account.get',
      result: 'success',
      contact: { first: a.first, last: a.last, email: a.email, company: null, phone: null, subscribed: true },
      language: 'en',
      country: 'US',
      lookup: { global: a.global },
      url: `${this.base}/account`,
    };
  }

  protected accountFor(email: string, name: string): AccountRecord {
    const lower = email.toLowerCase();
    for (const a of this.accounts.values()) if (a.email.toLowerCase() === lower) return a;
    const { first, last } = splitName(name);
    const account: AccountRecord = { id: fsId(), email, first, last, created: this.now(), global: fsId() };
    this.accounts.set(account.id, account);
    return account;
  }

  authenticate(accountId: string): AccountSession {
    if (!this.accounts.has(accountId)) {
      throw new FastspringApiError(400, { accounts: [{ action: 'account.authenticate.get', account: accountId, result: 'error', error: { account: 'Not found' } }] }, 'account not found');
    }
    const now = this.now();
    this.evictCheckouts(now);
    const session: AccountSession = { token: token(), accountId, expiresAt: now + this.options.sessionTtlMs };
    this.sessions.set(session.token, session);
    this.changed();
    return session;
  }

  accountSession(accountId: string, tokenValue: string): AccountSession | null {
    const s = this.sessions.get(tokenValue);
    return s && s.accountId === accountId && s.expiresAt > this.now() ? s : null;
  }
}
