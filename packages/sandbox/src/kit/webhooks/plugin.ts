import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { httpUrl } from '../http';
import type { OutboxOptions, WebhookChaos } from './delivery';

/**
 * What the payment stand-ins' Fastify plugins do alike: check their options, start from a snapshot,
 * report changes (debounced) to `onChange`, bind their control while registered, make their outbox's
 * options and answer unexpected errors. Their body parsers are `addBodyParsers` (../body) and
 * `pathBelow` (../util). Each plugin keeps its routes, error shapes, messages and defaults.
 */

/** onChange: the quiet time after a change, and the longest a change waits under a stream of them. */
const CHANGE_DEBOUNCE_MS = 200;
const CHANGE_MAX_WAIT_MS = 1000;

/**
 * The option checks of one plugin; `where` starts their messages and names the options, e.g.
 * `paddleSandbox: ` (→ `paddleSandbox: apiKey is required…`) or `discordSandbox: monetization.`.
 */
export function optionChecks(where: string) {
  return {
    /** A non-empty string. */
    required(name: string, value: unknown): string {
      if (typeof value !== 'string' || value.trim() === '') throw new RangeError(`${where}${name} is required (a non-empty string)`);
      return value;
    },
    /** A number > 0, or the fallback when not given. */
    positive(name: string, value: number | undefined, fallback: number): number {
      if (value === undefined) return fallback;
      if (!(Number.isFinite(value) && value > 0)) throw new RangeError(`${where}${name} must be a number > 0, not ${value}`);
      return value;
    },
    /** An absolute http(s) URL (normalized). */
    url(name: string, value: unknown): string {
      const url = httpUrl(value as string | undefined);
      if (!url) throw new RangeError(`${where}${name} must be an absolute http(s) URL, not "${String(value)}"`);
      return url;
    },
    /** The optional `baseUrl`: an absolute http(s) URL without trailing slashes, or null. */
    baseUrl(value: string | undefined): string | null {
      if (value === undefined) return null;
      if (!httpUrl(value)) throw new RangeError(`${where}baseUrl must be an absolute http(s) URL, not "${value}"`);
      return value.replace(/\/+$/, '');
    },
    /** The optional `onChange`: a function, if given. */
    onChange<F>(value: F | undefined): F | undefined {
      if (value !== undefined && typeof value !== 'function') throw new TypeError(`${where}onChange must be a function`);
      return value;
    },
  };
}

/**
 * Starts the state from the `initialState` option when given: `restore` checks it, and a snapshot
 * error is rethrown as `<option> is not a snapshot it can restore: …` (`option` e.g. `paddleSandbox: initialState`).
 */
export function restoreInitialState(initialState: unknown, restore: (snapshot: unknown) => void, SnapshotError: new (message: string) => Error, option: string): void {
  if (initialState === undefined) return;
  try {
    restore(initialState);
  } catch (err) {
    if (err instanceof SnapshotError) throw new SnapshotError(`${option} is not a snapshot it can restore: ${err.message}`);
    throw err;
  }
}

/** What `attachStandIn` ties to the registration's lifetime. */
export interface StandIn<B extends { engine: { onChange: (() => void) | null }; queue: { stop(): void } }, S> {
  bound: B;
  internals: { bind(bound: B): void; unbind(bound: B): void };
  /** The plugin's `onChange` option, if any. */
  onChange: ((snapshot: S) => unknown) | undefined;
  snapshot: () => S;
  /** What the log says when onChange fails, e.g. `paddle sandbox: onChange failed`. */
  failure: string;
}

/**
 * Binds the control to this registration and unbinds it on close; calls `onChange` with a snapshot
 * after changes, debounced (one call 200 ms after the last of a burst, at most 1 s after the first),
 * on an unref'd timer, its errors logged; the close hook makes a pending call at once (and awaits it),
 * then stops the webhook queue.
 */
export function attachStandIn<B extends { engine: { onChange: (() => void) | null }; queue: { stop(): void } }, S>(app: FastifyInstance, standIn: StandIn<B, S>): void {
  const { bound, internals, onChange } = standIn;
  let changeTimer: NodeJS.Timeout | null = null;
  let firstChangeAt = 0;
  let closed = false;
  const report = async (): Promise<void> => {
    if (changeTimer) clearTimeout(changeTimer);
    changeTimer = null;
    try {
      await onChange!(standIn.snapshot());
    } catch (err) {
      app.log.error({ err }, standIn.failure);
    }
  };
  if (onChange) {
    bound.engine.onChange = () => {
      if (closed) return;
      const now = Date.now();
      if (changeTimer) clearTimeout(changeTimer);
      else firstChangeAt = now;
      changeTimer = setTimeout(report, Math.max(0, Math.min(CHANGE_DEBOUNCE_MS, firstChangeAt + CHANGE_MAX_WAIT_MS - now)));
      changeTimer.unref();
    };
  }
  internals.bind(bound);
  app.addHook('onClose', async () => {
    closed = true;
    if (changeTimer) await report();
    bound.queue.stop();
    internals.unbind(bound);
  });
}

/** Applies what the stand-in's clock made due (`engine.tick()`) before any request sees the state. */
export function tickOnRequest(app: FastifyInstance, engine: { tick(): void }): void {
  app.addHook('onRequest', async () => {
    engine.tick();
  });
}

/**
 * What an unexpected error (not the provider's API error) answers: its own 4xx/5xx statusCode (else
 * 500) and, for a 4xx, its message; a 5xx is logged as `<label>: unexpected error` and shows `failure`.
 */
export function unexpectedError(error: { statusCode?: unknown; message: string }, req: FastifyRequest, label: string, failure: string): { status: number; detail: string } {
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
  if (status >= 500) req.log.error({ err: error }, `${label}: unexpected error`);
  return { status, detail: status >= 500 ? failure : error.message };
}

/** A plain-text answer the browser must not keep (errors on the stand-in's pages). */
export function sendText(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(text);
}

/** A plugin's outbox options: its URL, fetch and timings, with the control's chaos and `failFirst` count. */
export function outboxOptions<C extends WebhookChaos>(
  internals: { chaos(): C; takeFailure(): boolean },
  options: Pick<OutboxOptions<C>, 'url' | 'fetch' | 'retryBaseMs' | 'timeoutMs'>,
): OutboxOptions<C> {
  return { ...options, chaos: internals.chaos, takeFailure: internals.takeFailure, random: Math.random };
}
