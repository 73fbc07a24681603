/**
 * The shared schema's issues in the reader's language, and where each belongs in an editor.
 *
 * The schema's messages are English sentences (the API answers with them). Its length, count and
 * number issues carry their bounds (`too_big` with `origin` and `maximum`, ...), so those are built
 * here from the catalogue; its own rules (an empty embed, a minimum above the maximum, ...) are known
 * by the start of their sentence. A sentence not known here is shown as the schema wrote it.
 */
import { discordLength, type EmbedConfig, embedConfigLength } from '@tickety/api-contract';
import { formatNumber } from '@tickety/shared';
import type { t as translate } from './i18n';

type Translate = typeof translate;

export type IssuePath = (string | number)[];

/** The parts of a zod issue this file reads (zod 4's issue objects). */
export interface SchemaIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  origin?: string;
  maximum?: number | bigint;
  minimum?: number | bigint;
  format?: string;
  expected?: string;
}

/** The value at `path` in `root` (undefined when there is none). */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

const last = (path: readonly PropertyKey[]) => String(path.at(-1) ?? '');

/** Sentences of the schema's own rules, by how they start, and the message each becomes. */
const KNOWN: Array<[RegExp, (match: RegExpExecArray, t: Translate) => string]> = [
  [/^The embed is empty/, (_, t) => t('issue.embedEmpty')],
  [/^The button needs a label or an emoji/, (_, t) => t('issue.buttonNeedsLabel')],
  [/^Must be exactly one emoji/, (_, t) => t('issue.emoji')],
  [/^A tag's name is 1 to/, (_, t) => t('issue.tagName')],
  [/^A tag needs a message/, (_, t) => t('issue.tagMessage')],
  [/^Another tag is already called "(.+)"/, (m, t) => t('issue.tagDuplicate', { name: m[1]! })],
  [/^Another tag already has this id/, (_, t) => t('issue.tagDuplicateId')],
  [/^A keyword must not be empty/, (_, t) => t('issue.keywordEmpty')],
  [/^The minimum length \(([\d,]+)\) is more than the maximum length \(([\d,]+)\)/, (m, t) => t('issue.minAboveMax', { min: m[1]!, max: m[2]! })],
  [/^Another question of this form has the same id/, (_, t) => t('issue.duplicateQuestion')],
  [/^This role is already in the list/, (_, t) => t('issue.duplicateRole')],
  [/^Unknown variables? (.+): use/, (m, t) => t('issue.unknownVariable', { variables: m[1]! })],
  [/^A \{ or \} is not closed/, (_, t) => t('issue.unclosedBrace')],
  [/^Unknown time zone/, (_, t) => t('issue.unknownTimeZone')],
  [/^The (start|end) time must be HH:MM/, (_, t) => t('issue.timeFormat')],
  [/^The end \((.+?)\) must be after the start \((.+?)\)/, (m, t) => t('issue.endBeforeStart', { end: m[1]!, start: m[2]! })],
  [/^This range overlaps (\S+) on the same day/, (m, t) => t('issue.rangeOverlap', { range: m[1]! })],
  [/^Support hours need at least one opening range/, (_, t) => t('issue.noOpeningRange')],
  [/^Support hours are a premium feature/, (_, t) => t('issue.premiumSupportHours')],
  [/^This panel is already offered by this multi-panel/, (_, t) => t('issue.duplicateOffer')],
  [/^There is no panel with the id "(.+)"/, (m, t) => t('issue.missingPanel', { id: m[1]! })],
  [/^This role already has a rule/, (_, t) => t('issue.duplicateRule')],
  [/^Give this role access to at least one area/, (_, t) => t('issue.noArea')],
  [/^The (panel|multi-panel) "(.+)" already has the id/, (m, t) => t('issue.duplicateId', { name: m[2]! })],
  [/^Must be a link/, (_, t) => t('issue.url')],
];

/**
 * One issue as a sentence for the reader. `config` is the configuration that was checked (for the
 * lengths the sentence names), `limits` the server's.
 */
export function issueText(issue: SchemaIssue, config: unknown, limits: { panelLimit: number; premium: boolean }, t: Translate): string {
  const value = valueAt(config, issue.path);
  const key = last(issue.path);
  const max = issue.maximum === undefined ? 0 : Number(issue.maximum);
  const min = issue.minimum === undefined ? 0 : Number(issue.minimum);
  switch (issue.code) {
    case 'too_big':
      if (issue.origin === 'string') return t('issue.tooLong', { max: formatNumber(max), count: formatNumber(typeof value === 'string' ? discordLength(value) : max + 1) });
      if (issue.origin === 'embed') {
        const total = value && typeof value === 'object' ? embedConfigLength(value as EmbedConfig) : max + 1;
        return t('issue.embedTotal', { max: formatNumber(max), total: formatNumber(total) });
      }
      if (issue.origin === 'array') {
        const count = Array.isArray(value) ? value.length : max + 1;
        if (issue.path.length === 1 && key === 'panels') {
          return t(limits.premium ? 'issue.panelLimitPremium' : 'issue.panelLimit', { limit: limits.panelLimit, count });
        }
        if (key === 'form') return t('issue.tooManyQuestions', { max });
        if (key === 'panelIds') return t('issue.tooManyOffered', { max, count });
        if (key.endsWith('RoleIds')) return t('issue.tooManyRoles', { max });
        return t('issue.tooMany', { max, count });
      }
      if (issue.origin === 'number' || issue.origin === 'int') return t('issue.numberMax', { max: formatNumber(max) });
      break;
    case 'too_small':
      if (issue.origin === 'string') return t('issue.required');
      if (issue.origin === 'array' && key === 'panelIds') return t('issue.tooFewOffered', { min, count: Array.isArray(value) ? value.length : 0 });
      if (issue.origin === 'number' || issue.origin === 'int') return t('issue.numberMin', { min: formatNumber(min) });
      break;
    case 'invalid_type':
      if (issue.expected === 'int' || issue.expected === 'number') return t('issue.wholeNumber');
      break;
    case 'invalid_format':
      if (issue.format === 'url') return t('issue.url');
      break;
    case 'invalid_union':
      if (key === 'emoji') return t('issue.emoji');
      break;
  }
  for (const [pattern, text] of KNOWN) {
    const match = pattern.exec(issue.message);
    if (match) return text(match, t);
  }
  return issue.message;
}

/** `panels.0.embed.title` as a path (numbers for list positions). */
export function parsePath(text: string): IssuePath {
  return text === '' || text === 'config' ? [] : text.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** The API's 1001 message, `"<path>: <reason>"`, split; null when it has another form. */
export function splitApiIssue(message: string): { path: IssuePath; reason: string } | null {
  const match = /^([A-Za-z0-9_.]+): ([\s\S]+)$/.exec(message);
  return match ? { path: parsePath(match[1]!), reason: match[2]! } : null;
}
