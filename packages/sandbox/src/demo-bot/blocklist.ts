/**
 * The demo bot honours the server's blocklist (`config.blocklist`, docs/api.md "What the bot does
 * with the blocklist"): before it opens a ticket it reads the configuration, and when the member or
 * one of their roles is listed and not expired it opens nothing and answers the member with an
 * ephemeral message in the server's language, the reason and until when. The sandbox has no
 * interactions, so the refusal is what the desk's control answers and lists (`refusals`).
 */
import type { Desk } from './desk';
import { DiscordError } from './discord';
import type { DemoServer } from './history';
import type { LiveDesk, LiveTicketInfo } from './live';

/** A blocklist entry as the bot reads it (the contract's `BlockEntry`). */
export interface BotBlockEntry {
  kind: 'user' | 'role';
  id: string;
  reason: string;
  addedBy: string;
  addedAt: string;
  expiresAt: string | null;
}

/** Why the bot opened no ticket: the entry that blocks, and what the member was told. */
export interface Refusal {
  serverId: string;
  userId: string;
  entry: BotBlockEntry;
  /** The role's name, for a role's entry. */
  roleName: string | null;
  language: 'en' | 'de';
  /** The ephemeral reply (Discord markdown; `<t:…>` shows the time in the member's own zone). */
  message: string;
  at: string;
}

/** Thrown by the desk's `openTicket` for a blocked member (the control answers it, the timer logs it). */
export class TicketRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(`The demo bot refused a ticket to ${refusal.userId}: ${refusal.entry.reason}`);
  }
}

/** Whether `entry` blocks at `now`: it has no end, or its end is later. */
function isActive(entry: Pick<BotBlockEntry, 'expiresAt'>, now: number): boolean {
  return entry.expiresAt === null || Date.parse(entry.expiresAt) > now;
}

/**
 * The entry that blocks a member with these roles at `now`, or null: the member's own entry first,
 * else the role entry that lasts longest (no end before any end).
 */
export function blockingEntry(blocklist: readonly BotBlockEntry[], userId: string, roleIds: readonly string[], now: number): BotBlockEntry | null {
  const active = blocklist.filter((entry) => isActive(entry, now));
  const own = active.find((entry) => entry.kind === 'user' && entry.id === userId);
  if (own) return own;
  const roles = active.filter((entry) => entry.kind === 'role' && roleIds.includes(entry.id));
  const end = (entry: BotBlockEntry) => (entry.expiresAt === null ? Number.POSITIVE_INFINITY : Date.parse(entry.expiresAt));
  return roles.sort((left, right) => end(right) - end(left))[0] ?? null;
}

const WORDS = {
  en: {
    user: "🚫 You can't open tickets on this server.",
    role: (role: string) => `🚫 Members with the role **${role}** can't open tickets on this server.`,
    reason: '**Reason:**',
    until: (time: string) => `This block ends ${time}.`,
    forever: 'This block stays until a moderator lifts it.',
  },
  de: {
    user: '🚫 Du kannst auf diesem Server keine Tickets eröffnen.',
    role: (role: string) => `🚫 Mitglieder mit der Rolle **${role}** können auf diesem Server keine Tickets eröffnen.`,
    reason: '**Grund:**',
    until: (time: string) => `Die Sperre endet ${time}.`,
    forever: 'Die Sperre gilt, bis ein Moderator sie aufhebt.',
  },
};

/** What the member is told, in the server's language. */
export function refusalMessage(language: 'en' | 'de', entry: BotBlockEntry, roleName: string | null): string {
  const words = WORDS[language];
  const seconds = entry.expiresAt === null ? null : Math.floor(Date.parse(entry.expiresAt) / 1000);
  const until = seconds === null ? words.forever : words.until(`<t:${seconds}:f> (<t:${seconds}:R>)`);
  const who = entry.kind === 'role' ? words.role(roleName ?? entry.id) : words.user;
  return `${who}\n${words.reason} ${entry.reason}\n${until}`;
}

/** What the desk reads of a configuration for this (older configurations have no blocklist). */
interface BlocklistConfig {
  general?: { language?: string };
  blocklist?: BotBlockEntry[];
}

/** The desk's blocklist check, and the refusals so far (the last 50). */
export class DeskBlocklist {
  readonly refusals: Refusal[] = [];

  constructor(private readonly desk: Pick<Desk, 'botApi' | 'discord' | 'clock' | 'log'>) {}

  /**
   * Throws `TicketRefused` when `userId` may not open a ticket in `server` now. Reads the live
   * configuration each time (a member pressed the button); when it cannot be read, it refuses
   * nothing (logged): the blocklist is not a reason to stop all tickets while the API is away.
   */
  async check(server: DemoServer, userId: string): Promise<void> {
    const res = await this.desk.botApi('GET', `/servers/${server.id}/config`);
    if (res.status !== 200) {
      this.desk.log.warn({ server: server.id, status: res.status }, 'demo bot: the configuration could not be read; the blocklist was not checked');
      return;
    }
    const { config } = (await res.json()) as { config: BlocklistConfig };
    const blocklist = config.blocklist ?? [];
    if (blocklist.length === 0) return;
    const now = this.desk.clock();
    const roleIds = blocklist.some((entry) => entry.kind === 'role' && isActive(entry, now)) ? await this.#rolesOf(server.id, userId) : [];
    const entry = blockingEntry(blocklist, userId, roleIds, now);
    if (!entry) return;
    const language = config.general?.language === 'de' ? 'de' : 'en';
    const roleName = entry.kind === 'role' ? await this.#roleName(server.id, entry.id) : null;
    const refusal: Refusal = { serverId: server.id, userId, entry, roleName, language, message: refusalMessage(language, entry, roleName), at: new Date(now).toISOString() };
    this.refusals.push(refusal);
    this.refusals.splice(0, Math.max(0, this.refusals.length - 50));
    throw new TicketRefused(refusal);
  }

  /** The member's roles (a button's interaction carries them; here Discord's member route). Not a member: none. */
  async #rolesOf(serverId: string, userId: string): Promise<string[]> {
    try {
      return (await this.desk.discord.call<{ roles: string[] }>('GET', `/guilds/${serverId}/members/${userId}`)).roles;
    } catch (error) {
      if (error instanceof DiscordError && error.status === 404) return [];
      throw error;
    }
  }

  async #roleName(serverId: string, roleId: string): Promise<string | null> {
    const roles = await this.desk.discord.call<Array<{ id: string; name: string }>>('GET', `/guilds/${serverId}/roles`);
    return roles.find((role) => role.id === roleId)?.name ?? null;
  }

  /** For the desk's own turns: a refusal is logged (a blocked member pressed the button), anything else thrown. */
  logRefused = (error: unknown): null => {
    if (!(error instanceof TicketRefused)) throw error;
    this.desk.log.info({ server: error.refusal.serverId, user: error.refusal.userId, reason: error.refusal.entry.reason }, 'demo bot: a blocked member was refused a ticket');
    return null;
  };
}

/** The control's answer: the ticket opened, or why not (a blocked member: `ticket` null and the refusal). */
export async function openOrRefused(desk: LiveDesk, serverId?: string, userId?: string): Promise<{ ticket: LiveTicketInfo | null; refused?: Refusal }> {
  try {
    return { ticket: await desk.openTicket(serverId, userId) };
  } catch (error) {
    if (error instanceof TicketRefused) return { ticket: null, refused: error.refusal };
    throw error;
  }
}
