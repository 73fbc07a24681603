/**
 * Demo mode, composed: the API (src/, which knows no sandbox) with the Discord sandbox
 * (@tickety/sandbox) mounted beside it at /sandbox/discord. Used by the all-in-one launcher
 * (all-in-one.ts, what `npm start` runs) and by the API's tests. A production build of the API
 * (dist/server.js) contains none of this.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Plan } from '@tickety/api-contract';
import { DEMO_APP, DEMO_BOT_API_KEY, DEMO_USERS, type PaddleSandboxControl, type SandboxControl, createPaddleSandboxControl, discordSandbox, paddleSandbox } from '@tickety/sandbox';
import type { FastifyInstance } from 'fastify';
import type { DemoDiscord } from '../src/config';
import { injectFetch } from '../src/lib/inject-fetch';
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
/** The Paddle prices the catalogue names, as the stand-in sells them. */
export function paddlePrices(plans: readonly Plan[]) {
  return plans.flatMap((plan) =>
    plan.providerPrices
      .filter((p) => p.provider === 'paddle')
      .flatMap((p) => {
        const amount = p.interval === 'year' ? plan.priceYearly : plan.priceMonthly;
        return amount === null ? [] : [{ id: p.id, productName: plan.name, amount, currency: plan.currency, interval: p.interval }];
      }),
  );
}

/** The stand-in's saved state (`<DATA_DIR>/paddle-sandbox.json`) and how it is kept; nothing for `memory://`. */
function paddleState(dataDir: string, log: FastifyInstance['log']): { initialState?: unknown; onChange?: (snapshot: unknown) => void } {
  if (dataDir.startsWith('memory://')) return {};
  const file = join(dataDir, 'paddle-sandbox.json');
  let initialState: unknown;
  if (existsSync(file)) {
    try {
      initialState = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      log.warn({ err: error instanceof Error ? error.message : String(error) }, 'demo: the Paddle sandbox state could not be read; it starts empty');
    }
  }
  return {
    ...(initialState === undefined ? {} : { initialState }),
    onChange: (snapshot) => {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(`${file}.tmp`, JSON.stringify(snapshot));
      renameSync(`${file}.tmp`, file);
    },
  };
}

export interface PaddleMount {
  control?: PaddleSandboxControl;
}

export function mountSandbox(control?: SandboxControl, paddle: PaddleMount = {}) {
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
    // Paddle: the stand-in at /sandbox/paddle, where demo mode's configuration points (API, Paddle.js),
    // its notifications signed with the API's webhook secret and delivered to /api/webhooks/paddle in
    // this process (retried, duplicated and reordered like Paddle's when its controls say so).
    const paddleBase = `${config.publicUrl}/sandbox/paddle`;
    const secret = config.billing.paddle.webhookSecrets[0];
    const prices = paddlePrices(config.plans);
    if (config.billing.paddle.apiBase === paddleBase && config.billing.paddle.apiKey && config.paddleToken && secret && prices.length > 0) {
      const paddleControl = paddle.control ?? createPaddleSandboxControl();
      const state = paddleState(config.database.dataDir, app.log);
      await app.register(async function paddleContext(scope) {
        scope.addHook('onRoute', (route) => {
          route.config = { ...(route.config ?? {}), ...CSRF_EXEMPT };
        });
        await scope.register(paddleSandbox, {
          prefix: '/sandbox/paddle',
          apiKey: config.billing.paddle.apiKey!,
          clientToken: config.paddleToken!,
          webhookUrl: `${config.publicUrl}/api/webhooks/paddle`,
          webhookSecret: secret,
          prices,
          clock: app.clock,
          baseUrl: paddleBase,
          fetch: injectFetch(app) as typeof fetch,
          control: paddleControl,
          ...(state.onChange ? { onChange: state.onChange } : {}),
        });
      });
      // Its state outlives a restart beside the database (not with a throwaway one), so the purchases
      // a demo made keep working with the billing pages' actions. A state it cannot take (a plan
      // removed since) is left aside: the stand-in starts empty rather than the demo not at all.
      app.addHook('onReady', async () => {
        if (state.initialState === undefined) return;
        try {
          paddleControl.restore(state.initialState);
        } catch (error) {
          app.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'demo: the saved Paddle sandbox state was not restored; it starts empty');
        }
      });
      app.log.info({ base: paddleBase }, 'demo mode: Paddle is the built-in sandbox');
    }
    app.log.info({ base: config.discord.origin }, 'demo mode: Discord is the built-in sandbox');
  };
}
