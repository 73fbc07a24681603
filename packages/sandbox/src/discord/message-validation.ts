/**
 * Validation of message bodies (`POST /channels/{id}/messages`, `PATCH .../messages/{id}`) against
 * Discord's documented limits, answering like Discord: 400 `{ code: 50035, message: 'Invalid Form
 * Body', errors }` where `errors` mirrors the body (`{ embeds: { 0: { title: { _errors: [...] } } } }`).
 * Lengths count Unicode code points (`[...s].length`), never UTF-16 units: an emoji or a CJK character
 * is one character, as Discord counts them.
 */

/** Discord's documented limits (https://discord.com/developers/docs/resources/message, components reference). */
export const MESSAGE_LIMITS = {
  content: 2000,
  embeds: 10,
  embedTitle: 256,
  embedDescription: 4096,
  embedFields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footerText: 2048,
  authorName: 256,
  /** Title, description, field names and values, footer text and author name of all the embeds together. */
  embedTotal: 6000,
  url: 2048,
  actionRows: 5,
  /** Width of an action row: 5 buttons, or 1 select menu (which is 5 wide). */
  rowWidth: 5,
  buttonLabel: 80,
  customId: 100,
  selectOptions: 25,
  selectPlaceholder: 150,
  optionLabel: 100,
  optionValue: 100,
  optionDescription: 100,
  nonce: 25,
} as const;

/** Message flags a bot may set: SUPPRESS_EMBEDS (1<<2), SUPPRESS_NOTIFICATIONS (1<<12). */
const SETTABLE_FLAGS = (1 << 2) | (1 << 12);
/** IS_COMPONENTS_V2 (1<<15): layout components; the sandbox implements the classic action rows only. */
const IS_COMPONENTS_V2 = 1 << 15;

export const BUTTON_STYLES = [1, 2, 3, 4, 5, 6] as const;
/** Child component types of an action row: button, string select, user, role, mentionable and channel selects. */
const ROW_CHILD_TYPES = [2, 3, 5, 6, 7, 8] as const;
const SELECT_TYPES: ReadonlySet<number> = new Set([3, 5, 6, 7, 8]);

/** Characters as Discord counts them: Unicode code points. */
export function charCount(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

type Path = ReadonlyArray<string | number>;
interface FieldError {
  code: string;
  message: string;
}
type ErrorTree = { _errors?: FieldError[] } & { [key: string]: ErrorTree | FieldError[] | undefined };

/** Discord's nested `errors` object, built one field at a time. */
export class FormErrors {
  readonly tree: ErrorTree = {};
  #count = 0;

  add(path: Path, code: string, message: string): void {
    let node = this.tree;
    for (const key of path) {
      const k = String(key);
      let next = node[k] as ErrorTree | undefined;
      if (!next || Array.isArray(next)) {
        next = {};
        node[k] = next;
      }
      node = next;
    }
    node._errors ??= [];
    node._errors.push({ code, message });
    this.#count++;
  }

  get empty(): boolean {
    return this.#count === 0;
  }
}

export interface EmbedOut {
  type: string;
  title?: string;
  description?: string;
  url?: string;
  timestamp?: string;
  color?: number;
  footer?: { text: string; icon_url?: string };
  image?: { url: string };
  thumbnail?: { url: string };
  author?: { name: string; url?: string; icon_url?: string };
  fields?: Array<{ name: string; value: string; inline: boolean }>;
}

export interface EmojiOut {
  id?: string | null;
  name?: string | null;
  animated?: boolean;
}

export interface ButtonOut {
  type: 2;
  id: number;
  style: number;
  label?: string;
  emoji?: EmojiOut;
  custom_id?: string;
  url?: string;
  sku_id?: string;
  disabled?: boolean;
}

export interface SelectOptionOut {
  label: string;
  value: string;
  description?: string;
  emoji?: EmojiOut;
  default?: boolean;
}

export interface SelectOut {
  type: 3 | 5 | 6 | 7 | 8;
  id: number;
  custom_id: string;
  placeholder?: string;
  min_values: number;
  max_values: number;
  options?: SelectOptionOut[];
  channel_types?: number[];
  disabled?: boolean;
}

export interface ActionRowOut {
  type: 1;
  id: number;
  components: Array<ButtonOut | SelectOut>;
}

/** What a valid body sets; a key absent from it is left as it is (edit) or empty (create). */
export interface MessageInput {
  content?: string;
  embeds?: EmbedOut[];
  components?: ActionRowOut[];
  flags?: number;
  tts?: boolean;
  nonce?: string | number;
}

export type ValidationResult =
  | { ok: true; value: MessageInput }
  | { ok: false; status: 400; body: { message: string; code: number; errors?: ErrorTree } };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const present = (v: unknown) => v !== undefined && v !== null;
const shown = (v: unknown) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return (s ?? String(v)).slice(0, 100);
};

class Checker {
  readonly errors = new FormErrors();

  string(value: unknown, path: Path): string | undefined {
    if (typeof value === 'string') return value;
    this.errors.add(path, 'STRING_TYPE_CONVERT', `Could not interpret "${shown(value)}" as string.`);
    return undefined;
  }

  /** A string of at most `max` characters (`required`: present and not empty). */
  text(value: unknown, path: Path, max: number, required = false): string | undefined {
    if (!present(value) || value === '') {
      if (required) this.errors.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
      return undefined;
    }
    const s = this.string(value, path);
    if (s === undefined) return undefined;
    if (charCount(s) > max) {
      this.errors.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
      return undefined;
    }
    return s;
  }

  /** A string of `min` to `max` characters (BASE_TYPE_BAD_LENGTH outside). */
  between(value: unknown, path: Path, min: number, max: number): string | undefined {
    if (!present(value)) {
      this.errors.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
      return undefined;
    }
    const s = this.string(value, path);
    if (s === undefined) return undefined;
    const n = charCount(s);
    if (n < min || n > max) {
      this.errors.add(path, 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
      return undefined;
    }
    return s;
  }

  url(value: unknown, path: Path, schemes: readonly string[] = ['http:', 'https:']): string | undefined {
    if (!present(value)) return undefined;
    const s = this.string(value, path);
    if (s === undefined) return undefined;
    if (charCount(s) > MESSAGE_LIMITS.url) {
      this.errors.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${MESSAGE_LIMITS.url} or fewer in length.`);
      return undefined;
    }
    let ok = false;
    try {
      ok = schemes.includes(new URL(s).protocol);
    } catch {
      ok = false;
    }
    if (!ok) {
      this.errors.add(path, 'URL_TYPE_INVALID_URL', 'Not a well formed URL.');
      return undefined;
    }
    return s;
  }

  integer(value: unknown, path: Path, min: number, max: number): number | undefined {
    if (!present(value)) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      this.errors.add(path, 'NUMBER_TYPE_COERCE', `Value "${shown(value)}" is not int.`);
      return undefined;
    }
    if (value < min) {
      this.errors.add(path, 'NUMBER_TYPE_MIN', `Int value should be greater than or equal to ${min}.`);
      return undefined;
    }
    if (value > max) {
      this.errors.add(path, 'NUMBER_TYPE_MAX', `Int value should be less than or equal to ${max}.`);
      return undefined;
    }
    return value;
  }

  boolean(value: unknown, path: Path): boolean | undefined {
    if (!present(value)) return undefined;
    if (typeof value !== 'boolean') {
      this.errors.add(path, 'BOOLEAN_TYPE_CONVERT', 'Must be either true or false.');
      return undefined;
    }
    return value;
  }

  object(value: unknown, path: Path): Record<string, unknown> | undefined {
    if (!present(value)) return undefined;
    if (!isObject(value)) {
      this.errors.add(path, 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
      return undefined;
    }
    return value;
  }

  list(value: unknown, path: Path): unknown[] | undefined {
    if (!present(value)) return undefined;
    if (!Array.isArray(value)) {
      this.errors.add(path, 'LIST_TYPE_CONVERT', 'Only iterables may be used in a ListType');
      return undefined;
    }
    return value;
  }

  choice<T extends number>(value: unknown, path: Path, choices: readonly T[]): T | undefined {
    if (!present(value)) {
      this.errors.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
      return undefined;
    }
    if (typeof value !== 'number' || !choices.includes(value as T)) {
      this.errors.add(path, 'BASE_TYPE_CHOICES', `Value must be one of (${choices.join(', ')}).`);
      return undefined;
    }
    return value as T;
  }

  snowflake(value: unknown, path: Path): string | undefined {
    if (!present(value)) return undefined;
    const s = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
    if (typeof s !== 'string' || !/^\d{1,20}$/.test(s)) {
      this.errors.add(path, 'NUMBER_TYPE_COERCE', `Value "${shown(value)}" is not snowflake.`);
      return undefined;
    }
    return s;
  }
}

/** Characters an embed counts towards the 6,000 of a message. */
function embedSize(e: EmbedOut): number {
  let n = charCount(e.title ?? '') + charCount(e.description ?? '') + charCount(e.footer?.text ?? '') + charCount(e.author?.name ?? '');
  for (const f of e.fields ?? []) n += charCount(f.name) + charCount(f.value);
  return n;
}

/** Discord's timestamp (ISO 8601) for an embed's `timestamp`, or undefined when it cannot be read. */
function embedTimestamp(c: Checker, value: unknown, path: Path): string | undefined {
  if (!present(value)) return undefined;
  const s = c.string(value, path);
  if (s === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(s) ? Date.parse(s) : Number.NaN;
  if (!Number.isFinite(ms)) {
    c.errors.add(path, 'DATE_TYPE_CONVERT', `Could not parse ${shown(value)}. Should be ISO8601.`);
    return undefined;
  }
  return new Date(ms).toISOString().replace(/Z$/, '000+00:00');
}

function embedOf(c: Checker, raw: unknown, path: Path): EmbedOut | undefined {
  const e = c.object(raw, path);
  if (!e) {
    if (!present(raw)) c.errors.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
    return undefined;
  }
  const out: EmbedOut = { type: 'rich' };
  if (present(e.type)) {
    const type = c.string(e.type, [...path, 'type']);
    if (type !== undefined) out.type = type;
  }
  const title = c.text(e.title, [...path, 'title'], MESSAGE_LIMITS.embedTitle);
  if (title !== undefined) out.title = title;
  const description = c.text(e.description, [...path, 'description'], MESSAGE_LIMITS.embedDescription);
  if (description !== undefined) out.description = description;
  const url = c.url(e.url, [...path, 'url']);
  if (url !== undefined) out.url = url;
  const timestamp = embedTimestamp(c, e.timestamp, [...path, 'timestamp']);
  if (timestamp !== undefined) out.timestamp = timestamp;
  const color = c.integer(e.color, [...path, 'color'], 0, 0xffffff);
  if (color !== undefined) out.color = color;

  const footer = c.object(e.footer, [...path, 'footer']);
  if (footer) {
    const text = c.text(footer.text, [...path, 'footer', 'text'], MESSAGE_LIMITS.footerText, true);
    const icon = c.url(footer.icon_url, [...path, 'footer', 'icon_url'], ['http:', 'https:', 'attachment:']);
    if (text !== undefined) out.footer = { text, ...(icon !== undefined ? { icon_url: icon } : {}) };
  }
  for (const key of ['image', 'thumbnail'] as const) {
    const media = c.object(e[key], [...path, key]);
    if (media) {
      if (!present(media.url)) c.errors.add([...path, key, 'url'], 'BASE_TYPE_REQUIRED', 'This field is required');
      const mediaUrl = c.url(media.url, [...path, key, 'url'], ['http:', 'https:', 'attachment:']);
      if (mediaUrl !== undefined) out[key] = { url: mediaUrl };
    }
  }
  const author = c.object(e.author, [...path, 'author']);
  if (author) {
    const name = c.text(author.name, [...path, 'author', 'name'], MESSAGE_LIMITS.authorName, true);
    const authorUrl = c.url(author.url, [...path, 'author', 'url']);
    const icon = c.url(author.icon_url, [...path, 'author', 'icon_url'], ['http:', 'https:', 'attachment:']);
    if (name !== undefined) {
      out.author = { name, ...(authorUrl !== undefined ? { url: authorUrl } : {}), ...(icon !== undefined ? { icon_url: icon } : {}) };
    }
  }
  const fields = c.list(e.fields, [...path, 'fields']);
  if (fields) {
    if (fields.length > MESSAGE_LIMITS.embedFields) {
      c.errors.add([...path, 'fields'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MESSAGE_LIMITS.embedFields} or fewer in length.`);
    } else {
      out.fields = [];
      fields.forEach((raw, i) => {
        const fieldPath = [...path, 'fields', i];
        const f = c.object(raw, fieldPath);
        if (!f) return;
        const name = c.text(f.name, [...fieldPath, 'name'], MESSAGE_LIMITS.fieldName, true);
        const value = c.text(f.value, [...fieldPath, 'value'], MESSAGE_LIMITS.fieldValue, true);
        const inline = c.boolean(f.inline, [...fieldPath, 'inline']);
        if (name !== undefined && value !== undefined) out.fields!.push({ name, value, inline: inline ?? false });
      });
    }
  }
  return out;
}

function emojiOf(c: Checker, raw: unknown, path: Path): EmojiOut | undefined {
  const e = c.object(raw, path);
  if (!e) return undefined;
  const id = c.snowflake(e.id, [...path, 'id']);
  const name = present(e.name) ? c.text(e.name, [...path, 'name'], 32) : undefined;
  const animated = c.boolean(e.animated, [...path, 'animated']);
  if (id === undefined && name === undefined) {
    c.errors.add(path, 'COMPONENT_INVALID_EMOJI', 'Invalid emoji');
    return undefined;
  }
  return { id: id ?? null, name: name ?? null, ...(animated !== undefined ? { animated } : {}) };
}

/** Validates the custom ids' uniqueness across the whole message and numbers the components. */
interface ComponentContext {
  customIds: Map<string, Path>;
  nextId: () => number;
}

function customIdOf(c: Checker, ctx: ComponentContext, value: unknown, path: Path): string | undefined {
  const id = c.between(value, path, 1, MESSAGE_LIMITS.customId);
  if (id === undefined) return undefined;
  if (ctx.customIds.has(id)) {
    c.errors.add(path, 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
    return undefined;
  }
  ctx.customIds.set(id, path);
  return id;
}

function notAllowed(c: Checker, b: Record<string, unknown>, path: Path, keys: string[], why: string): void {
  for (const key of keys) {
    if (present(b[key])) c.errors.add([...path, key], 'COMPONENT_INVALID_FIELD', why);
  }
}

function buttonOf(c: Checker, ctx: ComponentContext, b: Record<string, unknown>, path: Path): ButtonOut | undefined {
  const style = c.choice(b.style, [...path, 'style'], BUTTON_STYLES);
  const label = c.text(b.label, [...path, 'label'], MESSAGE_LIMITS.buttonLabel);
  const emoji = present(b.emoji) ? emojiOf(c, b.emoji, [...path, 'emoji']) : undefined;
  const disabled = c.boolean(b.disabled, [...path, 'disabled']);
  if (style === undefined) return undefined;
  const out: ButtonOut = { type: 2, id: ctx.nextId(), style };
  if (style === 5) {
    // A link button: a URL, no custom id.
    if (!present(b.url)) c.errors.add([...path, 'url'], 'BASE_TYPE_REQUIRED', 'This field is required');
    notAllowed(c, b, path, ['custom_id', 'sku_id'], 'A link button has a url and no custom_id.');
    const url = c.url(b.url, [...path, 'url'], ['http:', 'https:', 'discord:']);
    if (url !== undefined) out.url = url;
  } else if (style === 6) {
    // A premium button: an SKU, nothing else.
    const sku = c.snowflake(b.sku_id, [...path, 'sku_id']);
    if (!present(b.sku_id)) c.errors.add([...path, 'sku_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
    notAllowed(c, b, path, ['custom_id', 'url', 'label', 'emoji'], 'A premium button has a sku_id only.');
    if (sku !== undefined) out.sku_id = sku;
  } else {
    notAllowed(c, b, path, ['url', 'sku_id'], 'Only link buttons have a url, only premium buttons a sku_id.');
    const customId = customIdOf(c, ctx, b.custom_id, [...path, 'custom_id']);
    if (customId !== undefined) out.custom_id = customId;
  }
  if (style !== 6 && label === undefined && emoji === undefined && !present(b.label) && !present(b.emoji)) {
    c.errors.add([...path, 'label'], 'BASE_TYPE_REQUIRED', 'A button needs a label or an emoji.');
  }
  if (label !== undefined) out.label = label;
  if (emoji !== undefined) out.emoji = emoji;
  if (disabled !== undefined) out.disabled = disabled;
  return out;
}

function selectOf(c: Checker, ctx: ComponentContext, s: Record<string, unknown>, type: SelectOut['type'], path: Path): SelectOut | undefined {
  const customId = customIdOf(c, ctx, s.custom_id, [...path, 'custom_id']);
  const placeholder = c.text(s.placeholder, [...path, 'placeholder'], MESSAGE_LIMITS.selectPlaceholder);
  const min = c.integer(s.min_values, [...path, 'min_values'], 0, MESSAGE_LIMITS.selectOptions);
  const max = c.integer(s.max_values, [...path, 'max_values'], 1, MESSAGE_LIMITS.selectOptions);
  const disabled = c.boolean(s.disabled, [...path, 'disabled']);
  const out: SelectOut = { type, id: ctx.nextId(), custom_id: customId ?? '', min_values: min ?? 1, max_values: max ?? 1 };
  if (type === 3) {
    const options = c.list(s.options, [...path, 'options']);
    if (!options) {
      if (!present(s.options)) c.errors.add([...path, 'options'], 'BASE_TYPE_REQUIRED', 'This field is required');
    } else if (options.length < 1 || options.length > MESSAGE_LIMITS.selectOptions) {
      c.errors.add([...path, 'options'], 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MESSAGE_LIMITS.selectOptions} in length.`);
    } else {
      out.options = [];
      options.forEach((raw, i) => {
        const optionPath = [...path, 'options', i];
        const o = c.object(raw, optionPath);
        if (!o) return;
        const label = c.between(o.label, [...optionPath, 'label'], 1, MESSAGE_LIMITS.optionLabel);
        const value = c.between(o.value, [...optionPath, 'value'], 1, MESSAGE_LIMITS.optionValue);
        const description = c.text(o.description, [...optionPath, 'description'], MESSAGE_LIMITS.optionDescription);
        const emoji = present(o.emoji) ? emojiOf(c, o.emoji, [...optionPath, 'emoji']) : undefined;
        const isDefault = c.boolean(o.default, [...optionPath, 'default']);
        if (label !== undefined && value !== undefined) {
          out.options!.push({
            label,
            value,
            ...(description !== undefined ? { description } : {}),
            ...(emoji !== undefined ? { emoji } : {}),
            ...(isDefault !== undefined ? { default: isDefault } : {}),
          });
        }
      });
      if (max !== undefined && max > options.length) {
        c.errors.add([...path, 'max_values'], 'NUMBER_TYPE_MAX', `Int value should be less than or equal to ${options.length}.`);
      }
    }
  } else if (present(s.options)) {
    c.errors.add([...path, 'options'], 'COMPONENT_INVALID_FIELD', 'Only string selects (type 3) have options.');
  }
  if (min !== undefined && max !== undefined && min > max) {
    c.errors.add([...path, 'min_values'], 'NUMBER_TYPE_MAX', `Int value should be less than or equal to ${max}.`);
  }
  if (type === 8 && present(s.channel_types)) {
    const types = c.list(s.channel_types, [...path, 'channel_types']);
    if (types) out.channel_types = types.filter((t): t is number => Number.isInteger(t));
  }
  if (placeholder !== undefined) out.placeholder = placeholder;
  if (disabled !== undefined) out.disabled = disabled;
  return out;
}

function rowOf(c: Checker, ctx: ComponentContext, raw: unknown, path: Path): ActionRowOut | undefined {
  const row = c.object(raw, path);
  if (!row) return undefined;
  if (c.choice(row.type, [...path, 'type'], [1] as const) === undefined) return undefined;
  const children = c.list(row.components, [...path, 'components']);
  if (!children) {
    if (!present(row.components)) c.errors.add([...path, 'components'], 'BASE_TYPE_REQUIRED', 'This field is required');
    return undefined;
  }
  if (children.length < 1 || children.length > MESSAGE_LIMITS.rowWidth) {
    c.errors.add([...path, 'components'], 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MESSAGE_LIMITS.rowWidth} in length.`);
    return undefined;
  }
  const out: ActionRowOut = { type: 1, id: ctx.nextId(), components: [] };
  let width = 0;
  children.forEach((rawChild, j) => {
    const childPath = [...path, 'components', j];
    const child = c.object(rawChild, childPath);
    if (!child) return;
    const type = c.choice(child.type, [...childPath, 'type'], ROW_CHILD_TYPES);
    if (type === undefined) return;
    width += SELECT_TYPES.has(type) ? MESSAGE_LIMITS.rowWidth : 1;
    if (width > MESSAGE_LIMITS.rowWidth) {
      c.errors.add(childPath, 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', 'The specified component exceeds the maximum width');
      return;
    }
    const component = type === 2 ? buttonOf(c, ctx, child, childPath) : selectOf(c, ctx, child, type, childPath);
    if (component) out.components.push(component);
  });
  return out;
}

function componentsOf(c: Checker, raw: unknown): ActionRowOut[] | undefined {
  const rows = c.list(raw, ['components']);
  if (!rows) return undefined;
  if (rows.length > MESSAGE_LIMITS.actionRows) {
    c.errors.add(['components'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MESSAGE_LIMITS.actionRows} or fewer in length.`);
    return undefined;
  }
  let next = 0;
  const ctx: ComponentContext = { customIds: new Map(), nextId: () => ++next };
  const out: ActionRowOut[] = [];
  rows.forEach((row, i) => {
    const r = rowOf(c, ctx, row, ['components', i]);
    if (r) out.push(r);
  });
  return out;
}

function embedsOf(c: Checker, raw: unknown): EmbedOut[] | undefined {
  const list = c.list(raw, ['embeds']);
  if (!list) return undefined;
  if (list.length > MESSAGE_LIMITS.embeds) {
    c.errors.add(['embeds'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MESSAGE_LIMITS.embeds} or fewer in length.`);
    return undefined;
  }
  const out: EmbedOut[] = [];
  list.forEach((e, i) => {
    const embed = embedOf(c, e, ['embeds', i]);
    if (embed) out.push(embed);
  });
  if (out.reduce((n, e) => n + embedSize(e), 0) > MESSAGE_LIMITS.embedTotal) {
    c.errors.add(['embeds'], 'MAX_EMBED_SIZE_EXCEEDED', `Embed size exceeds maximum size of ${MESSAGE_LIMITS.embedTotal}`);
  }
  return out;
}

/**
 * Checks a create (`mode: 'create'`) or edit body. Keys the body does not have are left out of the
 * result; in an edit, `null` clears a field (content '', embeds [], components []).
 */
export function validateMessage(body: unknown, mode: 'create' | 'edit'): ValidationResult {
  if (body !== undefined && body !== null && !isObject(body)) {
    const errors = new FormErrors();
    errors.add([], 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
    return { ok: false, status: 400, body: { message: 'Invalid Form Body', code: 50035, errors: errors.tree } };
  }
  const b = (body ?? {}) as Record<string, unknown>;
  const c = new Checker();
  const value: MessageInput = {};

  if (b.content === null) value.content = '';
  else if (b.content !== undefined) {
    const content = c.string(b.content, ['content']);
    if (content !== undefined) {
      if (charCount(content) > MESSAGE_LIMITS.content) c.errors.add(['content'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MESSAGE_LIMITS.content} or fewer in length.`);
      else value.content = content;
    }
  }
  if (b.embeds === null) value.embeds = [];
  else if (b.embeds !== undefined) {
    const embeds = embedsOf(c, b.embeds);
    if (embeds) value.embeds = embeds;
  }
  if (b.components === null) value.components = [];
  else if (b.components !== undefined) {
    const components = componentsOf(c, b.components);
    if (components) value.components = components;
  }
  if (present(b.flags)) {
    const flags = c.integer(b.flags, ['flags'], 0, 2 ** 31 - 1);
    if (flags !== undefined) {
      if (flags & IS_COMPONENTS_V2) {
        c.errors.add(['flags'], 'SANDBOX_UNSUPPORTED', 'The sandbox does not implement IS_COMPONENTS_V2 (1 << 15) layout components.');
      } else value.flags = flags & SETTABLE_FLAGS;
    }
  }
  if (mode === 'create') {
    const tts = c.boolean(b.tts, ['tts']);
    if (tts !== undefined) value.tts = tts;
    if (present(b.nonce)) {
      if (typeof b.nonce === 'number' && Number.isSafeInteger(b.nonce)) value.nonce = b.nonce;
      else {
        const nonce = c.text(b.nonce, ['nonce'], MESSAGE_LIMITS.nonce);
        if (nonce !== undefined) value.nonce = nonce;
      }
    }
    c.object(b.allowed_mentions, ['allowed_mentions']);
    c.object(b.message_reference, ['message_reference']);
  }
  if (!c.errors.empty) return { ok: false, status: 400, body: { message: 'Invalid Form Body', code: 50035, errors: c.errors.tree } };
  return { ok: true, value };
}

/** Discord's 50006: a message needs content, an embed or a component. */
export function isEmptyMessage(m: { content: string; embeds: readonly unknown[]; components: readonly unknown[] }): boolean {
  return m.content === '' && m.embeds.length === 0 && m.components.length === 0;
}
