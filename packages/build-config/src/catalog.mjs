// @ts-check
/**
 * Message catalogues (`src/locales/<locale>.json` of every front end: flat `{ "key": "ICU message" }`)
 * are compiled when they are bundled, so browsers get ready-to-format messages and never download the
 * ICU parser. One function, three thin adapters: the rspack loader (catalog-loader.cjs), the vitest
 * plugin (`catalogPlugin`) and the esbuild plugin of the prerender build.
 */
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';

/** Matches a catalogue file: `.../locales/<locale>.json`. */
export const CATALOG_FILE = /[\\/]locales[\\/][a-z]{2}(?:-[A-Z]{2})?\.json$/;

/**
 * The compiled catalogue (JSON text) of a catalogue's source. Throws, naming the file and key, on a
 * message that is not valid ICU, or on a value that is not a string.
 * @param {string} source @param {string} file
 */
export function compileCatalog(source, file) {
  /** @type {unknown} */
  const parsed = JSON.parse(source);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${file}: a catalogue is an object of messages`);
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [key, message] of Object.entries(parsed)) {
    if (typeof message !== 'string') throw new Error(`${file}: "${key}" is not a string`);
    try {
      out[key] = compileMessageOrThrow(message);
    } catch (error) {
      throw new Error(`${file}: "${key}" is not a valid message: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return JSON.stringify(out);
}

/** Vitest/Vite plugin: catalogues are compiled exactly as the bundler compiles them. */
export function catalogPlugin() {
  return {
    name: 'tickety-catalogs',
    enforce: /** @type {const} */ ('pre'),
    /** @param {string} code @param {string} id */
    transform(code, id) {
      const file = id.split('?')[0] ?? id;
      if (!CATALOG_FILE.test(file)) return null;
      return { code: compileCatalog(code, file), map: null };
    },
  };
}
