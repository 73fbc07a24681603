import type { RuntimeConfig } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import type { SiteState } from './site-config';

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
