import { type SandboxControl, discordSandbox } from '@tickety/sandbox';
import type { FastifyInstance } from 'fastify';
import { CSRF_EXEMPT } from './security';

/**
 * Demo mode (no DISCORD_CLIENT_ID): the Discord sandbox is mounted at /sandbox/discord and is
 * "Discord" for sign-in, the REST calls and the CDN. Production never mounts it. `control` (tests)
 * drives it in process: faults, latency, tokens, requests received.
 *
 * It answers anyone on the API's origin, so it redirects to the API's own callback only (the bot invite
 * too): no open redirect handing a working code to another site. Its HTTP test controls are off unless
 * SANDBOX_CONTROL enables them; /sandbox/* has its own per-IP limit (rate-limit plugin).
 */
export async function mountSandbox(app: FastifyInstance, control?: SandboxControl): Promise<void> {
  const { config } = app;
  // Its own context: every sandbox route is exempt from the dashboard's CSRF rules (it is Discord's
  // stand-in: its consent form and token endpoints take forms, from Discord's pages and servers).
  await app.register(async function sandboxContext(scope) {
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), ...CSRF_EXEMPT };
    });
    await scope.register(discordSandbox, {
      prefix: '/sandbox/discord',
      baseUrl: config.discord.origin,
      clientId: config.discord.clientId,
      clientSecret: config.discord.clientSecret,
      redirectUris: [`${config.publicUrl}/api/auth/callback`],
      ...(config.discord.botToken ? { botToken: config.discord.botToken } : {}),
      // One time source for the API and its Discord: tests that move the clock expire codes and tokens too.
      clock: app.clock,
      controlRoutes: config.sandboxControl,
      ...(control ? { control } : {}),
    });
  });
  app.log.info({ base: config.discord.origin }, 'demo mode: Discord is the built-in sandbox');
}
