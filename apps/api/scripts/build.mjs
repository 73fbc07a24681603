#!/usr/bin/env node
// Bundles the API: src/server.ts into dist/server.js (production, no sandbox) and demo/all-in-one.ts
// into dist/all-in-one.js (the all-in-one launcher: npm start). ESM, Node 20. Workspace packages (@tickety/*) are
// inlined (they export TypeScript source); every other package stays external and is loaded from
// node_modules at run time. Migrations and config/plans.json are read from apps/api at run time.
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const workspace = (name) => name.startsWith('@tickety/');

const deps = new Set(Object.keys(pkg.dependencies ?? {}));

/**
 * This app's own dependencies stay external (installed next to it); workspace packages are inlined,
 * and so is anything they import that this app does not list (a workspace package's own dependency).
 */
const externals = {
  name: 'externals',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      if (workspace(name)) return undefined;
      if (deps.has(name)) return { path: args.path, external: true };
      return undefined;
    });
  },
};

/**
 * Bundles one entry (paths relative to apps/api). `write: false` answers the bundle without writing
 * it (the test that checks what the production build contains).
 * @param {string} entry
 * @param {string} outfile
 * @param {{ write?: boolean }} [options]
 */
export function bundle(entry, outfile, options = {}) {
  return build({
    entryPoints: [join(root, entry)],
    outfile: join(root, outfile),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    legalComments: 'none',
    plugins: [externals],
    banner: { js: `// ${pkg.name} ${pkg.version}: built by scripts/build.mjs` },
    metafile: true,
    logLevel: 'warning',
    write: options.write ?? true,
  });
}

/**
 * The entries: the production server (no sandbox in it), the all-in-one launcher's (demo/), and the
 * body worker's thread that both start beside themselves (src/lib/body-worker.ts).
 */
const ENTRIES = [
  ['src/server.ts', 'dist/server.js'],
  ['demo/all-in-one.ts', 'dist/all-in-one.js'],
  ['src/workers/body-worker.ts', 'dist/body-worker.js'],
];

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  for (const [entry, outfile] of ENTRIES) {
    const result = await bundle(entry, outfile);
    const inputs = Object.keys(result.metafile.inputs).filter((p) => !p.includes('node_modules')).length;
    console.log(`api: ${outfile} (${inputs} source files bundled)`);
  }
}
