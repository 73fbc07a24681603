// @ts-check
/**
 * Builds an app's `src/prerender.tsx` for Node as `dist/prerender.mjs` (production builds, when the
 * file exists): the server renders public pages with it, so their first paint needs no JavaScript.
 * One self-contained ES module (React and everything else bundled in; stylesheets left out, they
 * come with the page's own <link>), never loaded by a browser.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CATALOG_FILE, compileCatalog } from './catalog.mjs';

/** @param {{ appDir: string }} o */
export async function buildPrerender({ appDir }) {
  const entry = join(appDir, 'src', 'prerender.tsx');
  if (!existsSync(entry)) return false;
  const { build } = await import('esbuild');
  await build({
    entryPoints: [entry],
    outfile: join(appDir, 'dist', 'prerender.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    // The same asset rules as the browser build: markdown and SVG as text.
    loader: { '.css': 'empty', '.md': 'text', '.svg': 'text', '.png': 'empty' },
    // Some dependencies still call require(): give the module one.
    banner: { js: "import { createRequire as __tkRequire } from 'node:module'; const require = __tkRequire(import.meta.url);" },
    plugins: [catalogEsbuildPlugin()],
    logLevel: 'error',
    legalComments: 'none',
  });
  return true;
}

/** Message catalogues compiled as the browser build compiles them (catalog.mjs). */
function catalogEsbuildPlugin() {
  return {
    name: 'tickety-catalogs',
    /** @param {import('esbuild').PluginBuild} build */
    setup(build) {
      build.onLoad({ filter: CATALOG_FILE }, async (args) => ({ contents: compileCatalog(await readFile(args.path, 'utf8'), args.path), loader: 'json' }));
    },
  };
}

export class PrerenderPlugin {
  /** @param {{ appDir: string }} options */
  constructor(options) {
    this.options = options;
  }

  /** @param {import('@rspack/core').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.afterEmit.tapPromise('PrerenderPlugin', async (compilation) => {
      try {
        await buildPrerender(this.options);
      } catch (error) {
        compilation.errors.push(new compiler.webpack.WebpackError(`src/prerender.tsx: ${error instanceof Error ? error.message : String(error)}`));
      }
    });
  }
}
