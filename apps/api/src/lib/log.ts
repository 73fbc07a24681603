/** Query parameters whose values are secrets (OAuth codes and states, tokens). */
const SECRET_PARAMS = /^(code|state|token|access_token|refresh_token|code_verifier|client_secret|hm)$/i;

/** A legacy transcript's address (the API's and the page's) carries the CDN's signature (`hm`) as its last path segment. */
const LEGACY_TRANSCRIPT = /^(\/(?:api\/transcripts|transcript)\/v1\/(?:[^/?]*\/){5})[^/?]*/;

/** The URL with secret query values (and a legacy transcript's signature) replaced, for logs. */
export function redactUrl(url: string): string {
  if (LEGACY_TRANSCRIPT.test(url)) url = url.replace(LEGACY_TRANSCRIPT, '$1[redacted]');
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return url;
  const params = new URLSearchParams(url.slice(queryAt + 1));
  let changed = false;
  for (const key of [...new Set(params.keys())]) {
    if (SECRET_PARAMS.test(key)) {
      params.set(key, '[redacted]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, queryAt)}?${params.toString()}` : url;
}

/** What an error keeps in the logs. */
interface LoggedError {
  type: string;
  message: string;
  code?: string | number;
  stack?: string;
  cause?: LoggedError;
}

/**
 * The `err` serializer: name, message, code and stack (and the same of its cause), nothing else.
 * Database drivers attach the statement, its parameters and the offending row (`query`, `params`,
 * `detail`, `where`...): session token hashes, encrypted tokens and ids must not reach the logs.
 */
export function serializeError(error: unknown, depth = 0): LoggedError | string {
  if (!(error instanceof Error)) {
    if (typeof error === 'string') return error;
    return { type: typeof error, message: String(error).slice(0, 500) };
  }
  const code = (error as { code?: unknown }).code;
  const out: LoggedError = { type: error.name, message: error.message };
  if (typeof code === 'string' || typeof code === 'number') out.code = code;
  if (error.stack) out.stack = error.stack;
  if (error.cause !== undefined && depth < 3) {
    const cause = serializeError(error.cause, depth + 1);
    out.cause = typeof cause === 'string' ? { type: 'string', message: cause } : cause;
  }
  return out;
}

/** Where a throttled line goes: a pino logger's warn. */
interface WarnLogger {
  warn(fields: object, msg: string): void;
}

/**
 * At most one line a second per cause (LOG_REPEAT_INTERVAL_MS) for warnings that repeat with every
 * request while a dependency is down (the database, Discord, a provider, load shedding). The first
 * occurrence is logged at once; the ones after it within the interval are counted, and when the
 * interval ends one line says how many were suppressed (`suppressed: N`), with the latest one's
 * fields. A cause is the message plus what the caller names (e.g. the error's text). One per instance.
 */
export class LogThrottle {
  readonly #causes = new Map<string, { suppressed: number; log: WarnLogger; fields: object; msg: string; timer: NodeJS.Timeout }>();
  #closed = false;

  constructor(readonly intervalMs = LOG_REPEAT_INTERVAL_MS) {}

  warn(log: WarnLogger, fields: object, msg: string, cause = ''): void {
    const key = `${msg}\u0000${cause}`;
    const open = this.#causes.get(key);
    if (open) {
      open.suppressed++;
      open.log = log;
      open.fields = fields;
      return;
    }
    log.warn(fields, msg);
    if (this.#closed || this.#causes.size >= LOG_THROTTLE_CAUSES_MAX) return;
    this.#window(key, log, fields, msg);
  }

  #window(key: string, log: WarnLogger, fields: object, msg: string): void {
    const timer = setTimeout(() => {
      const entry = this.#causes.get(key);
      this.#causes.delete(key);
      if (!entry || entry.suppressed === 0) return;
      entry.log.warn({ ...entry.fields, suppressed: entry.suppressed, intervalMs: this.intervalMs }, entry.msg);
      // Still repeating: the next interval is throttled too.
      if (!this.#closed) this.#window(key, entry.log, entry.fields, entry.msg);
    }, this.intervalMs);
    timer.unref();
    this.#causes.set(key, { suppressed: 0, log, fields, msg, timer });
  }

  /** Writes what is still counted and stops (the app's close). */
  close(): void {
    this.#closed = true;
    for (const [key, entry] of this.#causes) {
      clearTimeout(entry.timer);
      this.#causes.delete(key);
      if (entry.suppressed > 0) entry.log.warn({ ...entry.fields, suppressed: entry.suppressed, intervalMs: this.intervalMs }, entry.msg);
    }
  }
}

/** One line a second per repeated cause. */
export const LOG_REPEAT_INTERVAL_MS = 1_000;
/** Distinct causes throttled at once; past that a new cause is logged unthrottled (never silenced). */
const LOG_THROTTLE_CAUSES_MAX = 200;
