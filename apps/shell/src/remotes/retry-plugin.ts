import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

/**
 * Network layer of remote-failure handling: a manifest fetch that fails on the network, or answers
 * a 5xx, is retried twice with a short backoff. A 404 is final (a remote that is not deployed).
 * Layer two is `loadRemoteRoutes` (a retryable promise cache); layer three the route error view.
 */
const ATTEMPTS = 3;
const BACKOFF_MS = 300;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export default function retryPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'tickety-retry',
    async fetch(url: string, init: RequestInit) {
      let lastError: unknown;
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        try {
          const response = await fetch(url, { ...init, cache: 'no-cache' });
          if (response.status < 500) return response;
          lastError = new Error(`${url} answered ${response.status}`);
        } catch (error) {
          lastError = error;
        }
        if (attempt < ATTEMPTS) await sleep(BACKOFF_MS * attempt);
      }
      throw lastError;
    },
  };
}
