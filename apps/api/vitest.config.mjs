import { vitestConfig } from '@tickety/build-config/vitest';
import { defineConfig } from 'vitest/config';

const base = vitestConfig({ include: ['test/**/*.test.ts', 'src/**/*.test.ts'], setupFiles: ['./test/setup.ts'] });

export default defineConfig({
  test: {
    ...base.test,
    // Database tests run on PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set (test/helpers/db.ts).
    globalSetup: ['./test/global-setup.ts'],
    // PGlite boots a WASM PostgreSQL in seconds: one per worker process, shared by the files it runs
    // (isolate: false keeps test/helpers/db.ts's instance between files; every suite has its own
    // schema). Give slow, shared machines room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    isolate: false,
    maxWorkers: 2,
  },
});
