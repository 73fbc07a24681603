// @ts-check
/**
 * `npm run bench` (root) → `pnpm --filter @tickety/bench run bench`: builds the apps (turbo, cached),
 * then runs every bench script one after the other (never in parallel: 2 cores) and prints figures.
 * Nothing is asserted; a script that fails is reported and the others still run. The soak (soak.mjs,
 * 5 minutes by default), capacity.mjs (a calculation) and trace-home.mjs (a trace to read) are not
 * among them (README.md).
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_DIR } from './lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const SCRIPTS = ['bundle-size.mjs', 'panel-menu.mjs', 'singletons.mjs', 'lighthouse.mjs', 'first-status.mjs', 'api-me.mjs', 'api-reads.mjs', 'bot-ingest.mjs', 'ticket-stream.mjs', 'statistics.mjs', 'transcript-viewer.mjs', 'webhooks.mjs', 'support-search.mjs', 'request-bodies.mjs', 'storage.mjs'];

if (!process.env.BENCH_SKIP_BUILD) {
  console.log('▸ building the apps (turbo, cached)');
  const build = spawnSync(process.execPath, [join(REPO_DIR, 'scripts/pnpm.mjs'), 'exec', 'turbo', 'run', 'build', '--filter=./apps/*', '--output-logs=errors-only'], { cwd: REPO_DIR, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const failed = [];
for (const script of SCRIPTS) {
  console.log(`\n▸ ${script}  (${new Date().toISOString()})\n`);
  const child = spawnSync(process.execPath, [join(here, script)], { stdio: 'inherit' });
  if (child.status !== 0) failed.push(script);
}
if (failed.length) {
  console.log(`\nfailed: ${failed.join(', ')}`);
  process.exit(1);
}
