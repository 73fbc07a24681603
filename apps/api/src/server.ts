import { loadConfig } from './config';
import { serve } from './serve';

/**
 * The API's production entry: `node dist/server.js` (with ALL_IN_ONE=1 it also serves the site). It
 * needs a Discord application (DISCORD_CLIENT_ID...): demo mode, with the sandbox, is the all-in-one
 * launcher's (demo/all-in-one.ts, `npm start`).
 */
serve(() => loadConfig(process.env)).catch((error: unknown) => {
  console.error('Tickety API failed to start:', error);
  process.exit(1);
});
