import type { FastspringAccount } from '../types';
import { type AccountRecord, type AccountSession, FastspringApiError, fsId, splitName, token } from './model';
import { FastspringState } from './state';

/** Accounts as the API answers them, and the account-management links. */
export class FastspringAccounts extends FastspringState {
  accountJson(account: AccountRecord): FastspringAccount {
    return {
      id: account.id,
      account: account.id,
      action: 'account.get',
      result: 'success',
      contact: { first: account.first, last: account.last, email: account.email, company: null, phone: null, subscribed: true },
      language: 'en',
      country: 'US',
      lookup: { global: account.global },
      url: `${this.base}/account`,
    };
  }

  protected accountFor(email: string, name: string): AccountRecord {
    const lower = email.toLowerCase();
    for (const account of this.accounts.values()) if (account.email.toLowerCase() === lower) return account;
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
    const accountSession = this.sessions.get(tokenValue);
    return accountSession && accountSession.accountId === accountId && accountSession.expiresAt > this.now() ? accountSession : null;
  }
}
