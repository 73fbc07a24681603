/**
 * Badges on the server sidebar's entries: a remote's page publishes one for its own entry (the
 * Tickets page: tickets waiting for staff), the shell's sidebar shows it. One small store in this
 * singleton, so the shell and every remote see the same badges; keyed by server and the entry's
 * path segment under `/dashboard/:server` (the route table's `path`).
 */
import { useSyncExternalStore } from 'react';

export interface SidebarBadge {
  /** The number shown on the entry (0 hides the badge). */
  count: number;
  /** What the number means, in the reader's language (the badge's accessible name and tooltip). */
  label: string;
}

const badges = new Map<string, SidebarBadge>();
const listeners = new Set<() => void>();

const keyOf = (server: string, segment: string) => `${server}/${segment}`;

/** Shows `badge` on the sidebar entry `segment` of `server` (null removes it). */
export function setSidebarBadge(server: string, segment: string, badge: SidebarBadge | null): void {
  const key = keyOf(server, segment);
  const before = badges.get(key);
  if (badge === null ? before === undefined : before?.count === badge.count && before.label === badge.label) return;
  if (badge === null) badges.delete(key);
  else badges.set(key, { count: badge.count, label: badge.label });
  for (const listener of listeners) listener();
}

/** The badge of one sidebar entry, or null. */
export function getSidebarBadge(server: string, segment: string): SidebarBadge | null {
  return badges.get(keyOf(server, segment)) ?? null;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The badge of one sidebar entry, re-rendering when it changes. */
export function useSidebarBadge(server: string, segment: string): SidebarBadge | null {
  return useSyncExternalStore(
    subscribe,
    () => getSidebarBadge(server, segment),
    () => null,
  );
}

/** Removes every badge (tests, and signing out). */
export function clearSidebarBadges(): void {
  if (badges.size === 0) return;
  badges.clear();
  for (const listener of listeners) listener();
}
