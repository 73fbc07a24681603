import { canonicalJson } from './canonical-json';

/**
 * A field-level diff of two JSON values (server configurations), readable in Web Logs and Restore
 * Configs: each change names its path ("panels[support].button.label", "general.claiming"), the value
 * before and after. Lists of objects with an `id` are matched by id (a panel moved is not a change of
 * every panel after it); other lists are compared whole.
 */
export interface ConfigFieldChange {
  path: string;
  /** Absent when the field was added. */
  before?: unknown;
  /** Absent when the field was removed. */
  after?: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function keyedById(value: unknown): value is Array<{ id: string }> {
  return Array.isArray(value) && value.every((item) => isObject(item) && typeof item.id === 'string');
}

/** Equal as values: key order does not count (PostgreSQL's jsonb gives keys back in its own order). */
function same(left: unknown, right: unknown): boolean {
  return canonicalJson(left) === canonicalJson(right);
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

export function diffConfig(before: unknown, after: unknown, path = ''): ConfigFieldChange[] {
  if (same(before, after)) return [];
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => {
      if (!(key in after)) return [{ path: join(path, key), before: before[key] }];
      if (!(key in before)) return [{ path: join(path, key), after: after[key] }];
      return diffConfig(before[key], after[key], join(path, key));
    });
  }
  if (keyedById(before) && keyedById(after)) {
    const old = new Map(before.map((item) => [item.id, item]));
    const now = new Map(after.map((item) => [item.id, item]));
    const changes: ConfigFieldChange[] = [];
    for (const [id, item] of old) if (!now.has(id)) changes.push({ path: `${path}[${id}]`, before: item });
    for (const [id, item] of now) {
      const was = old.get(id);
      if (!was) changes.push({ path: `${path}[${id}]`, after: item });
      else changes.push(...diffConfig(was, item, `${path}[${id}]`));
    }
    const order = (list: Array<{ id: string }>) => list.map((item) => item.id).filter((id) => old.has(id) && now.has(id));
    if (!same(order(before), order(after))) changes.push({ path: `${path}.order`, before: order(before), after: order(after) });
    return changes;
  }
  return [{ path: path || '(all)', before, after }];
}
