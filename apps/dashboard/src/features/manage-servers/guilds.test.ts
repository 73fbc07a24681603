import { describe, expect, it } from 'vitest';
import { guildRole, matchesQuery, serverHref } from './guilds';

describe('guildRole', () => {
  it('names the owner first, whatever the permission bits', () => {
    expect(guildRole({ owner: true, permissions: '0', canManage: true })).toBe('Owner');
    expect(guildRole({ owner: true, permissions: '2251799813685247', canManage: true })).toBe('Owner');
  });

  it('reads Administrator (0x8) and Manage Server (0x20) from the decimal string with BigInt, beyond 2^53', () => {
    expect(guildRole({ owner: false, permissions: '8', canManage: true })).toBe('Administrator');
    expect(guildRole({ owner: false, permissions: ((1n << 60n) | 8n | 32n).toString(), canManage: true })).toBe('Administrator');
    expect(guildRole({ owner: false, permissions: '32', canManage: true })).toBe('Manage Server');
    expect(guildRole({ owner: false, permissions: ((1n << 55n) | 32n).toString(), canManage: true })).toBe('Manage Server');
  });

  it('has no role for a plain member, and never throws on a malformed value', () => {
    expect(guildRole({ owner: false, permissions: '3072', canManage: false })).toBeNull();
    expect(guildRole({ owner: false, permissions: 'not-a-number', canManage: false })).toBeNull();
    expect(guildRole({ owner: false, permissions: '1024', canManage: true })).toBe('Dashboard access');
    expect(guildRole({ owner: false, permissions: '3072', canManage: false, roleAccess: true })).toBe('Dashboard access');
    expect(guildRole({ owner: false, permissions: '3072', canManage: false, roleAccess: false })).toBeNull();
  });
});

describe('serverHref', () => {
  it('leads to the server, or to the page asked for, keeping the hash', () => {
    expect(serverHref('42', null)).toBe('/dashboard/42');
    expect(serverHref('42', 'logs-web', '#entry-7')).toBe('/dashboard/42/logs-web#entry-7');
    expect(serverHref('42', null, '#top')).toBe('/dashboard/42#top');
  });

  it('ignores a page that is not a server page', () => {
    expect(serverHref('42', '../../billing')).toBe('/dashboard/42');
    expect(serverHref('42', 'toString')).toBe('/dashboard/42');
    expect(serverHref('42', '/')).toBe('/dashboard/42');
  });

  it('keeps plain sub-path segments of a server page, and drops unsafe ones', () => {
    expect(serverHref('42', 'configs/panel-3')).toBe('/dashboard/42/configs/panel-3');
    expect(serverHref('42', 'configs/../../billing')).toBe('/dashboard/42/configs');
    expect(serverHref('42', 'evil/configs')).toBe('/dashboard/42');
  });
});

describe('matchesQuery', () => {
  it('matches a part of the name (any case) or of the id', () => {
    const guild = { id: '1100000000000000003', name: 'Study Hall' };
    expect(matchesQuery(guild, 'hall')).toBe(true);
    expect(matchesQuery(guild, '  STUDY ')).toBe(true);
    expect(matchesQuery(guild, '00003')).toBe(true);
    expect(matchesQuery(guild, 'arcade')).toBe(false);
    expect(matchesQuery(guild, '')).toBe(true);
  });
});
