import { randomToken } from '../kit/crypto';
import { demoGuilds } from './util';

/** Why a grant (and with it its tokens) ended, or a single token stopped working. */
export type EndReason =
  /** POST /oauth2/token/revoke with one of its tokens. */
  | 'revoked'
  /** The refresh token was exchanged for a new pair (refresh-token rotation). */
  | 'rotated'
  /** Its authorization code was presented a second time. */
  | 'code_replay'
  /** The user "removed the app" (SandboxControl.revokeUser). */
  | 'user_revoked';

export interface TokenRecord {
  token: string;
  kind: 'access' | 'refresh';
  grantId: string;
  issuedAt: number;
  /** Epoch ms; null = does not expire (refresh tokens). */
  expiresAt: number | null;
  endedAt: number | null;
  endReason: EndReason | null;
}

export interface GrantRecord {
  id: string;
  userId: string;
  clientId: string;
  scopes: string[];
  createdAt: number;
  via: 'authorization_code' | 'control';
  endedAt: number | null;
  endReason: EndReason | null;
  /** Every token issued under this grant, oldest first. */
  tokens: TokenRecord[];
}

export interface CodeRecord {
  code: string;
  clientId: string;
  redirectUri: string;
  /** PKCE S256 challenge, or null when the request did not use PKCE. */
  challenge: string | null;
  scopes: string[];
  userId: string;
  issuedAt: number;
  expiresAt: number;
  usedAt: number | null;
  /** The grant the first (successful) exchange created. */
  grantId: string | null;
}

export interface IssuedPair {
  grant: GrantRecord;
  access: TokenRecord;
  refresh: TokenRecord;
}

/** How long ended or expired grants stay visible (control.grants(), replay detection) before they are dropped. */
const KEEP_ENDED_MS = 3600 * 1000;
/** Tokens kept per grant (refresh-token rotation adds a pair each time): beyond, the oldest go first. */
const MAX_TOKENS_PER_GRANT = 20;

export interface StoreLimits {
  /** Authorization codes kept at most (issued, not yet expired). */
  maxCodes: number;
  /** Grants kept at most (each with at most MAX_TOKENS_PER_GRANT tokens). */
  maxGrants: number;
}

export const DEFAULT_STORE_LIMITS: StoreLimits = { maxCodes: 1000, maxGrants: 10_000 };

/** When a grant stopped mattering: when it ended, else when its last token expires (null: still live). */
function overAt(grant: GrantRecord): number | null {
  if (grant.endedAt !== null) return grant.endedAt;
  let last = Number.NEGATIVE_INFINITY;
  for (const token of grant.tokens) {
    const end = token.endedAt ?? token.expiresAt;
    if (end === null) return null;
    if (end > last) last = end;
  }
  return grant.tokens.length ? last : null;
}

/**
 * The sandbox's memory: authorization codes, grants and tokens, and which guilds the bot is in. One
 * instance per plugin registration; nothing is shared or persisted. Bounded because the endpoints
 * answer anyone; the eviction order is in docs/sandbox.md#oauth-memory.
 */
export class SandboxStore {
  readonly codes = new Map<string, CodeRecord>();
  readonly grants = new Map<string, GrantRecord>();
  readonly tokens = new Map<string, TokenRecord>();
  /** Guild ids the bot has joined (starts as the demo guilds with botInGuild). */
  readonly botGuilds = new Set<string>();
  readonly limits: StoreLimits;

  constructor(limits: Partial<StoreLimits> = {}) {
    this.limits = { ...DEFAULT_STORE_LIMITS, ...limits };
    this.resetBotGuilds();
  }

  resetBotGuilds(): void {
    this.botGuilds.clear();
    for (const guild of demoGuilds()) if (guild.botInGuild) this.botGuilds.add(guild.id);
  }

  clear(): void {
    this.codes.clear();
    this.grants.clear();
    this.tokens.clear();
  }

  createCode(input: Omit<CodeRecord, 'code' | 'usedAt' | 'grantId'>): CodeRecord {
    this.pruneCodes(input.issuedAt);
    if (this.codes.size >= this.limits.maxCodes) {
      for (const [code, grantCode] of this.codes) {
        if (this.codes.size < this.limits.maxCodes) break;
        if (grantCode.usedAt !== null) this.codes.delete(code);
      }
      // Map order is issue order: the first keys are the oldest.
      for (const code of this.codes.keys()) {
        if (this.codes.size < this.limits.maxCodes) break;
        this.codes.delete(code);
      }
    }
    const record: CodeRecord = { ...input, code: randomToken(30), usedAt: null, grantId: null };
    this.codes.set(record.code, record);
    return record;
  }

  /** A new grant with its first access and refresh token. */
  issueGrant(
    input: { userId: string; clientId: string; scopes: string[]; via: GrantRecord['via'] },
    now: number,
    accessTtlMs: number,
    refreshTtlMs: number | null,
  ): IssuedPair {
    this.pruneGrants(now);
    if (this.grants.size >= this.limits.maxGrants) {
      for (const grant of this.grants.values()) {
        if (this.grants.size < this.limits.maxGrants) break;
        if (overAt(grant) !== null && (overAt(grant) as number) <= now) this.#dropGrant(grant);
      }
      // Map order is use order (live() moves a used grant to the back): the first is the least recently used.
      for (const lru of this.grants.values()) {
        if (this.grants.size < this.limits.maxGrants) break;
        this.#dropGrant(lru);
      }
    }
    const grant: GrantRecord = { ...input, id: randomToken(16), createdAt: now, endedAt: null, endReason: null, tokens: [] };
    this.grants.set(grant.id, grant);
    return { grant, ...this.#pair(grant, now, accessTtlMs, refreshTtlMs) };
  }

  /** Refresh-token rotation: the presented refresh token ends, a new pair is issued on the same grant. */
  rotate(grant: GrantRecord, used: TokenRecord, now: number, accessTtlMs: number, refreshTtlMs: number | null): IssuedPair {
    used.endedAt = now;
    used.endReason = 'rotated';
    return { grant, ...this.#pair(grant, now, accessTtlMs, refreshTtlMs) };
  }

  /** Ends a grant: every token it issued stops working at once. */
  endGrant(grant: GrantRecord, reason: EndReason, now: number): void {
    if (grant.endedAt === null) {
      grant.endedAt = now;
      grant.endReason = reason;
    }
    for (const token of grant.tokens) {
      if (token.endedAt === null) {
        token.endedAt = now;
        token.endReason = reason;
      }
    }
  }

  /** The live token record and its grant, or null (unknown, wrong kind, ended or expired). */
  live(token: string, kind: TokenRecord['kind'], now: number): { record: TokenRecord; grant: GrantRecord } | null {
    const record = this.tokens.get(token);
    if (!record || record.kind !== kind || record.endedAt !== null) return null;
    if (record.expiresAt !== null && record.expiresAt <= now) return null;
    const grant = this.grants.get(record.grantId);
    if (!grant || grant.endedAt !== null) return null;
    // Recently used: to the back of the eviction order.
    this.grants.delete(grant.id);
    this.grants.set(grant.id, grant);
    return { record, grant };
  }

  /** Drops expired codes (used or not). Cheap: codes are in issue order, the scan stops at a live one. */
  pruneCodes(now: number): void {
    for (const [code, grantCode] of this.codes) {
      if (grantCode.expiresAt > now) break;
      this.codes.delete(code);
    }
  }

  /** Drops grants that ended or expired more than KEEP_ENDED_MS ago. */
  pruneGrants(now: number): void {
    for (const grant of this.grants.values()) {
      const over = overAt(grant);
      if (over !== null && over + KEEP_ENDED_MS < now) this.#dropGrant(grant);
    }
  }

  /** Both of the above (a long demo run does not grow without bound). */
  prune(now: number): void {
    this.pruneCodes(now);
    this.pruneGrants(now);
  }

  #dropGrant(grant: GrantRecord): void {
    for (const token of grant.tokens) this.tokens.delete(token.token);
    this.grants.delete(grant.id);
  }

  /** Keeps a grant's token list short: ended or expired tokens go first, then the oldest. */
  #trimTokens(grant: GrantRecord, now: number): void {
    const over = grant.tokens.length - MAX_TOKENS_PER_GRANT;
    if (over <= 0) return;
    const dead = (t: TokenRecord) => t.endedAt !== null || (t.expiresAt !== null && t.expiresAt <= now);
    const drop = new Set(grant.tokens.filter(dead).slice(0, over));
    for (const token of grant.tokens) {
      if (drop.size >= over) break;
      drop.add(token);
    }
    for (const dropped of drop) this.tokens.delete(dropped.token);
    grant.tokens = grant.tokens.filter((t) => !drop.has(t));
  }

  #pair(grant: GrantRecord, now: number, accessTtlMs: number, refreshTtlMs: number | null): { access: TokenRecord; refresh: TokenRecord } {
    const make = (kind: TokenRecord['kind'], ttl: number | null): TokenRecord => {
      const record: TokenRecord = {
        token: randomToken(30),
        kind,
        grantId: grant.id,
        issuedAt: now,
        expiresAt: ttl === null ? null : now + ttl,
        endedAt: null,
        endReason: null,
      };
      this.tokens.set(record.token, record);
      grant.tokens.push(record);
      return record;
    };
    const pair = { access: make('access', accessTtlMs), refresh: make('refresh', refreshTtlMs) };
    this.#trimTokens(grant, now);
    return pair;
  }
}
