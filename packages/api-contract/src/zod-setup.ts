/**
 * The contract's one `z`: every module here that builds a schema imports it from this file, so this
 * runs before the first schema is built, in the API and in every front end that bundles the contract.
 *
 * In a browser, zod runs jitless. Otherwise each `z.object()` probes `new Function('')` when it is
 * built (to compile a faster parser); the pages' Content-Security-Policy has no 'unsafe-eval', so
 * the probe is blocked and reported as a violation (zod catches the error and parses without the
 * JIT anyway). The setting lives on `globalThis.__zod_globalConfig`, shared by every copy of zod on
 * the page (each front end bundles its own). The API (Node, no page policy) keeps the JIT.
 * Listed in package.json's `sideEffects`, so no bundler skips it for its re-export.
 */
import { z } from 'zod';

if ('document' in globalThis) z.config({ jitless: true });

export { z };
