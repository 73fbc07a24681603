// @ts-check
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join } from 'node:path';

const NAME = 'FederationRuntimeEsm';

/** A file of a Module Federation runtime package's CommonJS build. */
const COMMONJS_FILE = /[\\/]node_modules[\\/]@module-federation[\\/][^\\/]+[\\/]dist[\\/].+\.cjs$/;
/** The runtime's packages, as the bundler's generated entry and their own files import them. */
const RUNTIME_REQUEST = /^@module-federation\/(?:runtime|runtime-core|runtime-tools|sdk|error-codes|webpack-bundler-runtime|inject-external-runtime-core-plugin)(?:\/[\w./-]+)?$/;

/**
 * The ES module build beside a CommonJS file of the runtime (each package ships both, `x.cjs` and
 * `x.js`), or null.
 * @param {string} file
 */
function esmSibling(file) {
  if (!COMMONJS_FILE.test(file)) return null;
  const sibling = file.replace(/\.cjs$/, '.js');
  return existsSync(sibling) ? sibling : null;
}

/**
 * Builds the Module Federation runtime from its ES module files instead of its CommonJS ones. The
 * bundler resolves the runtime it injects (`@module-federation/webpack-bundler-runtime`, the runtime
 * plugins, and through them `runtime`, `runtime-core`, `sdk`, `error-codes`) as CommonJS, which
 * cannot be tree-shaken: every export of the SDK (its Node script loader, its plugin option types,
 * its manifest helpers) ships whether used or not. As ES modules (the packages are side-effect
 * free) only what the runtime calls stays.
 */
export class FederationRuntimeEsm {
  /** @param {import('@rspack/core').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.normalModuleFactory.tap(NAME, (factory) => {
      factory.hooks.beforeResolve.tap(NAME, (data) => {
        const request = data.request;
        if (!request || request.includes('!')) return;
        let file = null;
        if (isAbsolute(request)) file = request;
        else if (RUNTIME_REQUEST.test(request)) {
          try {
            file = createRequire(join(data.context ?? compiler.context, 'noop.js')).resolve(request);
          } catch {
            return;
          }
        }
        const esm = file && esmSibling(file);
        if (esm) data.request = esm;
      });
    });
  }
}
