#!/usr/bin/env node
// `npm test`: install everything (pnpm, Debian's Chromium for the end-to-end tests), lint, type-check,
// build, run every test of every package (unit, component, API on PGlite and, with TEST_DATABASE_URL, PostgreSQL,
// end to end in Chromium), then print the totals as the last line:
//   tests: N passed, N failed, N skipped
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pnpm } from './pnpm.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const startedAt = Date.now();
const step = (title) => console.log(`\n\u001b[32m▸ ${title}\u001b[0m`);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = isRoot ? [] : ['sudo', '-n'];
  step("Installing Debian's Chromium for the end-to-end tests");
  const run = (args) => spawnSync(sudo[0] ?? args[0], [...sudo.slice(1), ...(sudo.length ? args : args.slice(1))], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
  const ok = run(['apt-get', 'update', '-qq']) && run(['apt-get', 'install', '-y', '-qq', 'chromium']);
  if (!ok || !existsSync(CHROMIUM)) {
    console.error(`Could not install Chromium (apt-get install chromium). Install it, or set CHROMIUM_PATH.`);
    return false;
  }
  return true;
}

function resultFiles() {
  const files = [];
  for (const group of ['apps', 'packages']) {
    const dir = join(root, group);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) files.push(join(dir, name, '.vitest-results.json'));
  }
  files.push(join(root, 'e2e/.vitest-results.json'));
  return files;
}

step('Installing dependencies (pnpm, pinned)');
if (pnpm(['install', '--frozen-lockfile']) !== 0) process.exit(1);
const haveChromium = ensureChromium();

for (const file of resultFiles()) rmSync(file, { force: true });

step('Checking the whole repository: dead code (knip) and the reading rules (scripts/lint-code.mjs)');
const repoStatus = Math.max(pnpm(['exec', 'knip', '--no-progress']), spawnSync(process.execPath, [join(root, 'scripts', 'lint-code.mjs')], { stdio: 'inherit' }).status ?? 1);

step('Linting, type-checking, building and testing every package (turbo)');
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
// The linter (file names, imports, accessibility rules) and the type checker fail the run like a test.
const status = pnpm(['exec', 'turbo', 'run', 'lint', 'typecheck', 'test', `--concurrency=${concurrency}`, '--continue', '--output-logs=new-only']);

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
/** Each package's tests: how many passed and failed, and how long its run took (its first start to its last file's end). */
const perPackage = [];
for (const file of resultFiles()) {
  if (!existsSync(file)) {
    if (existsSync(join(dirname(file), 'package.json'))) missing.push(dirname(file).slice(root.length + 1));
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  failed += report.numFailedTestSuites && !report.numFailedTests ? report.numFailedTestSuites : 0;
  const ends = (report.testResults ?? []).map((result) => result.endTime ?? 0).filter((end) => end > 0);
  const ms = ends.length && report.startTime ? Math.max(...ends) - report.startTime : 0;
  perPackage.push({ name: dirname(file).slice(root.length + 1), passed: report.numPassedTests ?? 0, failed: report.numFailedTests ?? 0, ms });
}
const minutes = (ms) => `${Math.floor(ms / 60_000)}m ${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`;
console.log('\nTime per package (its test run, slowest first):');
for (const p of perPackage.sort((a, b) => b.ms - a.ms)) {
  console.log(`  ${p.name.padEnd(22)} ${minutes(p.ms).padStart(8)}  ${p.passed} passed${p.failed ? `, ${p.failed} failed` : ''}`);
}
console.log(`  ${'whole run'.padEnd(22)} ${minutes(Date.now() - startedAt).padStart(8)}  (install, lint, type-check, build and tests)`);
console.log('');
if (missing.length) console.log(`No test results from: ${missing.join(', ')}`);
if (!haveChromium) console.log('End-to-end tests could not run: Chromium is missing.');
if ((status !== 0 || repoStatus !== 0) && failed === 0) failed = 1; // a lint, build or runner failure counts as a failure
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(status === 0 && repoStatus === 0 && failed === 0 && haveChromium ? 0 : 1);
