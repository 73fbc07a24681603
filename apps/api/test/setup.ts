import { afterAll } from 'vitest';
import { closeAdminPools, closeSharedPglite } from './helpers/db';

// Per test file: close the file's PGlite and the schema-admin pools once all its suites ran.
afterAll(async () => {
  await closeSharedPglite();
  await closeAdminPools();
});
