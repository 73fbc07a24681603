/**
 * The contract's one `z`: every module here that builds a schema imports it from this file, so this
 * runs before the first schema is built. In a browser zod runs jitless (the pages' CSP has no
 * 'unsafe-eval'); the API keeps the JIT. Listed in package.json's `sideEffects`.
 * Why: docs/api.md#jitless-zod-in-browsers.
 */
import { z } from 'zod';

if ('document' in globalThis) z.config({ jitless: true });

export { z };
