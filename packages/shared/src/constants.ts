import type { StaffPermission } from './types';

/** docs/behaviour.md#request-overlay-and-error-catalogue: the request overlay's timings, limits and colours. */
export const OVERLAY = {
  /** The loading overlay is only shown for requests still pending after this long (no flash on fast answers). */
  loadingDelayMs: 250,
  /** After a button of the error overlay is pressed, the overlay closes and the action takes effect after this long. */
  actionDelayMs: 250,
  /** When the retry limit is exceeded, the user is sent Home after this long. */
  retryLimitDelayMs: 500,
  /** Retries the user may ask for per request; the next press rejects the request and goes Home. */
  retryLimit: 999,
  /** Main client timeout. */
  timeoutMs: 60_000,
  /** Logout timeout. */
  logoutTimeoutMs: 30_000,
  colors: { accent: '#35B8E0', backdrop: '#171E29' },
  popup: { width: 500, height: 800 },
} as const;

/** docs/behaviour.md#sign-in-sign-out-and-the-user-cache: the user-load cache windows. */
export const AUTH_CACHE = {
  /** A repeated load within this long of the last one returns the cached answer (signed in or not). */
  repeatMs: 50,
  /** A load within this long of the last one returns the cached answer while a user is signed in. */
  userMs: 5_000,
} as const;

/** The API paths the shared package calls itself. */
export const AUTH_PATHS = {
  me: '/api/auth/@me',
  logout: '/api/auth/logout',
  login: '/api/auth/login',
  refreshGuilds: '/api/auth/guilds/refresh',
} as const;

/** Error codes of the catalogue the client treats specially (see `@tickety/api-contract` ERROR_CODES). */
export const ERROR_CODE = {
  unauthenticated: 401,
  noServerAccess: 403,
  serverNotFound: 405,
  rateLimited: 1003,
  /** Chosen by the client (no HTTP answer): the network failed. */
  network: 0,
  /** Chosen by the client (no HTTP answer): no answer within the timeout (HTTP's "Request Timeout"). */
  timeout: 408,
} as const;

/**
 * Every staff flag, exhaustive by construction (a Record over the union), kept here rather than
 * imported from api-contract so the singleton loads no zod at run time.
 */
const STAFF_FLAGS: Record<StaffPermission, true> = {
  DASHBOARD_SUPPORT_SYSTEM_READ: true,
  DASHBOARD_SUPPORT_SYSTEM_WRITE: true,
  DASHBOARD_SUPPORT_SEARCH_READ: true,
  SPECIAL_TEAM_MANAGER_READ: true,
  SPECIAL_TEAM_MANAGER_WRITE: true,
};
export const ALL_STAFF_PERMISSIONS: readonly StaffPermission[] = Object.freeze(
  Object.keys(STAFF_FLAGS) as StaffPermission[],
);
