import Fastify, { type FastifyInstance, type FastifyPluginAsync, type LightMyRequestResponse } from 'fastify';
import { afterEach } from 'vitest';

/**
 * What the payment stand-ins' test harnesses share: a fake webhook endpoint (`WebhookReceiver`), a
 * clock the test moves by hand, waiting for background delivery (`until`), and one harness per test
 * closed after it (`harnessPerTest`).
 */

/** What a fake endpoint answers a POST: a status, a status and a text body, a network failure ('throw') or no answer ('hang'). */
export type Answer = number | { status: number; body: string } | 'hang' | 'throw';

/** 2026-01-15T12:00:00Z, where the stand-ins' clocks start in tests: a monthly period from here ends 2026-02-15 (31 days). */
export const START = Date.UTC(2026, 0, 15, 12, 0, 0);
export const DAY = 24 * 60 * 60 * 1000;

/** What every receiver records of a POST. */
export interface ReceivedPost {
  /** The body, exactly as sent. */
  raw: string;
  contentType: string;
  /** Real time it arrived (Date.now). */
  at: number;
}

export interface ReceiverOptions<R> {
  /** The only URL the stand-in may POST to (anything else throws). */
  url: string;
  /** What a test sees of one POST: the common part and what the provider's receiver reads of its headers and body. */
  read: (post: ReceivedPost, headers: Headers) => R;
  /** What it answers until a test sets `respond`. */
  answer: number;
  /** The body of a status-only answer (none for 204). Default `ok`. */
  body?: string;
}

/** A fake webhook endpoint, given to a stand-in as its `fetch`. */
export class WebhookReceiver<R> {
  /** The POSTs answered (not those that failed or hung), in arrival order. */
  readonly got: R[] = [];
  /** Every POST, answered or not. */
  calls = 0;
  /** The answer to the n-th POST (1-based). */
  respond: (result: R, count: number) => Answer | Promise<Answer>;
  readonly #options: ReceiverOptions<R>;

  constructor(options: ReceiverOptions<R>) {
    this.#options = options;
    this.respond = () => options.answer;
  }

  readonly fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    if (String(url) !== this.#options.url) throw new Error(`unexpected URL ${String(url)}`);
    const headers = new Headers(init?.headers);
    const result = this.#options.read({ raw: String(init?.body), contentType: headers.get('content-type') ?? '', at: Date.now() }, headers);
    this.calls++;
    const answer = await this.respond(result, this.calls);
    if (answer === 'throw') throw new TypeError('fetch failed: connection refused');
    if (answer === 'hang') {
      return new Promise<Response>((_resolve, reject) => {
        const signal = init?.signal;
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason));
      });
    }
    this.got.push(result);
    if (typeof answer !== 'number') return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'text/plain' } });
    return new Response(answer === 204 ? null : (this.#options.body ?? 'ok'), { status: answer });
  }) as typeof fetch;
}

/** A clock that starts at `start` and moves only when the test says (`advance`). */
export interface ManualClock {
  now(): number;
  advance(ms: number): void;
}

export function manualClock(start: number): ManualClock {
  let now = start;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
}

/** What every payment stand-in's harness has. */
export interface StandInHarness<C, R> {
  app: FastifyInstance;
  control: C;
  receiver: R;
  /** The stand-in's clock (epoch ms). */
  now(): number;
  /** Moves the stand-in's clock forward. */
  advance(ms: number): void;
}

/**
 * Registers a stand-in's plugin with these options on a new Fastify app (no logger), waits until it is
 * ready, and returns the harness's common part: the app, the control, the receiver and the clock.
 */
export async function mountStandIn<O extends { prefix: string }, C, R>(
  plugin: FastifyPluginAsync<O>,
  options: O,
  parts: { control: C; receiver: R; clock: ManualClock },
): Promise<StandInHarness<C, R>> {
  const app = Fastify({ logger: false });
  await app.register(plugin, options);
  await app.ready();
  return { app, control: parts.control, receiver: parts.receiver, now: parts.clock.now, advance: parts.clock.advance };
}

/** The options every test registration of a plugin passes: the test's clock, the receiver as fetch, retries 5 ms apart. */
export function testDelivery(clock: ManualClock, receiver: { fetch: typeof fetch }): { clock: () => number; fetch: typeof fetch; retryBaseMs: number } {
  return { clock: clock.now, fetch: receiver.fetch, retryBaseMs: 5 };
}

/**
 * A JSON API caller through `app.inject`: `method` on `base + path`, an Authorization header made from
 * the key (`defaultKey` unless given; none for null), and the body as JSON when given.
 */
export function jsonApi(app: FastifyInstance, base: string, authorization: (key: string) => string, defaultKey: string) {
  return (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, key: string | null = defaultKey): Promise<LightMyRequestResponse> =>
    app.inject({
      method,
      url: `${base}${path}`,
      headers: key === null ? {} : { authorization: authorization(key) },
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
}

/** Waits (real time) until `check` holds. */
export async function until(check: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/**
 * A test file's harness: the returned `setup(...)` builds one with `make` and it is closed after each
 * test (a test may close it itself first). Call it at the top of the file (it registers an afterEach).
 */
export function harnessPerTest<A extends unknown[], H extends { app: FastifyInstance }>(make: (...args: A) => Promise<H>): (...args: A) => Promise<H> {
  let current: H | null = null;
  afterEach(async () => {
    await current?.app.close();
    current = null;
  });
  return async (...args) => {
    current = await make(...args);
    return current;
  };
}

/** The value of a page's hidden input `name` (matching `value`, a regular expression's source); else an error naming `what`, with the page. */
export function hiddenInput(html: string, name: string, value: string, what: string): string {
  const match = new RegExp(`name="${name}" value="(${value})"`).exec(html);
  if (!match) throw new Error(`no ${what} in the page:\n${html.slice(0, 2000)}`);
  return match[1]!;
}

/** The JSON data block `<script type="application/json" id="…">` a stand-in's page posts to its opener, or null. */
// biome-ignore lint/suspicious/noExplicitAny: test payloads are read freely
export function pageEventOf(html: string, id: string): { name: string; data: any } | null {
  const match = new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`).exec(html);
  return match ? JSON.parse(match[1]!) : null;
}
