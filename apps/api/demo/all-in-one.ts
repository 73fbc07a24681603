import { loadConfig } from '../src/config';
import { serve } from '../src/serve';
import { DEMO_DISCORD, mountSandbox } from './demo';

/**
 * The all-in-one launcher's server (`node dist/all-in-one.js`, what `npm start` runs): the API, the
 * site and, while no Discord application is configured, the Discord sandbox beside it (demo mode).
 * With DISCORD_CLIENT_ID set it is the production server with the site.
 */
serve(
  () => loadConfig(process.env, DEMO_DISCORD),
  { extensions: [async (app) => (app.config.demo ? mountSandbox()(app) : undefined)] },
).catch((error: unknown) => {
  console.error('Tickety failed to start:', error);
  process.exit(1);
});
