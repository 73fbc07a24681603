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
export const SETTABLE_FLAGS = (1 << 2) | (1 << 12);
/** IS_COMPONENTS_V2 (1<<15): layout components; the sandbox implements the classic action rows only. */
export const IS_COMPONENTS_V2 = 1 << 15;

export const BUTTON_STYLES = [1, 2, 3, 4, 5, 6] as const;
/** Child component types of an action row: button, string select, user, role, mentionable and channel selects. */
export const ROW_CHILD_TYPES = [2, 3, 5, 6, 7, 8] as const;
export const SELECT_TYPES: ReadonlySet<number> = new Set([3, 5, 6, 7, 8]);

/** Characters as Discord counts them: Unicode code points. */
export function charCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

export type Path = ReadonlyArray<string | number>;
export interface FieldError {
  code: string;
  message: string;
}
export type ErrorTree = { _errors?: FieldError[] } & { [key: string]: ErrorTree | FieldError[] | undefined };

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
  /** With a nonce: a message of the same author and nonce from the last minutes is answered instead of a new one. */
  enforceNonce?: boolean;
}

export type ValidationResult =
  | { ok: true; value: MessageInput }
  | { ok: false; status: 400; body: { message: string; code: number; errors?: ErrorTree } };

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const present = (v: unknown) => v !== undefined && v !== null;
export const shown = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return (text ?? String(value)).slice(0, 100);
};

export class Checker {
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
