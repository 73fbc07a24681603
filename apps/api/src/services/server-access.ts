import {
  ACCESS_AREA_NAMES,
  ACCESS_RULES_MAX,
  type AccessArea,
  type AccessLevel,
  AccessRule,
  type AccessRuleShape,
  accessFromRules,
  allowsAny,
  canonicalJson,
  describeAreas,
  FULL_ACCESS,
  type Guild,
  hasAnyAccess,
  type ServerAccess,
  type ServerConfig,
} from '@tickety/api-contract';
import { RESTJSONErrorCodes } from 'discord-api-types/v10';
import { z } from 'zod';
import type { Clock } from '../lib/clock';
import { type DiscordBot, DiscordBotError } from '../lib/discord-bot';
import { ApiHttpError } from '../lib/errors';
import type { Accounts } from './accounts';
import type { ServerConfigs } from './server-config';
import type { ServerResourcesCache } from './server-resources';

const AccessRules = z.array(AccessRule).max(ACCESS_RULES_MAX);

/** How long a member's roles are reused for reads (writes always read them again). */
const MEMBER_TTL_MS = 60_000;
/** Members kept in memory at most (the least recently fetched go first). */
const MEMBER_CACHE_MAX = 10_000;
/** Servers looked up at most when a user's list is fetched (the rest keep their stored value). */
const LIST_LOOKUPS_MAX = 25;
/** Member lookups running at once for one list. */
const LIST_CONCURRENCY = 5;

/** Who can grant dashboard access, and where (said in every refusal). */
const WHO_GRANTS =
  "The server's owner and members with the Administrator or Manage Server permission can give a role access under Panel Menu › Settings and access.";

/** A member's roles (without @everyone), or null when Discord says the user is not a member. */
type Member = string[] | null;

interface Entry {
  at: number;
  member: Member;
}

/** Discord's answers for a server the bot is not in (or no longer a member of). */
function botNotInServer(error: unknown): boolean {
  return (
    error instanceof DiscordBotError &&
    error.kind === 'refused' &&
    (error.code === RESTJSONErrorCodes.UnknownGuild || error.code === RESTJSONErrorCodes.MissingAccess)
  );
}

function notMember(error: unknown): boolean {
  return (
    error instanceof DiscordBotError &&
    error.kind === 'refused' &&
    (error.code === RESTJSONErrorCodes.UnknownMember || error.code === RESTJSONErrorCodes.UnknownUser)
  );
}

function noAccess(message: string): ApiHttpError {
  return new ApiHttpError('NO_SERVER_ACCESS', { message, selector: true });
}

/** "Panel Menu", "Panel Menu or Restore Configs". */
function areaList(areas: readonly AccessArea[]): string {
  const names = areas.map((area) => ACCESS_AREA_NAMES[area]);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

function roleList(names: readonly string[]): string {
  const quoted = names.map((name) => `“${name}”`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

/**
 * Who may do what on a server's dashboard (docs/api.md#who-may-do-what-on-a-server). Full access: the owner and members with
 * Administrator or Manage Server (the user's guild list says so: `canManage`). Anyone else gets what
 * the server's live configuration's access rules give the roles they hold: the bot reads the member
 * (`GET /guilds/{id}/members/{user}`), reused for a minute for reads, read again for every write.
 * Every refusal says why and who can grant access.
 */
export class ServerAccessService {
  readonly #members = new Map<string, Entry>();
  readonly #flights = new Map<string, Promise<Member>>();

  constructor(
    private readonly bot: DiscordBot,
    private readonly configs: ServerConfigs,
    private readonly resources: ServerResourcesCache,
    private readonly accounts: Accounts,
    private readonly clock: Clock,
    private readonly ttlMs = MEMBER_TTL_MS,
    private readonly maxMembers = MEMBER_CACHE_MAX,
  ) {}

  /**
   * A change by a member without full access must not touch the access rules (a role cannot give
   * itself more), decided on the live version. When `expectedVersion` is not the live one the change
   * is refused as a conflict first (`notDone` says what did not happen and what to do).
   */
  async assertMayChangeRules(guild: Guild, access: ServerAccess, next: unknown, expectedVersion: number | undefined, notDone: string): Promise<void> {
    if (access.via === 'full') return;
    const live = await this.configs.live(guild.id);
    if (expectedVersion !== undefined && live.version !== expectedVersion) {
      const who = live.savedBy ? `${live.savedBy.name} saved version ${live.version}` : 'Someone saved a newer version';
      throw new ApiHttpError('CONFIG_CONFLICT', { message: `${who} ${notDone}` });
    }
    assertMayChangeAccessRules(guild, access, live.config, next);
  }

  /**
   * The member's roles in the server (null: not a member). `fresh` reads Discord again (a write
   * decides on what Discord says now). Throws the bot's errors (DiscordBotError).
   */
  async memberRoles(guildId: string, userId: string, options: { fresh?: boolean } = {}): Promise<Member> {
    const key = `${guildId}:${userId}`;
    if (!options.fresh) {
      const young = this.#young(key);
      if (young !== undefined) return young;
      const flying = this.#flights.get(key);
      if (flying) return flying;
    }
    const flight = this.bot
      .guildMember(guildId, userId)
      .then(
        (member): Member => [...member.roles],
        (error: unknown): Member => {
          if (notMember(error)) return null;
          throw error;
        },
      )
      .then((member) => {
        this.#members.delete(key);
        this.#members.set(key, { at: this.clock(), member });
        while (this.#members.size > this.maxMembers) this.#members.delete(this.#members.keys().next().value!);
        return member;
      })
      .finally(() => {
        if (this.#flights.get(key) === flight) this.#flights.delete(key);
      });
    this.#flights.set(key, flight);
    return flight;
  }

  /** The member's roles read within the cache window, or undefined. */
  #young(key: string): Member | undefined {
    const entry = this.#members.get(key);
    const age = entry ? this.clock() - entry.at : Number.POSITIVE_INFINITY;
    return entry && age < this.ttlMs && age >= 0 ? entry.member : undefined;
  }

  /** Forgets a member's roles (tests; a role change seen elsewhere). */
  forget(guildId: string, userId: string): void {
    this.#members.delete(`${guildId}:${userId}`);
  }

  /**
   * What the user may do on a server of their (just checked) guild list. Full access for a manager;
   * otherwise the access rules for the member's roles. Refuses with NO_SERVER_ACCESS (saying why)
   * when nothing is granted, DISCORD_UNAVAILABLE when the roles cannot be read now. Keeps the stored
   * `roleAccess` flag of the user's list in step with the decision.
   */
  async decide(guild: Guild, userId: string, options: { fresh: boolean }): Promise<ServerAccess> {
    if (guild.canManage) return FULL_ACCESS;
    try {
      const access = await this.#byRoles(guild, userId, options.fresh);
      await this.#remember(userId, guild, true);
      return access;
    } catch (error) {
      if (error instanceof ApiHttpError && error.errorName === 'NO_SERVER_ACCESS') await this.#remember(userId, guild, false);
      throw error;
    }
  }

  async #byRoles(guild: Guild, userId: string, fresh: boolean): Promise<ServerAccess> {
    const notManager = `You are not the owner of ${guild.name} and have neither the Administrator nor the Manage Server permission there`;
    const rules = (await this.configs.live(guild.id)).config.access;
    if (rules.length === 0) {
      throw noAccess(`${notManager}, and the server gives no role dashboard access. ${WHO_GRANTS} If your roles changed recently, refresh your server list.`);
    }
    // A write reads the roles from Discord again before granting anything; a refusal may rest on the
    // roles read within the minute, so a member without access cannot make the bot ask Discord on
    // every request ("try again in a minute" says the refusal).
    const cached = fresh ? this.#young(`${guild.id}:${userId}`) : undefined;
    const refusedAlready = cached !== undefined && (cached === null || !hasAnyAccess({ areas: accessFromRules(rules, cached, guild.id).areas }));
    let roles: Member;
    try {
      roles = refusedAlready ? (cached ?? null) : await this.memberRoles(guild.id, userId, { fresh });
    } catch (error) {
      if (botNotInServer(error)) {
        throw noAccess(`${notManager}, and the bot is not in the server any more, so your roles cannot be checked. The owner or a member with Manage Server can invite it again.`);
      }
      if (error instanceof DiscordBotError && error.kind === 'unavailable') {
        throw new ApiHttpError('DISCORD_UNAVAILABLE', {
          retryAfter: error.retryAfter ?? 5,
          message: `Discord is not answering, so your roles on ${guild.name} could not be checked${fresh ? ' and nothing was changed' : ''}. Try again shortly.`,
          cause: error,
        });
      }
      throw error;
    }
    if (roles === null) {
      throw noAccess(`Discord says you are not a member of ${guild.name} any more. Refresh your server list.`);
    }
    const { areas, grantingRoleIds } = accessFromRules(rules, roles, guild.id);
    const names = await this.#roleNames(guild.id);
    const nameOf = (id: string) => (id === guild.id ? '@everyone' : (names.get(id) ?? `role ${id}`));
    if (!hasAnyAccess({ areas })) {
      const given = roleList(rules.map((rule) => nameOf(rule.roleId)));
      throw noAccess(
        `${notManager}, and none of your roles has dashboard access: the server gives it to ${given}. ${WHO_GRANTS} If your roles changed recently, try again in a minute.`,
      );
    }
    return { via: 'roles', areas, grantedBy: grantingRoleIds.map(nameOf) };
  }

  /** Role names by id from the server's cached resources; empty when they cannot be read now. */
  async #roleNames(guildId: string): Promise<Map<string, string>> {
    try {
      const resources = await this.resources.get(guildId);
      return new Map(resources.roles.map((role) => [role.id, role.name]));
    } catch {
      return new Map();
    }
  }

  async #remember(userId: string, guild: Guild, granted: boolean): Promise<void> {
    if ((guild.roleAccess === true) === granted) return;
    await this.accounts.setRoleAccess(userId, [guild.id], granted ? [guild.id] : []);
  }

  /**
   * After the user's list was fetched: which servers they can open through a role. Only servers the
   * bot is in, that they do not manage and whose live configuration has access rules are looked up
   * (at most LIST_LOOKUPS_MAX, cached members reused); the others have none. A server whose lookup
   * fails keeps its stored value.
   */
  async refreshList(userId: string, log?: { warn(obj: object, msg: string): void }): Promise<void> {
    const { withRules, without } = await this.accounts.roleAccessCandidates(userId);
    const checked = [...without];
    const granted: string[] = [];
    const queue = withRules.slice(0, LIST_LOOKUPS_MAX);
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        try {
          const roles = await this.memberRoles(next.guildId, userId);
          checked.push(next.guildId);
          if (roles && hasAnyAccess(accessFromRules(next.rules as AccessRuleShape[], roles, next.guildId))) granted.push(next.guildId);
        } catch (error) {
          if (botNotInServer(error)) checked.push(next.guildId);
          else log?.warn({ guildId: next.guildId, err: error instanceof Error ? error.message : String(error) }, 'role access: member lookup failed (kept as stored)');
        }
      }
    };
    await Promise.all(Array.from({ length: LIST_CONCURRENCY }, worker));
    await this.accounts.setRoleAccess(userId, checked, granted);
  }
}

/** The refusal of a route whose area the user's access does not allow (1017), saying what they have and who can grant more. */
export function areaRefusal(guild: Pick<Guild, 'name'>, access: ServerAccess, areas: readonly AccessArea[], level: AccessLevel): ApiHttpError {
  const wanted = areaList(areas);
  const readable = allowsAny(access, areas, 'read');
  const roles = access.grantedBy.length > 0 ? roleList(access.grantedBy) : 'your roles';
  const has = `${access.grantedBy.length === 1 ? `Your role ${roles} gives` : `Your roles ${roles} give`} you ${describeAreas(access.areas)}.`;
  const message =
    level === 'write' && readable
      ? `You can see ${wanted} on ${guild.name} but not change it: this needs write access to ${wanted}. ${has} ${WHO_GRANTS}`
      : `This needs ${level} access to ${wanted} on ${guild.name}. ${has} ${WHO_GRANTS}`;
  return new ApiHttpError('AREA_ACCESS_REQUIRED', { message, selector: true });
}

/**
 * A change of the configuration's access rules (a save, a restore, an import) needs full access: a
 * role with Panel Menu write access must not give itself, or anyone, more. Throws 1017 when `access`
 * is not full and `next`'s rules differ from `before`'s.
 */
function assertMayChangeAccessRules(
  guild: Pick<Guild, 'name'>,
  access: ServerAccess,
  before: Pick<ServerConfig, 'access'>,
  next: unknown,
): void {
  if (access.via === 'full') return;
  const given = next !== null && typeof next === 'object' ? (next as { access?: unknown }).access : undefined;
  // Rules the schema would refuse are left to it (1001, as for anyone): compared only once they are
  // rules, never walked as sent (a body nested 200 000 levels deep would overflow the stack).
  const rules = AccessRules.safeParse(given ?? []);
  if (!rules.success) return;
  if (canonicalJson(rules.data) === canonicalJson(before.access)) return;
  throw new ApiHttpError('AREA_ACCESS_REQUIRED', {
    message: `Only the owner of ${guild.name} and members with the Administrator or Manage Server permission can change who has dashboard access; your roles (${roleList(access.grantedBy)}) cannot. Your other changes were not saved either: undo the change to the access rules and save again.`,
    selector: true,
  });
}
