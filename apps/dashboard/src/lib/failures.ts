import { failureDetail, failureText, type Translate } from '@tickety/shared';
import type { MessageKey } from './i18n';

/** What a failed request leaves in RTK Query's `error` (OverlayBaseQueryError of @tickety/shared). */
export interface RequestFailure {
  status: number | 'CANCELLED' | 'NETWORK' | 'TIMEOUT';
  data: { code: number; message: string; isAuthenticated: boolean; selector?: boolean } | null;
  message: string;
}

/** The failure of a request as RTK Query reports it (null for anything else). */
function asFailure(error: unknown): RequestFailure | null {
  if (typeof error !== 'object' || error === null || !('status' in error) || !('message' in error)) return null;
  return error as RequestFailure;
}

/** The API's error code of a failure, or null (network, timeout, cancelled). */
export function failureCode(error: unknown): number | null {
  return asFailure(error)?.data?.code ?? null;
}

/** A route that is not there yet answers 404 with code 1002 (NOT_FOUND). */
export function isMissingRoute(error: unknown): boolean {
  const failure = asFailure(error);
  return failure?.status === 404 && failure.data?.code === 1002;
}

/** Failures in the reader's language (shared with the other remotes). */
export { failureDetail, failureText };

/** What `LoadFailed` of @tickety/ui says about a failed read: the reason, its detail, and the Retry button's words. */
export function failedRead(t: Translate<MessageKey>, error: unknown): { reason: string; detail: string | null; retryLabel: string } {
  return { reason: failureText(error), detail: failureDetail(error), retryLabel: t('common.retry') };
}
