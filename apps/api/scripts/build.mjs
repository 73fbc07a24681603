#!/usr/bin/env node
// Bundles src/server.ts into dist/server.js (ESM, Node 20). Workspace packages (@tickety/*) are
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
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      if (workspace(name)) return undefined;
      if (deps.has(name)) return { path: args.path, external: true };
      return undefined;
    });
  },
};

rmSync(join(root, 'dist'), { recursive: true, force: true });
const result = await build({
  entryPoints: [join(root, 'src/server.ts')],
  outfile: join(root, 'dist/server.js'),
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
});
const inputs = Object.keys(result.metafile.inputs).filter((p) => !p.includes('node_modules')).length;
console.log(`api: dist/server.js (${inputs} source files bundled)`);
