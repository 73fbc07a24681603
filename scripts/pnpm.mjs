#!/usr/bin/env node
// Runs the pinned pnpm on a machine that has only Node 20 and npm.
// Order: a pnpm on PATH with the pinned version; corepack (hash-pinned packageManager); npx pnpm@<pin>.
// Children get a `pnpm` on PATH too (a small shim in node_modules/.cache), because turbo looks for
// the package manager's binary by name.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pin = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('+')[0].split('@')[1];
const baseEnv = { ...process.env, COREPACK_ENABLE_DOWNLOAD_PROMPT: '0', COREPACK_ENABLE_STRICT: '0' };

function works(cmd, args) {
  const probe = spawnSync(cmd, [...args, '--version'], { env: baseEnv, encoding: 'utf8', cwd: root });
  return probe.status === 0 && probe.stdout.trim() === pin;
}

let resolved;
export function pnpmCommand() {
  if (!resolved) {
    if (works('pnpm', [])) resolved = ['pnpm', []];
    else if (works('corepack', ['pnpm'])) resolved = ['corepack', ['pnpm']];
    else resolved = ['npx', ['-y', `pnpm@${pin}`]];
  }
  return resolved;
}

/** The environment for pnpm and its children: PATH starts with a `pnpm` shim when none is installed. */
function pnpmEnv(extra = {}) {
  const [cmd, pre] = pnpmCommand();
  const env = { ...baseEnv, ...extra };
  if (cmd === 'pnpm') return env;
  const dir = join(root, 'node_modules', '.cache', 'tickety-pnpm');
  mkdirSync(dir, { recursive: true });
  const shim = join(dir, 'pnpm');
  writeFileSync(shim, `#!/bin/sh\nexec ${[cmd, ...pre].join(' ')} "$@"\n`);
  chmodSync(shim, 0o755);
  env.PATH = `${dir}${delimiter}${env.PATH ?? ''}`;
  return env;
}

export function pnpm(args, opts = {}) {
  const [cmd, pre] = pnpmCommand();
  const child = spawnSync(cmd, [...pre, ...args], { stdio: 'inherit', env: pnpmEnv(opts.env), cwd: opts.cwd ?? root });
  return child.status ?? 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exit(pnpm(process.argv.slice(2)));
}
