import { ERROR_CODE } from '../constants';
import { sharedCatalog } from '../i18n/catalog-shared';
import { activeLocale, i18n } from '../i18n/i18n';
import type { ApiError } from '../types';
import type { OverlayButtons, OverlayErrorView } from './overlay-store';

export type ApiRequestErrorKind = 'http' | 'network' | 'timeout' | 'cancelled' | 'retryLimit';

export interface ApiRequestErrorInit {
  /** HTTP status, 0 when there was no answer. */
  status?: number;
  body?: ApiError | null;
  /** Seconds from the answer's Retry-After header (1003, 1008, 1009), or null. */
  retryAfter?: number | null;
  cause?: unknown;
}

/** Every failure of `request` (and of the thunks built on it). */
export class ApiRequestError extends Error {
  readonly kind: ApiRequestErrorKind;
  /** HTTP status; 0 when there was none (network, timeout, cancelled, retryLimit). */
  readonly status: number;
  /** The API's JSON error, or null when the answer was not one. */
  readonly body: ApiError | null;
  /** Seconds the API asked to wait (Retry-After), or null. */
  readonly retryAfter: number | null;

  constructor(kind: ApiRequestErrorKind, message: string, init: ApiRequestErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiRequestError';
    this.kind = kind;
    this.status = init.status ?? 0;
    this.body = init.body ?? null;
    this.retryAfter = init.retryAfter ?? null;
  }
}

/**
 * The code shown in the overlay's '<code> - <http status>' line: the API's code when it sent one,
 * else ERROR_CODE.timeout (408) for a timeout, ERROR_CODE.network (0) for a network failure, else the
 * HTTP status.
 */
export function errorCode(error: ApiRequestError): number {
  if (error.body) return error.body.code;
  if (error.kind === 'timeout') return ERROR_CODE.timeout;
  if (error.kind === 'http') return error.status;
  return ERROR_CODE.network;
}

/** Narrows an unknown JSON value to the API's error body. */
export function isApiError(value: unknown): value is ApiError {
  if (typeof value !== 'object' || value === null) return false;
  const fields = value as Record<string, unknown>;
  return (
    typeof fields.code === 'number' &&
    typeof fields.message === 'string' &&
    typeof fields.isAuthenticated === 'boolean' &&
    (fields.selector === undefined || typeof fields.selector === 'boolean')
  );
}

/** Retry-After as seconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** The client's own failure messages, in the reader's language (read when the failure happens). */
export const MESSAGES = {
  network: () => t('request.network'),
  timeout: (ms: number) => t('request.timeout', { seconds: Math.round(ms / 1000) }),
  notJson: () => t('request.notJson'),
  http: (status: number) => t('request.http', { status }),
  cancelled: () => t('request.cancelled'),
  retryLimit: () => t('request.retryLimit'),
};

/**
 * What to tell the reader about a failure, in their language: for an API error (an ApiRequestError
 * with the API's body, or a `{ code, message }` a thunk rejected with), the catalogue's message for
 * its code (in English the API's own message, which may be more precise); otherwise the error's
 * message.
 */
export function errorText(error: unknown): string {
  const answer = error instanceof ApiRequestError ? error.body : error;
  if (answer && typeof answer === 'object' && typeof (answer as { code?: unknown }).code === 'number' && typeof (answer as { message?: unknown }).message === 'string') {
    const { code, message } = answer as { code: number; message: string };
    const key = `error.${code}`;
    if (activeLocale() !== 'en' && i18n.messages[`shared.${key}`] !== undefined) return t(key as Parameters<typeof t>[0]);
    return message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A failed request as RTK Query reports it through the shared base query (`OverlayBaseQueryError`), or null. */
function asRequestFailure(error: unknown): { status: unknown; message: string; data?: { code: number; message: string } | null } | null {
  if (typeof error !== 'object' || error === null || !('status' in error) || !('message' in error)) return null;
  return error as { status: unknown; message: string; data?: { code: number; message: string } | null };
}

/** A failed request in the reader's language: the catalogue's text for the API's code, else the client's message. */
export function failureText(error: unknown): string {
  const failure = asRequestFailure(error);
  if (!failure) return errorText(error);
  return failure.data ? errorText(failure.data) : failure.message;
}

/**
 * The API's own sentence when it says more than the catalogue's text shown for its code (the
 * permission the bot lacks, when a slot may move): null when it adds nothing.
 */
export function failureDetail(error: unknown): string | null {
  const failure = asRequestFailure(error);
  if (!failure?.data) return null;
  return failure.data.message === failureText(error) ? null : failure.data.message;
}

const { t } = sharedCatalog;

/** The login screen's one button, 'Login with discord' in English (not an OverlayButtons flag). */
export function loginButtonLabel(): string {
  return t('login.button');
}

const SERVER_ACCESS_CODES: readonly number[] = [ERROR_CODE.noServerAccess, ERROR_CODE.serverNotFound];

/**
 * docs/behaviour.md#request-overlay-and-error-catalogue, row by row:
 * - the answer says isAuthenticated false, or HTTP 401: 'login' (only 'Login with discord'; the
 *   four buttons are off unless the request enables them explicitly);
 * - signed in and code 403 or 405: 'noAccess', the API's message as the reason; Home, Retry and
 *   Select Another Server on, Cancel off, each overridable by the request's `buttons`;
 * - anything else: 'failed' with '<code> - <http status>'; Home and Retry on, Cancel off (overridable);
 *   Select Another Server only when the answer has `selector: true` (and the request did not turn it off).
 */
export function toOverlayErrorView(
  error: ApiRequestError,
  buttons: Partial<OverlayButtons> | undefined,
  attempt: number,
): OverlayErrorView {
  const overrides = buttons ?? {};
  if (error.body?.isAuthenticated === false || error.status === 401) {
    return {
      kind: 'login',
      title: t('overlay.title.login'),
      message: errorText(error),
      detail: null,
      buttons: {
        home: overrides.home ?? false,
        retry: overrides.retry ?? false,
        cancel: overrides.cancel ?? false,
        selectServer: overrides.selectServer ?? false,
      },
      attempt,
    };
  }
  if (error.body?.isAuthenticated === true && SERVER_ACCESS_CODES.includes(error.body.code)) {
    return {
      kind: 'noAccess',
      title: t('overlay.title.noAccess'),
      message: errorText(error),
      detail: null,
      buttons: {
        home: overrides.home ?? true,
        retry: overrides.retry ?? true,
        cancel: overrides.cancel ?? false,
        selectServer: overrides.selectServer ?? true,
      },
      attempt,
    };
  }
  return {
    kind: 'failed',
    title: t('overlay.title.failed'),
    message: errorText(error),
    detail: `${errorCode(error)} - ${error.status}`,
    buttons: {
      home: overrides.home ?? true,
      retry: overrides.retry ?? true,
      cancel: overrides.cancel ?? false,
      selectServer: error.body?.selector === true && (overrides.selectServer ?? true),
    },
    attempt,
  };
}
