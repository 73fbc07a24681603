import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';

/** Entry point: `node dist/server.js` (all-in-one with ALL_IN_ONE=1) or `tsx watch src/server.ts`. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Tickety API: ${error.message}`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const app = await buildApp(config);
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
  await app.listen({ host: config.host, port: config.port });
  app.log.info(
    { url: config.publicUrl, allInOne: config.allInOne, demo: config.demo, database: config.database.url ? 'postgres' : 'pglite' },
    config.demo ? 'Tickety is up (demo mode: Discord is the local sandbox)' : 'Tickety is up',
  );
}

main().catch((error: unknown) => {
  console.error('Tickety API failed to start:', error);
  process.exit(1);
});
