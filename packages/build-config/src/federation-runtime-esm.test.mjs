import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FederationRuntimeEsm } from './federation-runtime-esm.mjs';

/** The plugin's resolve hook, as rspack calls it (a fake compiler with the one hook it uses). */
function beforeResolve() {
  /** @type {(data: { request: string, context?: string }) => void} */
  let hook = () => undefined;
  const factory = { hooks: { beforeResolve: { tap: (_name, fn) => (hook = fn) } } };
  const compiler = { context: process.cwd(), hooks: { normalModuleFactory: { tap: (_name, fn) => fn(factory) } } };
  new FederationRuntimeEsm().apply(/** @type {any} */ (compiler));
  return (request, context) => {
    const data = { request, context };
    hook(data);
    return data.request;
  };
}

// The runtime's packages as the bundler finds them: from @module-federation/enhanced's own folder.
const enhanced = dirname(createRequire(import.meta.url).resolve('@module-federation/enhanced/rspack'));
const runtimeTools = dirname(createRequire(join(enhanced, 'noop.js')).resolve('@module-federation/runtime-tools'));
const bundlerRuntime = createRequire(join(runtimeTools, 'noop.js')).resolve('@module-federation/webpack-bundler-runtime');

describe('FederationRuntimeEsm', () => {
  const resolve = beforeResolve();

  it('takes the ES module build of a runtime file the bundler asks for by path', () => {
    expect(bundlerRuntime).toMatch(/\.cjs$/);
    expect(resolve(bundlerRuntime)).toBe(bundlerRuntime.replace(/\.cjs$/, '.js'));
  });

  it('resolves the runtime packages to their ES module builds, subpaths too', () => {
    expect(resolve('@module-federation/runtime', runtimeTools)).toMatch(/[\\/]@module-federation[\\/]runtime[\\/]dist[\\/]index\.js$/);
    expect(resolve('@module-federation/runtime/helpers', runtimeTools)).toMatch(/[\\/]runtime[\\/]dist[\\/]helpers\.js$/);
  });

  it('leaves everything else alone: other packages, loader requests, the app’s own files', () => {
    expect(resolve('react', runtimeTools)).toBe('react');
    expect(resolve(`builtin:loader!=!${bundlerRuntime}`)).toBe(`builtin:loader!=!${bundlerRuntime}`);
    expect(resolve('@module-federation/enhanced/rspack', runtimeTools)).toBe('@module-federation/enhanced/rspack');
    expect(resolve('/work/app/src/index.ts')).toBe('/work/app/src/index.ts');
  });
});
