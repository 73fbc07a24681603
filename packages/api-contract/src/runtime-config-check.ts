/**
 * The shell's check of `config.json`: the same rules as the `RuntimeConfig` schema (runtime-config.ts,
 * the one definition, which the API and the deploy script use), written without zod so the shell's
 * entry chunk, which runs it before anything else loads, does not carry a schema library. A test
 * holds the two equal: every config one accepts the other accepts, and both name the same first field.
 */
import { REMOTE_IDS } from './remote-ids.mjs';
import type { RuntimeConfig } from './runtime-config';

type Problem = { path: string[]; message: string };
type Check = (value: unknown) => string | null;

const NON_EMPTY = 'must be a non-empty string';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text: Check = (value) => (typeof value !== 'string' ? 'must be a string' : value.length === 0 ? NON_EMPTY : null);
const string: Check = (value) => (typeof value === 'string' ? null : 'must be a string');
const nullableString: Check = (value) => (value === null || typeof value === 'string' ? null : 'must be a string or null');
const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined ? null : check(value);
const boolean: Check = (value) => (typeof value === 'boolean' ? null : 'must be true or false');

/** The first problem of one object's fields (in the schema's order), with its path. */
function firstProblem(value: unknown, fields: Record<string, Check | ((value: unknown) => Problem | null)>, path: string[]): Problem | null {
  if (!isObject(value)) return { path, message: 'must be an object' };
  for (const [name, check] of Object.entries(fields)) {
    const found = check(value[name]);
    if (typeof found === 'string') return { path: [...path, name], message: found };
    if (found) return { ...found, path: [...path, name, ...found.path] };
  }
  return null;
}

const manifest: Check = (value) => (typeof value === 'string' && value.length > 0 ? null : 'must be the URL of its mf-manifest.json');
// Its route table is checked where it is used (composeRouteTables); here it only has to be there.
const remoteEntry = (value: unknown) =>
  firstProblem(value, { manifest, version: nullableString, routes: () => (isObject(value) && 'routes' in value ? null : 'is missing') }, []);

function remotes(value: unknown): Problem | null {
  if (!isObject(value)) return { path: [], message: 'must be an object' };
  for (const [id, entry] of Object.entries(value)) {
    if (!(REMOTE_IDS as readonly string[]).includes(id)) return { path: [], message: `names "${id}", which is not a remote (${REMOTE_IDS.join(', ')})` };
    const problem = remoteEntry(entry);
    if (problem) return { ...problem, path: [id, ...problem.path] };
  }
  return null;
}

const FIELDS = {
  productName: text,
  apiOrigin: text,
  remotes,
  shell: (value: unknown) => (value === undefined ? null : firstProblem(value, { version: string }, [])),
  docsUrl: text,
  supportUrl: text,
  inviteUrl: text,
  discordClientId: text,
  discordOrigin: text,
  paddleToken: nullableString,
  paddleScriptUrl: nullableString,
  analyticsToken: nullableString,
  analyticsScriptUrl: optional(nullableString),
  demo: boolean,
};

/** The first problem of a config.json that does not match, as one readable line, or null when it does. */
export function runtimeConfigProblem(value: unknown): string | null {
  const problem = firstProblem(value, FIELDS, []);
  if (!problem) return null;
  const where = problem.path.length ? `"${problem.path.join('.')}"` : 'the file';
  return `config.json: ${where} ${problem.message}.`;
}

/** A config.json that passed `runtimeConfigProblem`, with only the fields the schema has (as zod's parse gives it). */
export function readRuntimeConfig(value: Record<string, unknown>): RuntimeConfig {
  const config = Object.fromEntries(Object.keys(FIELDS).filter((name) => value[name] !== undefined).map((name) => [name, value[name]]));
  const given = value.remotes as Record<string, Record<string, unknown>>;
  config.remotes = Object.fromEntries(Object.entries(given).map(([id, entry]) => [id, { manifest: entry.manifest, version: entry.version, routes: entry.routes }]));
  if (value.shell !== undefined) config.shell = { version: (value.shell as { version: string }).version };
  return config as RuntimeConfig;
}
