#!/usr/bin/env node
// Runs the pinned pnpm on a machine that has only Node 20 and npm.
// Order: a pnpm on PATH with the pinned version; corepack (hash-pinned packageManager); npx pnpm@<pin>.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pin = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('+')[0].split('@')[1];
const env = { ...process.env, COREPACK_ENABLE_DOWNLOAD_PROMPT: '0', COREPACK_ENABLE_STRICT: '0' };

function works(cmd, args) {
  const r = spawnSync(cmd, [...args, '--version'], { env, encoding: 'utf8', cwd: root });
  return r.status === 0 && r.stdout.trim() === pin;
}

export function pnpmCommand() {
  if (works('pnpm', [])) return ['pnpm', []];
  if (works('corepack', ['pnpm'])) return ['corepack', ['pnpm']];
  return ['npx', ['-y', `pnpm@${pin}`]];
}

export function pnpm(args, opts = {}) {
  const [cmd, pre] = pnpmCommand();
  const r = spawnSync(cmd, [...pre, ...args], { stdio: 'inherit', env: { ...env, ...opts.env }, cwd: opts.cwd ?? root });
  return r.status ?? 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exit(pnpm(process.argv.slice(2)));
}
