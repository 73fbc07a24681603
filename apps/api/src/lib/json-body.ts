import { ApiHttpError } from './errors';

/** What a request body may weigh where its route sets no limit of its own (64 KiB). */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/**
 * The deepest nesting of arrays and objects any request body needs. The deepest schema (a server's
 * configuration: panels › components › options › …) stays under 12 levels; 32 leaves room and
 * refuses what only an attack sends. `JSON.parse` of deeply nested input is slow and recursive (1 MiB
 * of `[` held the event loop for ~0.3-0.6 s), so depth is checked first, in one linear pass.
 */
export const JSON_MAX_DEPTH = 32;

/**
 * The most arrays and objects one body of a signed-in route may hold. V8's JSON.parse is slow on many
 * small containers (512 KB of `[[]]` took 60-380 ms); a valid body carries at least ~16 bytes of keys
 * and values per container, so the largest one a route takes (the configuration, 513 KB) holds fewer
 * than this. The bot API's large bodies are parsed off the event loop (lib/body-worker.ts) instead.
 */
export const JSON_MAX_CONTAINERS = 32_768;

/**
 * What is wrong with the shape of `text` before it is parsed: nesting deeper than `maxDepth`, more
 * than `maxContainers` arrays and objects, or nothing (null). Brackets inside strings do not count.
 * A linear scan (about 1-5 ms per 1 MiB here) that stops at the first offence.
 */
export function jsonShapeProblem(text: string, maxDepth = JSON_MAX_DEPTH, maxContainers = Number.POSITIVE_INFINITY): 'depth' | 'containers' | null {
  let depth = 0;
  let containers = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > maxDepth) return 'depth';
      if (++containers > maxContainers) return 'containers';
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return null;
}

/** The refusal of a body of that shape (400 code 1001). */
export function badShape(problem: 'depth' | 'containers', maxDepth = JSON_MAX_DEPTH, maxContainers = JSON_MAX_CONTAINERS): ApiHttpError {
  const message =
    problem === 'depth'
      ? `The request body nests arrays or objects more than ${maxDepth} levels deep: nothing was read.`
      : `The request body holds more than ${maxContainers.toLocaleString('en')} arrays and objects: nothing was read.`;
  return new ApiHttpError('VALIDATION_FAILED', { message });
}

/**
 * Parses a JSON request body that is not trusted: nesting checked first, `__proto__` and
 * `constructor` keys dropped. Throws 400 code 1001 for anything that is not JSON or nests too deep.
 */
export function parseUntrustedJson(text: string, maxDepth = JSON_MAX_DEPTH): unknown {
  if (jsonShapeProblem(text, maxDepth) === 'depth') throw badShape('depth', maxDepth);
  try {
    return JSON.parse(text, (key, value) => (key === '__proto__' || key === 'constructor' ? undefined : value));
  } catch {
    throw new ApiHttpError('VALIDATION_FAILED', { message: 'The request body is not valid JSON.' });
  }
}
