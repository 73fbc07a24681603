/** Discord's epoch (the first second of 2015), in epoch ms. */
const DISCORD_EPOCH = 1_420_070_400_000n;

/** A snowflake for a time (epoch ms): milliseconds since Discord's epoch in the top 42 bits, then `increment`. */
export function snowflakeAt(ms: number, increment = 0): string {
  const since = BigInt(Math.max(0, Math.floor(ms))) - DISCORD_EPOCH;
  return String(((since < 0n ? 0n : since) << 22n) | BigInt(increment & 0xfff));
}

/** The time (epoch ms) a snowflake was made. */
export function timestampOf(id: string): number {
  return Number((BigInt(id) >> 22n) + DISCORD_EPOCH);
}

/** Discord's timestamp format: ISO 8601 with microseconds and an explicit offset. */
export function discordTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '000+00:00');
}
