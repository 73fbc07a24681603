import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ChargebeeSandboxControl,
  createChargebeeSandboxControl,
  createFastspringSandboxControl,
  createMonetizationControl,
  createPaddleSandboxControl,
  createSandboxControl,
  type FastspringSandboxControl,
  type MonetizationControl,
  type PaddleSandboxControl,
  type SandboxControl,
} from '@tickety/sandbox';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { DEMO_DISCORD, mountSandbox } from '../../demo/demo';
import { buildApp } from '../../src/app';
import { type AppConfig, loadConfig } from '../../src/config';
import type { FetchLike } from '../../src/lib/discord';
import { injectFetch } from '../../src/lib/inject-fetch';
import { type TestClock, testClock } from './clock';
import { openSuiteDb, type SuiteDb, type TestDatabase } from './db';
import { LogCapture } from './logs';

export const PUBLIC_URL = 'http://localhost:3000';
/** The dashboard (shell) origin: a different origin from the API, as in the split deployment. */
export const DASHBOARD_ORIGIN = 'http://localhost:5173';
export const SECOND_DASHBOARD_ORIGIN = 'http://127.0.0.1:5173';
export const FOREIGN_ORIGIN = 'https://evil.example';
/** A site folder that does not exist. */
export const NO_SITE = join(tmpdir(), `tickety-test-no-site-${process.pid}`);

/** The environment of a test app: demo mode (no DISCORD_CLIENT_ID), memory data dir, generous rate limits. */
export function testEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    NODE_ENV: 'test',
    PUBLIC_URL,
    DASHBOARD_ORIGINS: `${DASHBOARD_ORIGIN},${SECOND_DASHBOARD_ORIGIN}`,
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'debug',
    RATE_LIMIT_MAX: '100000',
    AUTH_RATE_LIMIT_MAX: '100000',
    SANDBOX_RATE_LIMIT_MAX: '100000',
    PROVIDER_RATE_LIMIT_MAX: '100000',
    STAFF_RATE_LIMIT_MAX: '100000',
    // Staff powers as long-lived as the session itself: suites keep one session per user across tests
    // that move the clock by hours. test/routes/staff-sessions.test.ts tests the real lifetimes.
    STAFF_SESSION_IDLE_SECONDS: String(24 * 3600),
    STAFF_SESSION_MAX_AGE_SECONDS: String(7 * 24 * 3600),
    // The webhook inbox's worker off: tests apply events themselves (app.webhookInbox.work()).
    WEBHOOK_WORK_INTERVAL_MS: '0',
    // Reconciliation too (tests run it: app.billingReconciler.run()).
    BILLING_RECONCILE_INTERVAL_MS: '0',
    // Load shedding off: suites run side by side on a busy machine (test/plugins/http-server.test.ts turns it on).
    MAX_EVENT_LOOP_DELAY_MS: '0',
    // No site unless a test gives one (never the repository's .data/site).
    STATIC_ROOT: NO_SITE,
    ...extra,
  };
}

export interface DiscordCall {
  method: string;
  url: string;
}

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  clock: TestClock;
  logs: LogCapture;
  db: SuiteDb;
  /** Drives the mounted Discord sandbox (faults, tokens, requests it received). */
  sandbox: SandboxControl;
  /** Drives the mounted Paddle stand-in (its deliveries, chaos, subscriptions). */
  paddle: PaddleSandboxControl;
  /** The FastSpring, Chargebee and Discord app-subscription stand-ins. */
  fastspring: FastspringSandboxControl;
  chargebee: ChargebeeSandboxControl;
  discordBilling: MonetizationControl;
  /** Every call the API made to "Discord" (through its discordFetch). */
  discordCalls: DiscordCall[];
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string | undefined>;
  /** Wraps the fetch the API uses for Discord (default: the in-process sandbox). */
  wrapFetch?: (inner: FetchLike) => FetchLike;
  /** Wraps the suite's database before the app gets it (outages, failing queries). */
  wrapDb?: (db: SuiteDb) => SuiteDb | Promise<SuiteDb>;
  /** Adds to the app before it is ready (e.g. a route exercising a guard). */
  extend?: (app: FastifyInstance) => void | Promise<void>;
}

/** Builds the API through buildApp + loadConfig, on the given database, with a test clock and captured logs. */
export async function createTestApp(db: SuiteDb, options: TestAppOptions = {}): Promise<TestApp> {
  const config = loadConfig(testEnv(options.env), DEMO_DISCORD);
  const clock = testClock();
  const logs = new LogCapture();
  const sandbox = createSandboxControl();
  const discordCalls: DiscordCall[] = [];
  let inner: FetchLike | null = null;
  const counting: FetchLike = (input, init) => {
    discordCalls.push({ method: (init?.method ?? 'GET').toUpperCase(), url: input });
    if (!inner) throw new Error('the app is not built yet');
    return inner(input, init);
  };
  const discordFetch = options.wrapFetch ? options.wrapFetch(counting) : counting;
  // Demo mode as the all-in-one launcher composes it: the sandbox mounted beside the API (apps/api/demo).
  const paddle = createPaddleSandboxControl();
  const fastspring = createFastspringSandboxControl();
  const chargebee = createChargebeeSandboxControl();
  const discordBilling = createMonetizationControl();
  const extensions = config.demo ? [mountSandbox(sandbox, { paddle, fastspring, chargebee, discord: discordBilling })] : [];
  const app = await buildApp(config, { db, clock, logStream: logs, discordFetch, extensions });
  inner = injectFetch(app);
  await options.extend?.(app);
  await app.ready();
  return {
    app,
    config,
    clock,
    logs,
    db,
    sandbox,
    paddle,
    fastspring,
    chargebee,
    discordBilling,
    discordCalls,
    close: () => app.close(),
  };
}

/**
 * Registers beforeAll/afterAll in the current describe: a fresh database (schema) and an app on it.
 * Read the fields inside tests or hooks.
 */
export function useTestApp(database: TestDatabase, options: TestAppOptions = {}): TestApp {
  let current: TestApp | null = null;
  let drop: (() => Promise<void>) | null = null;
  beforeAll(async () => {
    const opened = await openSuiteDb(database);
    drop = opened.drop;
    current = await createTestApp(options.wrapDb ? await options.wrapDb(opened.db) : opened.db, options);
  });
  afterAll(async () => {
    await current?.close();
    await drop?.();
    current = null;
  });
  const get = (): TestApp => {
    if (!current) throw new Error('The test app is not built (use it inside tests or hooks).');
    return current;
  };
  return {
    get app() {
      return get().app;
    },
    get config() {
      return get().config;
    },
    get clock() {
      return get().clock;
    },
    get logs() {
      return get().logs;
    },
    get db() {
      return get().db;
    },
    get sandbox() {
      return get().sandbox;
    },
    get paddle() {
      return get().paddle;
    },
    get fastspring() {
      return get().fastspring;
    },
    get chargebee() {
      return get().chargebee;
    },
    get discordBilling() {
      return get().discordBilling;
    },
    get discordCalls() {
      return get().discordCalls;
    },
    close: () => get().close(),
  };
}
