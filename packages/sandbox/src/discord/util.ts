import { sha256 } from '../kit/crypto';
import { DEMO_GUILDS, DEMO_USERS, type DemoGuild, type DemoUser, MAX_SYNTHETIC_GUILDS, SYNTHETIC_GUILD_ID_BASE } from './demo-data';

/** Discord snowflakes are decimal strings (17-20 digits today); accept 1-20 digits like its validator. */
export const SNOWFLAKE = /^\d{1,20}$/;

/** base64url(SHA-256(ascii)), the PKCE S256 transform. */
export function s256(verifier: string): string {
  return sha256(verifier).toString('base64url');
}

/**
 * Numeric order of two decimal ids (snowflakes), without BigInt: leading zeros dropped, then the
 * shorter is the smaller, then plain string order (fast enough to sort a bot's 10,000+ guilds per page).
 */
export function compareIds(left: string, right: string): number {
  const leftDigits = left.replace(/^0+(?=\d)/, '');
  const rightDigits = right.replace(/^0+(?=\d)/, '');
  if (leftDigits.length !== rightDigits.length) return leftDigits.length < rightDigits.length ? -1 : 1;
  return leftDigits < rightDigits ? -1 : leftDigits > rightDigits ? 1 : 0;
}

const USERS: readonly DemoUser[] = Object.values(DEMO_USERS);
const GUILDS: readonly DemoGuild[] = Object.values(DEMO_GUILDS);

export function demoUsers(): readonly DemoUser[] {
  return USERS;
}

export function demoGuilds(): readonly DemoGuild[] {
  return GUILDS;
}

/** A demo user by id, key (`ava`) or username. */
export function findUser(ref: string): DemoUser | undefined {
  const key = ref.trim();
  const byKey = Object.hasOwn(DEMO_USERS, key) ? (DEMO_USERS as Record<string, DemoUser>)[key] : undefined;
  return byKey ?? USERS.find((u) => u.id === key || u.username === key.toLowerCase());
}

export function findGuild(id: string): DemoGuild | undefined {
  return GUILDS.find((g) => g.id === id);
}

/** The id of the n-th synthetic server (n >= 1). */
export function syntheticGuildId(count: number): string {
  return String(SYNTHETIC_GUILD_ID_BASE + BigInt(count));
}

/** A synthetic server by id (see SYNTHETIC_GUILD_ID_BASE), or undefined for any other id. */
function syntheticGuild(id: string): DemoGuild | undefined {
  if (!/^\d{19}$/.test(id)) return undefined;
  const bits = BigInt(id) - SYNTHETIC_GUILD_ID_BASE;
  if (bits < 1n || bits > BigInt(MAX_SYNTHETIC_GUILDS)) return undefined;
  return { id, name: `Synthetic server ${bits}`, icon: null, botInGuild: true };
}

/** A demo or synthetic server by id. */
export function guildOf(id: string): DemoGuild | undefined {
  return findGuild(id) ?? syntheticGuild(id);
}

