import { type SandboxControl, discordSandbox } from '@tickety/sandbox';
import type { FastifyInstance } from 'fastify';

/**
 * Demo mode (no DISCORD_CLIENT_ID): the Discord sandbox is mounted at /sandbox/discord and is
 * "Discord" for sign-in, the REST calls and the CDN. Production never mounts it. `control` (tests)
 * drives it in process: faults, latency, tokens, requests received.
 */
export async function mountSandbox(app: FastifyInstance, control?: SandboxControl): Promise<void> {
  const { config } = app;
  await app.register(discordSandbox, {
    prefix: '/sandbox/discord',
    baseUrl: config.discord.origin,
    clientId: config.discord.clientId,
    clientSecret: config.discord.clientSecret,
    ...(config.discord.botToken ? { botToken: config.discord.botToken } : {}),
    // One time source for the API and its Discord: tests that move the clock expire codes and tokens too.
    clock: app.clock,
    controlRoutes: config.sandboxControl,
    ...(control ? { control } : {}),
  });
  app.log.info({ base: config.discord.origin }, 'demo mode: Discord is the built-in sandbox');
}
