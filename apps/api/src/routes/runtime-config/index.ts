import { RuntimeConfig } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SiteConfig, SiteState } from '../../lib/site-config';

/** What the front end needs to know at run time (never a secret): the API's settings, the site's remotes. */
export function runtimeConfig(config: FastifyInstance['config'], site: Pick<SiteState, 'remotes' | 'shell'>): RuntimeConfig {
  return {
    productName: config.productName,
    apiOrigin: new URL(config.publicUrl).origin,
    remotes: site.remotes,
    ...(site.shell ? { shell: site.shell } : {}),
    docsUrl: config.docsUrl,
    supportUrl: config.supportUrl,
    inviteUrl: config.inviteUrl,
    discordClientId: config.discord.clientId,
    discordOrigin: config.discord.origin,
    paddleToken: config.paddleToken,
    paddleScriptUrl: config.paddleScriptUrl,
    analyticsToken: config.analyticsToken,
    analyticsScriptUrl: config.analyticsScriptUrl,
    demo: config.demo,
  };
}

/**
 * `GET /config.json`: the shell reads it at start (no-cache, so a change takes effect on reload).
 * `remotes` and `shell` come from the site's config.json (re-read when it changes) and the
 * REMOTE_<NAME>_URL overrides; everything else from the API's configuration.
 */
export default async function runtimeConfigRoutes(fastify: FastifyInstance, opts: { site: SiteConfig }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/config.json', { config: { rateLimit: false }, schema: { response: { 200: RuntimeConfig } } }, async (_req, reply): Promise<RuntimeConfig> => {
    const state = await opts.site.current();
    reply.header('cache-control', 'no-cache');
    return runtimeConfig(app.config, state);
  });
}
