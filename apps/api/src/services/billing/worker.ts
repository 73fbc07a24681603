import type { FastifyBaseLogger } from 'fastify';
import type { WebhookInbox } from './inbox';

const BATCH = 100;
/** A stored webhook is applied this soon: the webhooks of a burst go in one batch rather than one each. */
const NUDGE_DELAY_MS = 25;

/**
 * Drains the webhook inbox in this process: every `intervalMs` (retries come due), and at once when a
 * webhook was just stored (`nudge`). One drain at a time per process; several processes share the
 * queue through its row locks.
 */
export class InboxWorker {
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #again = false;
  #stopped = false;
  #soon: NodeJS.Timeout | null = null;

  constructor(
    private readonly inbox: WebhookInbox,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (this.intervalMs <= 0) return;
    this.#timer = setInterval(() => this.#drainNow(), this.intervalMs);
    this.#timer.unref();
  }

  /** Drains soon (within NUDGE_DELAY_MS, or right after the drain under way). Does nothing when the worker is off. */
  nudge(): void {
    if (this.#stopped || this.intervalMs <= 0 || this.#soon) return;
    this.#soon = setTimeout(() => {
      this.#soon = null;
      this.#drainNow();
    }, NUDGE_DELAY_MS);
    this.#soon.unref();
  }

  #drainNow(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#drain()
      .catch((error: unknown) => this.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'webhook inbox: drain failed (retried on the next tick)'))
      .finally(() => {
        this.#running = null;
      });
  }

  async #drain(): Promise<void> {
    do {
      this.#again = false;
      for (;;) {
        const done = await this.inbox.work(BATCH);
        if (done.failed > 0 || done.dead > 0) this.log.warn(done, 'webhook inbox: events failed');
        if (this.#stopped || done.applied + done.failed + done.dead < BATCH) break;
      }
    } while (this.#again && !this.#stopped);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    if (this.#soon) clearTimeout(this.#soon);
    await this.#running;
  }
}
