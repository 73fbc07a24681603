import type { Guild } from '@tickety/shared';
import { href } from '../../lib/hrefs';

/** Discord permission bits that let a member manage a server here (besides owning it). */
const ADMINISTRATOR = 0x8n;
const MANAGE_GUILD = 0x20n;

/** Why the user may manage a server (an identifier: the label shown is the catalogue's `cards.role.*`). */
export type GuildRole = 'Owner' | 'Administrator' | 'Manage Server' | 'Dashboard access';

function permissionBits(permissions: string): bigint {
  try {
    return BigInt(permissions);
  } catch {
    return 0n;
  }
}

/**
 * Why the user may open this server: the owner, a member with Administrator, or with Manage Server.
 * A server one of their roles opens (the server's access rules: `roleAccess`), or a manageable one
 * without any of the above, is 'Dashboard access'; a server the user can't open has no role (null).
 */
export function guildRole(guild: Pick<Guild, 'owner' | 'permissions' | 'canManage' | 'roleAccess'>): GuildRole | null {
  if (guild.owner) return 'Owner';
  const bits = permissionBits(guild.permissions);
  if ((bits & ADMINISTRATOR) !== 0n) return 'Administrator';
  if ((bits & MANAGE_GUILD) !== 0n) return 'Manage Server';
  return guild.canManage || guild.roleAccess === true ? 'Dashboard access' : null;
}

/**
 * The server dashboard's pages, by their path segment (also the values of Manage Servers' `?page=`):
 * the route's page id (its name is the catalogue's `sidebar.<page>`) and its path.
 */
export const SERVER_PAGES = {
  configs: { page: 'serverConfigs', path: '/dashboard/:server/configs' },
  statistics: { page: 'serverStatistics', path: '/dashboard/:server/statistics' },
  premium: { page: 'serverPremium', path: '/dashboard/:server/premium' },
  'logs-web': { page: 'serverLogsWeb', path: '/dashboard/:server/logs-web' },
  'server-configs': { page: 'serverRestoreConfigs', path: '/dashboard/:server/server-configs' },
} as const;

type ServerPageSlug = keyof typeof SERVER_PAGES;

export function isServerPageSlug(value: string | null | undefined): value is ServerPageSlug {
  return typeof value === 'string' && Object.hasOwn(SERVER_PAGES, value);
}

/**
 * The page part of Manage Servers' `?page=` (set by the shell's redirect of the bot's placeholder links,
 * `/dashboard/server-id/<page>[/<more>]`): a server page, optionally with plain sub-path segments.
 * Anything else is ignored (null), so the value can never lead outside the server's dashboard.
 */
export function serverPagePath(page: string | null | undefined): string | null {
  if (!page) return null;
  const [first, ...rest] = page.split('/').filter(Boolean);
  if (!isServerPageSlug(first)) return null;
  if (!rest.every((segment) => /^[\w-]+$/.test(segment))) return first;
  return [first, ...rest].join('/');
}

/**
 * Where a server of the picker leads: `/dashboard/<id>`, or `/dashboard/<id>/<page>` when the picker
 * was opened with `?page=<page>`, keeping the hash.
 */
export function serverHref(guildId: string, page: string | null | undefined, hash = ''): string {
  const [slug, ...more] = serverPagePath(page)?.split('/') ?? [];
  const base = isServerPageSlug(slug) ? href(SERVER_PAGES[slug].path, { server: guildId }) : href('/dashboard/:server', { server: guildId });
  // A sub-path of the page (plain segments, checked by serverPagePath) is kept as the bot's link had it.
  const path = more.length > 0 ? `${base}/${more.join('/')}` : base;
  return hash && hash !== '#' ? `${path}${hash.startsWith('#') ? hash : `#${hash}`}` : path;
}

/** Case-insensitive match on the name, or on the id (digits typed or pasted). */
export function matchesQuery(guild: Pick<Guild, 'id' | 'name'>, query: string): boolean {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return true;
  return guild.name.toLocaleLowerCase().includes(needle) || guild.id.includes(needle);
}

export function byName(first: Pick<Guild, 'name'>, second: Pick<Guild, 'name'>): number {
  return first.name.localeCompare(second.name, undefined, { sensitivity: 'base' });
}
