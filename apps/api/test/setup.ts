import { afterAll } from 'vitest';
import { closeAdminPools } from './helpers/db';

// Per test file: close the schema-admin pools once all its suites ran. The PGlite instance is kept
// for the next file in this worker (files share a worker: vitest.config.mjs, isolate false).
afterAll(async () => {
  await closeAdminPools();
});
