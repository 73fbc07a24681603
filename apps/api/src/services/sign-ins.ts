import type { Db } from '../db/driver';
import type { DiscordPartialGuild, DiscordTokens, DiscordUser } from '../lib/discord';
import type { Accounts } from './accounts';
import type { SessionStore } from './sessions';

/** A finished Discord sign-in: the user, their guild list and a new session, stored in one transaction. */
export class SignIns {
  constructor(
    private readonly db: Db,
    private readonly accounts: Accounts,
    private readonly sessions: SessionStore,
  ) {}

  /**
   * Stores the user and their guilds and opens a session (ending the browser's previous one, if any);
   * `botGuilds` null keeps the stored bot flags.
   */
  async complete(signIn: { user: DiscordUser; guilds: DiscordPartialGuild[]; botGuilds: Set<string> | null; tokens: DiscordTokens; previousSessionId: string | null; userAgent: string | undefined }) {
    const { user, guilds, botGuilds, tokens, previousSessionId, userAgent } = signIn;
    return this.db.transaction(async (tx) => {
      await this.accounts.upsertUser(tx, user);
      await this.accounts.replaceGuilds(tx, user.id, guilds, botGuilds);
      if (previousSessionId) await this.sessions.revoke(previousSessionId, tx);
      return this.sessions.create(tx, user.id, tokens, userAgent);
    });
  }
}
