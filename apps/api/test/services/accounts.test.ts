import { STAFF_PERMISSIONS } from '@tickety/api-contract';
import { describe, expect, it } from 'vitest';
import type { DiscordPartialGuild } from '../../src/lib/discord';
import { Accounts } from '../../src/services/accounts';
import { insertSubscriptions } from '../helpers/billing';
import { SECOND } from '../helpers/clock';
import { databases } from '../helpers/db';
import { insertUser, useServiceDeps } from './helpers';

const OWNER = '1000000000000000201';
const USER = '1000000000000000202';
const CDN = 'https://cdn.test';

function guild(id: string, owner: boolean, permissions: string, name = `Guild ${id.slice(-2)}`): DiscordPartialGuild {
  return { id, name, icon: null, owner, permissions };
}

describe.each(databases())('Accounts on $name', (database) => {
  const deps = useServiceDeps(database);
  const accounts = () => new Accounts(deps.db, deps.clock, CDN, new Set([OWNER]));

  it('canManage: the owner, ADMINISTRATOR or MANAGE_GUILD, nobody else', async () => {
    await accounts().upsertUser(deps.db, { id: USER, username: 'u', global_name: null, avatar: null });
    const list = [
      guild('1100000000000000301', true, '0'), // owner, whatever the bits
      guild('1100000000000000302', false, '8'), // ADMINISTRATOR
      guild('1100000000000000303', false, '32'), // MANAGE_GUILD
      guild('1100000000000000304', false, String((1n << 3n) | (1n << 40n))), // ADMINISTRATOR among high bits
      guild('1100000000000000305', false, String((1n << 10n) | (1n << 11n) | (1n << 16n))), // member
      guild('1100000000000000306', false, String(1n << 28n)), // MANAGE_ROLES is not enough
      guild('1100000000000000307', false, 'garbage'),
      guild('1100000000000000308', false, ''),
    ];
    await accounts().replaceGuilds(deps.db, USER, list, new Set(['1100000000000000301']));
    const stored = await accounts().guilds(USER);
    expect(stored.map((g) => [g.id.slice(-3), g.canManage])).toEqual([
      ['301', true],
      ['302', true],
      ['303', true],
      ['304', true],
      ['305', false],
      ['306', false],
      ['307', false],
      ['308', false],
    ]);
    expect(stored.map((g) => g.botInGuild)).toEqual([true, false, false, false, false, false, false, false]);
  });

  it("replaces the user's list in Discord's order, once per guild, keeping the bot flag when the bot's list is unknown", async () => {
    const guildA = guild('1100000000000000311', false, '8', 'A');
    const guildB = guild('1100000000000000312', true, '0', 'B');
    await accounts().replaceGuilds(deps.db, USER, [guildB, guildA, guildB], new Set([guildA.id]));
    expect((await accounts().guilds(USER)).map((g) => [g.name, g.botInGuild])).toEqual([
      ['B', false],
      ['A', true],
    ]);
    // The bot's list could not be fetched (null): names update, the stored bot flag stays.
    await accounts().replaceGuilds(deps.db, USER, [{ ...guildA, name: 'A renamed', icon: 'abc' }], null);
    const after = await accounts().guilds(USER);
    expect(after).toEqual([
      { id: guildA.id, name: 'A renamed', icon: 'abc', iconUrl: `${CDN}/icons/${guildA.id}/abc.png`, owner: false, permissions: '8', canManage: true, botInGuild: true, roleAccess: false },
    ]);
    expect(await accounts().guild(USER, guildB.id)).toBeNull();
    await accounts().replaceGuilds(deps.db, USER, [], null);
    expect(await accounts().guilds(USER)).toEqual([]);
  });

  it('role access: set for the servers checked, kept across a list replacement, never for a manager; candidates are servers with access rules', async () => {
    const member = guild('1100000000000000321', false, '3072', 'Member here');
    const admin = guild('1100000000000000322', false, '8', 'Admin here');
    const plain = guild('1100000000000000323', false, '3072', 'No rules here');
    await accounts().replaceGuilds(deps.db, USER, [member, admin, plain], new Set([member.id, admin.id, plain.id]));
    const saved = (guildId: string, access: unknown[]) =>
      deps.db.query(
        `INSERT INTO server_config_versions (guild_id, version, config, summary, actor_id, actor_name, created_at) VALUES ($1, 1, $2, 's', $3, 'x', now())`,
        [guildId, JSON.stringify({ access }), OWNER],
      );
    await saved(member.id, [{ roleId: '1400000000000000001', areas: { logs: 'read' } }]);
    await saved(admin.id, [{ roleId: '1400000000000000001', areas: { logs: 'read' } }]);
    await saved(plain.id, []);
    // Managers are never candidates; a server with no rules needs no lookup.
    expect(await accounts().roleAccessCandidates(USER)).toEqual({
      withRules: [{ guildId: member.id, rules: [{ roleId: '1400000000000000001', areas: { logs: 'read' } }] }],
      without: [plain.id],
    });
    expect(await accounts().setRoleAccess(USER, [member.id, admin.id, plain.id], [member.id, admin.id])).toBe(true);
    const flags = async () => (await accounts().guilds(USER)).map((g) => [g.name, g.canManage, g.roleAccess]);
    expect(await flags()).toEqual([
      ['Member here', false, true],
      ['Admin here', true, false],
      ['No rules here', false, false],
    ]);
    expect(await accounts().setRoleAccess(USER, [member.id], [member.id])).toBe(false);
    // Discord sends the list again: the flag stays until checked again; a server that left the list loses it.
    await accounts().replaceGuilds(deps.db, USER, [plain, member], null);
    expect(await flags()).toEqual([
      ['No rules here', false, false],
      ['Member here', false, true],
    ]);
    expect((await accounts().me(USER))?.guilds.map((g) => g.roleAccess)).toEqual([false, true]);
    await accounts().setRoleAccess(USER, [member.id], []);
    expect((await accounts().guild(USER, member.id))?.roleAccess).toBe(false);
  });

  it('claims the guild refresh at most once per interval, across callers', async () => {
    await insertUser(deps.db, '1000000000000000203');
    const id = '1000000000000000203';
    // Several instances claiming at the same moment: exactly one wins.
    const concurrent = await Promise.all([1, 2, 3, 4].map(() => accounts().claimRefresh(id, 10_000)));
    expect(concurrent.sort()).toEqual([0, 10, 10, 10]);
    deps.clock.advance(3_500);
    expect(await accounts().claimRefresh(id, 10_000)).toBe(7);
    deps.clock.advance(6_500);
    expect(await accounts().claimRefresh(id, 10_000)).toBe(0);
    // A clock that went backwards (another instance ahead of us) does not lock the user out.
    deps.clock.advance(-60 * SECOND);
    expect(await accounts().claimRefresh(id, 10_000)).toBe(0);
  });

  it('team: STAFF_OWNER_IDS hold every flag, granted staff their known flags, others null', async () => {
    expect(await accounts().team(OWNER)).toEqual({ permissions: [...STAFF_PERMISSIONS], owner: true });
    expect(await accounts().team(USER)).toBeNull();
    await deps.db.query('INSERT INTO staff_members (user_id, permissions) VALUES ($1, $2)', [USER, ['DASHBOARD_SUPPORT_SEARCH_READ', 'BOGUS']]);
    expect(await accounts().team(USER)).toEqual({ permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'], owner: false });
    await deps.db.query('UPDATE staff_members SET permissions = $2 WHERE user_id = $1', [USER, ['BOGUS']]);
    expect(await accounts().team(USER)).toBeNull();
  });

  it('sub: null without records; premium servers of active subscriptions only, once each', async () => {
    expect(await accounts().sub(USER)).toBeNull();
    await insertSubscriptions(deps.db, [
      { id: 'a', userId: USER, provider: 'paddle', providerId: 'p1', status: 'active', premium: true, servers: ['1', '2'] },
      { id: 'b', userId: USER, provider: 'discord', providerId: 'd1', status: 'active', premium: true, servers: ['2', '3'] },
      { id: 'c', userId: USER, provider: 'fastspring', providerId: 'f1', status: 'canceled', premium: false, servers: ['9'] },
    ]);
    expect(await accounts().sub(USER)).toEqual({ premium: true, servers: ['1', '2', '3'] });
    await deps.db.query(`UPDATE subscriptions SET premium = false WHERE user_id = $1`, [USER]);
    expect(await accounts().sub(USER)).toEqual({ premium: false, servers: [] });
  });

  it('me: one query giving the same guilds (in order), team and sub as the separate reads', async () => {
    const guildA = guild('1100000000000000321', false, '8', 'A');
    const guildB = guild('1100000000000000322', true, '0', 'B');
    await accounts().replaceGuilds(deps.db, USER, [guildB, guildA], new Set([guildB.id]));
    // Earlier tests of this suite left rows for USER: start from none.
    await deps.db.query('DELETE FROM staff_members WHERE user_id = $1', [USER]);
    await deps.db.query('DELETE FROM subscriptions WHERE user_id = $1', [USER]);
    await deps.db.query('INSERT INTO staff_members (user_id, permissions) VALUES ($1, $2)', [USER, ['SPECIAL_TEAM_MANAGER_READ', 'BOGUS']]);
    await insertSubscriptions(deps.db, [
      { id: 'm1', userId: USER, provider: 'paddle', providerId: 'pm1', status: 'active', premium: true, servers: ['1100000000000000321'] },
      { id: 'm2', userId: USER, provider: 'chargebee', providerId: 'cm1', status: 'cancelled', premium: false, servers: ['9'] },
    ]);
    const me = await accounts().me(USER);
    expect(me?.guilds.map((g) => g.name)).toEqual(['B', 'A']);
    expect(me?.guilds).toEqual(await accounts().guilds(USER));
    expect(me?.team).toEqual({ permissions: ['SPECIAL_TEAM_MANAGER_READ'], owner: false });
    expect(me?.team).toEqual(await accounts().team(USER));
    expect(me?.sub).toEqual({ premium: true, servers: ['1100000000000000321'] });
    expect(me?.sub).toEqual(await accounts().sub(USER));
    // A user with nothing: no guilds, no team, no sub.
    await accounts().replaceGuilds(deps.db, USER, [], null);
    await deps.db.query('DELETE FROM staff_members WHERE user_id = $1', [USER]);
    await deps.db.query('DELETE FROM subscriptions WHERE user_id = $1', [USER]);
    expect(await accounts().me(USER)).toMatchObject({ guilds: [], team: null, sub: null });
  });

  it('me: null for an unknown user', async () => {
    expect(await accounts().me('1000000000000000999')).toBeNull();
  });
});
