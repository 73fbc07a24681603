import { useSyncExternalStore } from 'react';
import type { AppDispatch } from './store';
import type { RuntimeConfig } from './types';

export interface SharedConfiguration {
  config: RuntimeConfig;
  /** The router's navigate (the overlay's Home / Select Another Server buttons use it). */
  navigate: (to: string) => void;
  /** The one store's dispatch (the overlay's login button dispatches `login`). */
  dispatch: AppDispatch;
}

interface Configured extends SharedConfiguration {
  /** `config.apiOrigin` reduced to a bare origin (scheme://host[:port]): what `event.origin` is compared to. */
  apiOrigin: string;
}

let configured: Configured | null = null;
const listeners = new Set<() => void>();

const NOT_CONFIGURED =
  '@tickety/shared is not configured: the shell must call configureShared({ config, navigate, dispatch }) before rendering anything that uses it.';

function normaliseOrigin(apiOrigin: string): string {
  let url: URL;
  try {
    url = new URL(apiOrigin);
  } catch {
    throw new Error(
      `configureShared: config.apiOrigin must be an absolute origin such as https://api.example.com (got "${apiOrigin}").`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`configureShared: config.apiOrigin must be an http(s) origin (got "${apiOrigin}").`);
  }
  return url.origin;
}

/** Called once by the shell before rendering (again on hot reload; the last call wins). */
export function configureShared(options: SharedConfiguration): void {
  configured = { ...options, apiOrigin: normaliseOrigin(options.config.apiOrigin) };
  for (const fn of listeners) fn();
}

function current(): Configured {
  if (!configured) throw new Error(NOT_CONFIGURED);
  return configured;
}

/** The runtime config given to `configureShared`; throws a clear error before that. */
export function getRuntimeConfig(): RuntimeConfig {
  return current().config;
}

/** The API origin, normalised (no trailing slash, no path). */
export function getApiOrigin(): string {
  return current().apiOrigin;
}

export function getNavigate(): (to: string) => void {
  return current().navigate;
}

export function getDispatch(): AppDispatch {
  return current().dispatch;
}

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
  };
}

/** The runtime config in a component (re-renders if the shell configures again, e.g. on hot reload). */
export function useRuntimeConfig(): RuntimeConfig {
  return useSyncExternalStore(subscribe, getRuntimeConfig, getRuntimeConfig);
}

/** Tests only: forget the configuration. */
export function resetSharedConfiguration(): void {
  configured = null;
}
