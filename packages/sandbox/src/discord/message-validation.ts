/**
 * Validation of message bodies (`POST /channels/{id}/messages`, `PATCH .../messages/{id}`) against
 * Discord's documented limits, answering like Discord: 400 `{ code: 50035, message: 'Invalid Form
 * Body', errors }` where `errors` mirrors the body (`{ embeds: { 0: { title: { _errors: [...] } } } }`).
 * Lengths count Unicode code points (`[...s].length`), never UTF-16 units: an emoji or a CJK character
 * is one character, as Discord counts them.
 */

/** Discord's documented limits. */
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
  let count = 0;
  for (const _ of value) count++;
  return count;
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
      const name = String(key);
      let next = node[name] as ErrorTree | undefined;
      if (!next || Array.isArray(next)) {
        next = {};
        node[name] = next;
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
const shown = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return (text ?? String(value)).slice(0, 100);
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
    const session = this.string(value, path);
    if (session === undefined) return undefined;
    if (charCount(session) > max) {
      this.errors.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
      return undefined;
    }
    return session;
  }

  /** A string of `min` to `max` characters (BASE_TYPE_BAD_LENGTH outside). */
  between(value: unknown, path: Path, min: number, max: number): string | undefined {
    if (!present(value)) {
      this.errors.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
      return undefined;
    }
    const session = this.string(value, path);
    if (session === undefined) return undefined;
    const count = charCount(session);
    if (count < min || count > max) {
      this.errors.add(path, 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
      return undefined;
    }
    return session;
  }

  url(value: unknown, path: Path, schemes: readonly string[] = ['http:', 'https:']): string | undefined {
    if (!present(value)) return undefined;
    const session = this.string(value, path);
    if (session === undefined) return undefined;
    if (charCount(session) > MESSAGE_LIMITS.url) {
      this.errors.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${MESSAGE_LIMITS.url} or fewer in length.`);
      return undefined;
    }
    let ok = false;
    try {
      ok = schemes.includes(new URL(session).protocol);
    } catch {
      ok = false;
    }
    if (!ok) {
      this.errors.add(path, 'URL_TYPE_INVALID_URL', 'Not a well formed URL.');
      return undefined;
    }
    return session;
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
    const session = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
    if (typeof session !== 'string' || !/^\d{1,20}$/.test(session)) {
      this.errors.add(path, 'NUMBER_TYPE_COERCE', `Value "${shown(value)}" is not snowflake.`);
      return undefined;
    }
    return session;
  }
}

/** Characters an embed counts towards the 6,000 of a message. */
function embedSize(embedOut: EmbedOut): number {
  let count = charCount(embedOut.title ?? '') + charCount(embedOut.description ?? '') + charCount(embedOut.footer?.text ?? '') + charCount(embedOut.author?.name ?? '');
  for (const file of embedOut.fields ?? []) count += charCount(file.name) + charCount(file.value);
  return count;
}

/** Discord's timestamp (ISO 8601) for an embed's `timestamp`, or undefined when it cannot be read. */
function embedTimestamp(checker: Checker, value: unknown, path: Path): string | undefined {
  if (!present(value)) return undefined;
  const session = checker.string(value, path);
  if (session === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(session) ? Date.parse(session) : Number.NaN;
  if (!Number.isFinite(ms)) {
    checker.errors.add(path, 'DATE_TYPE_CONVERT', `Could not parse ${shown(value)}. Should be ISO8601.`);
    return undefined;
  }
  return new Date(ms).toISOString().replace(/Z$/, '000+00:00');
}

function embedOf(checker: Checker, raw: unknown, path: Path): EmbedOut | undefined {
  const entry = checker.object(raw, path);
  if (!entry) {
    if (!present(raw)) checker.errors.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
    return undefined;
  }
  const out: EmbedOut = { type: 'rich' };
  if (present(entry.type)) {
    const type = checker.string(entry.type, [...path, 'type']);
    if (type !== undefined) out.type = type;
  }
  const title = checker.text(entry.title, [...path, 'title'], MESSAGE_LIMITS.embedTitle);
  if (title !== undefined) out.title = title;
  const description = checker.text(entry.description, [...path, 'description'], MESSAGE_LIMITS.embedDescription);
  if (description !== undefined) out.description = description;
  const url = checker.url(entry.url, [...path, 'url']);
  if (url !== undefined) out.url = url;
  const timestamp = embedTimestamp(checker, entry.timestamp, [...path, 'timestamp']);
  if (timestamp !== undefined) out.timestamp = timestamp;
  const color = checker.integer(entry.color, [...path, 'color'], 0, 0xffffff);
  if (color !== undefined) out.color = color;

  const footer = checker.object(entry.footer, [...path, 'footer']);
  if (footer) {
    const text = checker.text(footer.text, [...path, 'footer', 'text'], MESSAGE_LIMITS.footerText, true);
    const icon = checker.url(footer.icon_url, [...path, 'footer', 'icon_url'], ['http:', 'https:', 'attachment:']);
    if (text !== undefined) out.footer = { text, ...(icon !== undefined ? { icon_url: icon } : {}) };
  }
  for (const key of ['image', 'thumbnail'] as const) {
    const media = checker.object(entry[key], [...path, key]);
    if (media) {
      if (!present(media.url)) checker.errors.add([...path, key, 'url'], 'BASE_TYPE_REQUIRED', 'This field is required');
      const mediaUrl = checker.url(media.url, [...path, key, 'url'], ['http:', 'https:', 'attachment:']);
      if (mediaUrl !== undefined) out[key] = { url: mediaUrl };
    }
  }
  const author = checker.object(entry.author, [...path, 'author']);
  if (author) {
    const name = checker.text(author.name, [...path, 'author', 'name'], MESSAGE_LIMITS.authorName, true);
    const authorUrl = checker.url(author.url, [...path, 'author', 'url']);
    const icon = checker.url(author.icon_url, [...path, 'author', 'icon_url'], ['http:', 'https:', 'attachment:']);
    if (name !== undefined) {
      out.author = { name, ...(authorUrl !== undefined ? { url: authorUrl } : {}), ...(icon !== undefined ? { icon_url: icon } : {}) };
    }
  }
  const fields = checker.list(entry.fields, [...path, 'fields']);
  if (fields) {
    if (fields.length > MESSAGE_LIMITS.embedFields) {
      checker.errors.add([...path, 'fields'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MESSAGE_LIMITS.embedFields} or fewer in length.`);
    } else {
      out.fields = [];
      fields.forEach((raw, index) => {
        const fieldPath = [...path, 'fields', index];
        const file = checker.object(raw, fieldPath);
        if (!file) return;
        const name = checker.text(file.name, [...fieldPath, 'name'], MESSAGE_LIMITS.fieldName, true);
        const value = checker.text(file.value, [...fieldPath, 'value'], MESSAGE_LIMITS.fieldValue, true);
        const inline = checker.boolean(file.inline, [...fieldPath, 'inline']);
        if (name !== undefined && value !== undefined) out.fields!.push({ name, value, inline: inline ?? false });
      });
    }
  }
  return out;
}

function emojiOf(checker: Checker, raw: unknown, path: Path): EmojiOut | undefined {
  const entry = checker.object(raw, path);
  if (!entry) return undefined;
  const id = checker.snowflake(entry.id, [...path, 'id']);
  const name = present(entry.name) ? checker.text(entry.name, [...path, 'name'], 32) : undefined;
  const animated = checker.boolean(entry.animated, [...path, 'animated']);
  if (id === undefined && name === undefined) {
    checker.errors.add(path, 'COMPONENT_INVALID_EMOJI', 'Invalid emoji');
    return undefined;
  }
  return { id: id ?? null, name: name ?? null, ...(animated !== undefined ? { animated } : {}) };
}

/** Validates the custom ids' uniqueness across the whole message and numbers the components. */
interface ComponentContext {
  customIds: Map<string, Path>;
  nextId: () => number;
}

function customIdOf(checker: Checker, ctx: ComponentContext, value: unknown, path: Path): string | undefined {
  const id = checker.between(value, path, 1, MESSAGE_LIMITS.customId);
  if (id === undefined) return undefined;
  if (ctx.customIds.has(id)) {
    checker.errors.add(path, 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
    return undefined;
  }
  ctx.customIds.set(id, path);
  return id;
}

function notAllowed(checker: Checker, object: Record<string, unknown>, path: Path, keys: string[], why: string): void {
  for (const key of keys) {
    if (present(object[key])) checker.errors.add([...path, key], 'COMPONENT_INVALID_FIELD', why);
  }
}

function buttonOf(checker: Checker, ctx: ComponentContext, object: Record<string, unknown>, path: Path): ButtonOut | undefined {
  const style = checker.choice(object.style, [...path, 'style'], BUTTON_STYLES);
  const label = checker.text(object.label, [...path, 'label'], MESSAGE_LIMITS.buttonLabel);
  const emoji = present(object.emoji) ? emojiOf(checker, object.emoji, [...path, 'emoji']) : undefined;
  const disabled = checker.boolean(object.disabled, [...path, 'disabled']);
  if (style === undefined) return undefined;
  const out: ButtonOut = { type: 2, id: ctx.nextId(), style };
  if (style === 5) {
    // A link button: a URL, no custom id.
    if (!present(object.url)) checker.errors.add([...path, 'url'], 'BASE_TYPE_REQUIRED', 'This field is required');
    notAllowed(checker, object, path, ['custom_id', 'sku_id'], 'A link button has a url and no custom_id.');
    const url = checker.url(object.url, [...path, 'url'], ['http:', 'https:', 'discord:']);
    if (url !== undefined) out.url = url;
  } else if (style === 6) {
    // A premium button: an SKU, nothing else.
    const sku = checker.snowflake(object.sku_id, [...path, 'sku_id']);
    if (!present(object.sku_id)) checker.errors.add([...path, 'sku_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
    notAllowed(checker, object, path, ['custom_id', 'url', 'label', 'emoji'], 'A premium button has a sku_id only.');
    if (sku !== undefined) out.sku_id = sku;
  } else {
    notAllowed(checker, object, path, ['url', 'sku_id'], 'Only link buttons have a url, only premium buttons a sku_id.');
    const customId = customIdOf(checker, ctx, object.custom_id, [...path, 'custom_id']);
    if (customId !== undefined) out.custom_id = customId;
  }
  if (style !== 6 && label === undefined && emoji === undefined && !present(object.label) && !present(object.emoji)) {
    checker.errors.add([...path, 'label'], 'BASE_TYPE_REQUIRED', 'A button needs a label or an emoji.');
  }
  if (label !== undefined) out.label = label;
  if (emoji !== undefined) out.emoji = emoji;
  if (disabled !== undefined) out.disabled = disabled;
  return out;
}

function selectOf(checker: Checker, ctx: ComponentContext, object: Record<string, unknown>, type: SelectOut['type'], path: Path): SelectOut | undefined {
  const customId = customIdOf(checker, ctx, object.custom_id, [...path, 'custom_id']);
  const placeholder = checker.text(object.placeholder, [...path, 'placeholder'], MESSAGE_LIMITS.selectPlaceholder);
  const min = checker.integer(object.min_values, [...path, 'min_values'], 0, MESSAGE_LIMITS.selectOptions);
  const max = checker.integer(object.max_values, [...path, 'max_values'], 1, MESSAGE_LIMITS.selectOptions);
  const disabled = checker.boolean(object.disabled, [...path, 'disabled']);
  const out: SelectOut = { type, id: ctx.nextId(), custom_id: customId ?? '', min_values: min ?? 1, max_values: max ?? 1 };
  if (type === 3) {
    const options = checker.list(object.options, [...path, 'options']);
    if (!options) {
      if (!present(object.options)) checker.errors.add([...path, 'options'], 'BASE_TYPE_REQUIRED', 'This field is required');
    } else if (options.length < 1 || options.length > MESSAGE_LIMITS.selectOptions) {
      checker.errors.add([...path, 'options'], 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MESSAGE_LIMITS.selectOptions} in length.`);
    } else {
      out.options = [];
      options.forEach((raw, index) => {
        const optionPath = [...path, 'options', index];
        const item = checker.object(raw, optionPath);
        if (!item) return;
        const label = checker.between(item.label, [...optionPath, 'label'], 1, MESSAGE_LIMITS.optionLabel);
        const value = checker.between(item.value, [...optionPath, 'value'], 1, MESSAGE_LIMITS.optionValue);
        const description = checker.text(item.description, [...optionPath, 'description'], MESSAGE_LIMITS.optionDescription);
        const emoji = present(item.emoji) ? emojiOf(checker, item.emoji, [...optionPath, 'emoji']) : undefined;
        const isDefault = checker.boolean(item.default, [...optionPath, 'default']);
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
        checker.errors.add([...path, 'max_values'], 'NUMBER_TYPE_MAX', `Int value should be less than or equal to ${options.length}.`);
      }
    }
  } else if (present(object.options)) {
    checker.errors.add([...path, 'options'], 'COMPONENT_INVALID_FIELD', 'Only string selects (type 3) have options.');
  }
  if (min !== undefined && max !== undefined && min > max) {
    checker.errors.add([...path, 'min_values'], 'NUMBER_TYPE_MAX', `Int value should be less than or equal to ${max}.`);
  }
  if (type === 8 && present(object.channel_types)) {
    const types = checker.list(object.channel_types, [...path, 'channel_types']);
    if (types) out.channel_types = types.filter((t): t is number => Number.isInteger(t));
  }
  if (placeholder !== undefined) out.placeholder = placeholder;
  if (disabled !== undefined) out.disabled = disabled;
  return out;
}

function rowOf(checker: Checker, ctx: ComponentContext, raw: unknown, path: Path): ActionRowOut | undefined {
  const row = checker.object(raw, path);
  if (!row) return undefined;
  if (checker.choice(row.type, [...path, 'type'], [1] as const) === undefined) return undefined;
  const children = checker.list(row.components, [...path, 'components']);
  if (!children) {
    if (!present(row.components)) checker.errors.add([...path, 'components'], 'BASE_TYPE_REQUIRED', 'This field is required');
    return undefined;
  }
  if (children.length < 1 || children.length > MESSAGE_LIMITS.rowWidth) {
    checker.errors.add([...path, 'components'], 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MESSAGE_LIMITS.rowWidth} in length.`);
    return undefined;
  }
  const out: ActionRowOut = { type: 1, id: ctx.nextId(), components: [] };
  let width = 0;
  children.forEach((rawChild, index) => {
    const childPath = [...path, 'components', index];
    const child = checker.object(rawChild, childPath);
    if (!child) return;
    const type = checker.choice(child.type, [...childPath, 'type'], ROW_CHILD_TYPES);
    if (type === undefined) return;
    width += SELECT_TYPES.has(type) ? MESSAGE_LIMITS.rowWidth : 1;
    if (width > MESSAGE_LIMITS.rowWidth) {
      checker.errors.add(childPath, 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', 'The specified component exceeds the maximum width');
      return;
    }
    const component = type === 2 ? buttonOf(checker, ctx, child, childPath) : selectOf(checker, ctx, child, type, childPath);
    if (component) out.components.push(component);
  });
  return out;
}

function componentsOf(checker: Checker, raw: unknown): ActionRowOut[] | undefined {
  const rows = checker.list(raw, ['components']);
  if (!rows) return undefined;
  if (rows.length > MESSAGE_LIMITS.actionRows) {
    checker.errors.add(['components'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MESSAGE_LIMITS.actionRows} or fewer in length.`);
    return undefined;
  }
  let next = 0;
  const ctx: ComponentContext = { customIds: new Map(), nextId: () => ++next };
  const out: ActionRowOut[] = [];
  rows.forEach((row, index) => {
    const actionRowOut = rowOf(checker, ctx, row, ['components', index]);
    if (actionRowOut) out.push(actionRowOut);
  });
  return out;
}

function embedsOf(checker: Checker, raw: unknown): EmbedOut[] | undefined {
  const list = checker.list(raw, ['embeds']);
  if (!list) return undefined;
  if (list.length > MESSAGE_LIMITS.embeds) {
    checker.errors.add(['embeds'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MESSAGE_LIMITS.embeds} or fewer in length.`);
    return undefined;
  }
  const out: EmbedOut[] = [];
  list.forEach((entry, index) => {
    const embed = embedOf(checker, entry, ['embeds', index]);
    if (embed) out.push(embed);
  });
  if (out.reduce((n, e) => n + embedSize(e), 0) > MESSAGE_LIMITS.embedTotal) {
    checker.errors.add(['embeds'], 'MAX_EMBED_SIZE_EXCEEDED', `Embed size exceeds maximum size of ${MESSAGE_LIMITS.embedTotal}`);
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
  const second = (body ?? {}) as Record<string, unknown>;
  const checker = new Checker();
  const value: MessageInput = {};

  if (second.content === null) value.content = '';
  else if (second.content !== undefined) {
    const content = checker.string(second.content, ['content']);
    if (content !== undefined) {
      if (charCount(content) > MESSAGE_LIMITS.content) checker.errors.add(['content'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MESSAGE_LIMITS.content} or fewer in length.`);
      else value.content = content;
    }
  }
  if (second.embeds === null) value.embeds = [];
  else if (second.embeds !== undefined) {
    const embeds = embedsOf(checker, second.embeds);
    if (embeds) value.embeds = embeds;
  }
  if (second.components === null) value.components = [];
  else if (second.components !== undefined) {
    const components = componentsOf(checker, second.components);
    if (components) value.components = components;
  }
  if (present(second.flags)) {
    const flags = checker.integer(second.flags, ['flags'], 0, 2 ** 31 - 1);
    if (flags !== undefined) {
      if (flags & IS_COMPONENTS_V2) {
        checker.errors.add(['flags'], 'SANDBOX_UNSUPPORTED', 'The sandbox does not implement IS_COMPONENTS_V2 (1 << 15) layout components.');
      } else value.flags = flags & SETTABLE_FLAGS;
    }
  }
  if (mode === 'create') {
    const tts = checker.boolean(second.tts, ['tts']);
    if (tts !== undefined) value.tts = tts;
    if (present(second.nonce)) {
      if (typeof second.nonce === 'number' && Number.isSafeInteger(second.nonce)) value.nonce = second.nonce;
      else {
        const nonce = checker.text(second.nonce, ['nonce'], MESSAGE_LIMITS.nonce);
        if (nonce !== undefined) value.nonce = nonce;
      }
    }
    checker.object(second.allowed_mentions, ['allowed_mentions']);
    checker.object(second.message_reference, ['message_reference']);
  }
  if (!checker.errors.empty) return { ok: false, status: 400, body: { message: 'Invalid Form Body', code: 50035, errors: checker.errors.tree } };
  return { ok: true, value };
}

/** Discord's 50006: a message needs content, an embed or a component. */
export function isEmptyMessage(member: { content: string; embeds: readonly unknown[]; components: readonly unknown[] }): boolean {
  return member.content === '' && member.embeds.length === 0 && member.components.length === 0;
}
