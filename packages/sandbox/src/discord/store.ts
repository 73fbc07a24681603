import { randomToken } from '../kit/crypto';
import type { Sealer } from '../kit/seal';
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

/** What a sealed authorization code carries: everything the token endpoint checks. */
type SealedCode = Omit<CodeRecord, 'code' | 'usedAt' | 'grantId'>;

/** What a sealed access or refresh token carries: the token and its grant as the issuer knew them. */
interface SealedToken {
  kind: TokenRecord['kind'];
  grantId: string;
  userId: string;
  clientId: string;
  scopes: string[];
  via: GrantRecord['via'];
  grantCreatedAt: number;
  issuedAt: number;
  expiresAt: number | null;
}

const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

function isSealedCode(value: unknown): value is SealedCode {
  const code = value as Partial<SealedCode> | null;
  return (
    typeof code === 'object' &&
    code !== null &&
    typeof code.clientId === 'string' &&
    typeof code.redirectUri === 'string' &&
    (code.challenge === null || typeof code.challenge === 'string') &&
    strings(code.scopes) &&
    typeof code.userId === 'string' &&
    typeof code.issuedAt === 'number' &&
    typeof code.expiresAt === 'number'
  );
}

function isSealedToken(value: unknown): value is SealedToken {
  const token = value as Partial<SealedToken> | null;
  return (
    typeof token === 'object' &&
    token !== null &&
    (token.kind === 'access' || token.kind === 'refresh') &&
    typeof token.grantId === 'string' &&
    typeof token.userId === 'string' &&
    typeof token.clientId === 'string' &&
    strings(token.scopes) &&
    (token.via === 'authorization_code' || token.via === 'control') &&
    typeof token.grantCreatedAt === 'number' &&
    typeof token.issuedAt === 'number' &&
    (token.expiresAt === null || typeof token.expiresAt === 'number')
  );
}

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
 *
 * With a sealer (the `sealSecret` option) codes and tokens are sealed values: a registration that
 * does not hold one opens it and takes it in (adopts it), so registrations sharing the secret accept
 * each other's codes and tokens (docs/sandbox.md#several-instances).
 */
export class SandboxStore {
  readonly codes = new Map<string, CodeRecord>();
  readonly grants = new Map<string, GrantRecord>();
  readonly tokens = new Map<string, TokenRecord>();
  /** Guild ids the bot has joined (starts as the demo guilds with botInGuild). */
  readonly botGuilds = new Set<string>();
  readonly limits: StoreLimits;
  readonly #sealer: Sealer | null;
  /** Sealed values issued at or before this instant are refused (clear()). */
  #forgottenUntil = Number.NEGATIVE_INFINITY;
  /** Per user: sealed values issued at or before this instant are refused (forgetUser()). */
  readonly #usersForgottenUntil = new Map<string, number>();
  /** Grants that ended here: their sealed tokens are not adopted again once the grant is dropped. */
  readonly #endedGrants = new Set<string>();

  constructor(limits: Partial<StoreLimits> = {}, sealer: Sealer | null = null) {
    this.limits = { ...DEFAULT_STORE_LIMITS, ...limits };
    this.#sealer = sealer;
    this.resetBotGuilds();
  }

  resetBotGuilds(): void {
    this.botGuilds.clear();
    for (const guild of demoGuilds()) if (guild.botInGuild) this.botGuilds.add(guild.id);
  }

  /** Forgets every code, grant and token; sealed ones issued until `now` are refused from now on. */
  clear(now: number): void {
    this.codes.clear();
    this.grants.clear();
    this.tokens.clear();
    this.#forgottenUntil = now;
  }

  /** Sealed codes and tokens of this user issued until `now` are refused from now on (the user removed the app). */
  forgetUser(userId: string, now: number): void {
    this.#usersForgottenUntil.set(userId, now);
  }

  #forgotten(userId: string, issuedAt: number): boolean {
    return issuedAt <= this.#forgottenUntil || issuedAt <= (this.#usersForgottenUntil.get(userId) ?? Number.NEGATIVE_INFINITY);
  }

  /** The code's record: one this registration issued or took in, else a sealed code it takes in now. */
  findCode(code: string): CodeRecord | undefined {
    const known = this.codes.get(code);
    if (known || !this.#sealer) return known;
    const sealed = this.#sealer.open('code', code);
    if (!isSealedCode(sealed) || this.#forgotten(sealed.userId, sealed.issuedAt)) return undefined;
    return this.#keepCode({ ...sealed, code, usedAt: null, grantId: null });
  }

  /** The token's record: one this registration issued or took in, else a sealed token it takes in now. */
  findToken(token: string): TokenRecord | undefined {
    const known = this.tokens.get(token);
    if (known || !this.#sealer) return known;
    const sealed = this.#sealer.open('token', token);
    if (!isSealedToken(sealed) || this.#endedGrants.has(sealed.grantId) || this.#forgotten(sealed.userId, sealed.issuedAt)) return undefined;
    let grant = this.grants.get(sealed.grantId);
    if (!grant) {
      this.#makeRoom(sealed.issuedAt);
      grant = {
        id: sealed.grantId,
        userId: sealed.userId,
        clientId: sealed.clientId,
        scopes: sealed.scopes,
        createdAt: sealed.grantCreatedAt,
        via: sealed.via,
        endedAt: null,
        endReason: null,
        tokens: [],
      };
      this.grants.set(grant.id, grant);
    }
    const record: TokenRecord = { token, kind: sealed.kind, grantId: grant.id, issuedAt: sealed.issuedAt, expiresAt: sealed.expiresAt, endedAt: null, endReason: null };
    this.tokens.set(token, record);
    grant.tokens.push(record);
    this.#trimTokens(grant, sealed.issuedAt);
    return record;
  }

  createCode(input: SealedCode): CodeRecord {
    const code = this.#sealer ? this.#sealer.seal('code', input) : randomToken(30);
    return this.#keepCode({ ...input, code, usedAt: null, grantId: null });
  }

  #keepCode(record: CodeRecord): CodeRecord {
    this.pruneCodes(record.issuedAt);
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
    this.#makeRoom(now);
    const grant: GrantRecord = { ...input, id: randomToken(16), createdAt: now, endedAt: null, endReason: null, tokens: [] };
    this.grants.set(grant.id, grant);
    return { grant, ...this.#pair(grant, now, accessTtlMs, refreshTtlMs) };
  }

  /** Room for one more grant: ended and expired grants go first, then the least recently used. */
  #makeRoom(now: number): void {
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
    if (this.#sealer) {
      this.#endedGrants.add(grant.id);
      // Bounded like the grants: the oldest ended ids go first (Set order is insertion order).
      for (const id of this.#endedGrants) {
        if (this.#endedGrants.size <= this.limits.maxGrants) break;
        this.#endedGrants.delete(id);
      }
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
    const record = this.findToken(token);
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
      const expiresAt = ttl === null ? null : now + ttl;
      const sealed: SealedToken = {
        kind,
        grantId: grant.id,
        userId: grant.userId,
        clientId: grant.clientId,
        scopes: grant.scopes,
        via: grant.via,
        grantCreatedAt: grant.createdAt,
        issuedAt: now,
        expiresAt,
      };
      const token = this.#sealer ? this.#sealer.seal('token', sealed) : randomToken(30);
      const record: TokenRecord = { token, kind, grantId: grant.id, issuedAt: now, expiresAt, endedAt: null, endReason: null };
      this.tokens.set(record.token, record);
      grant.tokens.push(record);
      return record;
    };
    const pair = { access: make('access', accessTtlMs), refresh: make('refresh', refreshTtlMs) };
    this.#trimTokens(grant, now);
    return pair;
  }
}
