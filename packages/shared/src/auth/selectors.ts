import { createSelector } from '@reduxjs/toolkit';
import { ALL_STAFF_PERMISSIONS } from '../constants';
import { isStaff } from '../guards/guards';
import type { Guild, StaffPermission } from '../types';
import type { AuthRootState, AuthState } from './auth-slice';

const NO_PERMISSIONS: readonly StaffPermission[] = Object.freeze([]);

export const selectAuth = (state: AuthRootState): AuthState => state.auth;
export const selectUser = (state: AuthRootState) => state.auth.user;
export const selectIsAuthenticated = (state: AuthRootState): boolean => state.auth.user !== null;
export const selectAuthStatus = (state: AuthRootState): AuthState['status'] => state.auth.status;
export const selectGuilds = (state: AuthRootState): Guild[] => state.auth.guilds;
export const selectTeam = (state: AuthRootState) => state.auth.team;
export const selectSub = (state: AuthRootState) => state.auth.sub;

/** Servers the user may manage here (owner, Administrator or Manage Server, as the API computed). */
export const selectManageableGuilds = createSelector([selectGuilds], (guilds) => guilds.filter((g) => g.canManage));

/**
 * Servers whose dashboard the user can open: those they manage, and those where the server's access
 * rules give one of their roles some access (`roleAccess`, as the API found when the list was fetched).
 */
export const selectDashboardGuilds = createSelector([selectGuilds], (guilds) => guilds.filter((g) => g.canManage || g.roleAccess === true));

/** The user's staff flags; a team owner holds every flag. Empty for non-staff. */
export const selectStaffPermissions = createSelector([selectTeam], (team): readonly StaffPermission[] => {
  if (!team) return NO_PERMISSIONS;
  return team.owner ? ALL_STAFF_PERMISSIONS : team.permissions;
});

export const selectIsStaff = (state: AuthRootState): boolean => isStaff(state.auth.team);
