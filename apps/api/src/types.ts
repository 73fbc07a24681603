import type { TicketActions } from './services/ticket-actions';
import type { TicketQueueService } from './services/ticket-queue';
import type { TicketStreams } from './services/ticket-stream';
import type { AccessArea, AccessLevel, Guild, ServerAccess, StaffPermission } from '@tickety/api-contract';
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { AppConfig } from './config';
import type { Db } from './db/driver';
import type { Clock } from './lib/clock';
import type { SecretBox, Signer } from './lib/crypto';
import type { DiscordClient } from './lib/discord';
import type { DiscordBot } from './lib/discord-bot';
import type { SessionCache } from './lib/session-cache';
import type { Accounts } from './services/accounts';
import type { Announcements } from './services/announcements';
import type { BillingAccounts } from './services/billing/accounts';
import type { CheckoutStatuses } from './services/billing/checkouts';
import type { WebhookInbox } from './services/billing/inbox';
import type { PaddleApi } from './services/billing/paddle-api';
import type { BillingReconciler } from './services/billing/reconcile';
import type { BillingClients } from './services/billing/types';
import type { WebhookQueue } from './services/billing/webhook-queue';
import type { InboxWorker } from './services/billing/worker';
import type { BotKeys } from './services/bot-keys';
import type { ConfigFiles } from './services/config-files';
import type { ConfigHealthCheck } from './services/config-health';
import type { GuildSync } from './services/guild-sync';
import type { OAuthStates } from './services/oauth-states';
import type { PanelPosts } from './services/panel-posts';
import type { PlaygroundHolds } from './services/playground-holds';
import type { ServerAccessService } from './services/server-access';
import type { ServerConfigs } from './services/server-config';
import type { ServerResourcesCache } from './services/server-resources';
import type { Session, SessionStore } from './services/sessions';
import type { SignIns } from './services/sign-ins';
import type { StaffAudit } from './services/staff-audit';
import type { StaffSearch } from './services/staff-search';
import type { StaffTeam } from './services/staff-team';
import type { Statistics } from './services/statistics';
import type { SystemHealth } from './services/system-health';
import type { Tickets } from './services/tickets';
import type { BotCommands } from './services/bot-commands';
import type { TicketMessages } from './services/ticket-messages';
import type { Signals } from './lib/signals';
import type { Transcripts } from './services/transcripts';
import type { BlobStore } from './lib/blob-store';

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    clock: Clock;
    db: Db;
    secrets: SecretBox;
    signer: Signer;
    discord: DiscordClient;
    sessions: SessionStore;
    /** This instance's sessions and user states (lib/session-cache.ts). */
    sessionCache: SessionCache;
    accounts: Accounts;
    oauthStates: OAuthStates;
    /** A finished sign-in stored in one transaction (user, guilds, session). */
    signIns: SignIns;
    guildSync: GuildSync;
    serverConfigs: ServerConfigs;
    /** The bot's REST client (@discordjs/rest): server resources, panel messages. */
    discordBot: DiscordBot;
    /** A server's channels, roles and emojis as the bot sees them, cached a minute. */
    serverResources: ServerResourcesCache;
    panelPosts: PanelPosts;
    configHealth: ConfigHealthCheck;
    /** Who may do what on a server: full access, or the server's access rules for the member's roles. */
    serverAccess: ServerAccessService;
    /** Bot API keys (hashed), ticket events and the tickets they make, transcripts (v2). */
    botKeys: BotKeys;
    tickets: Tickets;
    /** The live messages of open tickets, from the bot (docs/api.md, `POST /api/bot/v1/messages`). */
    ticketMessages: TicketMessages;
    /** What the dashboard asks bots to do in tickets: queued, taken by the bot's poll, reported (docs/api.md, "Bot commands"). */
    botCommands: BotCommands;
    ticketQueue: TicketQueueService;
    ticketActions: TicketActions;
    ticketStreams: TicketStreams;
    /** "Something new under this topic" for waiters on every instance (Redis pub/sub with REDIS_URL). */
    signals: Signals;
    transcripts: Transcripts;
    /** Where transcripts and their attachments keep their bytes (BLOB_STORE: the database, or an S3-compatible bucket). */
    blobStore: BlobStore;
    /** Billing webhooks: the durable inbox of verified provider events, and this instance's worker draining it. */
    webhookInbox: WebhookInbox;
    inboxWorker: InboxWorker;
    /** The webhook inbox as the staff System page shows it (queues, dead letters, replays). */
    webhookQueue: WebhookQueue;
    /** The database, Redis and the bot's shards, for the status page, the System page and readiness. */
    systemHealth: SystemHealth;
    /** A server's Statistics page (the plan's range, the staff named by the bot). */
    statistics: Statistics;
    /** Restore Configs' configuration files: signed export, checked import. */
    configFiles: ConfigFiles;
    /** System Update's announcements and the public banner's. */
    announcements: Announcements;
    /** The staff audit, for routes that record a view or a change of their own. */
    staffAudit: StaffAudit;
    /** Support Team's search and cards. */
    staffSearch: StaffSearch;
    /** Team Manager's staff members and audit. */
    staffTeam: StaffTeam;
    /** The staff Test page's held requests (bounded per member and instance, ended at shutdown). */
    playgroundHolds: PlaygroundHolds;
    /** Subscriptions as the billing pages show them, and premium slots (assign, move with a cooldown). */
    billingAccounts: BillingAccounts;
    /** Paddle's API (official SDK), for the actions of the billing pages. */
    paddleApi: PaddleApi;
    /** The last server errors (5xx) of this instance, for the System page. */
    recentErrors: import('./lib/recent-errors').RecentErrors;
    /** Reads the bot API's large bodies off the event loop (lib/body-worker.ts). */
    bodyWorker: import('./lib/body-worker').BodyWorker;
    /** One log line a second per repeated warning (a dependency down): lib/log.ts. */
    logThrottle: import('./lib/log').LogThrottle;
    /** Every provider's API client (Paddle's is also `paddleApi`), for actions, receipts and reconciliation. */
    billingClients: BillingClients;
    /** Where a purchase stands after a provider's checkout (the billing pages poll it). */
    checkoutStatuses: CheckoutStatuses;
    /** Heals lost webhooks by re-reading the providers' subscriptions. */
    billingReconciler: BillingReconciler;
    /** Background work (e.g. revoking a Discord token) that close() waits for. */
    background(task: Promise<unknown>): void;
    /** preHandler: a signed-in session is required (401). */
    requireSession: preHandlerAsyncHookHandler;
    /** preHandler factory: a staff flag is required (401 / 1004). */
    requireStaff(permission: StaffPermission): preHandlerAsyncHookHandler;
    /** Whether a session is within the staff lifetimes (auth.ts, requireRecentStaffSession), without counting as staff activity. */
    isStaffSessionRecent(session: Session): boolean;
    /**
     * preHandler for routes with `:server` that read: the user may open that server (full access or a
     * role the server's access rules name; 401 / 403 / 405),
     * on a guild list at most GUILD_ACCESS_MAX_AGE_SECONDS old (else fetched again from Discord first;
     * 503 1008 with Retry-After when Discord cannot be asked).
     */
    requireGuildAccess: preHandlerAsyncHookHandler;
    /** The same for routes that change a server, on a list at most GUILD_WRITE_ACCESS_MAX_AGE_SECONDS old. */
    requireGuildWriteAccess: preHandlerAsyncHookHandler;
    /**
     * preHandler factory for routes under `/api/guilds/:server`: the user may open the server (full
     * access, or a role the server's access rules name) and their access allows `level` in `area` (in
     * any of them, given a list). 'read' decides on the read window (guild list at most
     * GUILD_ACCESS_MAX_AGE_SECONDS old, the member's roles cached a minute); 'write' on the write
     * window and the member read again from Discord. Refuses with 401, 400 1001, 404/405,
     * 403/403 (no access at all, saying why), 403/1017 (the area or level is missing: what the roles
     * give and who can grant more), 503/1008. Sets `req.guild` and `req.serverAccess`.
     */
    requireArea(area: AccessArea | readonly AccessArea[], level: AccessLevel): preHandlerAsyncHookHandler;
  }

  interface FastifyRequest {
    /** The caller's live session (memoised per request), or null. */
    getSession(): Promise<Session | null>;
    sessionPromise: Promise<Session | null> | null;
    /** Set by requireGuildAccess / requireGuildWriteAccess / requireArea (from the just-checked list). */
    guild: Guild | null;
    /** What the user may do on `req.guild`, set with it. */
    serverAccess: ServerAccess | null;
    /** A long-lived answer checking its access again (the Tickets stream): not staff activity (auth.ts). */
    accessRecheck: boolean;
  }
}
