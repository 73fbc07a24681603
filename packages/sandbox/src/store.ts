import { demoGuilds, randomToken } from './util';

/** Why a grant (and with it its tokens) ended, or a single token stopped working. */
export type EndReason =
  /** POST /oauth2/token/revoke with one of its tokens. */
  | 'revoked'
  /** The refresh token was exchanged for a new pair (refresh-token rotation). */
  | 'rotated'
  /** Its authorization code was presented a second time (RFC 6749 §4.1.2). */
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

/** How long ended grants and used codes are kept for replay detection and assertions. */
const KEEP_ENDED_MS = 24 * 3600 * 1000;

/**
 * The sandbox's memory: authorization codes, grants and tokens, and which guilds the bot is in.
 * One instance per plugin registration; nothing is shared or persisted.
 */
export class SandboxStore {
  readonly codes = new Map<string, CodeRecord>();
  readonly grants = new Map<string, GrantRecord>();
  readonly tokens = new Map<string, TokenRecord>();
  /** Guild ids the bot has joined (starts as the demo guilds with botInGuild). */
  readonly botGuilds = new Set<string>();
  #issued = 0;

  constructor() {
    this.resetBotGuilds();
  }

  resetBotGuilds(): void {
    this.botGuilds.clear();
    for (const g of demoGuilds()) if (g.botInGuild) this.botGuilds.add(g.id);
  }

  clear(): void {
    this.codes.clear();
    this.grants.clear();
    this.tokens.clear();
  }

  createCode(input: Omit<CodeRecord, 'code' | 'usedAt' | 'grantId'>): CodeRecord {
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
    if (++this.#issued % 200 === 0) this.prune(now);
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
    for (const t of grant.tokens) {
      if (t.endedAt === null) {
        t.endedAt = now;
        t.endReason = reason;
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
    return { record, grant };
  }

  /** Drops expired codes and long-ended grants so a long demo run does not grow without bound. */
  prune(now: number): void {
    for (const [code, c] of this.codes) if (c.expiresAt + KEEP_ENDED_MS < now) this.codes.delete(code);
    for (const [id, g] of this.grants) {
      const lastExpiry = Math.max(...g.tokens.map((t) => t.endedAt ?? t.expiresAt ?? Number.POSITIVE_INFINITY));
      const over = g.endedAt ?? lastExpiry;
      if (over + KEEP_ENDED_MS < now) {
        for (const t of g.tokens) this.tokens.delete(t.token);
        this.grants.delete(id);
      }
    }
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
    return { access: make('access', accessTtlMs), refresh: make('refresh', refreshTtlMs) };
  }
}
