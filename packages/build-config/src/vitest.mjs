// @ts-check
/** Shared vitest settings: every package writes a JSON result file the root test runner adds up. */
import { catalogPlugin } from './catalog.mjs';

export const reporters = ['default', ['json', { outputFile: '.vitest-results.json' }]];

/** @param {{ environment?: 'node'|'happy-dom', setupFiles?: string[], include?: string[] }} [options] */
export function vitestConfig(options = {}) {
  return {
    plugins: [catalogPlugin()],
    test: {
      environment: options.environment ?? 'node',
      // Scripts a component adds are not run in happy-dom: they count as loaded (no error printed).
      environmentOptions: { happyDOM: { settings: { disableJavaScriptFileLoading: true, handleDisabledFileLoadingAsSuccess: true } } },
      setupFiles: options.setupFiles ?? [],
      include: options.include ?? ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
      reporters,
      passWithNoTests: false,
      // CI runs every package's tests at once on a shared machine: a component test that types a
      // sentence takes ~3 s alone and more under that load, past vitest's 5 s default. The limit is
      // for tests that hang; speed is measured by the bench scripts, never by a test's clock.
      testTimeout: 20_000,
      hookTimeout: 20_000,
    },
  };
}
