import { RuntimeConfig } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { runtimeConfig } from '../../lib/runtime-config';
import type { SiteConfig } from '../../lib/site-config';

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
