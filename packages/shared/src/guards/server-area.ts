import { allows } from '@tickety/api-contract';
import type { RouteHandle } from '../contracts/remotes';
import type { AccessArea, ServerAccess } from '../types';

/**
 * What a server page may show, by its dashboard area (the route table's `area`) and the access the
 * API answered for the open server (`GET /api/guilds/:server`):
 * - 'write': the page with everything on;
 * - 'read': the page to look at (the page turns its saving and sending off and says why);
 * - 'refused': not the page, but who can grant the area.
 * A page without an area, or access not known yet, is 'write' (the API decides on every request).
 */
export type AreaDecision = { level: 'write' | 'read'; area: AccessArea | null } | { level: 'refused'; area: AccessArea };

/** The area of the innermost matched route that names one. */
export function serverAreaOf(handles: ReadonlyArray<RouteHandle | undefined>): AccessArea | null {
  for (let i = handles.length - 1; i >= 0; i--) {
    const area = handles[i]?.area;
    if (area) return area;
  }
  return null;
}

export function evaluateServerArea(area: AccessArea | null | undefined, access: Pick<ServerAccess, 'areas'> | null | undefined): AreaDecision {
  if (!area || !access) return { level: 'write', area: area ?? null };
  if (allows(access, area, 'write')) return { level: 'write', area };
  if (allows(access, area, 'read')) return { level: 'read', area };
  return { level: 'refused', area };
}
