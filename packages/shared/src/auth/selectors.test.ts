import { describe, expect, it } from 'vitest';
import { GUILD_MANAGED, SIGNED_IN } from '../test/helpers';
import { type AuthRootState, initialAuthState } from './auth-slice';
import {
  selectAuthStatus,
  selectDashboardGuilds,
  selectGuilds,
  selectIsAuthenticated,
  selectIsStaff,
  selectManageableGuilds,
  selectStaffPermissions,
  selectSub,
  selectTeam,
  selectUser,
} from './selectors';

const anonymous: AuthRootState = { auth: initialAuthState };
const signedIn: AuthRootState = {
  auth: { ...initialAuthState, status: 'loaded', user: SIGNED_IN.user, guilds: SIGNED_IN.guilds, team: SIGNED_IN.team, sub: SIGNED_IN.sub },
};

describe('auth selectors', () => {
  it('read the state', () => {
    expect(selectUser(signedIn)?.username).toBe('ana');
    expect(selectIsAuthenticated(signedIn)).toBe(true);
    expect(selectIsAuthenticated(anonymous)).toBe(false);
    expect(selectAuthStatus(anonymous)).toBe('idle');
    expect(selectGuilds(signedIn)).toHaveLength(2);
    expect(selectTeam(anonymous)).toBeNull();
    expect(selectSub(signedIn)).toEqual({ premium: true, servers: [GUILD_MANAGED.id] });
  });

  it('selectManageableGuilds keeps the servers the user can manage, memoised', () => {
    const guilds = selectManageableGuilds(signedIn);
    expect(guilds.map((g) => g.id)).toEqual([GUILD_MANAGED.id]);
    expect(selectManageableGuilds(signedIn)).toBe(guilds);
  });

  it('selectDashboardGuilds adds the servers a role opens (roleAccess), memoised', () => {
    const roleOnly = { ...SIGNED_IN.guilds[1]!, id: '1100000000000000099', canManage: false, roleAccess: true };
    const state: AuthRootState = { auth: { ...signedIn.auth, guilds: [...SIGNED_IN.guilds, roleOnly] } };
    const guilds = selectDashboardGuilds(state);
    expect(guilds.map((g) => g.id)).toEqual([GUILD_MANAGED.id, roleOnly.id]);
    expect(selectDashboardGuilds(state)).toBe(guilds);
  });

  it('selectStaffPermissions: none for non-staff, the flags for staff, all five for a team owner', () => {
    expect(selectStaffPermissions(anonymous)).toEqual([]);
    expect(selectStaffPermissions(signedIn)).toEqual(['DASHBOARD_SUPPORT_SYSTEM_READ']);
    const owner: AuthRootState = { auth: { ...signedIn.auth, team: { permissions: [], owner: true } } };
    expect([...selectStaffPermissions(owner)].sort()).toEqual([
      'DASHBOARD_SUPPORT_SEARCH_READ',
      'DASHBOARD_SUPPORT_SYSTEM_READ',
      'DASHBOARD_SUPPORT_SYSTEM_WRITE',
      'SPECIAL_TEAM_MANAGER_READ',
      'SPECIAL_TEAM_MANAGER_WRITE',
    ]);
  });

  it('selectIsStaff', () => {
    expect(selectIsStaff(anonymous)).toBe(false);
    expect(selectIsStaff(signedIn)).toBe(true);
    expect(selectIsStaff({ auth: { ...signedIn.auth, team: { permissions: [], owner: false } } })).toBe(false);
  });
});
