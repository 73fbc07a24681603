/**
 * The staff test playground's API (`/api/staff/playground`, SPECIAL_TEAM_MANAGER_READ): the catalogue
 * the error route answers (read without the overlay: the page shows a failure in place), and the
 * requests each button sends through the shared request client with the overlay on.
 * Type-only imports of the contract: no zod at run time.
 */
import type { PlaygroundCode, PlaygroundIndex } from '@tickety/api-contract';
import { api, OVERLAY, type RequestOptions } from '@tickety/shared';

export type { PlaygroundCode };

const BASE = '/api/staff/playground';

/** The request client's timeout for the "short" timeout button (the API holds the answer longer). */
export const SHORT_TIMEOUT_MS = 5_000;
/** How long the API holds the answer for the short timeout (past SHORT_TIMEOUT_MS). */
const SHORT_HOLD_MS = 15_000;
/** How long it holds it for the real one (past the client's own 60 s; the API's cap). */
export const REAL_HOLD_MS = 65_000;
/** "Retry succeeds after …": the catalogue's errors answer a success from this long after the press. */
export const RECOVER_AFTER_MS = 15_000;
/** The slow successes offered (the first answers before the loading overlay's delay). */
export const SLOW_WAITS_MS = [100, 1_000, 5_000, 15_000] as const;
/** The codes with a group of their own (login required, no access to a server). */
export const LOGIN_CODE = 401;
export const NO_ACCESS_CODES = [
  { code: 403, name: 'NO_SERVER_ACCESS', httpStatus: 403 },
  { code: 405, name: 'SERVER_NOT_FOUND', httpStatus: 404 },
] as const;

/** What a button asks for: a path below /api/staff/playground, its query, the client's timeout. */
export interface PlaygroundRequest {
  path: string;
  query?: Record<string, string | number | undefined>;
  /** The request client's timeout for this request (default OVERLAY.timeoutMs, 60 s). */
  timeoutMs?: number;
}

export const playgroundRequests = {
  slow: (ms: number): PlaygroundRequest => ({ path: `${BASE}/slow`, query: { ms } }),
  /** `until` (epoch ms): the API answers the error until then, a success afterwards. */
  error: (code: number, options: { until?: number; selector?: boolean } = {}): PlaygroundRequest => ({
    path: `${BASE}/error/${code}`,
    query: { until: options.until, selector: options.selector ? 'true' : undefined },
  }),
  shortTimeout: (): PlaygroundRequest => ({ path: `${BASE}/timeout`, query: { ms: SHORT_HOLD_MS }, timeoutMs: SHORT_TIMEOUT_MS }),
  realTimeout: (): PlaygroundRequest => ({ path: `${BASE}/timeout`, query: { ms: REAL_HOLD_MS }, timeoutMs: OVERLAY.timeoutMs }),
  network: (): PlaygroundRequest => ({ path: `${BASE}/network` }),
};

/** The request client's options for a button: the real overlay on, Cancel offered when asked. */
export function overlayRequest(req: PlaygroundRequest, offerCancel: boolean): RequestOptions {
  return {
    path: req.path,
    query: req.query,
    timeoutMs: req.timeoutMs,
    overlay: true,
    fromDashboard: true,
    ...(offerCancel ? { buttons: { cancel: true } } : {}),
  };
}

/** The address a button calls, as the page shows it (path and query). */
export function describeRequest(req: PlaygroundRequest): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) params.append(k, String(v));
  const qs = params.toString();
  return `GET ${req.path}${qs ? `?${qs}` : ''}`;
}

const playgroundApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The catalogue and the routes' bounds; without the overlay (a failure shows in place, with Try again). */
    staffPlayground: build.query<PlaygroundIndex, void>({
      query: () => ({ path: BASE, overlay: false, fromDashboard: true }),
      keepUnusedDataFor: 300,
    }),
  }),
});

export const { useStaffPlaygroundQuery } = playgroundApi;
