import { defineConfig } from 'vitest/config';
import { vitestConfig } from '@tickety/build-config/vitest';

const base = vitestConfig({ include: ['test/**/*.test.ts', 'src/**/*.test.ts'] });

export default defineConfig({
  test: {
    ...base.test,
    // PGlite boots a WASM PostgreSQL per suite: give slow CI machines room, and run files in parallel
    // processes (each suite has its own database or schema).
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
