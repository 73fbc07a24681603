import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '../kit/crypto';
import { queryOf } from '../kit/http';
import { effectiveMemberships, internalsOf } from './control';
import { DEMO_APP, DEMO_PEOPLE, type DemoGuild, PERMISSION_BOT } from './demo-data';
import { botUserObject, emojiObject, roleObject } from './discord-objects';
import type { SandboxEngine } from './engine';
import { discordError, unauthorized } from './errors';
import { sortedRoles } from './guild-state';
import type { GrantRecord } from './store';
import { compareIds, demoUsers, findUser, guildOf, SNOWFLAKE } from './util';

/** What the bot holds in its servers (its managed role's permissions): VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, READ_MESSAGE_HISTORY, MANAGE_CHANNELS, MANAGE_ROLES, MANAGE_THREADS, SEND_MESSAGES_IN_THREADS. */
export const BOT_PERMISSIONS = PERMISSION_BOT;
/** Owner of the demo servers no demo user owns. */
const OTHER_OWNER_ID = DEMO_PEOPLE.orion.id;

export type Caller = { kind: 'bot' } | { kind: 'user'; userId: string; grant: GrantRecord } | { kind: 'none' };

function invalidForm(reply: FastifyReply, field: string, code: string, message: string) {
  return reply.code(400).send({ message: 'Invalid Form Body', code: 50035, errors: { [field]: { _errors: [{ code, message }] } } });
}

/** Who is calling: the bot (`Bot <token>`), a user's live access token (`Bearer <token>`), or nobody valid. */
export function callerOf(req: FastifyRequest, engine: SandboxEngine): Caller {
  const header = req.headers.authorization ?? '';
  const match = /^(Bot|Bearer) +(\S+) *$/i.exec(header);
  if (!match) return { kind: 'none' };
  const token = match[2]!;
  if (match[1]!.toLowerCase() === 'bot') return safeEqual(token, engine.options.botToken) ? { kind: 'bot' } : { kind: 'none' };
  const live = engine.store.live(token, 'access', engine.now());
  return live ? { kind: 'user', userId: live.grant.userId, grant: live.grant } : { kind: 'none' };
}

export type Memberships = (userId: string) => ReturnType<typeof effectiveMemberships>;

/** A demo user's memberships now: demo-data plus SandboxControl.setMembership's changes. */
export function membershipsOf(engine: SandboxEngine): Memberships {
  return (userId) => effectiveMemberships(findUser(userId)?.memberships ?? [], internalsOf(engine.control).membershipChanges(userId));
}

function approximateCounts(guild: DemoGuild, membershipsOf: Memberships): { approximate_member_count: number; approximate_presence_count: number } {
  const members = demoUsers().filter((u) => membershipsOf(u.id).some((m) => m.guildId === guild.id)).length + Number(BigInt(guild.id) % 97n) * 7 + 12;
  return { approximate_member_count: members, approximate_presence_count: Math.max(1, Math.floor(members / 3)) };
}

/** A guild as `GET /users/@me/guilds` answers it. */
export interface PartialGuild {
  id: string;
  name: string;
  icon: string | null;
  banner: null;
  owner: boolean;
  permissions: string;
  features: string[];
  approximate_member_count?: number;
  approximate_presence_count?: number;
}

function partial(guild: DemoGuild, owner: boolean, permissions: string, counts: Memberships | null): PartialGuild {
  return {
    id: guild.id,
    name: guild.name,
    icon: guild.icon,
    banner: null,
    owner,
    permissions,
    features: [],
    ...(counts ? approximateCounts(guild, counts) : {}),
  };
}

/** The demo user who owns the server now (setMembership can change it), else the demo person Orion. */
export function ownerOf(guild: DemoGuild, membershipsOf: Memberships): string {
  return demoUsers().find((u) => membershipsOf(u.id).some((m) => m.guildId === guild.id && m.owner))?.id ?? OTHER_OWNER_ID;
}

/** The page of `ids` (any order) that `limit`, `before` and `after` select, in id order, like Discord. */
function pageOf(ids: string[], limit: number, before: string | null, after: string | null): string[] {
  let list = ids;
  if (after !== null) list = list.filter((id) => compareIds(id, after) > 0);
  if (before !== null) list = list.filter((id) => compareIds(id, before) < 0);
  list.sort(compareIds);
  // With only `before`, Discord returns the page closest to it.
  if (before !== null && after === null) return list.slice(Math.max(0, list.length - limit));
  return list.slice(0, limit);
}

function userObject(userId: string, scopes: readonly string[]) {
  const user = findUser(userId)!;
  return {
    id: user.id,
    username: user.username,
    discriminator: '0',
    global_name: user.globalName,
    avatar: user.avatar,
    avatar_decoration_data: null,
    banner: null,
    accent_color: null,
    banner_color: null,
    bot: false,
    system: false,
    mfa_enabled: false,
    locale: 'en-US',
    flags: 0,
    public_flags: 0,
    premium_type: 0,
    ...(scopes.includes('email') ? { email: `${user.username}@demo.tickety.invalid`, verified: true } : {}),
  };
}

export function restRoutes(app: FastifyInstance, engine: SandboxEngine): void {
  const { options, store } = engine;
  const memberships = membershipsOf(engine);
  const botUser = { ...botUserObject(options), verified: true };

  app.get('/api/v10/users/@me', { config: { sandboxBucket: 'GET /users/@me' } }, async (req, reply) => {
    const caller = callerOf(req, engine);
    if (caller.kind === 'bot') return botUser;
    if (caller.kind !== 'user' || !caller.grant.scopes.includes('identify')) return unauthorized(reply);
    return userObject(caller.userId, caller.grant.scopes);
  });

  // Any user by id (Discord's `GET /users/{user.id}`): the public user object, for a bot or a signed-in user.
  app.get('/api/v10/users/:id', { config: { sandboxBucket: 'GET /users/:id' } }, async (req, reply) => {
    const caller = callerOf(req, engine);
    if (caller.kind !== 'bot' && caller.kind !== 'user') return unauthorized(reply);
    const id = (req.params as { id: string }).id;
    if (!/^\d{17,20}$/.test(id) || !findUser(id)) return discordError(reply, 404, 10013, 'Unknown User');
    return userObject(id, []);
  });

  app.get('/api/v10/oauth2/@me', { config: { sandboxBucket: 'GET /oauth2/@me' } }, async (req, reply) => {
    const caller = callerOf(req, engine);
    if (caller.kind !== 'user') return unauthorized(reply);
    const expiresAt = caller.grant.tokens.find((t) => t.kind === 'access' && t.token === bearerOf(req))?.expiresAt ?? engine.now();
    return {
      application: {
        id: options.clientId,
        name: options.appName,
        icon: null,
        description: 'The demo application of the Discord sandbox',
        hook: true,
        bot_public: true,
        bot_require_code_grant: false,
        verify_key: DEMO_APP.publicKey,
        flags: 0,
      },
      scopes: [...caller.grant.scopes],
      expires: new Date(expiresAt).toISOString(),
      ...(caller.grant.scopes.includes('identify') ? { user: userObject(caller.userId, caller.grant.scopes) } : {}),
    };
  });

  app.get('/api/v10/users/@me/guilds', { config: { sandboxBucket: 'GET /users/@me/guilds' } }, async (req, reply) => {
    const caller = callerOf(req, engine);
    if (caller.kind === 'none' || (caller.kind === 'user' && !caller.grant.scopes.includes('guilds'))) return unauthorized(reply);
    const query = queryOf(req.url);
    const rawLimit = query.get('limit');
    let limit = 200;
    if (rawLimit !== null) {
      if (!/^-?\d+$/.test(rawLimit)) return invalidForm(reply, 'limit', 'NUMBER_TYPE_COERCE', `Value "${rawLimit}" is not int.`);
      limit = Number(rawLimit);
      if (limit < 1) return invalidForm(reply, 'limit', 'NUMBER_TYPE_MIN', 'Int value should be greater than or equal to 1.');
      if (limit > 200) return invalidForm(reply, 'limit', 'NUMBER_TYPE_MAX', 'Int value should be less than or equal to 200.');
    }
    const before = query.get('before');
    const after = query.get('after');
    for (const [field, value] of [
      ['before', before],
      ['after', after],
    ] as const) {
      if (value !== null && !SNOWFLAKE.test(value)) return invalidForm(reply, field, 'NUMBER_TYPE_COERCE', `Value "${value}" is not snowflake.`);
    }
    const counts = query.get('with_counts') === 'true' ? memberships : null;

    // Ids first, then only the page is built: the bot may be in 10,000+ (synthetic) servers.
    if (caller.kind === 'bot') {
      const ids = pageOf([...store.botGuilds], limit, before, after);
      return ids.flatMap((id) => {
        const guild = guildOf(id);
        return guild ? [partial(guild, false, BOT_PERMISSIONS, counts)] : [];
      });
    }
    const mine = new Map(memberships(caller.userId).map((m) => [m.guildId, m]));
    return pageOf([...mine.keys()], limit, before, after).flatMap((id) => {
      const guild = guildOf(id);
      const member = mine.get(id)!;
      return guild ? [partial(guild, member.owner, member.permissions, counts)] : [];
    });
  });

  app.get('/api/v10/guilds/:guildId', { config: { sandboxBucket: 'GET /guilds/{guild.id}', sandboxMajor: 'guildId' } }, async (req, reply) => {
    const caller = callerOf(req, engine);
    if (caller.kind !== 'bot') return unauthorized(reply);
    const { guildId } = req.params as { guildId: string };
    const guild = guildOf(guildId);
    if (!guild || !store.botGuilds.has(guild.id)) return reply.code(404).send({ message: 'Unknown Guild', code: 10004 });
    const withCounts = queryOf(req.url).get('with_counts') === 'true';
    const data = engine.guilds.data(guild.id, true)!;
    return {
      id: guild.id,
      name: guild.name,
      icon: guild.icon,
      icon_hash: guild.icon,
      splash: null,
      discovery_splash: null,
      banner: null,
      description: null,
      owner_id: ownerOf(guild, memberships),
      afk_channel_id: null,
      afk_timeout: 300,
      widget_enabled: false,
      verification_level: 1,
      default_message_notifications: 1,
      explicit_content_filter: 2,
      roles: sortedRoles(data.roles).map((r) => roleObject(r, options.clientId)),
      emojis: data.emojis.map(emojiObject),
      stickers: [],
      features: [],
      mfa_level: 0,
      application_id: null,
      system_channel_id: data.systemChannelId,
      system_channel_flags: 0,
      rules_channel_id: null,
      public_updates_channel_id: null,
      safety_alerts_channel_id: null,
      max_members: 500000,
      vanity_url_code: null,
      premium_tier: 0,
      premium_subscription_count: 0,
      preferred_locale: 'en-US',
      nsfw_level: 0,
      premium_progress_bar_enabled: false,
      ...(withCounts ? approximateCounts(guild, memberships) : {}),
    };
  });
}

function bearerOf(req: FastifyRequest): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
  return match ? match[1]! : null;
}
