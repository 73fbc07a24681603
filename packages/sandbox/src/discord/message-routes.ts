import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { jsonBody, RawBody } from '../kit/body';
import { multipartBoundary, parseMultipart } from '../kit/multipart';
import { type AttachmentStore, signAttachment } from './attachments';
import { queryOf } from '../kit/http';
import type { DemoChannel } from './demo-data';
import { messageObject } from './discord-objects';
import type { SandboxEngine } from './engine';
import { discordError, missingAccess, missingPermissions, refuseBody, unauthorized, unknownChannel } from './errors';
import { botGuildContext, botPermissionsIn, type GuildContext, userObjectOf } from './guild-routes';
import type { StoredAttachment, StoredMessage } from './guild-state';
import { isEmptyMessage, validateMessage } from './message-validation';
import { hasPermission, type PermissionOverwrite } from './permissions';
import { callerOf } from './rest';
import { compareIds, SNOWFLAKE } from './util';

export interface ChannelAccess {
  ctx: GuildContext;
  channel: DemoChannel;
  overwrites: PermissionOverwrite[];
  /** The bot's permissions in the channel. */
  perms: bigint;
}

const unknownMessage = (reply: FastifyReply) => discordError(reply, 404, 10008, 'Unknown Message');
const emptyMessage = (reply: FastifyReply) => discordError(reply, 400, 50006, 'Cannot send an empty message');

/**
 * The checks every message route starts with: the bot token (401), a known channel (404 10003), a
 * server the bot is in and a channel it can see (403 50001 Missing Access). Null when answered.
 */
export function access(engine: SandboxEngine, req: FastifyRequest, reply: FastifyReply): ChannelAccess | null {
  if (callerOf(req, engine).kind !== 'bot') {
    unauthorized(reply);
    return null;
  }
  const { channelId } = req.params as { channelId: string };
  const found = SNOWFLAKE.test(channelId) ? engine.guilds.channel(channelId) : undefined;
  if (!found) {
    unknownChannel(reply);
    return null;
  }
  const ctx = botGuildContext(engine, found.guildId);
  const perms = ctx ? botPermissionsIn(engine, ctx, found.channel, found.overwrites) : 0n;
  if (!ctx || !hasPermission(perms, 'VIEW_CHANNEL')) {
    missingAccess(reply);
    return null;
  }
  return { ctx, channel: found.channel, overwrites: found.overwrites, perms };
}

function intParam(reply: FastifyReply, name: string, raw: string | null, fallback: number, min: number, max: number): number | null {
  if (raw === null) return fallback;
  const error = (code: string, message: string) => {
    reply.code(400).send({ message: 'Invalid Form Body', code: 50035, errors: { [name]: { _errors: [{ code, message }] } } });
    return null;
  };
  if (!/^-?\d{1,10}$/.test(raw)) return error('NUMBER_TYPE_COERCE', `Value "${raw.slice(0, 100)}" is not int.`);
  const count = Number(raw);
  if (count < min) return error('NUMBER_TYPE_MIN', `Int value should be greater than or equal to ${min}.`);
  if (count > max) return error('NUMBER_TYPE_MAX', `Int value should be less than or equal to ${max}.`);
  return count;
}

/** What one message may upload (Discord: 10 files, 10 MiB together) and the most a JSON body may be. */
export const UPLOAD_FILES_MAX = 10;
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
const JSON_MAX_BYTES = 64 * 1024;

interface UploadedFile {
  index: number;
  filename: string;
  contentType: string;
  data: Buffer;
}

const tooLarge = (reply: FastifyReply) => discordError(reply, 413, 40005, 'Request entity too large');

/** A file name as Discord keeps it: the last path segment, blanks and odd characters as `_`. */
function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 255);
  return clean === '' || /^\.+$/.test(clean) ? 'unknown' : clean;
}

/** A PNG's size from its header (other types: unknown). */
function imageSize(data: Buffer): { width: number | null; height: number | null } {
  if (data.length >= 24 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  return { width: null, height: null };
}

/**
 * A message body: JSON (64 KiB at most), or `multipart/form-data` with the JSON in `payload_json`
 * and the files in `files[n]` (at most 10, 10 MiB together), as Discord takes uploads. Null when answered.
 */
function messageBody(req: FastifyRequest, reply: FastifyReply): { body: unknown; files: UploadedFile[] } | null {
  const raw = req.body;
  const boundary = raw instanceof RawBody ? multipartBoundary(raw.contentType) : null;
  if (!(raw instanceof RawBody) || boundary === null) {
    if (raw instanceof RawBody && raw.bytes.length > JSON_MAX_BYTES) {
      tooLarge(reply);
      return null;
    }
    const parsed = jsonBody(req, refuseBody(reply, 'The sandbox takes JSON bodies, or multipart/form-data with payload_json and files[n] (no forms).'));
    return parsed.ok ? { body: parsed.body, files: [] } : null;
  }
  const parts = parseMultipart(raw.bytes, boundary, UPLOAD_FILES_MAX * 2 + 2);
  const invalid = (field: string, code: string, message: string) => {
    reply.code(400).send({ message: 'Invalid Form Body', code: 50035, errors: field ? { [field]: { _errors: [{ code, message }] } } : { _errors: [{ code, message }] } });
    return null;
  };
  if (!parts) return invalid('', 'SANDBOX_UNSUPPORTED', 'The multipart body could not be read (at most 10 files and a payload_json).');
  let body: unknown;
  const payload = parts.find((part) => part.name === 'payload_json');
  if (payload) {
    try {
      body = JSON.parse(payload.data.toString('utf8'));
    } catch {
      discordError(reply, 400, 50109, 'The request body contains invalid JSON.');
      return null;
    }
  }
  const named = new Map<number, string>();
  const listed = (body as { attachments?: unknown } | undefined)?.attachments;
  if (Array.isArray(listed)) {
    for (const entry of listed as Array<{ id?: unknown; filename?: unknown }>) {
      if (typeof entry?.filename === 'string' && (typeof entry.id === 'number' || typeof entry.id === 'string')) named.set(Number(entry.id), entry.filename);
    }
  }
  const files: UploadedFile[] = [];
  for (const part of parts) {
    const match = /^files\[(\d{1,2})\]$/.exec(part.name);
    if (!match || part.filename === null) continue;
    const index = Number(match[1]);
    files.push({ index, filename: cleanFilename(named.get(index) ?? part.filename), contentType: (part.contentType ?? 'application/octet-stream').slice(0, 255), data: Buffer.from(part.data) });
  }
  if (files.length > UPLOAD_FILES_MAX) return invalid('files', 'BASE_TYPE_MAX_LENGTH', `Must be ${UPLOAD_FILES_MAX} or fewer in length.`);
  if (files.reduce((sum, file) => sum + file.data.length, 0) > UPLOAD_MAX_BYTES) {
    tooLarge(reply);
    return null;
  }
  return { body, files };
}

/** How long a nonce holds with `enforce_nonce` ("a few minutes", Discord says). */
const NONCE_WINDOW_MS = 5 * 60_000;

/**
 * Discord's message routes for the bot: create, edit, read, list and delete messages in the demo
 * channels, with Discord's body limits (message-validation.ts), permission checks and error codes.
 */
export function messageRoutes(app: FastifyInstance, engine: SandboxEngine, files: AttachmentStore): void {
  const { guilds } = engine;
  const cdnBase = `${engine.options.baseUrl ?? ''}/cdn`;
  // Signed when answered, as Discord signs the links it hands out.
  const fileUrl = (channelId: string) => (attachment: StoredAttachment) => {
    const { ex, is, hm } = signAttachment(channelId, attachment.id, attachment.filename, engine.now());
    return `${cdnBase}/attachments/${channelId}/${attachment.id}/${encodeURIComponent(attachment.filename)}?ex=${ex}&is=${is}&hm=${hm}&`;
  };
  const answer = (m: StoredMessage) => messageObject(m, userObjectOf(engine, m.authorId), fileUrl(m.channelId));
  const botId = () => engine.options.clientId;

  app.post(
    '/api/v10/channels/:channelId/messages',
    { bodyLimit: UPLOAD_MAX_BYTES + 256 * 1024, config: { sandboxBucket: 'POST /channels/{channel.id}/messages', sandboxMajor: 'channelId', sandboxLimit: 'message' } },
    async (req, reply) => {
      const channelAccess = access(engine, req, reply);
      if (!channelAccess) return reply;
      if (channelAccess.channel.type === 4) return discordError(reply, 400, 50008, 'Cannot send messages in a non-text channel');
      const parsed = messageBody(req, reply);
      if (!parsed) return reply;
      const result = validateMessage(parsed.body, 'create');
      if (!result.ok) return reply.code(result.status).send(result.body);
      const validated = result.value;
      const draft = { content: validated.content ?? '', embeds: validated.embeds ?? [], components: validated.components ?? [] };
      if (isEmptyMessage(draft) && parsed.files.length === 0) return emptyMessage(reply);
      if (!hasPermission(channelAccess.perms, 'SEND_MESSAGES')) return missingPermissions(reply);
      if (draft.embeds.length > 0 && !hasPermission(channelAccess.perms, 'EMBED_LINKS')) return missingPermissions(reply);
      if (parsed.files.length > 0 && !hasPermission(channelAccess.perms, 'ATTACH_FILES')) return missingPermissions(reply);
      const now = engine.now();
      // Discord's enforce_nonce: the same author's message with this nonce from the last few minutes
      // is answered again, and no second one is posted (a bot's retry after a lost answer).
      if (validated.enforceNonce && validated.nonce !== undefined) {
        const nonce = String(validated.nonce);
        const earlier = guilds.list(channelAccess.channel.id).find((m) => m.authorId === botId() && m.nonce !== null && String(m.nonce) === nonce && now - m.createdAt < NONCE_WINDOW_MS);
        if (earlier) return answer(earlier);
      }
      const id = guilds.nextId(now);
      const attachments = parsed.files.map((file, index): StoredAttachment => {
        const stored = { id: String(BigInt(id) + BigInt(index + 1) * 4096n), filename: file.filename, contentType: file.contentType, size: file.data.length, ...imageSize(file.data) };
        files.upload({ channelId: channelAccess.channel.id, id: stored.id, filename: file.filename, contentType: file.contentType, body: file.data });
        return stored;
      });
      const message = guilds.add({
        id,
        attachments,
        channelId: channelAccess.channel.id,
        guildId: channelAccess.ctx.guild.id,
        authorId: botId(),
        ...draft,
        flags: validated.flags ?? 0,
        tts: validated.tts ?? false,
        nonce: validated.nonce ?? null,
        createdAt: now,
        editedAt: null,
      });
      return answer(message);
    },
  );

  app.get(
    '/api/v10/channels/:channelId/messages',
    { config: { sandboxBucket: 'GET /channels/{channel.id}/messages', sandboxMajor: 'channelId' } },
    async (req, reply) => {
      const channelAccess = access(engine, req, reply);
      if (!channelAccess) return reply;
      const query = queryOf(req.url);
      const limit = intParam(reply, 'limit', query.get('limit'), 50, 1, 100);
      if (limit === null) return reply;
      const anchors: Record<'before' | 'after' | 'around', string | null> = { before: query.get('before'), after: query.get('after'), around: query.get('around') };
      for (const [name, value] of Object.entries(anchors)) {
        if (value !== null && !SNOWFLAKE.test(value)) {
          return reply.code(400).send({
            message: 'Invalid Form Body',
            code: 50035,
            errors: { [name]: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: `Value "${value.slice(0, 100)}" is not snowflake.` }] } },
          });
        }
      }
      // Without READ_MESSAGE_HISTORY Discord answers no messages (not an error).
      if (!hasPermission(channelAccess.perms, 'READ_MESSAGE_HISTORY')) return [];
      const list = guilds.list(channelAccess.channel.id);
      let page: readonly StoredMessage[];
      if (anchors.around !== null) {
        const around = anchors.around;
        const older = list.filter((m) => compareIds(m.id, around) < 0);
        const newer = list.filter((m) => compareIds(m.id, around) >= 0);
        const after = newer.slice(0, Math.ceil(limit / 2));
        page = [...older.slice(Math.max(0, older.length - (limit - after.length))), ...after];
      } else if (anchors.before !== null) {
        const before = anchors.before;
        const older = list.filter((m) => compareIds(m.id, before) < 0);
        page = older.slice(Math.max(0, older.length - limit));
      } else if (anchors.after !== null) {
        const after = anchors.after;
        page = list.filter((m) => compareIds(m.id, after) > 0).slice(0, limit);
      } else {
        page = list.slice(Math.max(0, list.length - limit));
      }
      // Newest first, as Discord answers.
      return [...page].reverse().map(answer);
    },
  );

  app.get(
    '/api/v10/channels/:channelId/messages/:messageId',
    { config: { sandboxBucket: 'GET /channels/{channel.id}/messages/{message.id}', sandboxMajor: 'channelId' } },
    async (req, reply) => {
      const channelAccess = access(engine, req, reply);
      if (!channelAccess) return reply;
      if (!hasPermission(channelAccess.perms, 'READ_MESSAGE_HISTORY')) return missingPermissions(reply);
      const { messageId } = req.params as { messageId: string };
      const message = SNOWFLAKE.test(messageId) ? guilds.get(channelAccess.channel.id, messageId) : undefined;
      if (!message) return unknownMessage(reply);
      return answer(message);
    },
  );

  app.patch(
    '/api/v10/channels/:channelId/messages/:messageId',
    { config: { sandboxBucket: 'PATCH /channels/{channel.id}/messages/{message.id}', sandboxMajor: 'channelId' } },
    async (req, reply) => {
      const channelAccess = access(engine, req, reply);
      if (!channelAccess) return reply;
      const { messageId } = req.params as { messageId: string };
      const message = SNOWFLAKE.test(messageId) ? guilds.get(channelAccess.channel.id, messageId) : undefined;
      if (!message) return unknownMessage(reply);
      if (message.authorId !== botId()) return discordError(reply, 403, 50005, 'Cannot edit a message authored by another user');
      const parsed = jsonBody(req, refuseBody(reply, 'The sandbox takes JSON bodies only (no multipart uploads or forms).'));
      if (!parsed.ok) return reply;
      const result = validateMessage(parsed.body, 'edit');
      if (!result.ok) return reply.code(result.status).send(result.body);
      const validated = result.value;
      const next = {
        content: validated.content ?? message.content,
        embeds: validated.embeds ?? message.embeds,
        components: validated.components ?? message.components,
      };
      if (isEmptyMessage(next)) return emptyMessage(reply);
      if (validated.embeds !== undefined && validated.embeds.length > 0 && !hasPermission(channelAccess.perms, 'EMBED_LINKS')) return missingPermissions(reply);
      Object.assign(message, next);
      if (validated.flags !== undefined) message.flags = validated.flags;
      message.editedAt = engine.now();
      return answer(message);
    },
  );

  app.delete(
    '/api/v10/channels/:channelId/messages/:messageId',
    { config: { sandboxBucket: 'DELETE /channels/{channel.id}/messages/{message.id}', sandboxMajor: 'channelId' } },
    async (req, reply) => {
      const channelAccess = access(engine, req, reply);
      if (!channelAccess) return reply;
      const { messageId } = req.params as { messageId: string };
      const message = SNOWFLAKE.test(messageId) ? guilds.get(channelAccess.channel.id, messageId) : undefined;
      if (!message) return unknownMessage(reply);
      if (message.authorId !== botId() && !hasPermission(channelAccess.perms, 'MANAGE_MESSAGES')) return missingPermissions(reply);
      guilds.delete(message);
      return reply.code(204).send();
    },
  );
}
