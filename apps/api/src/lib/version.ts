import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_DIR } from '../config';

/** The API's version (its package.json), as the System page shows it beside the front ends' deployed versions. */
export const API_VERSION: string = (() => {
  try {
    const { version } = JSON.parse(readFileSync(join(API_DIR, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
})();
