import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SecretBox, Signer } from '../../lib/crypto';
import { DiscordClient, type FetchLike } from '../../lib/discord';
import { Accounts } from '../../services/accounts';
import { GuildSync } from '../../services/guild-sync';
import { OAuthStates } from '../../services/oauth-states';
import { SessionStore } from '../../services/sessions';

/** The services routes use: crypto, the Discord client, sessions, accounts, OAuth states. */
export default fp(
  async function services(app: FastifyInstance, opts: { discordFetch?: FetchLike | undefined }) {
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
    app.decorate(
      'sessions',
      new SessionStore(db, box, clock, config.session.idleSeconds * 1000, config.session.maxAgeSeconds * 1000, config.session.maxPerUser, app.log),
    );
    app.decorate('accounts', new Accounts(db, clock, config.discord.cdnBase, new Set(config.staffOwnerIds)));
    app.decorate('oauthStates', new OAuthStates(db, box, clock));
    app.decorate('guildSync', new GuildSync(discord, clock));

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
