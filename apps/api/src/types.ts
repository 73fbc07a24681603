import type { PanelPosts } from './services/panel-posts';
import type { ServerConfigs } from './services/server-config';
import type { ServerResourcesCache } from './services/server-resources';
import type { Guild, StaffPermission } from '@tickety/api-contract';
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { AppConfig } from './config';
import type { Db } from './db/driver';
import type { Clock } from './lib/clock';
import type { SecretBox, Signer } from './lib/crypto';
import type { DiscordClient } from './lib/discord';
import type { DiscordBot } from './lib/discord-bot';
import type { Accounts } from './services/accounts';
import type { GuildSync } from './services/guild-sync';
import type { OAuthStates } from './services/oauth-states';
import type { Session, SessionStore } from './services/sessions';

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    clock: Clock;
    db: Db;
    secrets: SecretBox;
    signer: Signer;
    discord: DiscordClient;
    sessions: SessionStore;
    accounts: Accounts;
    oauthStates: OAuthStates;
    guildSync: GuildSync;
    serverConfigs: ServerConfigs;
    /** The bot's REST client (@discordjs/rest): server resources, panel messages. */
    discordBot: DiscordBot;
    /** A server's channels, roles and emojis as the bot sees them, cached a minute. */
    serverResources: ServerResourcesCache;
    panelPosts: PanelPosts;
    /** Background work (e.g. revoking a Discord token) that close() waits for. */
    background(task: Promise<unknown>): void;
    /** preHandler: a signed-in session is required (401). */
    requireSession: preHandlerAsyncHookHandler;
    /** preHandler factory: a staff flag is required (401 / 1004). */
    requireStaff(permission: StaffPermission): preHandlerAsyncHookHandler;
    /**
     * preHandler for routes with `:server` that read: the user manages that server (401 / 403 / 405),
     * on a guild list at most GUILD_ACCESS_MAX_AGE_SECONDS old (else fetched again from Discord first;
     * 503 1008 with Retry-After when Discord cannot be asked).
     */
    requireGuildAccess: preHandlerAsyncHookHandler;
    /** The same for routes that change a server, on a list at most GUILD_WRITE_ACCESS_MAX_AGE_SECONDS old. */
    requireGuildWriteAccess: preHandlerAsyncHookHandler;
  }

  interface FastifyRequest {
    /** The caller's live session (memoised per request), or null. */
    getSession(): Promise<Session | null>;
    sessionPromise: Promise<Session | null> | null;
    /** Set by requireGuildAccess / requireGuildWriteAccess (from the just-checked list). */
    guild: Guild | null;
  }
}
