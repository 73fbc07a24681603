import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import type { ApiError } from '../types';
import { ApiRequestError } from './errors';
import { type RequestOptions, request } from './request';

/** What an RTK Query endpoint sees as `error`: serialisable, and safe to render. */
export interface OverlayBaseQueryError {
  /** The HTTP status; or 'NETWORK' / 'TIMEOUT' (only with `overlay: false`, the overlay otherwise waits for the user); or 'CANCELLED' (Cancel, Home, Select Another Server, the retry limit, an abort). */
  status: number | 'CANCELLED' | 'NETWORK' | 'TIMEOUT';
  data: ApiError | null;
  message: string;
}

export function toBaseQueryError(error: ApiRequestError): OverlayBaseQueryError {
  switch (error.kind) {
    case 'http':
      return { status: error.status, data: error.body, message: error.message };
    case 'network':
      return { status: 'NETWORK', data: null, message: error.message };
    case 'timeout':
      return { status: 'TIMEOUT', data: null, message: error.message };
    default:
      return { status: 'CANCELLED', data: null, message: error.message };
  }
}

/**
 * RTK Query's base query over `request`, so endpoints get the overlay (loading, error catalogue,
 * Retry). A query is a path string or RequestOptions; RTK's abort signal is passed on unless the
 * query brings its own.
 */
export const overlayBaseQuery: BaseQueryFn<string | RequestOptions, unknown, OverlayBaseQueryError> = async (
  arg,
  { signal },
) => {
  const options: RequestOptions = typeof arg === 'string' ? { path: arg } : arg;
  try {
    const data = await request<unknown>({ ...options, signal: options.signal ?? signal });
    return { data };
  } catch (error) {
    if (error instanceof ApiRequestError) return { error: toBaseQueryError(error) };
    throw error;
  }
};
