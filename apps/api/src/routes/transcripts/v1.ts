import { createHash } from 'node:crypto';
import { ApiError, Snowflake } from '@tickety/api-contract';
import type { APIChannel, APIGuild, APIGuildMember } from 'discord-api-types/v10';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import sanitizeHtml from 'sanitize-html';
import { z } from 'zod';
import type { FetchLike } from '../../lib/discord';
import { DiscordBotError } from '../../lib/discord-bot';
import { ApiHttpError } from '../../lib/errors';
import { channelPermissions, hasPermission } from '../../lib/permissions';
import { notDashboardFetch } from '../../plugins/app/security';
import { actorOf } from '../../lib/actor';

/** The largest legacy transcript the API reads. */
const LEGACY_TRANSCRIPT_MAX_BYTES = 5 * 1024 * 1024;

const Hex = (max: number) => z.string().regex(new RegExp(`^[0-9a-f]{1,${max}}$`), 'must be lower-case hex');
const LegacyParams = z.object({
  channel: Snowflake,
  attachment: Snowflake,
  filename: z.string().regex(/^[A-Za-z0-9._-]{1,200}\.(html?|txt)$/, 'must be the name of an .html or .txt file'),
  ex: Hex(12),
  is: Hex(12),
  hm: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 hex digits'),
});
type LegacyParams = z.infer<typeof LegacyParams>;

/** The page around a sanitised transcript: fixed, its hash is the only style the CSP allows. */
const STYLE =
  'body{margin:0;padding:16px;font:14px/1.45 system-ui,sans-serif;background:#fff;color:#1e293b;overflow-wrap:anywhere}' +
  '@media (prefers-color-scheme:dark){body{background:#18181b;color:#e4e4e7}a{color:#6ee7b7}}' +
  'img{max-width:100%;height:auto}table{border-collapse:collapse}td,th{border:1px solid #94a3b8;padding:2px 6px}pre{white-space:pre-wrap}';
const STYLE_HASH = `sha256-${createHash('sha256').update(STYLE).digest('base64')}`;

/**
 * The allow-list: text structure, links (http, https, mailto; opened apart, without referrer) and
 * images (https and data: images only; the CSP loads them from Discord's CDN only). No script, style, frame, form, object, meta, link, base or
 * SVG; no event handler or style attribute; anything else is dropped (its text kept, except in
 * script, style and similar elements, dropped whole).
 */
export function sanitizeLegacyTranscript(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'div', 'span', 'br', 'hr', 'b', 'strong', 'i', 'em', 'u', 's', 'small', 'sub', 'sup', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'a', 'img', 'time'],
    allowedAttributes: { a: ['href', 'title', 'rel', 'target'], img: ['src', 'alt', 'width', 'height'], td: ['colspan', 'rowspan'], th: ['colspan', 'rowspan'], time: ['datetime'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['https', 'data'] },
    allowedSchemesAppliedToAttributes: ['href', 'src'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'template', 'iframe', 'object', 'embed', 'svg', 'math', 'head'],
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'noopener noreferrer nofollow', target: '_blank' } }),
      img: (tagName, attribs) => ({ tagName, attribs: attribs.src?.startsWith('data:') && !/^data:image\/(png|jpe?g|gif|webp);/i.test(attribs.src) ? { alt: attribs.alt ?? '' } : attribs }),
    },
  });
}

function gone(): ApiHttpError {
  return new ApiHttpError('NOT_FOUND', { message: 'This transcript is no longer available on Discord: the message or its attachment was deleted.' });
}

/**
 * Legacy transcripts (v1): `GET /api/transcripts/v1/:channel/:attachment/:filename/:ex/:is/:hm`, the
 * address of `/transcript/v1/...` with the CDN's signed parameters. Access is decided from Discord's
 * answers as the bot on every read; only the dashboard asks; the HTML is fetched from Discord's CDN,
 * sanitised and answered under a restrictive CSP: docs/api.md#legacy-transcripts.
 */
export default async function transcriptV1Routes(fastify: FastifyInstance, opts: { fetch: FetchLike }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { cdnBase } = app.config.discord;
  const ancestors = ["'self'", ...app.config.dashboardOrigins].join(' ');
  const dashboardOrigins = new Set(app.config.dashboardOrigins);
  // Pictures load from Discord's CDN only (no tracking pixel learns who reads the transcript).
  const cdnOrigin = new URL(cdnBase).origin;

  async function download(url: string): Promise<{ status: number; text: string | null }> {
    let res: Response;
    try {
      res = await opts.fetch(url, { redirect: 'error', signal: AbortSignal.timeout(app.config.discord.timeoutMs) });
    } catch (error) {
      throw new ApiHttpError('DISCORD_UNAVAILABLE', { retryAfter: 5, message: 'Discord’s CDN is not answering, so the transcript could not be loaded. Try again shortly.', cause: error });
    }
    if (!res.ok) return { status: res.status, text: null };
    const type = res.headers.get('content-type') ?? '';
    if (!/^text\/(html|plain)\b/i.test(type)) throw new ApiHttpError('NOT_FOUND', { message: 'This attachment is not a transcript (not an HTML or text file).' });
    if (Number(res.headers.get('content-length') ?? '0') > LEGACY_TRANSCRIPT_MAX_BYTES) throw new ApiHttpError('PAYLOAD_TOO_LARGE', { message: 'This transcript is larger than 5 MB and cannot be shown.' });
    const body = Buffer.from(await res.arrayBuffer());
    if (body.length > LEGACY_TRANSCRIPT_MAX_BYTES) throw new ApiHttpError('PAYLOAD_TOO_LARGE', { message: 'This transcript is larger than 5 MB and cannot be shown.' });
    return { status: res.status, text: body.toString('utf8') };
  }

  function unavailable(error: DiscordBotError): ApiHttpError {
    return new ApiHttpError('DISCORD_UNAVAILABLE', { retryAfter: error.retryAfter ?? 5, message: 'Discord is not answering, so the transcript could not be loaded. Try again shortly.', cause: error });
  }

  /**
   * Where the transcript was posted and whether the caller may read it: a member of that server who
   * can view the channel and read its history, or the recipient of that direct message. Fresh from
   * Discord on every read.
   */
  async function decideAccess(channelId: string, userId: string): Promise<{ guildId: string | null; channelName: string }> {
    let channel: APIChannel;
    try {
      channel = await app.discordBot.channel(channelId);
    } catch (error) {
      if (error instanceof DiscordBotError && error.kind === 'unavailable') throw unavailable(error);
      throw gone();
    }
    const guildId = 'guild_id' in channel && typeof channel.guild_id === 'string' ? channel.guild_id : null;
    const channelName = 'name' in channel && typeof channel.name === 'string' ? channel.name : channelId;
    if (!guildId) {
      const recipients = 'recipients' in channel && Array.isArray(channel.recipients) ? channel.recipients : [];
      if (recipients.some((r) => r.id === userId)) return { guildId: null, channelName };
      throw new ApiHttpError('NO_SERVER_ACCESS', { message: 'This transcript was sent in a direct message to someone else: only they can open it.' });
    }
    let guild: APIGuild;
    let member: APIGuildMember;
    try {
      [guild, member] = await Promise.all([app.discordBot.guild(guildId), app.discordBot.guildMember(guildId, userId)]);
    } catch (error) {
      if (error instanceof DiscordBotError && error.kind === 'unavailable') throw unavailable(error);
      throw new ApiHttpError('NO_SERVER_ACCESS', {
        message: 'Legacy transcripts open for members of the server they were posted in, and you are not a member of it (if you just joined, try again in a minute).',
      });
    }
    // As Discord itself decides who sees the message the file is attached to: the member's roles and
    // the channel's overwrites (a staff-only channel's transcripts stay the staff's).
    const overwrites = 'permission_overwrites' in channel && Array.isArray(channel.permission_overwrites) ? channel.permission_overwrites : [];
    const permissions = channelPermissions({ id: guild.id, ownerId: guild.owner_id, roles: guild.roles }, { userId, roles: member.roles }, { type: channel.type, overwrites });
    if (!hasPermission(permissions, 'VIEW_CHANNEL') || !hasPermission(permissions, 'READ_MESSAGE_HISTORY')) {
      throw new ApiHttpError('NO_SERVER_ACCESS', {
        message: `This transcript was posted in #${channelName}, which your roles do not let you read on Discord. Ask the server's staff for access.`,
      });
    }
    return { guildId, channelName };
  }

  async function fetchTranscript(params: LegacyParams): Promise<string> {
    const path = `${cdnBase}/attachments/${params.channel}/${params.attachment}/${params.filename}`;
    const signed = `${path}?ex=${params.ex}&is=${params.is}&hm=${params.hm}&`;
    const first = await download(signed);
    if (first.text !== null) return first.text;
    if (first.status !== 404 && first.status !== 403) throw new ApiHttpError('DISCORD_UNAVAILABLE', { retryAfter: 5, message: `Discord’s CDN answered ${first.status}. Try again shortly.` });
    // Expired (or Discord no longer honours the signature): ask for a fresh link as the bot.
    let refreshed: Array<{ original: string; refreshed: string }>;
    try {
      refreshed = await app.discordBot.refreshAttachmentUrls([signed]);
    } catch (error) {
      if (error instanceof DiscordBotError && error.kind === 'unavailable') throw new ApiHttpError('DISCORD_UNAVAILABLE', { retryAfter: error.retryAfter ?? 5, cause: error });
      throw gone();
    }
    const fresh = refreshed.find((r) => r.original === signed)?.refreshed;
    // The fresh link must be the same file on the same CDN, whatever Discord answered.
    if (!fresh?.startsWith(`${path}?`)) throw gone();
    const second = await download(fresh);
    if (second.text === null) throw gone();
    return second.text;
  }

  app.get(
    '/v1/:channel/:attachment/:filename/:ex/:is/:hm',
    { preHandler: app.requireSession, schema: { params: LegacyParams, response: { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 413: ApiError, 503: ApiError } } },
    async (req, reply) => {
      const viaDashboard = notDashboardFetch(req, dashboardOrigins) === null;
      const site = req.headers['sec-fetch-site'];
      const framed = req.headers['sec-fetch-dest'] === 'iframe' && (site === 'same-origin' || site === 'same-site');
      if (!viaDashboard && !framed) {
        throw new ApiHttpError('CSRF_REJECTED', { message: 'Open the transcript in the Tickety dashboard (this request did not come from it).' });
      }
      const place = await decideAccess(req.params.channel, (await req.getSession())!.userId);
      const html = sanitizeLegacyTranscript(await fetchTranscript(req.params));
      // Every read is a view, the dashboard's fetch and its frame alike; the two (and a reload at
      // once) are one entry a minute.
      if (place.guildId) await app.transcripts.logLegacyView(place.guildId, `Legacy transcript ${req.params.filename} in #${place.channelName}`, await actorOf(req));
      const title = req.params.filename.replace(/[^A-Za-z0-9._-]/g, '');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .header('content-security-policy', `default-src 'none'; img-src ${cdnOrigin} data:; style-src '${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors ${ancestors}; sandbox`)
        .send(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title><style>${STYLE}</style></head><body>${html}</body></html>` as never);
    },
  );
}
