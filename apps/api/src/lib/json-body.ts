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
 * The first place `text` nests arrays or objects deeper than `maxDepth`, or -1. Brackets inside
 * strings do not count. A linear scan (about 1 ms per 1 MiB here) that stops at the first offence.
 */
export function overlyNestedAt(text: string, maxDepth = JSON_MAX_DEPTH): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}

/** The refusal of a body nested deeper than JSON_MAX_DEPTH (400 code 1001). */
export function tooDeep(maxDepth = JSON_MAX_DEPTH): ApiHttpError {
  return new ApiHttpError('VALIDATION_FAILED', { message: `The request body nests arrays or objects more than ${maxDepth} levels deep: nothing was read.` });
}

/**
 * Parses a JSON request body that is not trusted: nesting checked first, `__proto__` and
 * `constructor` keys dropped. Throws 400 code 1001 for anything that is not JSON or nests too deep.
 */
export function parseUntrustedJson(text: string, maxDepth = JSON_MAX_DEPTH): unknown {
  if (overlyNestedAt(text, maxDepth) !== -1) throw tooDeep(maxDepth);
  try {
    return JSON.parse(text, (key, value) => (key === '__proto__' || key === 'constructor' ? undefined : value));
  } catch {
    throw new ApiHttpError('VALIDATION_FAILED', { message: 'The request body is not valid JSON.' });
  }
}
