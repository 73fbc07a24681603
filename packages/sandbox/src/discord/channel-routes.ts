/**
 * Channels the bot manages, as Discord's REST API takes them: create a text channel or a category in
 * a server (`POST /guilds/{id}/channels`), rename it or set its topic (`PATCH /channels/{id}`), delete
 * it (`DELETE /channels/{id}`) and set one permission overwrite (`PUT /channels/{id}/permissions/{id}`),
 * with Discord's validation (50035 naming the field), permission checks (50013) and limits. Also the
 * world route: what a member types in Discord's client (docs/sandbox.md, "The demo bot's desk").
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { jsonBody } from '../kit/body';
import type { DemoChannel } from './demo-data';
import { channelObject, messageObject } from './discord-objects';
import type { SandboxEngine } from './engine';
import { discordError, missingAccess, missingPermissions, refuseBody, unauthorized, unknownChannel, unknownGuild } from './errors';
import { botGuildContext, botPermissionsIn, type GuildContext, memberOf, userObjectOf } from './guild-routes';
import { botMember, MAX_CREATED_CHANNELS, personOf } from './guild-state';
import { access } from './message-routes';
import { isEmptyMessage, validateMessage } from './message-validation';
import { computeBasePermissions, computeChannelPermissions, hasPermission, type PermissionOverwrite, parsePermissions } from './permissions';
import { callerOf } from './rest';
import { SNOWFLAKE } from './util';

/** Discord's limits: 500 channels a server, 50 in a category, 100 overwrites a channel. */
export const GUILD_CHANNELS_MAX = 500;
export const CATEGORY_CHANNELS_MAX = 50;
const OVERWRITES_MAX = 100;
const NAME_MAX = 100;
const TOPIC_MAX = 1024;

type FieldErrors = Record<string, { _errors: Array<{ code: string; message: string }> }>;

class FormErrors {
  readonly errors: FieldErrors = {};
  add(path: string, code: string, message: string): void {
    this.errors[path] ??= { _errors: [] };
    this.errors[path]._errors.push({ code, message });
  }
  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
  send(reply: FastifyReply) {
    return reply.code(400).send({ message: 'Invalid Form Body', code: 50035, errors: this.errors });
  }
}

/** A text channel's name as Discord stores it: lower case, blanks as dashes. */
function textChannelName(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, '-');
}

function checkName(form: FormErrors, value: unknown, required: boolean): string | undefined {
  if (value === undefined || value === null) {
    if (required) form.add('name', 'BASE_TYPE_REQUIRED', 'This field is required');
    return undefined;
  }
  if (typeof value !== 'string') {
    form.add('name', 'BASE_TYPE_STRING', 'Value must be a string.');
    return undefined;
  }
  const length = [...value.trim()].length;
  if (length < 1 || length > NAME_MAX) {
    form.add('name', 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${NAME_MAX} in length.`);
    return undefined;
  }
  return value.trim();
}

function checkTopic(form: FormErrors, value: unknown): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value !== 'string') {
    form.add('topic', 'BASE_TYPE_STRING', 'Value must be a string.');
    return undefined;
  }
  if ([...value].length > TOPIC_MAX) {
    form.add('topic', 'BASE_TYPE_MAX_LENGTH', `Must be ${TOPIC_MAX} or fewer in length.`);
    return undefined;
  }
  return value;
}

const PERMISSION_STRING = /^\d{1,20}$/;

function checkOverwrite(form: FormErrors, path: string, value: unknown, needId: boolean): PermissionOverwrite | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    form.add(path, 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
    return null;
  }
  const fields = value as Record<string, unknown>;
  const id = needId ? fields.id : '0';
  if (typeof id !== 'string' || !SNOWFLAKE.test(id)) form.add(`${path}.id`, 'NUMBER_TYPE_COERCE', `Value "${String(id).slice(0, 100)}" is not snowflake.`);
  const type = typeof fields.type === 'string' && /^[01]$/.test(fields.type) ? Number(fields.type) : fields.type;
  if (type !== 0 && type !== 1) form.add(`${path}.type`, 'BASE_TYPE_CHOICES', 'Value must be one of {0, 1}.');
  const bits = (key: 'allow' | 'deny') => {
    const raw = fields[key];
    if (raw === undefined || raw === null) return '0';
    const text = typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0 ? String(raw) : raw;
    if (typeof text !== 'string' || !PERMISSION_STRING.test(text)) {
      form.add(`${path}.${key}`, 'NUMBER_TYPE_COERCE', `Value "${String(raw).slice(0, 100)}" is not int.`);
      return '0';
    }
    return String(BigInt(text));
  };
  const allow = bits('allow');
  const deny = bits('deny');
  if (typeof id !== 'string' || (type !== 0 && type !== 1)) return null;
  return { id, type, allow, deny };
}

/** The bot's permissions in the server (no channel). */
function botGuildPermissions(engine: SandboxEngine, ctx: GuildContext): bigint {
  return computeBasePermissions(ctx.perm, botMember(engine.options.clientId, ctx.data));
}

/**
 * Discord lets a bot allow or deny in an overwrite only what it holds itself (ADMINISTRATOR: all),
 * so a bot cannot hand out a permission it was not given.
 */
function grantsBeyond(held: bigint, overwrites: readonly PermissionOverwrite[]): boolean {
  return overwrites.some((o) => (parsePermissions(o.allow) | parsePermissions(o.deny)) & ~held);
}

const refuse = (reply: FastifyReply) => refuseBody(reply, 'The sandbox takes JSON bodies only.');

export function channelRoutes(app: FastifyInstance, engine: SandboxEngine): void {
  const { guilds } = engine;
  const answer = (channel: DemoChannel, guildId: string) => channelObject(channel, guildId, guilds.overwritesOf(channel), guilds.lastMessageId(channel.id));

  app.post('/api/v10/guilds/:guildId/channels', { config: { sandboxBucket: 'POST /guilds/{guild.id}/channels', sandboxMajor: 'guildId' } }, async (req, reply) => {
    if (callerOf(req, engine).kind !== 'bot') return unauthorized(reply);
    const { guildId } = req.params as { guildId: string };
    const ctx = botGuildContext(engine, guildId);
    if (!ctx) return unknownGuild(reply);
    const parsed = jsonBody(req, refuse(reply));
    if (!parsed.ok) return reply;
    if (typeof parsed.body !== 'object' || parsed.body === null || Array.isArray(parsed.body)) return new FormErrors().send(reply);
    const body = parsed.body as Record<string, unknown>;
    const form = new FormErrors();
    const rawName = checkName(form, body.name, true);
    const type = body.type === undefined || body.type === null ? 0 : body.type;
    if (type !== 0 && type !== 4) {
      form.add('type', 'BASE_TYPE_CHOICES', typeof type === 'number' && [2, 5, 13, 15, 16].includes(type) ? 'The sandbox makes text channels (0) and categories (4) only.' : 'Value must be one of {0, 2, 4, 5, 13, 15, 16}.');
    }
    const topic = checkTopic(form, body.topic);
    let parent: DemoChannel | null = null;
    if (body.parent_id !== undefined && body.parent_id !== null) {
      const found = typeof body.parent_id === 'string' && SNOWFLAKE.test(body.parent_id) ? guilds.channel(body.parent_id) : undefined;
      if (!found || found.guildId !== ctx.guild.id) form.add('parent_id', 'CHANNEL_PARENT_INVALID', 'Unknown category.');
      else if (found.channel.type !== 4) form.add('parent_id', 'CHANNEL_PARENT_INVALID_TYPE', 'Not a category.');
      else if (type === 4) form.add('parent_id', 'CHANNEL_PARENT_INVALID_TYPE', 'A category cannot have a parent.');
      else if (ctx.data.channels.filter((c) => c.parentId === found.channel.id).length >= CATEGORY_CHANNELS_MAX) {
        form.add('parent_id', 'CHANNEL_PARENT_MAX_CHANNELS', `Maximum number of channels in category reached (${CATEGORY_CHANNELS_MAX})`);
      } else parent = found.channel;
    }
    const overwrites: PermissionOverwrite[] = [];
    if (body.permission_overwrites !== undefined && body.permission_overwrites !== null) {
      if (!Array.isArray(body.permission_overwrites)) form.add('permission_overwrites', 'BASE_TYPE_ARRAY', 'Value must be an array.');
      else if (body.permission_overwrites.length > OVERWRITES_MAX) form.add('permission_overwrites', 'BASE_TYPE_MAX_LENGTH', `Must be ${OVERWRITES_MAX} or fewer in length.`);
      else {
        body.permission_overwrites.forEach((value, index) => {
          const overwrite = checkOverwrite(form, `permission_overwrites.${index}`, value, true);
          if (overwrite) overwrites.push(overwrite);
        });
      }
    }
    const position = body.position;
    if (position !== undefined && position !== null && !(Number.isInteger(position) && (position as number) >= 0)) form.add('position', 'NUMBER_TYPE_COERCE', `Value "${String(position).slice(0, 100)}" is not int.`);
    if (!form.empty || rawName === undefined) return form.send(reply);
    if (!hasPermission(botGuildPermissions(engine, ctx), 'MANAGE_CHANNELS')) return missingPermissions(reply);
    // What the bot holds where the channel goes: the server, or the category it goes in.
    const held = parent ? botPermissionsIn(engine, ctx, parent, guilds.overwritesOf(parent)) : botGuildPermissions(engine, ctx);
    if (grantsBeyond(held, overwrites)) return missingPermissions(reply);
    if (ctx.data.channels.length >= GUILD_CHANNELS_MAX) return discordError(reply, 400, 30013, `Maximum number of guild channels reached (${GUILD_CHANNELS_MAX})`);
    // The sandbox's own bound on what it holds, across servers (synthetic ones included).
    if (guilds.createdChannels >= MAX_CREATED_CHANNELS) return discordError(reply, 400, 30013, `The sandbox holds at most ${MAX_CREATED_CHANNELS} channels made at run time: delete some, or reset it.`);
    const siblings = ctx.data.channels.filter((c) => (type === 4 ? c.type === 4 : c.parentId === (parent?.id ?? null) && c.type !== 4));
    const channel: DemoChannel = {
      id: guilds.nextId(engine.now()),
      type: type as 0 | 4,
      name: type === 0 ? textChannelName(rawName) : rawName,
      position: typeof position === 'number' ? position : siblings.reduce((max, c) => Math.max(max, c.position + 1), 0),
      parentId: parent?.id ?? null,
      overwrites,
      ...(type === 0 && topic ? { topic } : {}),
    };
    guilds.createChannel(ctx.guild.id, channel);
    return reply.code(201).send(answer(channel, ctx.guild.id));
  });

  app.patch('/api/v10/channels/:channelId', { config: { sandboxBucket: 'PATCH /channels/{channel.id}', sandboxMajor: 'channelId' } }, async (req, reply) => {
    const found = access(engine, req, reply);
    if (!found) return reply;
    const parsed = jsonBody(req, refuse(reply));
    if (!parsed.ok) return reply;
    const body = (typeof parsed.body === 'object' && parsed.body !== null && !Array.isArray(parsed.body) ? parsed.body : {}) as Record<string, unknown>;
    const form = new FormErrors();
    const name = checkName(form, body.name, false);
    const topic = checkTopic(form, body.topic);
    if (!form.empty) return form.send(reply);
    if (!hasPermission(found.perms, 'MANAGE_CHANNELS')) return missingPermissions(reply);
    const change = { ...(name !== undefined ? { name: found.channel.type === 0 ? textChannelName(name) : name } : {}), ...(topic !== undefined && found.channel.type === 0 ? { topic } : {}) };
    const channel = guilds.updateChannel(found.channel.id, change)!;
    return answer(channel, found.ctx.guild.id);
  });

  app.delete('/api/v10/channels/:channelId', { config: { sandboxBucket: 'DELETE /channels/{channel.id}', sandboxMajor: 'channelId' } }, async (req, reply) => {
    const found = access(engine, req, reply);
    if (!found) return reply;
    if (!hasPermission(found.perms, 'MANAGE_CHANNELS')) return missingPermissions(reply);
    const gone = answer(found.channel, found.ctx.guild.id);
    guilds.deleteChannel(found.channel.id);
    return gone;
  });

  app.put(
    '/api/v10/channels/:channelId/permissions/:overwriteId',
    { config: { sandboxBucket: 'PUT /channels/{channel.id}/permissions/{overwrite.id}', sandboxMajor: 'channelId' } },
    async (req, reply) => {
      const found = access(engine, req, reply);
      if (!found) return reply;
      const { overwriteId } = req.params as { overwriteId: string };
      if (!SNOWFLAKE.test(overwriteId)) return unknownChannel(reply);
      const parsed = jsonBody(req, refuse(reply));
      if (!parsed.ok) return reply;
      const form = new FormErrors();
      const overwrite = checkOverwrite(form, '', parsed.body, false);
      if (!form.empty || !overwrite) {
        const errors = Object.fromEntries(Object.entries(form.errors).map(([key, value]) => [key.replace(/^\./, ''), value]));
        return reply.code(400).send({ message: 'Invalid Form Body', code: 50035, errors });
      }
      if (!hasPermission(found.perms, 'MANAGE_ROLES')) return missingPermissions(reply);
      const next = { ...overwrite, id: overwriteId };
      if (grantsBeyond(botGuildPermissions(engine, found.ctx), [next])) return missingPermissions(reply);
      guilds.setOverwrites(found.channel.id, [...found.overwrites.filter((o) => o.id !== overwriteId), next]);
      return reply.code(204).send();
    },
  );

  // The world: a member writing in a channel, as they would in Discord's client. The demo bot's
  // simulated members use it (with the bot's token: no one else can make the demo's people speak).
  app.post('/_world/channels/:channelId/messages', { config: { sandboxBucket: 'POST /_world/channels/{channel.id}/messages', sandboxMajor: 'channelId' } }, async (req, reply) => {
    if (callerOf(req, engine).kind !== 'bot') return unauthorized(reply);
    const { channelId } = req.params as { channelId: string };
    const found = SNOWFLAKE.test(channelId) ? guilds.channel(channelId) : undefined;
    if (!found || found.channel.type === 4) return unknownChannel(reply);
    const ctx = botGuildContext(engine, found.guildId);
    if (!ctx) return missingAccess(reply);
    const parsed = jsonBody(req, refuse(reply));
    if (!parsed.ok) return reply;
    const { author, ...message } = (typeof parsed.body === 'object' && parsed.body !== null ? parsed.body : {}) as Record<string, unknown>;
    const person = author as { id?: unknown; username?: unknown; global_name?: unknown } | undefined;
    if (typeof person?.id !== 'string' || !SNOWFLAKE.test(person.id) || person.id === engine.options.clientId) {
      return reply.code(400).send({ message: 'Invalid Form Body', code: 50035, errors: { author: { _errors: [{ code: 'SANDBOX_AUTHOR', message: 'author.id must be a person’s snowflake.' }] } } });
    }
    if (!personOf(person.id) && typeof person.username === 'string' && /^[a-z0-9_.]{2,32}$/.test(person.username)) {
      guilds.addVisitor({ id: person.id, username: person.username, globalName: typeof person.global_name === 'string' ? person.global_name.slice(0, 32) : person.username, avatar: null });
    }
    if (!personOf(person.id) && !guilds.visitor(person.id)) {
      return reply.code(400).send({ message: 'Invalid Form Body', code: 50035, errors: { author: { _errors: [{ code: 'SANDBOX_AUTHOR', message: 'An unknown person needs author.username (2-32 of a-z 0-9 _ .).' }] } } });
    }
    const member = memberOf(engine, ctx, person.id) ?? { userId: person.id, roles: [], joinedAt: '' };
    const perms = computeChannelPermissions(ctx.perm, member, { type: found.channel.type, permission_overwrites: found.overwrites });
    if (!hasPermission(perms, 'VIEW_CHANNEL')) return missingAccess(reply);
    if (!hasPermission(perms, 'SEND_MESSAGES')) return missingPermissions(reply);
    const result = validateMessage(message, 'create');
    if (!result.ok) return reply.code(result.status).send(result.body);
    const draft = { content: result.value.content ?? '', embeds: [], components: [] };
    if (isEmptyMessage(draft)) return discordError(reply, 400, 50006, 'Cannot send an empty message');
    const now = engine.now();
    const stored = guilds.add({ id: guilds.nextId(now), channelId, guildId: found.guildId, authorId: person.id, ...draft, flags: 0, tts: false, nonce: null, createdAt: now, editedAt: null });
    return messageObject(stored, userObjectOf(engine, person.id));
  });
}
