// @ts-check
/** Shared vitest settings: every package writes a JSON result file the root test runner adds up. */
export const reporters = ['default', ['json', { outputFile: '.vitest-results.json' }]];

/** @param {{ environment?: 'node'|'happy-dom', setupFiles?: string[], include?: string[] }} [o] */
export function vitestConfig(o = {}) {
  return {
    test: {
      environment: o.environment ?? 'node',
      setupFiles: o.setupFiles ?? [],
      include: o.include ?? ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
      reporters,
      passWithNoTests: false,
    },
  };
}
