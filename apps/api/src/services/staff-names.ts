import type { Guild } from '@tickety/api-contract';
import type { Clock } from '../lib/clock';
import { type DiscordBot, DiscordBotError } from '../lib/discord-bot';
import type { BotKeys } from './bot-keys';

/** Staff members looked up by name at most this many per answer (the rest keep "Member <id>"). */
const NAME_LOOKUPS_MAX = 25;
const NAME_TTL_MS = 10 * 60_000;
/** How long a lookup Discord did not answer is not asked again. */
const NAME_RETRY_MS = 60_000;
const NAME_CACHE_MAX = 5_000;

/**
 * Names of staff who never signed in to the dashboard (Statistics' staff table): the server's member
 * as the product's bot sees them (nickname, else Discord name), only on a server that bot serves,
 * kept ten minutes (a minute when Discord did not answer); the oldest go first when the cache is full.
 */
export class StaffNames {
  readonly #names = new Map<string, { name: string | null; until: number }>();

  constructor(
    private readonly bot: DiscordBot,
    private readonly botKeys: BotKeys,
    private readonly botId: string,
    private readonly clock: Clock,
  ) {}

  /** Fills in the names of the staff without one (in place). */
  async fill(guild: Guild, staff: Array<{ userId: string; name: string | null }>): Promise<void> {
    const served = guild.botInGuild && (await this.botKeys.notServed(this.botId, [guild.id])).length === 0;
    if (!served) return;
    const unnamed = staff.filter((member) => member.name === null).slice(0, NAME_LOOKUPS_MAX);
    const found = await Promise.all(unnamed.map((member) => this.#memberName(guild.id, member.userId)));
    unnamed.forEach((member, i) => {
      member.name = found[i] ?? null;
    });
  }

  async #memberName(guildId: string, userId: string): Promise<string | null> {
    const key = `${guildId}:${userId}`;
    const now = this.clock();
    const known = this.#names.get(key);
    if (known && known.until > now) return known.name;
    let name: string | null = null;
    let ttl = NAME_TTL_MS;
    try {
      const member = await this.bot.guildMember(guildId, userId);
      name = member.nick ?? member.user?.global_name ?? member.user?.username ?? null;
    } catch (error) {
      if (error instanceof DiscordBotError && error.kind === 'unavailable') ttl = NAME_RETRY_MS;
    }
    this.#names.delete(key);
    while (this.#names.size >= NAME_CACHE_MAX) this.#names.delete(this.#names.keys().next().value!);
    this.#names.set(key, { name, until: now + ttl });
    return name;
  }
}
