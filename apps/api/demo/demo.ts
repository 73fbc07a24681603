/**
 * Demo mode, composed: the API (src/, which knows no sandbox) with the Discord sandbox
 * (@tickety/sandbox) mounted beside it at /sandbox/discord. Used by the all-in-one launcher
 * (all-in-one.ts, what `npm start` runs) and by the API's tests. A production build of the API
 * (dist/server.js) contains none of this.
 */
import { DEMO_APP, DEMO_BOT_API_KEY, DEMO_USERS, type SandboxControl, discordSandbox } from '@tickety/sandbox';
import type { FastifyInstance } from 'fastify';
import type { DemoDiscord } from '../src/config';
import { CSRF_EXEMPT } from '../src/plugins/app/security';

/** The sandbox's application, and Sam (the demo's staff member) as the staff owner. */
export const DEMO_DISCORD: DemoDiscord = {
  clientId: DEMO_APP.clientId,
  clientSecret: DEMO_APP.clientSecret,
  botToken: DEMO_APP.botToken,
  staffOwnerIds: [DEMO_USERS.sam.id],
  botApiKey: DEMO_BOT_API_KEY,
};

/**
 * Mounts the Discord sandbox at /sandbox/discord of the API (an extension for buildApp): "Discord"
 * for sign-in, the REST calls and the CDN. `control` (tests) drives it in process: faults, latency,
 * tokens, requests received.
 *
 * It answers anyone on the API's origin, so it redirects to the API's own callback only (the bot invite
 * too): no open redirect handing a working code to another site. Its HTTP test controls are off unless
 * SANDBOX_CONTROL enables them; /sandbox/* has its own per-IP limit (rate-limit plugin).
 */
export function mountSandbox(control?: SandboxControl) {
  return async function sandbox(app: FastifyInstance): Promise<void> {
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
  };
}
