import { describe, expect, it } from 'vitest';
import {
  ApiError,
  canManageGuild,
  ERROR_CODES,
  errorByCode,
  isStaffPermission,
  MeResponse,
  PlanCatalogue,
  RuntimeConfig,
  SERVER_ACCESS_CODES,
  STAFF_PERMISSIONS,
} from './index';

describe('ERROR_CODES', () => {
  it('has unique numeric codes and sensible HTTP statuses', () => {
    const codes = Object.values(ERROR_CODES).map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const e of Object.values(ERROR_CODES)) {
      expect(e.httpStatus).toBeGreaterThanOrEqual(400);
      expect(e.httpStatus).toBeLessThan(600);
      expect(e.message.length).toBeGreaterThan(10);
    }
  });

  it('keeps the docs/behaviour.md#request-overlay-and-error-catalogue server-access codes and explains why', () => {
    expect(SERVER_ACCESS_CODES).toEqual([403, 405]);
    expect(ERROR_CODES.NO_SERVER_ACCESS.message).toMatch(/Administrator or Manage Server/);
    expect(ERROR_CODES.SERVER_NOT_FOUND.message).toMatch(/not one of your servers/);
    expect(ERROR_CODES.SERVER_NOT_FOUND.httpStatus).toBe(404);
    expect(errorByCode(1009)?.httpStatus).toBe(503);
    expect(errorByCode(42)).toBeUndefined();
  });

  it('validates error bodies', () => {
    expect(ApiError.safeParse({ code: 403, message: 'x', isAuthenticated: true, selector: true }).success).toBe(true);
    expect(ApiError.safeParse({ code: '403', message: 'x', isAuthenticated: true }).success).toBe(false);
  });
});

describe('MeResponse', () => {
  it('accepts the anonymous shape only with empty fields', () => {
    const anon = { isAuthenticated: false, user: null, guilds: [], team: null, sub: null, guildsRefreshedAt: null };
    expect(MeResponse.parse(anon)).toEqual(anon);
    expect(MeResponse.safeParse({ ...anon, guilds: [{ id: '1' }] }).success).toBe(false);
  });

  it('accepts an authenticated user with guilds, team and sub', () => {
    const me = {
      isAuthenticated: true,
      user: { id: '1', username: 'ava', globalName: 'Ava', avatar: null, avatarUrl: 'https://cdn/x.png' },
      guilds: [
        { id: '2', name: 'G', icon: null, iconUrl: null, owner: true, permissions: '8', canManage: true, botInGuild: false },
      ],
      team: { permissions: ['SPECIAL_TEAM_MANAGER_READ'], owner: false },
      sub: { premium: true, servers: ['2'] },
      guildsRefreshedAt: new Date(0).toISOString(),
    };
    expect(MeResponse.parse(me)).toEqual(me);
    expect(MeResponse.safeParse({ ...me, team: { permissions: ['NOPE'], owner: false } }).success).toBe(false);
  });
});

describe('helpers', () => {
  it('canManageGuild: owner, ADMINISTRATOR or MANAGE_GUILD', () => {
    expect(canManageGuild(true, '0')).toBe(true);
    expect(canManageGuild(false, '8')).toBe(true);
    expect(canManageGuild(false, '32')).toBe(true);
    expect(canManageGuild(false, String((1n << 10n) | (1n << 11n)))).toBe(false);
    expect(canManageGuild(false, '2251799813685247')).toBe(true);
    expect(canManageGuild(false, 'garbage')).toBe(false);
  });

  it('isStaffPermission knows the five flags', () => {
    expect(STAFF_PERMISSIONS).toHaveLength(5);
    expect(isStaffPermission('SPECIAL_TEAM_MANAGER_WRITE')).toBe(true);
    expect(isStaffPermission('ADMIN')).toBe(false);
  });

  it('rejects a plan catalogue with duplicate ids', () => {
    const plan = {
      id: 'free',
      name: 'Free',
      priceMonthly: 0,
      priceYearly: 0,
      currency: 'USD',
      highlight: false,
      features: ['x'],
      limits: { panels: 3, servers: 1 },
    };
    expect(PlanCatalogue.safeParse([plan]).success).toBe(true);
    expect(PlanCatalogue.safeParse([plan, plan]).success).toBe(false);
  });

  it('RuntimeConfig lists the deployed remotes: manifest, version and route table each', () => {
    const cfg = {
      productName: 'Tickety',
      apiOrigin: 'http://localhost:3000',
      remotes: { marketing: { manifest: '/remotes/marketing/abc/mf-manifest.json', version: 'abc', routes: { schema: 1 } } },
      docsUrl: 'x',
      supportUrl: 'x',
      inviteUrl: 'x',
      discordClientId: '1',
      discordOrigin: 'https://discord.com',
      paddleToken: null,
      paddleScriptUrl: null,
      analyticsToken: null,
      demo: false,
    };
    expect(RuntimeConfig.parse(cfg)).toEqual(cfg);
    expect(RuntimeConfig.parse({ ...cfg, remotes: {} }).remotes).toEqual({});
    expect(RuntimeConfig.safeParse({ ...cfg, remotes: { marketing: 'a' } }).success).toBe(false);
    expect(RuntimeConfig.safeParse({ ...cfg, remotes: { marketing: { manifest: '', version: null, routes: null } } }).success).toBe(false);
    expect(RuntimeConfig.safeParse({ ...cfg, remotes: { unknown: { manifest: 'x', version: null, routes: null } } }).success).toBe(false);
  });
});

describe('Discord ids', () => {
  it('are 17 to 20 digits without a leading zero, the same in the schema and the plain check (the API took 15-21, the invite page 17-20)', async () => {
    const { Snowflake, isSnowflake } = await import('./index');
    for (const [id, ok] of [
      ['1'.repeat(16), false],
      ['1'.repeat(17), true],
      ['1'.repeat(20), true],
      ['1'.repeat(21), false],
      ['1234567890123456a', false],
      [' 12345678901234567', false],
      ['01234567890123456', false],
      ['0'.repeat(20), false],
      ['10000000000000000', true],
    ] as const) {
      expect(isSnowflake(id), id).toBe(ok);
      expect(Snowflake.safeParse(id).success, id).toBe(ok);
    }
    expect(isSnowflake(null)).toBe(false);
  });
});
