/**
 * The Blocklist tab's pure parts: who an entry names (a role's name from the server's roles, a
 * member's from the people the dashboard knows, else the id), whether it still blocks, the search,
 * and the expiry's `datetime-local` value in the viewer's time zone.
 */
import type { BlockEntry, ServerRole } from '@tickety/api-contract';

/** Whether the entry still blocks at `now` (no end, or an end later than now). */
export function isExpired(entry: Pick<BlockEntry, 'expiresAt'>, now: number): boolean {
  return entry.expiresAt !== null && Date.parse(entry.expiresAt) <= now;
}

export const entryKey = (entry: Pick<BlockEntry, 'kind' | 'id'>) => `${entry.kind}:${entry.id}`;

/** A role's name as Discord shows it (`@Member`), or null when the server's roles do not have it. */
export function roleName(roles: readonly Pick<ServerRole, 'id' | 'name'>[] | undefined, id: string): string | null {
  const role = roles?.find((r) => r.id === id);
  if (!role) return null;
  return role.name.startsWith('@') ? role.name : `@${role.name}`;
}

/** The entries whose name, id or reason contains `query` (case-insensitive), in their order. */
export function searchEntries<E extends BlockEntry>(entries: readonly E[], query: string, nameOf: (entry: E) => string): E[] {
  const needle = query.trim().toLocaleLowerCase();
  if (needle === '') return [...entries];
  return entries.filter((entry) => [nameOf(entry), entry.id, entry.reason].some((text) => text.toLocaleLowerCase().includes(needle)));
}

const pad = (value: number) => String(value).padStart(2, '0');

/** An instant as a `datetime-local` input shows it: the viewer's wall-clock time, to the minute. */
export function toLocalInput(iso: string): string {
  const at = new Date(iso);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A `datetime-local` value (the viewer's wall-clock time) as an ISO instant; null when empty or not a time. */
export function fromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** The viewer's time zone ("Europe/Berlin"), as the expiry's hint names it. */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
