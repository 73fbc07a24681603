import type { RuntimeConfig } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';

/** What the front end needs to know at run time (never a secret). */
export function runtimeConfig(config: FastifyInstance['config']): RuntimeConfig {
  return {
    productName: config.productName,
    apiOrigin: new URL(config.publicUrl).origin,
    remotes: { ...config.remotes },
    docsUrl: config.docsUrl,
    supportUrl: config.supportUrl,
    inviteUrl: config.inviteUrl,
    discordClientId: config.discord.clientId,
    discordOrigin: config.discord.origin,
    paddleToken: config.paddleToken,
    analyticsToken: config.analyticsToken,
    demo: config.demo,
  };
}

/** `GET /config.json`: the shell reads it at start (no-cache, so a change takes effect on reload). */
export default async function runtimeConfigRoutes(app: FastifyInstance) {
  const body = runtimeConfig(app.config);
  app.get('/config.json', { config: { rateLimit: false } }, async (_req, reply) => {
    reply.header('cache-control', 'no-cache');
    return body;
  });
}
