import { describe, expect, it } from 'vitest';
import { type AuthState, initialAuthState } from '../auth/auth-slice';
import type { RouteHandle } from '../contracts/remotes';
import { SIGNED_IN } from '../test/helpers';
import type { StaffInfo } from '../types';
import { evaluateGuard, hasPermission, isStaff } from './guards';

const loading: AuthState = { ...initialAuthState, status: 'loading' };
const signedOut: AuthState = { ...initialAuthState, status: 'loaded', lastLoaded: 1 };
const failed: AuthState = { ...initialAuthState, status: 'failed' };
const member: AuthState = { ...signedOut, user: SIGNED_IN.user, team: null };
const systemReader: AuthState = { ...member, team: { permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ'], owner: false } };
const owner: AuthState = { ...member, team: { permissions: [], owner: true } };

const PUBLIC: RouteHandle = { title: 'Home' };
const LOGIN_LAYOUT: RouteHandle = { requiresAuth: true };
const SYSTEM: RouteHandle = { requiresAuth: true, permission: 'DASHBOARD_SUPPORT_SYSTEM_READ' };
const TEAM_MANAGER: RouteHandle = { permission: 'SPECIAL_TEAM_MANAGER_READ' };

describe('evaluateGuard', () => {
  it('allows public pages at once, whatever the auth state', () => {
    for (const auth of [initialAuthState, loading, failed, signedOut, member]) {
      expect(evaluateGuard([undefined, PUBLIC], auth)).toBe('allow');
    }
    expect(evaluateGuard([], initialAuthState)).toBe('allow');
  });

  it('is pending while the first user load has not answered', () => {
    expect(evaluateGuard([LOGIN_LAYOUT], initialAuthState)).toBe('pending');
    expect(evaluateGuard([undefined, SYSTEM], loading)).toBe('pending');
  });

  it('asks for login when a matched handle requires auth and nobody is signed in', () => {
    expect(evaluateGuard([PUBLIC, LOGIN_LAYOUT], signedOut)).toBe('login');
    expect(evaluateGuard([LOGIN_LAYOUT], failed)).toBe('login');
  });

  it('a permission alone implies login', () => {
    expect(evaluateGuard([TEAM_MANAGER], signedOut)).toBe('login');
  });

  it('allows a signed-in user on a login page', () => {
    expect(evaluateGuard([LOGIN_LAYOUT, undefined], member)).toBe('allow');
  });

  it('forbids a signed-in user without the permission (no team, or another flag)', () => {
    expect(evaluateGuard([LOGIN_LAYOUT, SYSTEM], member)).toBe('forbidden');
    expect(evaluateGuard([LOGIN_LAYOUT, TEAM_MANAGER], systemReader)).toBe('forbidden');
  });

  it('allows holders of the permission, and team owners for every permission', () => {
    expect(evaluateGuard([LOGIN_LAYOUT, SYSTEM], systemReader)).toBe('allow');
    expect(evaluateGuard([LOGIN_LAYOUT, SYSTEM, TEAM_MANAGER], owner)).toBe('allow');
  });

  it('needs every permission of every matched handle', () => {
    expect(evaluateGuard([SYSTEM, TEAM_MANAGER], systemReader)).toBe('forbidden');
  });

  it('judges a user already in the state even while a load is running', () => {
    expect(evaluateGuard([SYSTEM], { ...systemReader, status: 'loading' })).toBe('allow');
  });
});

describe('hasPermission / isStaff', () => {
  const reader: StaffInfo = { permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'], owner: false };
  it('hasPermission', () => {
    expect(hasPermission(null, 'DASHBOARD_SUPPORT_SEARCH_READ')).toBe(false);
    expect(hasPermission(reader, 'DASHBOARD_SUPPORT_SEARCH_READ')).toBe(true);
    expect(hasPermission(reader, 'SPECIAL_TEAM_MANAGER_WRITE')).toBe(false);
    expect(hasPermission({ permissions: [], owner: true }, 'SPECIAL_TEAM_MANAGER_WRITE')).toBe(true);
  });
  it('isStaff', () => {
    expect(isStaff(null)).toBe(false);
    expect(isStaff({ permissions: [], owner: false })).toBe(false);
    expect(isStaff(reader)).toBe(true);
    expect(isStaff({ permissions: [], owner: true })).toBe(true);
  });
});
