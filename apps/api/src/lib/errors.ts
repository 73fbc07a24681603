import { ERROR_CODES, type ErrorCodeName } from '@tickety/api-contract';

interface ApiHttpErrorOptions {
  /** A more precise message than the catalogue's (always safe to show). */
  message?: string;
  /** Overrides the catalogue's HTTP status (rare: e.g. 413 for a too-large body). */
  httpStatus?: number;
  /** Seconds, sent as Retry-After. */
  retryAfter?: number;
  /** "Select Another Server" makes sense as a way out. */
  selector?: boolean;
  cause?: unknown;
}

/** An error the API answers with an `ApiError` body. Anything else becomes 1500 INTERNAL. */
export class ApiHttpError extends Error {
  readonly code: number;
  readonly statusCode: number;
  readonly retryAfter: number | undefined;
  readonly selector: boolean | undefined;

  constructor(
    readonly errorName: ErrorCodeName,
    options: ApiHttpErrorOptions = {},
  ) {
    const entry = ERROR_CODES[errorName];
    super(options.message ?? entry.message, { cause: options.cause });
    this.name = 'ApiHttpError';
    this.code = entry.code;
    this.statusCode = options.httpStatus ?? entry.httpStatus;
    this.retryAfter = options.retryAfter;
    this.selector = options.selector;
  }
}

export function isApiHttpError(error: unknown): error is ApiHttpError {
  return error instanceof ApiHttpError;
}
