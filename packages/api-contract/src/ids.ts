/**
 * Discord ids, checked one way everywhere. No zod here: the front ends' shared singleton imports
 * this module and loads no zod at run time (auth.ts builds the `Snowflake` schema on it).
 */

/**
 * A Discord id (snowflake): a decimal string of 17 to 20 digits (what Discord issues today), without
 * a leading zero: one id has one spelling (`0123…` would name the same number as `123…` in the
 * database's bigint columns but another row in its text ones).
 */
export const SNOWFLAKE_PATTERN = /^[1-9]\d{16,19}$/;

export function isSnowflake(value: string | null | undefined): value is string {
  return typeof value === 'string' && SNOWFLAKE_PATTERN.test(value);
}
