/**
 * The configuration file's format, size limit and the server-name part of its file name, without zod:
 * the dashboard reads them at run time, and zod would add about 28 KB gzip to its Restore Configs chunk.
 */

/** The `format` every configuration file carries. */
export const CONFIG_FILE_FORMAT = 'tickety.server-config';
/** The largest file an import accepts, in bytes of its JSON text (Restore Configs says so before upload). */
export const CONFIG_FILE_MAX_BYTES = 512 * 1024;

/** "Ava's Arcade" as "avas-arcade": ASCII letters, digits and dashes, at most 48; empty when nothing is left. */
export function fileNamePart(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
}
