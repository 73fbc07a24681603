import type { AuthState } from '../auth/auth-slice';
import type { RouteHandle } from '../contracts/remotes';
import type { StaffInfo, StaffPermission } from '../types';

/**
 * - 'allow': render the page;
 * - 'pending': the page needs a user but the first user load has not answered yet (show nothing or a spinner);
 * - 'login': the page needs a user and nobody is signed in;
 * - 'forbidden': signed in, but a staff permission the page needs is missing.
 */
export type GuardDecision = 'allow' | 'pending' | 'login' | 'forbidden';

/** A team owner holds every flag; otherwise the flag must be listed. Null team: no flags. */
export function hasPermission(team: StaffInfo, permission: StaffPermission): boolean {
  if (!team) return false;
  return team.owner || team.permissions.includes(permission);
}

/** Staff: a team owner or a holder of at least one flag. */
export function isStaff(team: StaffInfo): boolean {
  if (!team) return false;
  return team.owner || team.permissions.length > 0;
}

/**
 * The one guard (docs/behaviour.md#roles-and-guards), over the `handle`s of every matched route (outer to inner). A handle
 * with `permission` implies `requiresAuth`. Pages without requirements are allowed at once, even
 * before the user has loaded. A failed first load counts as signed out; a user already in the state
 * (preloaded, or kept during a reload) is judged at once.
 */
export function evaluateGuard(handles: Array<RouteHandle | undefined>, auth: AuthState): GuardDecision {
  let requiresAuth = false;
  const permissions: StaffPermission[] = [];
  for (const h of handles) {
    if (!h) continue;
    if (h.requiresAuth) requiresAuth = true;
    if (h.permission) {
      requiresAuth = true;
      permissions.push(h.permission);
    }
  }
  if (!requiresAuth) return 'allow';
  if (!auth.user) return auth.status === 'idle' || auth.status === 'loading' ? 'pending' : 'login';
  return permissions.every((p) => hasPermission(auth.team, p)) ? 'allow' : 'forbidden';
}
