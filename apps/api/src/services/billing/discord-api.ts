import type { Clock } from '../../lib/clock';
import type { DiscordBot } from '../../lib/discord-bot';
import { discordSubscriptionState, sellsAsPlan } from './discord';
import type { PriceBook } from './subscriptions';
import type { ProviderClient, SubscriptionState } from './types';

/**
 * Discord app subscriptions through the bot's REST client. Discord sells and manages them itself
 * (cancel, card, receipts are in Discord's own settings), so billing only reads entitlements here: for
 * reconciliation, every one of the application's (ended and deleted ones too, which heal a lost
 * update or refund).
 */
export class DiscordBillingClient implements ProviderClient {
  readonly provider = 'discord' as const;

  constructor(
    private readonly bot: DiscordBot,
    private readonly applicationId: string,
    private readonly clock: Clock,
    private readonly enabled: boolean,
  ) {}

  get configured(): boolean {
    return this.enabled && this.bot.configured;
  }

  async *allSubscriptions(prices: PriceBook): AsyncGenerator<Array<SubscriptionState | { id: string; error: Error }>> {
    let after = '0';
    for (;;) {
      // The time of the read orders it against the events: an event stamped later wins over it.
      const readAt = this.clock();
      const page = await this.bot.entitlements(this.applicationId, new URLSearchParams({ after, limit: '100', exclude_ended: 'false', exclude_deleted: 'false' }));
      if (page.length === 0) return;
      yield page
        .filter((e) => e.user_id && sellsAsPlan(e as unknown as Record<string, unknown>, prices))
        .map((entitlement) => {
          try {
            return discordSubscriptionState(entitlement, prices, (BigInt(readAt) * 1000n).toString(), readAt);
          } catch (error) {
            return { id: entitlement.id, error: error instanceof Error ? error : new Error(String(error)) };
          }
        });
      // Pages go forward by id (`after`); the largest id of this page starts the next.
      after = page.reduce((max, e) => (BigInt(e.id) > BigInt(max) ? e.id : max), after);
      if (page.length < 100) return;
    }
  }
}
