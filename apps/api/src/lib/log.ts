/** Query parameters whose values are secrets (OAuth codes and states, tokens). */
const SECRET_PARAMS = /^(code|state|token|access_token|refresh_token|code_verifier|client_secret|hm)$/i;

/** A legacy transcript's address (the API's and the page's) carries the CDN's signature (`hm`) as its last path segment. */
const LEGACY_TRANSCRIPT = /^(\/(?:api\/transcripts|transcript)\/v1\/(?:[^/?]*\/){5})[^/?]*/;

/** The URL with secret query values (and a legacy transcript's signature) replaced, for logs. */
export function redactUrl(url: string): string {
  if (LEGACY_TRANSCRIPT.test(url)) url = url.replace(LEGACY_TRANSCRIPT, '$1[redacted]');
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const key of [...new Set(params.keys())]) {
    if (SECRET_PARAMS.test(key)) {
      params.set(key, '[redacted]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${params.toString()}` : url;
}

/** What an error keeps in the logs. */
export interface LoggedError {
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
