#!/usr/bin/env node
// `npm start`: install, build and serve everything from one process on http://localhost:3000
// (shell, remotes, API and, without Discord credentials, the Discord sandbox in demo mode, on the
// embedded PGlite database). Needs only Node 20 and npm.
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pnpm } from './pnpm.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const step = (title) => console.log(`\n\u001b[32m▸ ${title}\u001b[0m`);

step('Installing dependencies (pnpm, pinned)');
if (pnpm(['install', '--frozen-lockfile']) !== 0) process.exit(1);

step('Building the shell, the four remotes and the API');
if (pnpm(['exec', 'turbo', 'run', 'build', '--filter=./apps/*', '--output-logs=errors-only']) !== 0) process.exit(1);

const server = join(root, 'apps/api/dist/server.js');
if (!existsSync(server)) {
  console.error(`The API build did not produce ${server}.`);
  process.exit(1);
}

const env = {
  NODE_ENV: 'production',
  ALL_IN_ONE: '1',
  PORT: process.env.PORT ?? '3000',
  ...process.env,
};
step(`Serving Tickety on http://localhost:${env.PORT}${env.DISCORD_CLIENT_ID ? '' : ' (demo mode: Discord is the local sandbox)'}`);
const child = spawn(process.execPath, [server], { stdio: 'inherit', env, cwd: root });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
