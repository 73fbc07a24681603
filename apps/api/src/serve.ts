import type { FastifyInstance } from 'fastify';
import { type BuildOptions, buildApp } from './app';
import { type AppConfig, ConfigError } from './config';

/**
 * Starts the API from a configuration (read by the entry point): listens, logs that it is up, and
 * closes cleanly on SIGINT/SIGTERM. The entries: server.ts (production) and demo/all-in-one.ts (`npm start`).
 * `beforeListen` runs once the app is ready and before it takes requests (the demo's seed data);
 * `afterListen` once it listens, with the address it listens on (the demo bot, a client over HTTP).
 */
export async function serve(
  load: () => AppConfig,
  options: BuildOptions = {},
  hooks: { beforeListen?: (app: FastifyInstance) => Promise<void>; afterListen?: (app: FastifyInstance, address: string) => void } = {},
): Promise<void> {
  let config: AppConfig;
  try {
    config = load();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Tickety API: ${error.message}`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const app = await buildApp(config, options);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  if (hooks.beforeListen) {
    await app.ready();
    await hooks.beforeListen(app);
  }
  const address = await app.listen({ host: config.host, port: config.port });
  app.log.info(
    { url: config.publicUrl, allInOne: config.allInOne, demo: config.demo, database: config.database.url ? 'postgres' : 'pglite' },
    config.demo ? 'Tickety is up (demo mode: Discord is the local sandbox)' : 'Tickety is up',
  );
  hooks.afterListen?.(app, address);
}
