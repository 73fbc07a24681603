import { z } from './zod-setup';
import { ApiError, ERROR_CODES, type ErrorCodeName, errorByCode } from './errors';

/**
 * The staff test playground (`/api/staff/playground`, SPECIAL_TEAM_MANAGER_READ, the /test page's
 * flag): GETs that make the API answer each state of the request overlay and the error catalogue
 * for real, so a staff member can check the overlay after a deploy. They read and change nothing.
 */
export const PLAYGROUND_LIMITS = {
  /** The longest a slow success waits before answering. */
  slowMaxMs: 15_000,
  /** A slow success's wait when the request names none: past the overlay's delay (250 ms), short. */
  slowDefaultMs: 2_000,
  /** The longest the timeout route holds a request: past the client's own 60 s timeout, bounded. */
  holdMaxMs: 65_000,
  /** The timeout route's hold when the request names none. */
  holdDefaultMs: 10_000,
  /** A held answer sends a blank (valid leading JSON whitespace) this often, so no idle timeout of the server or a proxy ends it first. */
  keepAliveEveryMs: 10_000,
  /** Slow and held requests waiting at once, per staff member and for the whole instance (each holds a socket). */
  holdsPerUser: 3,
  holdsTotal: 20,
  /** How far ahead an error's `until` may lie (it answers the error until then, then succeeds). */
  recoverMaxMs: 10 * 60_000,
  /** Requests per minute and address on each playground route. */
  rate: { index: 60, slow: 30, error: 120, timeout: 10, network: 20 },
} as const;

/** A catalogue entry as the page lists it. */
export const PlaygroundCode = z.object({
  name: z.string(),
  code: z.number().int(),
  httpStatus: z.number().int(),
  message: z.string(),
  /** Whether the error body says `selector: true` unless the request says otherwise (as the API's server routes answer it). */
  selector: z.boolean(),
  /** Seconds of the Retry-After the error carries (as the API sends it for that code), or null. */
  retryAfter: z.number().int().nullable(),
});
export type PlaygroundCode = z.infer<typeof PlaygroundCode>;

/** GET /api/staff/playground: the catalogue the error route answers, and the bounds of the other routes. */
export const PlaygroundIndex = z.object({
  codes: z.array(PlaygroundCode),
  slowMaxMs: z.number().int(),
  holdMaxMs: z.number().int(),
  keepAliveEveryMs: z.number().int(),
  holdsPerUser: z.number().int(),
  recoverMaxMs: z.number().int(),
});
export type PlaygroundIndex = z.infer<typeof PlaygroundIndex>;

/** The Retry-After the API sends with a code (rate limit, database, storage, Discord, load), mirrored by the error route. */
const RETRY_AFTER: Partial<Record<ErrorCodeName, number>> = {
  RATE_LIMITED: 5,
  DISCORD_UNAVAILABLE: 5,
  DATABASE_UNAVAILABLE: 5,
  STORAGE_UNAVAILABLE: 5,
  OVERLOADED: 5,
};
/** Codes the API's server routes answer with `selector: true` (choosing another server is a way out). */
const SELECTOR: ReadonlySet<ErrorCodeName> = new Set(['NO_SERVER_ACCESS', 'SERVER_NOT_FOUND', 'AREA_ACCESS_REQUIRED']);

/** Every catalogue code as the error route answers it, in the catalogue's order. */
export function playgroundCodes(): PlaygroundCode[] {
  return (Object.keys(ERROR_CODES) as ErrorCodeName[]).map((name) => {
    const entry = ERROR_CODES[name];
    return { name, code: entry.code, httpStatus: entry.httpStatus, message: entry.message, selector: SELECTOR.has(name), retryAfter: RETRY_AFTER[name] ?? null };
  });
}

const Flag = z.enum(['true', 'false']).transform((v) => v === 'true');

/** GET …/slow?ms=: answers after `ms` (0 to 15 s, default 2 s). */
export const PlaygroundSlowQuery = z.object({
  ms: z.coerce.number().int().min(0).max(PLAYGROUND_LIMITS.slowMaxMs).default(PLAYGROUND_LIMITS.slowDefaultMs),
});
export const PlaygroundSlowAnswer = z.object({
  ok: z.literal(true),
  /** The wait asked for, and the time the answer left (ISO). */
  waitedMs: z.number().int(),
  answeredAt: z.string(),
});
export type PlaygroundSlowAnswer = z.infer<typeof PlaygroundSlowAnswer>;

/** GET …/error/:code: a code of the catalogue. */
export const PlaygroundErrorParams = z.object({
  code: z.coerce
    .number()
    .int()
    .refine((code) => errorByCode(code) !== undefined, { message: 'must be a code of the error catalogue' }),
});
export const PlaygroundErrorQuery = z.object({
  /** Overrides the code's default `selector` (true offers "Select Another Server"). */
  selector: Flag.optional(),
  /** Epoch milliseconds: answers the error until then, a success afterwards (so Retry can be seen to recover). */
  until: z.coerce.number().int().min(0).optional(),
});
/** What the error route answers once its `until` has passed. */
export const PlaygroundRecovered = z.object({
  ok: z.literal(true),
  recovered: z.literal(true),
  code: z.number().int(),
  answeredAt: z.string(),
});
export type PlaygroundRecovered = z.infer<typeof PlaygroundRecovered>;

/** GET …/timeout?ms=: holds the answer for `ms` (1 s to 65 s, default 10 s), then succeeds, unless the client gave up first. */
export const PlaygroundTimeoutQuery = z.object({
  ms: z.coerce.number().int().min(1_000).max(PLAYGROUND_LIMITS.holdMaxMs).default(PLAYGROUND_LIMITS.holdDefaultMs),
});
export const PlaygroundHeldAnswer = z.object({
  ok: z.literal(true),
  heldMs: z.number().int(),
  answeredAt: z.string(),
});
export type PlaygroundHeldAnswer = z.infer<typeof PlaygroundHeldAnswer>;

/** Every HTTP status of the catalogue, each with the error body (the error route answers them all). */
export const PLAYGROUND_ERROR_RESPONSES = Object.fromEntries(
  [...new Set(Object.values(ERROR_CODES).map((e) => e.httpStatus))].sort((a, b) => a - b).map((status) => [status, ApiError]),
) as Record<number, typeof ApiError>;
