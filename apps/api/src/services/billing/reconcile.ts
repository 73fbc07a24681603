import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/driver';
import type { Clock } from '../../lib/clock';
import { paddleSubscriptionState } from './paddle';
import type { PaddleApi } from './paddle-api';
import { type PriceBook, storeSubscription } from './subscriptions';

export interface ReconcileReport {
  /** Subscriptions the provider listed. */
  read: number;
  /** Of those, stored anew or newer than what was stored (a webhook that never came). */
  healed: number;
  /** Could not be stored (an unknown price, no known buyer): logged, tried again next time. */
  failed: number;
}

/**
 * Heals webhooks that never came: reads every subscription from the provider's API and stores each
 * through the same version-guarded upsert as its webhooks, so only a description newer than the
 * stored one changes anything (and one already stored is left as it is). Runs every
 * `intervalMs` on each instance (0: never on its own); runs at once are harmless (the upsert decides).
 */
export class BillingReconciler {
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<ReconcileReport> | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly paddle: PaddleApi,
    private readonly prices: PriceBook,
    private readonly graceDays: number,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (this.intervalMs <= 0 || !this.paddle.configured) return;
    this.#timer = setInterval(() => {
      this.run().catch((error: unknown) => this.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'billing reconciliation failed (tried again later)'));
    }, this.intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#running?.catch(() => undefined);
  }

  /** One pass over Paddle's subscriptions (one at a time per process). */
  run(): Promise<ReconcileReport> {
    this.#running ??= this.#run().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #run(): Promise<ReconcileReport> {
    const report: ReconcileReport = { read: 0, healed: 0, failed: 0 };
    if (!this.paddle.configured) return report;
    for await (const page of this.paddle.allSubscriptions()) {
      for (const data of page) {
        report.read++;
        try {
          const state = paddleSubscriptionState(data, this.prices);
          const outcome = await this.db.transaction((tx) => storeSubscription(tx, this.clock, state, this.graceDays));
          if (!outcome.startsWith('stale')) report.healed++;
        } catch (error) {
          report.failed++;
          this.log.warn({ subscription: String(data.id), err: error instanceof Error ? error.message : String(error) }, 'billing reconciliation: a Paddle subscription could not be stored');
        }
      }
    }
    if (report.healed > 0 || report.failed > 0) this.log.info(report, 'billing reconciliation');
    return report;
  }
}
