import { i18n } from '@tickety/shared';
import { catalog, type ShellKey, t } from '../lib/i18n';
import { ConfigLoadError } from './config';

/**
 * This screen's English, kept here as well as in the catalogue: the screen must read even when the
 * catalogue itself could not be loaded (the same download that failed to bring config.json).
 */
const ENGLISH = {
  'configFailed.title': 'The dashboard could not start',
  'configFailed.retry': 'Try again',
  'configFailed.unreachable': 'Could not reach the server to read its configuration. Check your connection.',
  'configFailed.http': "The server's configuration could not be read (HTTP {status}).",
  'configFailed.json': "The server's configuration (config.json) is not valid JSON.",
  'configFailed.invalid': "The server's configuration is not valid.",
} satisfies Partial<Record<ShellKey, string>>;
export type ConfigFailedKey = keyof typeof ENGLISH;
export const CONFIG_FAILED_KEYS = Object.keys(ENGLISH) as ConfigFailedKey[];

/** The English constant of `key` with its `{placeholders}` filled in. */
export function englishFallback(key: ConfigFailedKey, values: Record<string, string | number> = {}): string {
  return ENGLISH[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));
}

/** The message in the reader's language, or the English constant when the catalogue did not load. */
export function say(key: ConfigFailedKey, values: Record<string, string | number> = {}): string {
  const loaded = i18n.messages[`${catalog.namespace}.${key}`] !== undefined;
  const text = loaded ? t(key, values) : key;
  return text === key || text === `${catalog.namespace}.${key}` ? englishFallback(key, values) : text;
}

/** What went wrong, in words for the reader, and the technical detail worth showing. */
export function configFailedText(error: unknown): { message: string; detail: string | null } {
  if (error instanceof ConfigLoadError) {
    const { failure } = error;
    if (failure.kind === 'http') return { message: say('configFailed.http', { status: failure.status }), detail: null };
    if (failure.kind === 'invalid') return { message: say('configFailed.invalid'), detail: error.message };
    return { message: say(failure.kind === 'unreachable' ? 'configFailed.unreachable' : 'configFailed.json'), detail: null };
  }
  // Something else stopped the start (a chunk that did not download): its own words.
  return { message: error instanceof Error ? error.message : String(error), detail: null };
}

/** Without config.json nothing can run: say so plainly, with a way to try again. */
export function ConfigFailed({ error }: { error: unknown }) {
  const { message, detail } = configFailedText(error);
  return (
    <main className="mx-auto max-w-lg px-4 py-24 text-center">
      <h1 className="text-2xl font-bold">{say('configFailed.title')}</h1>
      <p className="mt-3 text-surface-600 dark:text-surface-400">{message}</p>
      {detail ? <p className="mt-2 font-mono text-xs break-words text-surface-500">{detail}</p> : null}
      <button type="button" className="mt-6 rounded-lg bg-primary-600 px-4 py-2 font-semibold text-white" onClick={() => window.location.reload()}>
        {say('configFailed.retry')}
      </button>
    </main>
  );
}
