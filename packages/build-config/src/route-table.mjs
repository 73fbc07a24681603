// @ts-check
/**
 * Emits a remote's route table as data: `src/route-table.ts` (typed with RouteTable from
 * @tickety/api-contract) is evaluated at build time, checked with the same `parseRouteTable` the shell
 * and the API use, and written as `routes.json` beside `mf-manifest.json`. A table with a problem
 * fails the build with every problem listed.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rspack } from '@rspack/core';

/** The route-table module of the API contract (TypeScript source, evaluated through tsx). */
function contractModulePath(appDir) {
  const pkg = createRequire(join(appDir, 'package.json')).resolve('@tickety/api-contract/package.json');
  return join(dirname(pkg), 'src', 'route-table.ts');
}

/**
 * Loads and checks a remote's table. Returns the JSON text of `routes.json`.
 * @param {{ appDir: string, name: string, file?: string }} o
 * @returns {Promise<string>}
 */
export async function buildRouteTable({ appDir, name, file = join(appDir, 'src', 'route-table.ts') }) {
  const { tsImport } = await import('tsx/esm/api');
  // A fresh query each time, so watch mode sees edits (tsx caches by URL).
  const stamp = `?t=${Date.now()}`;
  const contract = await tsImport(`${pathToFileURL(contractModulePath(appDir)).href}${stamp}`, import.meta.url);
  const mod = await tsImport(`${pathToFileURL(file).href}${stamp}`, import.meta.url);
  let table = mod.routeTable ?? mod.default;
  // A file tsx loads as CommonJS (no "type": "module" above it) arrives wrapped once more.
  if (table && typeof table === 'object' && !('schema' in table) && 'default' in table) table = table.default;
  const parsed = contract.parseRouteTable(JSON.parse(JSON.stringify(table ?? null)), name);
  return `${JSON.stringify(parsed, null, 2)}\n`;
}

export class RouteTablePlugin {
  /** @param {{ appDir: string, name: string }} options */
  constructor(options) {
    this.options = options;
  }

  /** @param {import('@rspack/core').Compiler} compiler */
  apply(compiler) {
    const file = join(this.options.appDir, 'src', 'route-table.ts');
    compiler.hooks.thisCompilation.tap('RouteTablePlugin', (compilation) => {
      compilation.fileDependencies.add(file);
      compilation.hooks.processAssets.tapPromise({ name: 'RouteTablePlugin', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, async () => {
        try {
          const json = await buildRouteTable({ ...this.options, file });
          compilation.emitAsset('routes.json', new rspack.sources.RawSource(json));
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          compilation.errors.push(new rspack.WebpackError(`${this.options.name}: src/route-table.ts: ${message}`));
        }
      });
    });
  }
}
