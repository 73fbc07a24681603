/**
 * Discord ids, checked one way everywhere. No zod here: the front ends' shared singleton imports
 * this module and loads no zod at run time (auth.ts builds the `Snowflake` schema on it).
 */

/** A Discord id (snowflake): a decimal string of 17 to 20 digits (what Discord issues today). */
export const SNOWFLAKE_PATTERN = /^\d{17,20}$/;

export function isSnowflake(value: string | null | undefined): value is string {
  return typeof value === 'string' && SNOWFLAKE_PATTERN.test(value);
}
