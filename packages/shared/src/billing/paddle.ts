/**
 * Paddle.js in the browser (initialised at start-up with the configured public token, docs/behaviour.md).
 * The shell schedules it when the browser is idle after the first page is shown (`schedulePaddle`),
 * so it never competes with a public page's first load; a checkout page loads it at once if it is not
 * in yet (`loadPaddle`, one load per page). Paddle's events reach every `onPaddleEvent` listener.
 * In demo mode the script is the sandbox's stand-in (runtime config `paddleScriptUrl`).
 */

/** A Paddle.js event (`checkout.completed` carries `transaction_id`). */
export interface PaddleEvent {
  name: string;
  data?: { transaction_id?: string; status?: string; [key: string]: unknown };
}

export interface PaddleCheckoutOptions {
  items?: Array<{ priceId: string; quantity: number }>;
  transactionId?: string;
  customData?: Record<string, unknown>;
  customer?: { email?: string };
  settings?: { displayMode?: 'overlay'; successUrl?: string; locale?: string; theme?: 'light' | 'dark' };
}

export interface PaddleGlobal {
  Initialize(options: { token: string; eventCallback?: (event: PaddleEvent) => void; pwCustomer?: Record<string, unknown> }): void;
  Update?(options: Record<string, unknown>): void;
  Environment?: { set(environment: string): void };
  Checkout: { open(options: PaddleCheckoutOptions): void; close(): void };
}

declare global {
  interface Window {
    Paddle?: PaddleGlobal;
  }
}

export interface PaddleSettings {
  paddleToken: string | null;
  paddleScriptUrl: string | null;
}

const listeners = new Set<(event: PaddleEvent) => void>();
let loading: Promise<PaddleGlobal> | null = null;

/** Hears Paddle.js's events (checkout completed, closed, payment failed); answers the unsubscribe. */
export function onPaddleEvent(listener: (event: PaddleEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Loads and initialises Paddle.js once per page. Fails when checkout is not configured or the script cannot load (a later call tries again). */
export function loadPaddle(settings: PaddleSettings): Promise<PaddleGlobal> {
  const { paddleToken, paddleScriptUrl } = settings;
  if (!paddleToken || !paddleScriptUrl) return Promise.reject(new Error('Paddle checkout is not configured on this site.'));
  loading ??= new Promise<PaddleGlobal>((resolve, reject) => {
    const ready = () => {
      const paddle = window.Paddle;
      if (!paddle) {
        reject(new Error('Paddle.js loaded without defining Paddle.'));
        return;
      }
      // Test tokens belong to Paddle's sandbox environment.
      if (paddleToken.startsWith('test_')) paddle.Environment?.set('sandbox');
      paddle.Initialize({
        token: paddleToken,
        eventCallback: (event) => {
          for (const listener of listeners) listener(event);
        },
      });
      resolve(paddle);
    };
    if (window.Paddle) {
      ready();
      return;
    }
    const script = document.createElement('script');
    script.src = paddleScriptUrl;
    script.async = true;
    script.onload = ready;
    script.onerror = () => reject(new Error('Paddle.js could not be loaded: check your connection and try again.'));
    document.head.append(script);
  }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** At start-up: Paddle.js once the browser is idle (at most `timeoutMs` later), when checkout is configured. */
export function schedulePaddle(settings: PaddleSettings, timeoutMs = 5000): void {
  if (!settings.paddleToken || !settings.paddleScriptUrl || typeof window === 'undefined') return;
  const run = () => void loadPaddle(settings).catch(() => undefined);
  if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: timeoutMs });
  else setTimeout(run, Math.min(timeoutMs, 2000));
}

/** Forgets the loaded script (tests). */
export function resetPaddle(): void {
  loading = null;
  listeners.clear();
}
