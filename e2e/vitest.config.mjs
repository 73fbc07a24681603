import { reporters } from '@tickety/build-config/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['./src/global-setup.ts'],
    // One browser at a time on a 2-core machine; each file launches its own Chromium.
    fileParallelism: false,
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters,
    passWithNoTests: false,
  },
});
