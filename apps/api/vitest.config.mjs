import { defineConfig } from 'vitest/config';
import { vitestConfig } from '@tickety/build-config/vitest';

const base = vitestConfig({ include: ['test/**/*.test.ts', 'src/**/*.test.ts'], setupFiles: ['./test/setup.ts'] });

export default defineConfig({
  test: {
    ...base.test,
    // Database tests run on PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set (test/helpers/db.ts).
    globalSetup: ['./test/global-setup.ts'],
    // PGlite boots a WASM PostgreSQL per test file: give slow, shared machines room. Files run in
    // parallel processes (each suite has its own schema).
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
