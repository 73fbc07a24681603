import { BodyWorker } from '../../lib/body-worker';
import type { ServerConfig } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SecretBox, Signer } from '../../lib/crypto';
import { DiscordClient, type FetchLike } from '../../lib/discord';
import { DiscordBot } from '../../lib/discord-bot';
import { type InvalidationBus, LocalInvalidationBus, RedisInvalidationBus } from '../../lib/invalidation-bus';
import { LocalSignals, RedisSignals, type Signals } from '../../lib/signals';
import { BotCommands } from '../../services/bot-commands';
import { TicketMessages } from '../../services/ticket-messages';
import { SessionCache } from '../../lib/session-cache';
import { Accounts } from '../../services/accounts';
import { Announcements } from '../../services/announcements';
import { BillingAccounts } from '../../services/billing/accounts';
import { chargebeeApplier } from '../../services/billing/chargebee';
import { ChargebeeApi } from '../../services/billing/chargebee-api';
import { CheckoutStatuses } from '../../services/billing/checkouts';
import { discordApplier } from '../../services/billing/discord';
import { DiscordBillingClient } from '../../services/billing/discord-api';
import { fastspringApplier } from '../../services/billing/fastspring';
import { FastspringApi } from '../../services/billing/fastspring-api';
import { WebhookInbox } from '../../services/billing/inbox';
import { paddleApplier } from '../../services/billing/paddle';
import { PaddleApi } from '../../services/billing/paddle-api';
import { BillingReconciler } from '../../services/billing/reconcile';
import { PriceBook } from '../../services/billing/subscriptions';
import type { BillingClients } from '../../services/billing/types';
import { WebhookQueue } from '../../services/billing/webhook-queue';
import { InboxWorker } from '../../services/billing/worker';
import { BotKeys } from '../../services/bot-keys';
import { ConfigFiles } from '../../services/config-files';
import { ConfigHealthCheck } from '../../services/config-health';
import { GuildSync } from '../../services/guild-sync';
import { OAuthStates } from '../../services/oauth-states';
import { PanelPosts } from '../../services/panel-posts';
import { PlaygroundHolds } from '../../services/playground-holds';
import { ServerAccessService } from '../../services/server-access';
import { ServerConfigs } from '../../services/server-config';
import { ServerResourcesCache } from '../../services/server-resources';
import { SessionStore } from '../../services/sessions';
import { SignIns } from '../../services/sign-ins';
import { StaffAudit } from '../../services/staff-audit';
import { StaffNames } from '../../services/staff-names';
import { StaffSearch } from '../../services/staff-search';
import { StaffTeam } from '../../services/staff-team';
import { Statistics, serverTimeZone } from '../../services/statistics';
import { SystemHealth } from '../../services/system-health';
import { Tickets } from '../../services/tickets';
import { Transcripts } from '../../services/transcripts';
import { TicketActions } from '../../services/ticket-actions';
import { TicketQueueService } from '../../services/ticket-queue';
import { TicketStreams } from '../../services/ticket-stream';
import { createBlobStore } from '../../lib/blob-store/create';

/** The services routes use: crypto, the Discord clients (OAuth/user, bot), sessions, accounts, OAuth states, server configuration, resources, posts and access. */
export default fp(
  async function services(app: FastifyInstance, opts: { discordFetch?: FetchLike | undefined; providerFetch?: FetchLike | undefined }) {
    const { config, clock, db } = app;
    // Seals with TOKEN_ENCRYPTION_KEY; also opens (and verifies cookies with) TOKEN_ENCRYPTION_PREVIOUS_KEYS.
    const box = new SecretBox(config.tokenEncryptionKey, config.previousTokenEncryptionKeys);
    app.log.info({ keyId: box.keyId, previousKeyIds: box.previousKeyIds }, 'token encryption keys');
    app.decorate('secrets', box);
    app.decorate('signer', new Signer(config.tokenEncryptionKey, config.previousTokenEncryptionKeys));
    const discord = new DiscordClient({
      apiBase: config.discord.apiBase,
      clientId: config.discord.clientId,
      clientSecret: config.discord.clientSecret,
      botToken: config.discord.botToken,
      redirectUri: `${config.publicUrl}/api/auth/callback`,
      timeoutMs: config.discord.timeoutMs,
      botGuildsDeadlineMs: config.discord.botGuildsDeadlineMs,
      ...(opts.discordFetch ? { fetch: opts.discordFetch } : {}),
    });
    app.decorate('discord', discord);
    // Sessions and user states kept in memory; what changes them is announced by the database layer
    // once committed, dropped here and told to the other instances over Redis (lib/session-cache.ts).
    const bus: InvalidationBus = app.redis
      ? new RedisInvalidationBus(app.redis, config.cacheChannel, app.log)
      : new LocalInvalidationBus();
    app.addHook('onClose', () => bus.close());
    const { cacheSeconds, cacheMax } = config.session;
    const cache = new SessionCache({ ttlMs: cacheSeconds * 1000, maxSessions: cacheMax, maxUsers: Math.max(1, Math.ceil(cacheMax / 10)) }, clock, bus);
    db.onChange?.((change) => cache.invalidate(change));
    app.decorate('sessionCache', cache);
    app.decorate(
      'sessions',
      new SessionStore(db, box, clock, config.session.idleSeconds * 1000, config.session.maxAgeSeconds * 1000, config.session.maxPerUser, app.log, cache),
    );
    app.decorate('accounts', new Accounts(db, clock, config.discord.cdnBase, new Set(config.staffOwnerIds), cache));
    app.decorate('oauthStates', new OAuthStates(db, box, clock));
    app.decorate('signIns', new SignIns(db, app.accounts, app.sessions));
    app.decorate('guildSync', new GuildSync(discord, clock));
    const serverConfigs = new ServerConfigs(db, clock, config.plans, cache);
    app.decorate('serverConfigs', serverConfigs);
    // The bot's own client (@discordjs/rest: route buckets, the global limit, 429 Retry-After), over
    // the same injectable fetch: Discord, or the sandbox in demo mode and tests.
    const bot = new DiscordBot({
      apiBase: config.discord.apiBase,
      botToken: config.discord.botToken,
      timeoutMs: config.discord.timeoutMs,
      log: app.log,
      ...(opts.discordFetch ? { fetch: opts.discordFetch } : {}),
    });
    app.decorate('discordBot', bot);
    app.addHook('onClose', async () => bot.close());
    const serverResources = new ServerResourcesCache(bot, clock);
    app.decorate('serverResources', serverResources);
    app.decorate('panelPosts', new PanelPosts(db, clock, bot, serverConfigs, serverResources));
    app.decorate('configHealth', new ConfigHealthCheck(db, clock, bot, serverConfigs, serverResources));
    app.decorate('serverAccess', new ServerAccessService(bot, serverConfigs, serverResources, app.accounts, clock));

    // The bot API: keys (the configured one stored at start, for the Discord application), ticket
    // events and transcripts (attachments copied from Discord's CDN over the same injectable fetch).
    const botKeys = new BotKeys(db, clock, config.discord.clientId);
    app.decorate('botKeys', botKeys);
    if (config.bot.apiKey) {
      const key = config.bot.apiKey;
      app.addHook('onReady', async () => {
        await botKeys.ensure(key, config.discord.clientId, config.demo ? 'demo bot (configuration)' : 'BOT_API_KEY (configuration)');
      });
    }
    const signals: Signals = app.redis ? new RedisSignals(app.redis, `${config.cacheChannel}:signals`, app.log) : new LocalSignals();
    app.decorate('signals', signals);
    app.addHook('onClose', () => signals.close());
    app.decorate('tickets', new Tickets(db, clock, signals));
    app.decorate('ticketMessages', new TicketMessages(db, signals));
    const botCommands = new BotCommands({ db, clock, signals });
    app.decorate('botCommands', botCommands);
    // Waiting polls answer (empty) at once, so the server can close their connections.
    app.addHook('preClose', async () => botCommands.close());
    app.decorate(
      'systemHealth',
      new SystemHealth({ db, clock, botId: config.discord.clientId, redis: app.redisLink, recentErrors: app.recentErrors, logThrottle: app.logThrottle }),
    );
    // Transcripts' bytes: the database's blobs table, or an S3-compatible bucket (BLOB_STORE; never the secret in a log line).
    const warn = (fields: object, msg: string) => app.logThrottle.warn(app.log, fields, msg, String((fields as { cause?: unknown }).cause ?? ''));
    const blobStore = createBlobStore(config.blobStore, db, warn);
    app.log.info(config.blobStore.kind === 's3' ? { blobStore: 's3', endpoint: config.blobStore.endpoint, bucket: config.blobStore.bucket } : { blobStore: 'database' }, 'transcript storage');
    app.addHook('onClose', async () => blobStore.close());
    app.decorate('blobStore', blobStore);
    app.decorate('transcripts', new Transcripts(db, clock, config.discord.cdnBase, opts.discordFetch ?? ((input, init) => fetch(input, init)), blobStore, warn));

    const staffNames = new StaffNames(bot, botKeys, config.discord.clientId, clock);
    app.decorate(
      'statistics',
      new Statistics(db, clock, config.plans, async (guildId) => serverTimeZone((await serverConfigs.live(guildId)).config as ServerConfig), staffNames),
    );
    // The Tickets page: the queue and a ticket's reads, the actions (commands, labels, reply files), the live streams.
    const ticketQueue = new TicketQueueService({ db, clock, botKeys, botCommands, staffNames, cdnBase: config.discord.cdnBase });
    app.decorate('ticketQueue', ticketQueue);
    const ticketActions = new TicketActions({ db, clock, signals, botCommands, serverConfigs, blobStore, publicUrl: config.publicUrl, log: app.log });
    app.decorate('ticketActions', ticketActions);
    app.addHook('onReady', async () => ticketActions.start());
    app.addHook('preClose', async () => ticketActions.stop());
    const ticketStreams = new TicketStreams({ signals, queue: ticketQueue, log: app.log, perUser: app.config.rateLimit.ticketStreamsPerUser });
    app.decorate('ticketStreams', ticketStreams);
    // Streams end at once, so the server can close their connections (clients reconnect elsewhere).
    app.addHook('preClose', async () => ticketStreams.close());
    const configFiles = new ConfigFiles(config.configFiles.keys, serverConfigs, serverResources, clock);
    // Key ids only, never a secret.
    app.log.info(
      { signingKeyId: configFiles.signingKeyId, verifyingKeyIds: config.configFiles.keys.map((key) => key.id), derived: config.configFiles.derived },
      'configuration file keys',
    );
    app.decorate('configFiles', configFiles);
    app.decorate('announcements', new Announcements(db, clock));
    app.decorate('staffAudit', new StaffAudit(db, clock));
    const playgroundHolds = new PlaygroundHolds();
    app.decorate('playgroundHolds', playgroundHolds);
    app.addHook('preClose', async () => playgroundHolds.shutdown());
    app.decorate('staffTeam', new StaffTeam({ db, clock, cdnBase: config.discord.cdnBase, ownerIds: new Set(config.staffOwnerIds), bot }));

    // Billing: the webhook inbox (each provider's verified events, applied by a worker that every
    // instance runs; the queue's row locks share the work).
    const prices = new PriceBook(config.plans);
    const grace = config.billing.graceDays;
    const inbox = new WebhookInbox(db, clock, {
      paddle: paddleApplier(clock, prices, grace),
      fastspring: fastspringApplier(clock, prices, grace),
      chargebee: chargebeeApplier(clock, prices, grace),
      discord: discordApplier(clock, prices, grace),
    });
    app.decorate('webhookInbox', inbox);
    app.decorate('webhookQueue', new WebhookQueue(db, clock));
    const worker = new InboxWorker(inbox, config.billing.workIntervalMs, app.log);
    app.decorate('inboxWorker', worker);
    app.decorate('billingAccounts', new BillingAccounts(db, clock, config.plans, config.billing.slotCooldownHours * 3_600_000));
    // Each provider's API: official SDKs (Paddle, Chargebee), plain fetch (FastSpring), the bot's REST
    // client (Discord). The demo's stand-ins are reached in process (providerFetch), like its Discord.
    const paddleApi = new PaddleApi({ apiKey: config.billing.paddle.apiKey, apiBase: config.billing.paddle.apiBase });
    app.decorate('paddleApi', paddleApi);
    const providerFetch = opts.providerFetch as typeof fetch | undefined;
    const { fastspring, chargebee } = config.billing;
    const clients: BillingClients = {
      paddle: paddleApi,
      fastspring: new FastspringApi({ username: fastspring.apiUsername, password: fastspring.apiPassword, apiBase: fastspring.apiBase, ...(providerFetch ? { fetch: providerFetch } : {}) }),
      chargebee: new ChargebeeApi({
        site: chargebee.site,
        apiKey: chargebee.apiKey,
        apiBase: chargebee.apiBase,
        portalReturnUrl: `${config.dashboardOrigins[0] ?? config.publicUrl}/billing`,
        ...(providerFetch ? { fetch: providerFetch } : {}),
      }),
      discord: new DiscordBillingClient(bot, config.discord.clientId, clock, config.billing.discord.publicKeys.length > 0 && prices.sells('discord')),
    };
    app.decorate('billingClients', clients);
    app.decorate('checkoutStatuses', new CheckoutStatuses(app.billingAccounts, clients, inbox, config.plans));
    app.decorate(
      'staffSearch',
      new StaffSearch({ db, clock, cdnBase: config.discord.cdnBase, billing: app.billingAccounts, configs: serverConfigs, sessions: app.sessions }),
    );
    // Lost webhooks healed: the providers' subscriptions re-read every BILLING_RECONCILE_INTERVAL_MS.
    const reconciler = new BillingReconciler(db, clock, Object.values(clients), prices, config.billing.graceDays, config.billing.reconcileIntervalMs, app.log);
    app.decorate('billingReconciler', reconciler);
    app.addHook('onReady', async () => reconciler.start());
    app.addHook('preClose', async () => reconciler.stop());
    app.addHook('onReady', async () => worker.start());
    app.addHook('preClose', async () => worker.stop());

    // The bot API's large bodies are read on a worker thread (lib/body-worker.ts).
    const bodyWorker = new BodyWorker(app.log);
    app.decorate('bodyWorker', bodyWorker);
    app.addHook('onClose', async () => bodyWorker.close());

    const pending = new Set<Promise<unknown>>();
    app.decorate('background', (task: Promise<unknown>) => {
      const tracked = task
        .catch((error: unknown) => app.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'background task failed'))
        .finally(() => pending.delete(tracked));
      pending.add(tracked);
    });
    app.addHook('preClose', async () => {
      await Promise.allSettled([...pending]);
    });
  },
  { name: 'tickety-services', dependencies: ['tickety-db'] },
);
