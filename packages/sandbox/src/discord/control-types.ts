import type { StoredMessage } from './guild-state';
import type { EndReason } from './store';

/**
 * Which requests a fault or a latency applies to. Paths are relative to the sandbox mount (no prefix,
 * no query), e.g. `/api/v10/users/@me/guilds`, `/oauth2/authorize`, `/cdn/icons/1/x.png`.
 * - `'*'`: every request (the `/_control` routes are never affected);
 * - `'/api/v10/users/@me'`: that exact path, any method; `'GET /api/v10/users/@me'`: method and path;
 * - a trailing `*` is a prefix match: `'/api/v10/oauth2/*'`, `'POST /api/v10/*'`;
 * - a RegExp is tested against the path; a function gets `{ method, path }`.
 */
export type RouteMatcher = string | RegExp | ((request: { method: string; path: string }) => boolean);

export interface FaultOptions {
  /** HTTP status to answer with (400-599), e.g. 429, 500, 502, 503. */
  status: number;
  /** Seconds (fractions allowed) for Retry-After / retry_after. Default 1 for 429; none for other statuses. */
  retryAfter?: number;
  /** How many matching requests fail (default 1); `Infinity` until `clearFaults()`/`reset()`. */
  times?: number;
  /** 429 only: X-RateLimit-Scope (default `user`); `global` also sets X-RateLimit-Global and `global: true`. */
  scope?: 'user' | 'global' | 'shared';
  /** JSON body to send instead of Discord's default for the status. */
  body?: unknown;
  /** Real milliseconds to wait before answering (a slow failure, e.g. a gateway timeout). */
  delayMs?: number;
}

/** A message in a sandbox channel (SandboxControl.messages): what it keeps, but tts and nonce. */
export type SandboxMessageInfo = Omit<StoredMessage, 'tts' | 'nonce'>;

export interface SandboxTokenInfo {
  token: string;
  kind: 'access' | 'refresh';
  grantId: string;
  userId: string;
  clientId: string;
  scopes: string[];
  issuedAt: number;
  /** Epoch ms, null for refresh tokens (they do not expire unless `refreshTokenTtlSeconds` is set). */
  expiresAt: number | null;
  endedAt: number | null;
  endReason: EndReason | null;
  /** Usable right now (not ended, not expired, grant alive). */
  active: boolean;
}

export interface SandboxGrantInfo {
  id: string;
  userId: string;
  clientId: string;
  scopes: string[];
  via: 'authorization_code' | 'control';
  createdAt: number;
  endedAt: number | null;
  endReason: EndReason | null;
  tokens: SandboxTokenInfo[];
}

export interface SandboxRequestRecord {
  method: string;
  /** Relative to the sandbox mount, without the query. */
  path: string;
  query: string;
  status: number;
  /** Sandbox time (epoch ms) when the answer was sent. */
  at: number;
  auth: 'bearer' | 'bot' | 'basic' | 'none' | 'other';
  /** Answered by an injected fault. */
  fault: boolean;
  /** Answered 429 by the sandbox's own rate limiter. */
  rateLimited: boolean;
}

/** A demo user's membership of a server, as `GET /users/@me/guilds` reports it. */
export interface SandboxMembership {
  owner: boolean;
  /** Discord's decimal permission string, e.g. PERMISSION_MEMBER, PERMISSION_ADMIN. */
  permissions: string;
}
