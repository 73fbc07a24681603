import { randomBytes } from 'node:crypto';
import { createSandboxControl, startDemoBot } from '@tickety/sandbox';
import { loadConfig } from '../src/config';
import { serve } from '../src/serve';
import { DEMO_DISCORD, mountSandbox } from './demo';
import { seedDemo } from './seed';
import { chooseLogging, launcherEnv, launcherLogOptions, startBanner } from './terminal-log';

/**
 * The all-in-one launcher's server (`node dist/all-in-one.js`, what `npm start` runs): the API, the
 * site and, while no Discord application is configured, the Discord sandbox beside it (demo mode),
 * with the demo's seed data (demo/seed.ts) written before it takes requests, and the demo bot
 * (@tickety/sandbox's startDemoBot: ticket history, live events, shard heartbeats, transcripts) talking
 * to it over HTTP once it listens (DEMO_BOT=off leaves it out). With DISCORD_CLIENT_ID set it is the
 * production server with the site.
 */
const sandbox = createSandboxControl();
/** How long an hour lasts for the demo bot's auto-close (DEMO_BOT_HOUR_MS; docs/sandbox.md, "Auto-close"). */
const hourMs = demoHourMs(process.env.DEMO_BOT_HOUR_MS);

function demoHourMs(value: string | undefined): number | null {
  if (value === undefined || value === '') return null;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 100 || ms > 3_600_000) {
    console.error(`DEMO_BOT_HOUR_MS must be a whole number of milliseconds from 100 to 3600000 (got "${value}"): auto-close counts real hours.`);
    return null;
  }
  return ms;
}

function demoClockLine(ms: number | null): string {
  if (ms === null) return '  Auto-close: the demo bot counts real hours (DEMO_BOT_HOUR_MS=60000 makes its hour a minute).';
  return `  Auto-close: one hour of the demo bot lasts ${ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`} (DEMO_BOT_HOUR_MS).`;
}

/**
 * DEMO_S3=1 in demo mode: transcripts in the sandbox's S3 stand-in on this server (mounted by
 * demo.ts at /sandbox/s3) instead of the database, with demo keys made at each start; its objects
 * are in memory (docs/operations.md, "Transcript storage").
 */
function demoS3Env(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (!['1', 'true', 'yes', 'on'].includes((env.DEMO_S3 ?? '').trim().toLowerCase()) || env.DISCORD_CLIENT_ID) return env;
  const origin = (env.PUBLIC_URL ?? `http://localhost:${env.PORT ?? 3000}`).replace(/\/+$/, '');
  return { ...env, BLOB_STORE: 's3', S3_ENDPOINT: `${origin}/sandbox/s3`, S3_BUCKET: 'transcripts', S3_ACCESS_KEY_ID: 'tickety-demo', S3_SECRET_ACCESS_KEY: randomBytes(24).toString('hex') };
}
// In a terminal, readable warnings and errors after a banner; JSON lines otherwise (terminal-log.ts).
let logging: ReturnType<typeof chooseLogging>;
try {
  logging = chooseLogging(process.env, process.stdout.isTTY === true);
} catch (error) {
  console.error(`Tickety: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(78); // EX_CONFIG, as an invalid variable of the API's
}
serve(
  () => loadConfig(launcherEnv(demoS3Env(process.env), logging), DEMO_DISCORD),
  {
    extensions: [async (app) => (app.config.demo ? mountSandbox(sandbox)(app) : undefined)],
    ...launcherLogOptions(logging, process.stdout),
  },
  {
    beforeListen: async (app) => {
      if (!app.config.demo) return;
      // The demo's data is a courtesy: a failure is logged and the next start finishes what is missing.
      try {
        await seedDemo(app, sandbox);
      } catch (error) {
        app.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'demo: the seed data could not be written completely (tried again at the next start)');
      }
    },
    afterListen: (app, address) => {
      if (logging.format === 'text') {
        process.stdout.write(startBanner(app.config, logging));
        if (app.config.demo) process.stdout.write(`${demoClockLine(hourMs)}\n\n`);
        // The shutdown itself logs at info, below what a terminal shows: say it here.
        for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.stdout.write('\n  Stopping Tickety…\n'));
      }
      const key = app.config.bot.apiKey;
      if (!app.config.demo || !key || process.env.DEMO_BOT === 'off') return;
      // The bot calls the API like any client, on the address it listens on (0.0.0.0: this host).
      const url = new URL(address);
      if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = '127.0.0.1';
      // Its timers do not keep the process alive; a shutdown simply ends it.
      startDemoBot({ apiBase: url.origin, key, cdnBase: app.config.discord.cdnBase, log: app.log, ...(hourMs ? { desk: { autoCloseHourMs: hourMs } } : {}) });
    },
  },
).catch((error: unknown) => {
  console.error('Tickety failed to start:', error);
  process.exit(1);
});
