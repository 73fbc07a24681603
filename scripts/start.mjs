#!/usr/bin/env node
// `npm start`: install, build, deploy every front end into the site folder (.data/site, or
// STATIC_ROOT) and serve everything from one process on http://localhost:3000 (the site, the API
// and, without Discord credentials, the Discord sandbox in demo mode, on the embedded PGlite
// database). Needs only Node 20 and npm.
import { existsSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APPS, DEFAULT_SITE, deployAll } from './deploy.mjs';
import { pnpm } from './pnpm.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const step = (title) => console.log(`\n\u001b[32m▸ ${title}\u001b[0m`);

step('Installing dependencies (pnpm, pinned)');
if (pnpm(['install', '--frozen-lockfile']) !== 0) process.exit(1);

step('Building the shell, the four remotes and the API');
// A build restored from turbo's cache lands on top of what dist/ holds (the bundler's own clean does
// not run then): the front ends start empty, so an unchanged build is the same version, never a new one.
for (const app of APPS) rmSync(join(root, 'apps', app, 'dist'), { recursive: true, force: true });
if (pnpm(['exec', 'turbo', 'run', 'build', '--filter=./apps/*', '--output-logs=errors-only']) !== 0) process.exit(1);

// The all-in-one launcher's server: the API and the site, and the Discord sandbox beside them in demo mode.
const server = join(root, 'apps/api/dist/all-in-one.js');
if (!existsSync(server)) {
  console.error(`The API build did not produce ${server}.`);
  process.exit(1);
}

// The same site layout a static host gets (docs/operations.md, "Deploying the front ends"): each
// build is a content-hashed version; an unchanged build is already there (nothing is copied).
const site = resolve(process.env.STATIC_ROOT || DEFAULT_SITE);
step(`Deploying the front ends into ${site}`);
// A front end that cannot be deployed keeps the version live before (if any); the rest serve.
for (const { app, error } of await deployAll(APPS, { site, build: false })) console.error(`${app}: not deployed: ${error.message}`);

const env = {
  NODE_ENV: 'production',
  ALL_IN_ONE: '1',
  PORT: process.env.PORT ?? '3000',
  ...process.env,
  STATIC_ROOT: site,
};
step(`Starting Tickety on http://localhost:${env.PORT}${env.DISCORD_CLIENT_ID ? '' : ' (demo mode: Discord is the local sandbox)'}`);
const child = spawn(process.execPath, [server], { stdio: 'inherit', env, cwd: root });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
