/**
 * JSON with every object's keys sorted (by UTF-16 code units, as JavaScript sorts strings), at every
 * depth, and no whitespace: equal values give equal text whatever order their keys were stored in
 * (PostgreSQL's jsonb gives keys back in its own order). Arrays keep their order; `undefined` in an
 * object is left out and in an array is `null`, as in JSON.stringify. Used to compare configurations
 * and messages, and as the text a configuration file's signature covers.
 */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, item: unknown) =>
      item !== null && typeof item === 'object' && !Array.isArray(item)
        ? Object.fromEntries(
            Object.keys(item)
              .sort()
              .map((key) => [key, (item as Record<string, unknown>)[key]]),
          )
        : item,
    ) ?? 'null'
  );
}
