import { Sealer } from '../kit/seal';
import { internalsOf, type SandboxControl } from './control';
import { GuildState } from './guild-state';
import type { RateLimitSettings } from './rate-limit';
import { RateLimiter } from './rate-limit';
import { type GrantRecord, type IssuedPair, SandboxStore } from './store';
import { findUser } from './util';

/** OAuth2 scopes the sandbox knows (a request with any other scope is refused). */
export const KNOWN_SCOPES = ['identify', 'email', 'guilds', 'guilds.members.read', 'connections'] as const;
/** What the sandbox's users are for: every sign-in must ask for these. */
export const REQUIRED_SCOPES = ['identify', 'guilds'] as const;

/** The token endpoint's answer (Discord's access token response). */
export interface SandboxTokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export interface ResolvedOptions {
  clientId: string;
  clientSecret: string;
  botToken: string;
  appName: string;
  baseUrl: string | null;
  tokenTtlSeconds: number;
  refreshTokenTtlSeconds: number | null;
  codeTtlSeconds: number;
  /** Registered redirect URIs (exact match), or null: loopback http(s) URLs only. */
  redirectUris: readonly string[] | null;
  rateLimit: RateLimitSettings;
  /** The bucket of POST /channels/{id}/messages (per channel and token). */
  messageRateLimit: RateLimitSettings;
  controlRoutes: boolean;
  maxCodes: number;
  maxGrants: number;
  /** The secret codes and tokens are sealed with (every instance that shares it accepts them), or null: random tokens. */
  sealSecret: string | null;
}

/** One registration's state and rules, shared by its routes and its SandboxControl. */
export class SandboxEngine {
  readonly store: SandboxStore;
  readonly limiter = new RateLimiter();
  /** Channels' overwrites and messages (the servers' demo data is read-only). */
  readonly guilds = new GuildState();

  constructor(
    readonly options: ResolvedOptions,
    readonly clock: () => number,
    readonly control: SandboxControl,
  ) {
    this.store = new SandboxStore({ maxCodes: options.maxCodes, maxGrants: options.maxGrants }, options.sealSecret === null ? null : new Sealer(options.sealSecret));
  }

  now(): number {
    return this.clock() + internalsOf(this.control).offsetMs();
  }

  rateLimit(): RateLimitSettings {
    return internalsOf(this.control).rateLimit(this.options.rateLimit);
  }

  /** Message creation's own bucket, unless SandboxControl.setRateLimit overrides every bucket. */
  messageRateLimit(): RateLimitSettings {
    return internalsOf(this.control).rateLimit(this.options.messageRateLimit);
  }

  get accessTtlMs(): number {
    return this.options.tokenTtlSeconds * 1000;
  }

  get refreshTtlMs(): number | null {
    return this.options.refreshTokenTtlSeconds === null ? null : this.options.refreshTokenTtlSeconds * 1000;
  }

  issue(userId: string, scopes: string[], via: GrantRecord['via']): IssuedPair {
    return this.store.issueGrant({ userId, clientId: this.options.clientId, scopes, via }, this.now(), this.accessTtlMs, this.refreshTtlMs);
  }

  tokenResponse(pair: IssuedPair): SandboxTokenResponse {
    const expiresAt = pair.access.expiresAt ?? this.now();
    return {
      access_token: pair.access.token,
      token_type: 'Bearer',
      expires_in: Math.max(0, Math.round((expiresAt - pair.access.issuedAt) / 1000)),
      refresh_token: pair.refresh.token,
      scope: pair.grant.scopes.join(' '),
    };
  }

  issueTokens(userRef: string, scope?: string | string[]): SandboxTokenResponse {
    const user = findUser(userRef);
    if (!user) throw new Error(`issueTokens: "${userRef}" is not a demo user (id, key or username)`);
    const scopes = scope === undefined ? [...REQUIRED_SCOPES] : typeof scope === 'string' ? scope.split(/\s+/).filter(Boolean) : [...scope];
    const unknown = scopes.filter((s) => !(KNOWN_SCOPES as readonly string[]).includes(s));
    if (unknown.length) throw new Error(`issueTokens: unknown scope(s) ${unknown.join(', ')}`);
    return this.tokenResponse(this.issue(user.id, [...new Set(scopes)], 'control'));
  }

  revokeUser(userRef: string): number {
    const user = findUser(userRef);
    if (!user) throw new Error(`revokeUser: "${userRef}" is not a demo user (id, key or username)`);
    let ended = 0;
    const now = this.now();
    this.store.forgetUser(user.id, now);
    for (const grant of this.store.grants.values()) {
      if (grant.userId === user.id && grant.endedAt === null) {
        this.store.endGrant(grant, 'user_revoked', now);
        ended++;
      }
    }
    return ended;
  }
}
