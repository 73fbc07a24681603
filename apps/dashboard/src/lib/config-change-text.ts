/**
 * Field-level changes of a server configuration (`diffConfig` of @tickety/api-contract: paths such as
 * `panels[support].button.label`, `general.claiming`, `panels.order`) described for people: each path
 * as labels in the reader's language ("Panel “Support” › Button › Label"), each value as text (strings
 * quoted, booleans Yes/No, colours as hex, lists and objects summarised). Web Logs and Restore Configs
 * show them (components/config-changes.tsx) and the Web Logs CSV writes them as text.
 */
import { formatDateTime, formatNumber, LOCALE_NAMES, type Locale, type Translate } from '@tickety/shared';
import type { ChangesKey } from './changes/i18n';

type T = Translate<ChangesKey>;

/** One change as the API sends it (`before` absent: added; `after` absent: removed). */
export interface ConfigChangeInput {
  path: string;
  before?: unknown;
  after?: unknown;
}

/**
 * Where the names of panels, multi-panels and form questions come from: a server configuration (any
 * object with `panels` and `multiPanels` lists of `{ id, name }`); without one, the changes' own
 * values, else the ids.
 */
export type ConfigNamesSource = { panels?: unknown; multiPanels?: unknown } | Record<string, unknown> | null | undefined;

/** A value as shown: `quoted` text a user wrote, `plain` text (ids, numbers, names), `muted` (not set, empty), a colour, or lines. */
export type ValueView =
  | { kind: 'quoted' | 'plain' | 'muted'; text: string }
  | { kind: 'colour'; hex: string }
  | { kind: 'lines'; lines: Array<{ label?: string; value: ValueView }> };

export interface ChangeView {
  path: string;
  /** The path in words, one label per level. */
  labels: string[];
  kind: 'changed' | 'added' | 'removed';
  before: ValueView | null;
  after: ValueView | null;
}

interface PathSegment {
  key: string;
  /** The id in `key[id]` (a panel, a multi-panel, a form question, a role). */
  id?: string;
}

/** `panels[support].form[q1].label` → [{ key: 'panels', id: 'support' }, { key: 'form', id: 'q1' }, { key: 'label' }]. */
export function parsePath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  let i = 0;
  while (i < path.length) {
    let key = '';
    while (i < path.length && path[i] !== '.' && path[i] !== '[') key += path[i++];
    const segment: PathSegment = { key };
    if (path[i] === '[') {
      const end = path.indexOf(']', i);
      const close = end === -1 ? path.length : end;
      segment.id = path.slice(i + 1, close);
      i = close + 1;
    }
    if (path[i] === '.') i++;
    segments.push(segment);
  }
  return segments;
}

const FIELD: Record<string, ChangesKey> = {
  defaultCategoryId: 'changes.field.defaultCategoryId',
  transcriptChannelId: 'changes.field.transcriptChannelId',
  logChannelId: 'changes.field.logChannelId',
  ticketNameScheme: 'changes.field.namingScheme',
  namingScheme: 'changes.field.namingScheme',
  maxOpenTicketsPerUser: 'changes.field.perUserLimit',
  perUserLimit: 'changes.field.perUserLimit',
  perPanelLimit: 'changes.field.perPanelLimit',
  claiming: 'changes.field.claiming',
  twoStepClose: 'changes.field.twoStepClose',
  language: 'changes.field.language',
  roleId: 'changes.field.roleId',
  areas: 'changes.field.areas',
  id: 'changes.field.id',
  name: 'changes.field.name',
  embed: 'changes.field.embed',
  button: 'changes.field.button',
  categoryId: 'changes.field.categoryId',
  supportRoleIds: 'changes.field.supportRoleIds',
  additionalRoleIds: 'changes.field.additionalRoleIds',
  pingRoleIds: 'changes.field.pingRoleIds',
  welcomeMessage: 'changes.field.welcomeMessage',
  formTitle: 'changes.field.formTitle',
  form: 'changes.field.form',
  supportHours: 'changes.field.supportHours',
  title: 'changes.field.title',
  description: 'changes.field.description',
  colour: 'changes.field.colour',
  imageUrl: 'changes.field.imageUrl',
  thumbnailUrl: 'changes.field.thumbnailUrl',
  footer: 'changes.field.footer',
  label: 'changes.field.label',
  emoji: 'changes.field.emoji',
  style: 'changes.field.style',
  animated: 'changes.field.animated',
  required: 'changes.field.required',
  minLength: 'changes.field.minLength',
  maxLength: 'changes.field.maxLength',
  placeholder: 'changes.field.placeholder',
  timeZone: 'changes.field.timeZone',
  hours: 'changes.field.hours',
  outOfHoursMessage: 'changes.field.outOfHoursMessage',
  mode: 'changes.field.mode',
  panelIds: 'changes.field.panelIds',
  selectPlaceholder: 'changes.field.selectPlaceholder',
  from: 'changes.field.from',
  channel: 'changes.field.channel',
  version: 'changes.field.version',
  to: 'changes.field.to',
  // Feedback after close (the server's `feedback`, a panel's `feedback`).
  feedback: 'changes.field.feedback',
  enabled: 'changes.field.enabled',
  question: 'changes.field.feedbackQuestion',
  // Web Logs of the Tickets page's actions: a close's reason, the member added to a ticket.
  reason: 'changes.field.reason',
  member: 'changes.field.member',
  // Tags (canned replies), and the tag a dashboard reply was written from.
  tags: 'changes.tags',
  content: 'changes.field.content',
  keywords: 'changes.field.keywords',
  tag: 'changes.field.tag',
  general: 'changes.general',
  access: 'changes.access',
  panels: 'changes.panels',
  multiPanels: 'changes.multiPanels',
  labels: 'changes.labels',
  // The blocklist: an entry's fields (`reason` is above).
  blocklist: 'changes.blocklist',
  kind: 'changes.field.kind',
  expiresAt: 'changes.field.expiresAt',
  addedBy: 'changes.field.addedBy',
  addedAt: 'changes.field.addedAt',
  schemaVersion: 'changes.schemaVersion',
  order: 'changes.order',
  // Auto-close (the Automation page).
  autoClose: 'changes.autoClose',
  memberSilentHours: 'changes.field.memberSilentHours',
  staffSilentHours: 'changes.field.staffSilentHours',
  onOpenerLeave: 'changes.field.onOpenerLeave',
  warningHours: 'changes.field.warningHours',
  warningMessage: 'changes.field.warningMessage',
};

const WEEKDAY: Record<string, ChangesKey> = {
  monday: 'weekday.monday',
  tuesday: 'weekday.tuesday',
  wednesday: 'weekday.wednesday',
  thursday: 'weekday.thursday',
  friday: 'weekday.friday',
  saturday: 'weekday.saturday',
  sunday: 'weekday.sunday',
};

const AREA: Record<string, ChangesKey> = {
  panels: 'settings.area.panels',
  tickets: 'settings.area.tickets',
  statistics: 'settings.area.statistics',
  logs: 'settings.area.logs',
  configs: 'settings.area.configs',
  premium: 'settings.area.premium',
};

const LEVEL: Record<string, ChangesKey> = { read: 'settings.level.read', write: 'settings.level.write' };
const BUTTON_STYLE: Record<string, ChangesKey> = {
  primary: 'panel.buttonStyle.primary',
  secondary: 'panel.buttonStyle.secondary',
  success: 'panel.buttonStyle.success',
  danger: 'panel.buttonStyle.danger',
};
const QUESTION_STYLE: Record<string, ChangesKey> = { short: 'form.style.short', paragraph: 'form.style.paragraph' };
const MODE: Record<string, ChangesKey> = { buttons: 'multi.mode.buttons', select: 'multi.mode.select' };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `{ id, name }` items of a list (anything else in it is skipped). */
function namedItems(list: unknown, nameKey = 'name'): Array<{ id: string; name: string; item: Record<string, unknown> }> {
  if (!Array.isArray(list)) return [];
  return list.flatMap((item) => (isObject(item) && typeof item.id === 'string' && typeof item[nameKey] === 'string' ? [{ id: item.id, name: item[nameKey] as string, item }] : []));
}

/** Names of panels, multi-panels and questions, by id. */
interface Names {
  panels: Map<string, string>;
  multiPanels: Map<string, string>;
  /** `${panelId}/${questionId}`. */
  questions: Map<string, string>;
  labels: Map<string, string>;
  tags: Map<string, string>;
}

function addItems(names: Names, config: unknown): void {
  if (!isObject(config)) return;
  for (const { id, name, item } of namedItems(config.panels)) {
    if (!names.panels.has(id)) names.panels.set(id, name);
    for (const q of namedItems(item.form, 'label')) if (!names.questions.has(`${id}/${q.id}`)) names.questions.set(`${id}/${q.id}`, q.name);
  }
  for (const { id, name } of namedItems(config.multiPanels)) if (!names.multiPanels.has(id)) names.multiPanels.set(id, name);
  for (const { id, name } of namedItems(config.labels)) if (!names.labels.has(id)) names.labels.set(id, name);
  for (const { id, name } of namedItems(config.tags)) if (!names.tags.has(id)) names.tags.set(id, name);
}

/**
 * The names to show: the given configuration's first, then those the changes carry (a panel added or
 * removed whole, a renamed panel's new then old name), so a deleted panel is still named.
 */
function collectNames(changes: readonly ConfigChangeInput[], config: ConfigNamesSource): Names {
  const names: Names = { panels: new Map(), multiPanels: new Map(), questions: new Map(), labels: new Map(), tags: new Map() };
  addItems(names, config);
  for (const side of ['after', 'before'] as const) {
    for (const change of changes) {
      const value = change[side];
      const segments = parsePath(change.path);
      const [first, second, third] = segments;
      if (!first?.id) {
        // A whole list replaced (`panels`, `(all)`): the items inside it.
        if (first?.key === 'panels' || first?.key === 'multiPanels' || first?.key === 'labels' || first?.key === 'tags') addItems(names, { [first.key]: value });
        else if (first?.key === '(all)') addItems(names, value);
        continue;
      }
      const map = first.key === 'panels' ? names.panels : first.key === 'multiPanels' ? names.multiPanels : first.key === 'labels' ? names.labels : first.key === 'tags' ? names.tags : null;
      if (!map) continue;
      if (segments.length === 1 && isObject(value)) {
        if (typeof value.name === 'string' && !map.has(first.id)) map.set(first.id, value.name);
        if (first.key === 'panels') addItems(names, { panels: [value] });
      } else if (segments.length === 2 && second?.key === 'name' && typeof value === 'string' && !map.has(first.id)) {
        map.set(first.id, value);
      } else if (first.key === 'panels' && second?.key === 'form' && second.id) {
        const key = `${first.id}/${second.id}`;
        if (names.questions.has(key)) continue;
        if (segments.length === 2 && isObject(value) && typeof value.label === 'string') names.questions.set(key, value.label);
        else if (segments.length === 3 && third?.key === 'label' && typeof value === 'string') names.questions.set(key, value);
      }
    }
  }
  return names;
}

function fieldLabel(t: T, key: string, parent: PathSegment | undefined): string {
  if (parent?.key === 'areas' && AREA[key]) return t(AREA[key]);
  if (parent?.key === 'hours' && WEEKDAY[key]) return t(WEEKDAY[key]);
  if (parent?.key === 'form' && parent.id !== undefined) {
    if (key === 'label') return t('changes.field.questionLabel');
    if (key === 'style') return t('changes.field.questionStyle');
  }
  const message = FIELD[key];
  return message ? t(message) : key;
}

function segmentLabel(t: T, names: Names, segments: PathSegment[], index: number): string {
  const segment = segments[index]!;
  const parent = index > 0 ? segments[index - 1] : undefined;
  if (segment.key === '(all)') return t('changes.all');
  if (segment.id === undefined) return fieldLabel(t, segment.key, parent);
  const { id } = segment;
  if (index === 0 && segment.key === 'panels') return t('changes.panel', { name: names.panels.get(id) ?? id });
  if (index === 0 && segment.key === 'multiPanels') return t('changes.multiPanel', { name: names.multiPanels.get(id) ?? id });
  if (index === 0 && segment.key === 'access') return t('changes.role', { id });
  if (index === 0 && segment.key === 'labels') return t('changes.label', { name: names.labels.get(id) ?? id });
  if (index === 0 && segment.key === 'tags') return t('changes.tag', { name: names.tags.get(id) ?? id });
  if (index === 0 && segment.key === 'blocklist') return t('changes.blockEntry', { id });
  if (segment.key === 'form' && parent?.key === 'panels' && parent.id !== undefined) {
    return t('changes.question', { name: names.questions.get(`${parent.id}/${id}`) ?? id });
  }
  return t('changes.item', { field: fieldLabel(t, segment.key, parent), id });
}

// What null means in a field: a panel's empty override falls back to the server's setting.
const PANEL_DEFAULTS = new Set(['categoryId', 'namingScheme', 'perUserLimit', 'claiming', 'twoStepClose', 'transcriptChannelId', 'feedback']);
function nullMeaning(t: T, key: string, first: PathSegment | undefined): string {
  if (first?.key === 'panels' && PANEL_DEFAULTS.has(key)) return t('changes.value.serverDefault');
  if (first?.key === 'panels' && key === 'autoClose') return t('changes.value.serverDefault');
  if (key === 'memberSilentHours' || key === 'staffSilentHours') return t('changes.value.off');
  if (key === 'perPanelLimit') return t('changes.value.noLimit');
  if (key === 'supportHours') return t('changes.value.off');
  if (key === 'welcomeMessage') return t('changes.value.botDefault');
  if (key === 'formTitle') return t('changes.value.panelName');
  if (key === 'selectPlaceholder') return t('changes.value.discordDefault');
  if (key === 'emoji') return t('changes.value.none');
  if (key === 'expiresAt') return t('changes.value.untilRemoved');
  if (key === 'colour') return t('changes.value.discordDefault');
  if (first?.key === 'general') return t('changes.value.none');
  return t('changes.value.notSet');
}

/** Text in the reader's quotation marks (“…” in English, „…“ in German). */
export function quote(t: T, text: string): string {
  return `${t('changes.quoteOpen')}${text}${t('changes.quoteClose')}`;
}

const muted = (text: string): ValueView => ({ kind: 'muted', text });
const plain = (text: string): ValueView => ({ kind: 'plain', text });

function hex(colour: number): string {
  return `#${colour.toString(16).padStart(6, '0').toUpperCase()}`;
}

function isRange(value: unknown): value is { from: string; to: string } {
  return isObject(value) && typeof value.from === 'string' && typeof value.to === 'string';
}

function rangesText(t: T, ranges: unknown[]): string {
  if (ranges.length === 0) return t('hours.closed');
  return ranges.map((range) => (isRange(range) ? `${range.from}–${range.to}` : '?')).join(', ');
}

function enumLabel(t: T, map: Record<string, ChangesKey>, value: string): ValueView {
  const key = map[value];
  return plain(key ? t(key) : value);
}

interface ValueContext {
  t: T;
  names: Names;
  /** The field the value is of (the path's last key) and the one above it. */
  key: string;
  parent?: PathSegment;
  first?: PathSegment;
  depth: number;
}

function child(ctx: ValueContext, key: string, parentKey: string): ValueContext {
  return { ...ctx, key, parent: { key: parentKey }, depth: ctx.depth + 1 };
}

function describeString(ctx: ValueContext, value: string): ValueView {
  const { t, key, parent } = ctx;
  if (value === '' && key === 'question' && ctx.first?.key === 'feedback') return muted(t('changes.value.botDefault'));
  if (value === '') return muted(t('changes.value.empty'));
  if (parent?.key === 'areas') return enumLabel(t, LEVEL, value);
  if (key === 'style') return enumLabel(t, parent?.key === 'button' ? BUTTON_STYLE : { ...BUTTON_STYLE, ...QUESTION_STYLE }, value);
  if (key === 'mode') return enumLabel(t, MODE, value);
  if (key === 'language') return plain(LOCALE_NAMES[value as Locale] ?? value);
  if (key === 'expiresAt' || key === 'addedAt') return plain(Number.isNaN(Date.parse(value)) ? value : formatDateTime(value));
  if (key === 'kind' && (value === 'user' || value === 'role')) return plain(t(value === 'role' ? 'changes.value.role' : 'changes.value.user'));
  // Ids (of roles, channels, categories), emoji and times are not text someone wrote.
  if (/Id$/.test(key) || key === 'id' || key === 'addedBy' || key === 'channel' || key === 'emoji' || key === 'timeZone' || key === 'from' || key === 'to') return plain(value);
  return { kind: 'quoted', text: value };
}

function describeArray(ctx: ValueContext, value: unknown[]): ValueView {
  const { t, names, key, parent, first } = ctx;
  if (parent?.key === 'hours') return value.length === 0 ? muted(t('hours.closed')) : plain(rangesText(t, value));
  if (value.length === 0) return muted(t('changes.value.none'));
  if (value.every(isRange)) return plain(rangesText(t, value));
  if (value.every((item) => typeof item === 'string')) {
    const ids = value as string[];
    // A list of panels (a multi-panel's, or the order of panels or multi-panels): by name.
    const panelMap = key === 'panelIds' || (key === 'order' && first?.key === 'panels' && first.id === undefined) ? names.panels : key === 'order' && first?.key === 'multiPanels' ? names.multiPanels : null;
    if (panelMap) return plain(ids.map((id) => quote(t, panelMap.get(id) ?? id)).join(', '));
    if (key === 'order' && first?.key === 'panels' && first.id !== undefined) return plain(ids.map((id) => quote(t, names.questions.get(`${first.id}/${id}`) ?? id)).join(', '));
    return plain(ids.join(', '));
  }
  if (ctx.depth >= 2) return plain(t('changes.value.items', { count: value.length }));
  return { kind: 'lines', lines: value.map((item) => ({ value: describeValue({ ...ctx, key: itemKey(key), depth: ctx.depth + 1 }, item) })) };
}

/** What one item of a list is (its summary depends on it). */
function itemKey(list: string): string {
  if (list === 'panels') return 'panel';
  if (list === 'multiPanels') return 'multiPanel';
  if (list === 'form') return 'question';
  if (list === 'access') return 'rule';
  if (list === 'labels') return 'label';
  if (list === 'blocklist') return 'blockEntry';
  return list;
}

function areasText(t: T, areas: Record<string, unknown>): string {
  const entries = Object.entries(areas);
  if (entries.length === 0) return t('changes.value.none');
  return entries.map(([area, level]) => `${AREA[area] ? t(AREA[area]) : area}: ${typeof level === 'string' && LEVEL[level] ? t(LEVEL[level]) : String(level)}`).join(', ');
}

function describeObject(ctx: ValueContext, value: Record<string, unknown>): ValueView {
  const { t, key } = ctx;
  // A custom emoji of the server.
  if (typeof value.id === 'string' && typeof value.name === 'string' && typeof value.animated === 'boolean') return plain(`:${value.name}:`);
  // An access rule, or its areas.
  if (typeof value.roleId === 'string' && isObject(value.areas)) return plain(`${t('changes.role', { id: value.roleId })}: ${areasText(t, value.areas)}`);
  if (key === 'areas') return plain(areasText(t, value));
  // A form question.
  if (typeof value.label === 'string' && typeof value.required === 'boolean' && typeof value.style === 'string') {
    const style = QUESTION_STYLE[value.style] ? t(QUESTION_STYLE[value.style]!) : value.style;
    return plain(t('changes.value.question', { label: quote(t, value.label), style, required: value.required ? 'yes' : 'no' }));
  }
  // A panel or multi-panel, added or removed whole (its name is in the path's label): what it shows.
  if (typeof value.name === 'string' && isObject(value.embed)) {
    const lines: Array<{ label?: string; value: ValueView }> = [];
    if (typeof value.embed.title === 'string' && value.embed.title !== '') lines.push({ label: t('changes.field.title'), value: { kind: 'quoted', text: value.embed.title } });
    if (isObject(value.button) && typeof value.button.label === 'string' && value.button.label !== '') lines.push({ label: t('changes.field.button'), value: { kind: 'quoted', text: value.button.label } });
    if (Array.isArray(value.form) && value.form.length > 0) lines.push({ label: t('changes.field.form'), value: plain(t('changes.value.questions', { count: value.form.length })) });
    if (typeof value.mode === 'string') lines.push({ label: t('changes.field.mode'), value: enumLabel(t, MODE, value.mode) });
    if (Array.isArray(value.panelIds)) lines.push({ label: t('changes.field.panelIds'), value: describeArray(child(ctx, 'panelIds', key), value.panelIds) });
    return lines.length > 0 ? { kind: 'lines', lines } : { kind: 'quoted', text: value.name };
  }
  // A blocklist entry added or removed whole (its id is in the path's label): who, why, until when.
  if (key === 'blockEntry' && typeof value.reason === 'string') {
    const field = (name: string) => ({ label: fieldLabel(t, name, { key }), value: describeValue(child(ctx, name, key), value[name]) });
    return { kind: 'lines', lines: [field('kind'), field('reason'), field('expiresAt')] };
  }
  // The opening hours of a week.
  if (key === 'hours') {
    return { kind: 'lines', lines: Object.entries(value).map(([day, ranges]) => ({ label: WEEKDAY[day] ? t(WEEKDAY[day]!) : day, value: Array.isArray(ranges) ? describeArray(child(ctx, day, 'hours'), ranges) : describeValue(child(ctx, day, 'hours'), ranges) })) };
  }
  if (ctx.depth >= 2) return plain(t('changes.value.fields', { count: Object.keys(value).length }));
  // Anything else (an embed, support hours, the general settings): its fields, one a line.
  return {
    kind: 'lines',
    lines: Object.entries(value).map(([field, inner]) => ({ label: fieldLabel(t, field, { key }), value: describeValue(child(ctx, field, key), inner) })),
  };
}

function describeValue(ctx: ValueContext, value: unknown): ValueView {
  const { t, key } = ctx;
  if (value === null || value === undefined) return muted(nullMeaning(t, key, ctx.first));
  if (typeof value === 'boolean') return plain(t(value ? 'changes.value.yes' : 'changes.value.no'));
  if (typeof value === 'number') return key === 'colour' && Number.isInteger(value) && value >= 0 && value <= 0xffffff ? { kind: 'colour', hex: hex(value) } : plain(formatNumber(value));
  if (typeof value === 'string') return describeString(ctx, value);
  if (Array.isArray(value)) return describeArray(ctx, value);
  if (isObject(value)) return describeObject(ctx, value);
  return plain(String(value));
}

/** The changes described for people, in the reader's language. */
export function describeChanges(t: T, changes: readonly ConfigChangeInput[], config?: ConfigNamesSource): ChangeView[] {
  const names = collectNames(changes, config);
  return changes.map((change) => {
    const segments = parsePath(change.path);
    const last = segments[segments.length - 1];
    // An item added or removed whole (`panels[x]`) is described as that item.
    const key = last?.id !== undefined ? itemKey(last.key) : (last?.key ?? '');
    const ctx: ValueContext = { t, names, key, parent: segments[segments.length - 2], first: segments[0], depth: 0 };
    const hasBefore = 'before' in change && change.before !== undefined;
    const hasAfter = 'after' in change && change.after !== undefined;
    return {
      path: change.path,
      labels: segments.map((_, index) => segmentLabel(t, names, segments, index)),
      kind: hasBefore && !hasAfter ? 'removed' : hasAfter && !hasBefore ? 'added' : 'changed',
      before: hasBefore ? describeValue(ctx, change.before) : null,
      after: hasAfter ? describeValue(ctx, change.after) : null,
    };
  });
}

/** A value as one line of text (for the CSV export and screen-reader summaries). */
function valueText(t: T, value: ValueView): string {
  switch (value.kind) {
    case 'quoted':
      return quote(t, value.text);
    case 'colour':
      return value.hex;
    case 'lines':
      return value.lines.map((line) => (line.label ? `${line.label}: ${valueText(t, line.value)}` : valueText(t, line.value))).join('; ');
    default:
      return value.text;
  }
}

/** One change as one line: "Panel “Support” › Button › Label: “Open” → “Open a ticket”". */
export function changeText(t: T, view: ChangeView): string {
  const label = view.labels.join(' › ');
  if (view.kind === 'added') return t('changes.text.added', { label, value: valueText(t, view.after!) });
  if (view.kind === 'removed') return t('changes.text.removed', { label, value: valueText(t, view.before!) });
  return t('changes.text.changed', { label, before: view.before ? valueText(t, view.before) : '', after: view.after ? valueText(t, view.after) : '' });
}

/** All changes as text, one a line. */
export function changesText(t: T, changes: readonly ConfigChangeInput[], config?: ConfigNamesSource): string {
  return describeChanges(t, changes, config)
    .map((view) => changeText(t, view))
    .join('\n');
}
