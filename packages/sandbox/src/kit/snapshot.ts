/** A check returns a fresh copy of what it accepts, or throws an error naming the path and the problem. */
export type Check<T> = (value: unknown, path: string) => T;
export type Shape = Record<string, Check<unknown>>;
export type Checked<S extends Shape> = { [K in keyof S]: S[K] extends Check<infer T> ? T : never };
/** Throws; declare it with this type (`const fail: Fail = checks.fail`) so the compiler narrows after a call. */
export type Fail = (path: string, problem: string) => never;

/** How a refused value is quoted in a message: short, and never the whole of a large value. */
export function shown(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The checks every stand-in's snapshot validator is built from, throwing the stand-in's own error
 * class (`refuse` makes it from the message), so a bad snapshot is refused whole at the first bad field.
 */
export function snapshotChecks(refuse: (message: string) => Error) {
  const fail: Fail = (path, problem) => {
    throw refuse(`${path} ${problem}`);
  };
  const matching = (pattern: RegExp, what: string): Check<string> => (value, path) =>
    typeof value === 'string' && pattern.test(value) ? value : fail(path, `must be ${what}, not ${shown(value)}`);
  const string: Check<string> = (value, path) => (typeof value === 'string' ? value : fail(path, `must be a string, not ${shown(value)}`));
  const bool: Check<boolean> = (value, path) => (typeof value === 'boolean' ? value : fail(path, `must be true or false, not ${shown(value)}`));
  /** Epoch milliseconds. */
  const time: Check<number> = (value, path) =>
    typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= 8.64e15 ? value : fail(path, `must be a time in epoch milliseconds, not ${shown(value)}`);
  const int = (min: number, max = Number.MAX_SAFE_INTEGER): Check<number> => (value, path) =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : fail(path, `must be a whole number from ${min} to ${max}, not ${shown(value)}`);
  const nullable = <T>(check: Check<T>): Check<T | null> => (value, path) => (value === null ? null : check(value, path));
  const optional = <T>(check: Check<T>): Check<T | undefined> => (value, path) => (value === undefined ? undefined : check(value, path));
  const literal = <T extends string | number | boolean | null>(...values: T[]): Check<T> => (value, path) =>
    values.includes(value as T) ? (value as T) : fail(path, `must be ${values.length > 1 ? 'one of ' : ''}${values.map((x) => JSON.stringify(x)).join(', ')}, not ${shown(value)}`);
  const array = <T>(check: Check<T>, max = 1_000_000): Check<T[]> => (value, path) => {
    if (!Array.isArray(value)) return fail(path, `must be an array, not ${shown(value)}`);
    if (value.length > max) return fail(path, `must have at most ${max} entries`);
    return value.map((entry, index) => check(entry, `${path}[${index}]`));
  };
  const jsonValue = (value: unknown, path: string, depth: number, what: string): unknown => {
    if (depth > 32) return fail(path, 'is nested too deeply');
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number') return Number.isFinite(value) ? value : fail(path, `must be a finite number, not ${shown(value)}`);
    if (Array.isArray(value)) return value.map((entry, index) => jsonValue(entry, `${path}[${index}]`, depth + 1, what));
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, jsonValue(entry, `${path}.${key}`, depth + 1, what)]));
    return fail(path, `must be ${what}, not ${shown(value)}`);
  };
  /** A JSON object (custom data, tags); `what` is how a non-JSON value is named in the message. */
  const jsonObject = (what = 'JSON'): Check<Record<string, unknown>> => (value, path) =>
    isPlainObject(value) ? (jsonValue(value, path, 0, what) as Record<string, unknown>) : fail(path, `must be an object, not ${shown(value)}`);
  /** An object with exactly these fields, checked in this order; a missing or unknown field is refused. */
  const object = <S extends Shape>(shape: S): Check<Checked<S>> => (value, path) => {
    if (!isPlainObject(value)) return fail(path, `must be an object, not ${shown(value)}`);
    const out: Record<string, unknown> = {};
    for (const [key, check] of Object.entries(shape)) {
      if (!Object.hasOwn(value, key)) return fail(`${path}.${key}`, 'is missing');
      out[key] = check(value[key], `${path}.${key}`);
    }
    for (const key of Object.keys(value)) if (!Object.hasOwn(shape, key)) return fail(`${path}.${key}`, 'is not a field of this snapshot version');
    return out as Checked<S>;
  };
  /** The keys of a list, refusing the first repeated one (`path(index)` names where it stands). */
  const unique = <T>(list: T[], key: (item: T) => string, path: (index: number) => string, what: string): Set<string> => {
    const seen = new Set<string>();
    for (const [index, item] of list.entries()) {
      const itemKey = key(item);
      if (seen.has(itemKey)) fail(path(index), `repeats the ${what} ${itemKey}`);
      seen.add(itemKey);
    }
    return seen;
  };
  return { fail, matching, string, bool, time, int, nullable, optional, literal, array, jsonObject, object, unique };
}
