import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/driver';
import type { Clock } from '../../lib/clock';
import { type PriceBook, storeSubscription } from './subscriptions';
import type { ProviderClient } from './types';

interface ReconcileReport {
  /** Subscriptions the providers listed. */
  read: number;
  /** Of those, stored anew or changed from what was stored (a webhook that never came). */
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
    private readonly clients: readonly ProviderClient[],
    private readonly prices: PriceBook,
    private readonly graceDays: number,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (this.intervalMs <= 0 || !this.clients.some((c) => c.configured)) return;
    this.#timer = setInterval(() => {
      this.run().catch((error: unknown) => this.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'billing reconciliation failed (tried again later)'));
    }, this.intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#running?.catch(() => undefined);
  }

  /** One pass over every configured provider's subscriptions (one pass at a time per process). */
  run(): Promise<ReconcileReport> {
    this.#running ??= this.#run().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #run(): Promise<ReconcileReport> {
    const report: ReconcileReport = { read: 0, healed: 0, failed: 0 };
    for (const client of this.clients) {
      if (!client.configured) continue;
      try {
        for await (const page of client.allSubscriptions(this.prices)) {
          for (const state of page) {
            report.read++;
            if ('error' in state) {
              report.failed++;
              this.log.warn({ provider: client.provider, subscription: state.id, err: state.error.message }, 'billing reconciliation: a subscription could not be read');
              continue;
            }
            try {
              const outcome = await this.db.transaction((tx) => storeSubscription(tx, this.clock, state, this.graceDays));
              if (!outcome.startsWith('stale') && !outcome.startsWith('unchanged')) report.healed++;
            } catch (error) {
              report.failed++;
              this.log.warn(
                { provider: client.provider, subscription: state.providerSubscriptionId, err: error instanceof Error ? error.message : String(error) },
                'billing reconciliation: a subscription could not be stored',
              );
            }
          }
        }
      } catch (error) {
        // One provider down does not stop the others' pass.
        report.failed++;
        this.log.warn({ provider: client.provider, err: error instanceof Error ? error.message : String(error), cause: causeOf(error) }, 'billing reconciliation: the provider could not be read');
      }
    }
    if (report.healed > 0 || report.failed > 0) this.log.info(report, 'billing reconciliation');
    return report;
  }
}

/** The underlying reason of a wrapped error (a PROVIDER_UNAVAILABLE's network or HTTP failure), for the log. */
export function causeOf(error: unknown): string | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof Error ? cause.message : cause === undefined ? undefined : String(cause);
}
