import { discordSandbox } from '@tickety/sandbox';
import type { FastifyInstance } from 'fastify';

/**
 * Demo mode (no DISCORD_CLIENT_ID): the Discord sandbox is mounted at /sandbox/discord and is
 * "Discord" for sign-in, the REST calls and the CDN. Production never mounts it.
 */
export async function mountSandbox(app: FastifyInstance): Promise<void> {
  const { config } = app;
  await app.register(discordSandbox, {
    prefix: '/sandbox/discord',
    baseUrl: config.discord.origin,
    clientId: config.discord.clientId,
    clientSecret: config.discord.clientSecret,
    ...(config.discord.botToken ? { botToken: config.discord.botToken } : {}),
  });
  app.log.info({ base: config.discord.origin }, 'demo mode: Discord is the built-in sandbox');
}
