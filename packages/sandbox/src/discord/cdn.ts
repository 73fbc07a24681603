import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sha256 } from '../kit/crypto';
import { escapeHtml } from '../kit/html';
import { DEMO_GUILD_DATA, type DemoEmoji } from './demo-data';
import { findGuild, findUser, SNOWFLAKE } from './util';

const EMOJIS = new Map<string, DemoEmoji>(Object.values(DEMO_GUILD_DATA).flatMap((d) => d.emojis.map((e) => [e.id, e] as const)));
const EMOJI_FILE = /^(?<id>\d{1,20})\.(?<ext>png|jpg|jpeg|webp|gif)$/;

/** Discord's default avatar colours (embed/avatars/0-5.png). */
const DEFAULT_AVATAR_COLOURS = ['#5865f2', '#757e8a', '#3ba55c', '#faa61a', '#ed4245', '#eb459e'] as const;

/** `{hash}.{ext}`: Discord hashes are hex (animated ones start with `a_`); the sandbox accepts any short word. */
const IMAGE_FILE = /^(?<hash>[A-Za-z0-9_]{1,64})\.(?<ext>png|jpg|jpeg|webp|gif)$/;
const EMBED_FILE = /^(?<index>[0-5])\.png$/;

function colourOf(id: string): string {
  const hue = sha256(id).readUInt16BE(0) % 360;
  return `hsl(${hue} 55% 42%)`;
}

function initialsOf(name: string): string {
  const words = name.split(/\s+/).map((w) => w.replace(/[^\p{L}\p{N}]/gu, '')).filter(Boolean);
  return words
    .slice(0, 2)
    .map((w) => [...w][0]!.toUpperCase())
    .join('') || '?';
}

function svg(size: number, background: string, label: string, content: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 128 128" role="img" aria-label="${escapeHtml(label)}"><rect width="128" height="128" fill="${background}"/>${content}</svg>`;
}

function initialsSvg(size: number, background: string, text: string): string {
  const fontSize = [...text].length > 1 ? 50 : 60;
  return svg(
    size,
    background,
    text,
    `<text x="64" y="64" dy=".35em" text-anchor="middle" font-family="'gg sans','Noto Sans',Helvetica,Arial,sans-serif" font-size="${fontSize}" font-weight="700" fill="#ffffff">${escapeHtml(text)}</text>`,
  );
}

/** Discord's default avatar: a plain mascot-ish face on one of six colours. */
function defaultAvatarSvg(size: number, index: number): string {
  const colour = DEFAULT_AVATAR_COLOURS[index] ?? DEFAULT_AVATAR_COLOURS[0];
  return svg(
    size,
    colour,
    `Default avatar ${index}`,
    '<path d="M34 48c0-8 6-14 14-14h32c8 0 14 6 14 14v26c0 12-10 22-22 22H56c-12 0-22-10-22-22z" fill="#ffffff"/>' +
      `<circle cx="52" cy="62" r="7" fill="${colour}"/><circle cx="76" cy="62" r="7" fill="${colour}"/>`,
  );
}

/** `?size=`: a power of two from 16 to 4096 (Discord's rule); default 128. Null when invalid. */
function sizeOf(req: FastifyRequest): number | null {
  const raw = (req.query as Record<string, unknown>).size;
  if (raw === undefined) return 128;
  if (typeof raw !== 'string' || !/^\d{1,4}$/.test(raw)) return null;
  const count = Number(raw);
  return count >= 16 && count <= 4096 && (count & (count - 1)) === 0 ? count : null;
}

function sendImage(reply: FastifyReply, body: string) {
  return reply
    .header('content-type', 'image/svg+xml')
    .header('cache-control', 'public, max-age=86400')
    .header('access-control-allow-origin', '*')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
    .header('x-content-type-options', 'nosniff')
    .send(body);
}

function notFound(reply: FastifyReply) {
  return reply.code(404).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('404: Not Found');
}

function badSize(reply: FastifyReply) {
  return reply.code(400).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('400: Invalid size');
}

/**
 * The CDN: generated SVG images (initials on a colour derived from the id) at Discord's paths, whatever
 * the extension. Known ids with their current hash get their picture; well-formed unknown ones a
 * default image; malformed paths 404.
 */
export function cdnRoutes(app: FastifyInstance): void {
  app.get('/cdn/icons/:guild/:file', async (req, reply) => {
    const { guild, file } = req.params as { guild: string; file: string };
    const match = IMAGE_FILE.exec(file);
    if (!SNOWFLAKE.test(guild) || !match) return notFound(reply);
    const size = sizeOf(req);
    if (size === null) return badSize(reply);
    const known = findGuild(guild);
    if (known && known.icon === match.groups!.hash) return sendImage(reply, initialsSvg(size, colourOf(known.id), initialsOf(known.name)));
    // Unknown guild or stale hash: a neutral server icon.
    return sendImage(reply, initialsSvg(size, '#4e5058', known ? initialsOf(known.name) : '#'));
  });

  app.get('/cdn/avatars/:user/:file', async (req, reply) => {
    const { user, file } = req.params as { user: string; file: string };
    const match = IMAGE_FILE.exec(file);
    if (!SNOWFLAKE.test(user) || !match) return notFound(reply);
    const size = sizeOf(req);
    if (size === null) return badSize(reply);
    const known = findUser(user);
    if (known && known.id === user && known.avatar === match.groups!.hash) {
      return sendImage(reply, initialsSvg(size, colourOf(known.id), initialsOf(known.globalName)));
    }
    return sendImage(reply, defaultAvatarSvg(size, Number((BigInt(user) >> 22n) % 6n)));
  });

  app.get('/cdn/emojis/:file', async (req, reply) => {
    const { file } = req.params as { file: string };
    const match = EMOJI_FILE.exec(file);
    if (!match) return notFound(reply);
    const size = sizeOf(req);
    if (size === null) return badSize(reply);
    const known = EMOJIS.get(match.groups!.id!);
    // A custom emoji: its name's initials on a colour from its id (unknown ids: a neutral one).
    return sendImage(reply, initialsSvg(size, known ? colourOf(known.id) : '#4e5058', known ? initialsOf(known.name.replace(/_/g, ' ')) : '?'));
  });

  app.get('/cdn/embed/avatars/:file', async (req, reply) => {
    const { file } = req.params as { file: string };
    const match = EMBED_FILE.exec(file);
    if (!match) return notFound(reply);
    const size = sizeOf(req);
    if (size === null) return badSize(reply);
    return sendImage(reply, defaultAvatarSvg(size, Number(match.groups!.index)));
  });
}
