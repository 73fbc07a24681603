// @ts-check
/** Shared vitest settings: every package writes a JSON result file the root test runner adds up. */
export const reporters = ['default', ['json', { outputFile: '.vitest-results.json' }]];

/** @param {{ environment?: 'node'|'happy-dom', setupFiles?: string[], include?: string[] }} [o] */
export function vitestConfig(o = {}) {
  return {
    test: {
      environment: o.environment ?? 'node',
      // Scripts a component adds are not run in happy-dom: they count as loaded (no error printed).
      environmentOptions: { happyDOM: { settings: { disableJavaScriptFileLoading: true, handleDisabledFileLoadingAsSuccess: true } } },
      setupFiles: o.setupFiles ?? [],
      include: o.include ?? ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
      reporters,
      passWithNoTests: false,
    },
  };
}
