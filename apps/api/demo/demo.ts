/**
 * Demo mode, composed: the API (src/, which knows no sandbox) with the Discord sandbox
 * (@tickety/sandbox) mounted beside it at /sandbox/discord. Used by the all-in-one launcher
 * (all-in-one.ts, what `npm start` runs) and by the API's tests. A production build of the API
 * (dist/server.js) contains none of this.
 */
import { createPublicKey } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Plan } from '@tickety/api-contract';
import {analyticsSandbox, 
  type ChargebeeSandboxControl,
  chargebeeSandbox,
  createChargebeeSandboxControl,
  createFastspringSandboxControl,
  createMonetizationControl,
  createPaddleSandboxControl,
  DEMO_APP,
  DEMO_BOT_API_KEY,
  DEMO_USERS,
  discordPublicKeyHex,
  discordSandbox,
  type FastspringSandboxControl,
  fastspringSandbox,
  type MonetizationControl,
  type MonetizationOptions,
  type PaddleSandboxControl,
  paddleSandbox,
  s3Sandbox,
  type SandboxControl,
  SKU_FLAGS
} from '@tickety/sandbox';
import type { FastifyInstance } from 'fastify';
import { type DemoDiscord, demoProviderSecrets } from '../src/config';
import { deriveKey } from '../src/lib/crypto';
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
/** The Paddle prices the catalogue names, as the stand-in sells them (`pricesOf` in Paddle's option names). */
function paddlePrices(plans: readonly Plan[]) {
  return plans.flatMap((plan) =>
    plan.providerPrices
      .filter((p) => p.provider === 'paddle')
      .flatMap((providerPrice) => {
        const amount = providerPrice.interval === 'year' ? plan.priceYearly : plan.priceMonthly;
        return amount === null ? [] : [{ id: providerPrice.id, productName: plan.name, amount, currency: plan.currency, interval: providerPrice.interval }];
      }),
  );
}

/** A catalogue price as a stand-in sells it: the plan's name, amount and currency for the price's interval. */
function pricesOf(plans: readonly Plan[], provider: Plan['providerPrices'][number]['provider']) {
  return plans.flatMap((plan) =>
    plan.providerPrices
      .filter((p) => p.provider === provider)
      .flatMap((providerPrice) => {
        const amount = providerPrice.interval === 'year' ? plan.priceYearly : plan.priceMonthly;
        return amount === null ? [] : [{ id: providerPrice.id, name: plan.name, amount, currency: plan.currency, interval: providerPrice.interval }];
      }),
  );
}

/** Ava's Discord app subscription, as the demo's Discord has sold it (the seed's premium for Ava's Arcade). */
export const DEMO_DISCORD_ENTITLEMENT = { id: '1300000000000000901', skuId: '1300000000000000801', subscriptionId: '1300000000000000902' } as const;

/** A stand-in's saved state (`<DATA_DIR>/<name>-sandbox.json`) and how it is kept; nothing for `memory://`. */
function standInState(dataDir: string, name: string, log: FastifyInstance['log']): { initialState?: unknown; onChange?: (snapshot: unknown) => void } {
  if (dataDir.startsWith('memory://')) return {};
  const file = join(dataDir, `${name}-sandbox.json`);
  let initialState: unknown;
  if (existsSync(file)) {
    try {
      initialState = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      log.warn({ err: error instanceof Error ? error.message : String(error), stand_in: name }, 'demo: a sandbox stand-in state could not be read; it starts empty');
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

/**
 * A stand-in's saved state is put back once the app is ready, so the purchases a demo made keep
 * working with the billing pages' actions after a restart. A state it cannot take (a plan removed
 * since) is left aside: the stand-in starts empty rather than the demo not at all.
 */
function restoreOnReady(app: FastifyInstance, name: string, control: { restore(state: unknown): void }, state: unknown): void {
  if (state === undefined) return;
  app.addHook('onReady', async () => {
    try {
      control.restore(state);
    } catch (error) {
      app.log.warn({ err: error instanceof Error ? error.message : String(error), stand_in: name }, 'demo: a saved sandbox stand-in state was not restored; it starts empty');
    }
  });
}

/** Controls of the payment providers' stand-ins (tests drive them in process). */
interface StandInControls {
  paddle?: PaddleSandboxControl;
  fastspring?: FastspringSandboxControl;
  chargebee?: ChargebeeSandboxControl;
  discord?: MonetizationControl;
}

export function mountSandbox(control?: SandboxControl, controls: StandInControls = {}) {
  return async function sandbox(app: FastifyInstance): Promise<void> {
    const { config } = app;
    const secrets = demoProviderSecrets(config.tokenEncryptionKey);
    const inProcess = injectFetch(app) as typeof fetch;
    // Discord app subscriptions: the sandbox's application sells the catalogue's Discord SKUs, signs
    // its Webhook Events with the key whose public half the API's configuration holds (derived from
    // the token key), and delivers them to /api/webhooks/discord in this process. Ava's subscription
    // (the seed's premium for Ava's Arcade) is one it sold.
    const seed = secrets.discordEventSeed.toString('hex');
    const skus = pricesOf(config.plans, 'discord');
    let monetization: MonetizationOptions | null = null;
    const discordControl = controls.discord ?? createMonetizationControl();
    if (skus.length > 0 && config.billing.discord.publicKeys.includes(discordPublicKeyHex(seed))) {
      const state = standInState(config.database.dataDir, 'discord-billing', app.log);
      monetization = {
        skus: skus.map((sku) => ({
          id: sku.id,
          name: `Tickety ${sku.name}`,
          slug: `tickety-${sku.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
          type: 5,
          flags: SKU_FLAGS.USER_SUBSCRIPTION | SKU_FLAGS.AVAILABLE,
          price: { amount: Math.round(sku.amount * 100), currency: sku.currency },
        })),
        privateKeySeed: seed,
        webhookUrl: `${config.publicUrl}/api/webhooks/discord`,
        initialEntitlements: [{ ...DEMO_DISCORD_ENTITLEMENT, userId: DEMO_USERS.ava.id, startsAt: app.clock() - 20 * 86_400_000 }],
        retryBaseMs: 2000,
        fetch: inProcess,
        control: discordControl,
        ...(state.onChange ? { onChange: state.onChange } : {}),
      };
      restoreOnReady(app, 'discord-billing', discordControl, state.initialState);
    }
    // Its own context: every sandbox route is exempt from the dashboard's CSRF rules (it is Discord's
    // stand-in: its consent form and token endpoints take forms, from Discord's pages and servers).
    await app.register(async function sandboxContext(scope) {
      scope.addHook('onRoute', (route) => {
        route.config = { ...(route.config ?? {}), ...CSRF_EXEMPT };
      });
      await scope.register(discordSandbox, {
        prefix: '/sandbox/discord',
        ...(monetization ? { monetization } : {}),
        baseUrl: config.discord.origin,
        clientId: config.discord.clientId,
        clientSecret: config.discord.clientSecret,
        redirectUris: [`${config.publicUrl}/api/auth/callback`],
        ...(config.discord.botToken ? { botToken: config.discord.botToken } : {}),
        // One time source for the API and its Discord: tests that move the clock expire codes and tokens too.
        clock: app.clock,
        // Codes and tokens sealed with a key every instance with this TOKEN_ENCRYPTION_KEY derives: behind
        // a balancer, the instance that exchanges a code or serves a token need not be the one that issued it.
        sealSecret: deriveKey(config.tokenEncryptionKey, 'demo discord sandbox seal').toString('hex'),
        controlRoutes: config.sandboxControl,
        ...(control ? { control } : {}),
      });
    });
    // Transcript storage with DEMO_S3=1 (demo/all-in-one.ts): the S3 stand-in at /sandbox/s3, where the
    // launcher pointed BLOB_STORE=s3, with the configured bucket and keys (docs/operations.md, "Transcript storage").
    const store = config.blobStore;
    if (store.kind === 's3' && store.endpoint === `${config.publicUrl}/sandbox/s3`) {
      await app.register(async function s3Context(scope) {
        scope.addHook('onRoute', (route) => {
          route.config = { ...(route.config ?? {}), ...CSRF_EXEMPT };
        });
        await scope.register(s3Sandbox, { prefix: '/sandbox/s3', accessKeyId: store.accessKeyId, secretAccessKey: store.secretAccessKey, region: store.region, buckets: [store.bucket] });
      });
    }
    // Paddle: the stand-in at /sandbox/paddle, where demo mode's configuration points (API, Paddle.js),
    // its notifications signed with the API's webhook secret and delivered to /api/webhooks/paddle in
    // this process (retried, duplicated and reordered like Paddle's when its controls say so).
    const paddleBase = `${config.publicUrl}/sandbox/paddle`;
    const secret = config.billing.paddle.webhookSecrets[0];
    const prices = paddlePrices(config.plans);
    if (config.billing.paddle.apiBase === paddleBase && config.billing.paddle.apiKey && config.paddleToken && secret && prices.length > 0) {
      const paddleControl = controls.paddle ?? createPaddleSandboxControl();
      const state = standInState(config.database.dataDir, 'paddle', app.log);
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
          fetch: inProcess,
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
    // FastSpring: the stand-in at /sandbox/fastspring (Store Builder Library, popup checkout, API,
    // account pages), its batched webhooks signed with the API's secret.
    const fs = config.billing.fastspring;
    const fsBase = `${config.publicUrl}/sandbox/fastspring`;
    const fsProducts = pricesOf(config.plans, 'fastspring');
    if (fs.apiBase === fsBase && fs.apiUsername && fs.apiPassword && fs.storefront && fs.webhookSecrets[0] && fsProducts.length > 0) {
      const state = standInState(config.database.dataDir, 'fastspring', app.log);
      const fsControl = controls.fastspring ?? createFastspringSandboxControl();
      await app.register(async function fastspringContext(scope) {
        scope.addHook('onRoute', (route) => {
          route.config = { ...(route.config ?? {}), ...CSRF_EXEMPT };
        });
        await scope.register(fastspringSandbox, {
          prefix: '/sandbox/fastspring',
          apiUsername: fs.apiUsername!,
          apiPassword: fs.apiPassword!,
          webhookSecret: fs.webhookSecrets[0]!,
          webhookUrl: `${config.publicUrl}/api/webhooks/fastspring`,
          storefront: fs.storefront!,
          // The store's public key: the API encrypts checkouts' secure payloads with its private key.
          ...(fs.securePayloadKey ? { securePayloadPublicKey: createPublicKey(fs.securePayloadKey).export({ type: 'spki', format: 'pem' }).toString() } : {}),
          products: fsProducts.map((p) => ({ path: p.id, display: `Tickety ${p.name} (${p.interval === 'year' ? 'yearly' : 'monthly'})`, price: p.amount, currency: p.currency, intervalUnit: p.interval, intervalLength: 1 })),
          clock: app.clock,
          fetch: inProcess,
          baseUrl: fsBase,
          control: fsControl,
          ...(state.onChange ? { onChange: state.onChange } : {}),
        });
      });
      restoreOnReady(app, 'fastspring', fsControl, state.initialState);
      app.log.info({ base: fsBase }, 'demo mode: FastSpring is the built-in sandbox');
    }
    // Chargebee: the stand-in at /sandbox/chargebee (API v2, hosted checkout, portal), its webhooks
    // with the API's basic-auth credentials. Retries start after 2 s (Chargebee's ratios kept).
    const cb = config.billing.chargebee;
    const cbBase = `${config.publicUrl}/sandbox/chargebee`;
    const cbPrices = pricesOf(config.plans, 'chargebee');
    const [cbUser, ...cbPass] = (cb.webhookCredentials[0] ?? '').split(':');
    if (cb.apiBase === `${cbBase}/api/v2` && cb.site && cb.apiKey && cbUser && cbPass.length > 0 && cbPrices.length > 0) {
      const state = standInState(config.database.dataDir, 'chargebee', app.log);
      const cbControl = controls.chargebee ?? createChargebeeSandboxControl();
      await app.register(async function chargebeeContext(scope) {
        scope.addHook('onRoute', (route) => {
          route.config = { ...(route.config ?? {}), ...CSRF_EXEMPT };
        });
        await scope.register(chargebeeSandbox, {
          prefix: '/sandbox/chargebee',
          site: cb.site!,
          apiKey: cb.apiKey!,
          webhookUsername: cbUser,
          webhookPassword: cbPass.join(':'),
          webhookUrl: `${config.publicUrl}/api/webhooks/chargebee`,
          itemPrices: cbPrices.map((price) => ({
            id: price.id,
            itemId: `tickety-${price.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
            name: `Tickety ${price.name}`,
            price: Math.round(price.amount * 100),
            currencyCode: price.currency,
            periodUnit: price.interval,
            period: 1,
          })),
          clock: app.clock,
          fetch: inProcess,
          baseUrl: cbBase,
          retryBaseMs: 2000,
          control: cbControl,
          ...(state.onChange ? { onChange: state.onChange } : {}),
        });
      });
      restoreOnReady(app, 'chargebee', cbControl, state.initialState);
      app.log.info({ base: cbBase }, 'demo mode: Chargebee is the built-in sandbox');
    }
    app.log.info({ base: config.discord.origin }, 'demo mode: Discord is the built-in sandbox');
    // Subscription analytics: ProfitWell's profitwell.js stand-in at /sandbox/analytics (its starts listed at its `/`).
    if (config.analyticsToken && config.analyticsScriptUrl === `${config.publicUrl}/sandbox/analytics/profitwell.js`) {
      await app.register(async function analyticsContext(scope) {
        scope.addHook('onRoute', (route) => {
          route.config = { ...(route.config ?? {}), ...CSRF_EXEMPT };
        });
        await scope.register(analyticsSandbox, { prefix: '/sandbox/analytics', token: config.analyticsToken!, clock: app.clock });
      });
    }
  };
}
