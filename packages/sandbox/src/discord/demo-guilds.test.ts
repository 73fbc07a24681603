import { describe, expect, test } from 'vitest';
import {
  DEMO_CHANNELS,
  DEMO_GUILD_DATA,
  DEMO_GUILDS,
  DEMO_MESSAGES,
  DEMO_PEOPLE,
  DEMO_ROLES,
  DEMO_USERS,
  PERMISSION_BOT,
  PERMISSION_OWNER,
} from './demo-data';
import { BOT_PERMISSIONS } from './rest';

const GUILDS = DEMO_GUILDS;

describe('the demo servers\' data', () => {
  test('every demo server has data; ids are unique 19-digit snowflakes; @everyone has the server\'s id', () => {
    const ids: string[] = [];
    for (const guild of Object.values(GUILDS)) {
      const data = DEMO_GUILD_DATA[guild.id];
      expect(data, guild.name).toBeDefined();
      expect(data!.roles.find((r) => r.position === 0)).toMatchObject({ id: guild.id, name: '@everyone' });
      ids.push(...data!.roles.filter((r) => r.id !== guild.id).map((r) => r.id), ...data!.channels.map((c) => c.id), ...data!.emojis.map((e) => e.id));
      // Exactly one managed bot role, with the bot's permissions.
      expect(data!.roles.filter((r) => r.bot).map((r) => r.permissions)).toEqual([PERMISSION_BOT]);
      // Parents are categories of the same server.
      for (const channel of data!.channels) if (channel.parentId) expect(data!.channels.find((p) => p.id === channel.parentId)?.type).toBe(4);
      expect(data!.channels.some((c) => c.id === data!.systemChannelId)).toBe(true);
    }
    ids.push(...DEMO_MESSAGES.map((m) => m.id));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^\d{19}$/);
    expect(BOT_PERMISSIONS).toBe(PERMISSION_BOT);
  });

  test('the named ids point at the data', () => {
    for (const [key, channels] of Object.entries(DEMO_CHANNELS)) {
      const data = DEMO_GUILD_DATA[GUILDS[key as keyof typeof GUILDS].id]!;
      for (const id of Object.values(channels)) expect(data.channels.some((c) => c.id === id), `${key} ${id}`).toBe(true);
    }
    for (const [key, roles] of Object.entries(DEMO_ROLES)) {
      const data = DEMO_GUILD_DATA[GUILDS[key as keyof typeof GUILDS].id]!;
      for (const id of Object.values(roles)) expect(data.roles.some((r) => r.id === id), `${key} ${id}`).toBe(true);
    }
  });

  test('each demo user\'s membership permissions are what their roles add up to (every bit for an owner)', () => {
    for (const user of Object.values(DEMO_USERS)) {
      for (const memberItem of user.memberships) {
        const data = DEMO_GUILD_DATA[memberItem.guildId]!;
        const member = data.members.find((x) => x.userId === user.id);
        expect(member, `${user.username} in ${memberItem.guildId}`).toBeDefined();
        if (memberItem.owner) {
          expect(memberItem.permissions).toBe(PERMISSION_OWNER);
          continue;
        }
        let bits = BigInt(data.roles.find((r) => r.id === memberItem.guildId)!.permissions);
        for (const roleId of member!.roles) bits |= BigInt(data.roles.find((r) => r.id === roleId)!.permissions);
        expect(String(bits), `${user.username} in ${memberItem.guildId}`).toBe(memberItem.permissions);
      }
    }
  });

  test("Ava's Arcade: the categories, channels and roles the product shows", () => {
    const data = DEMO_GUILD_DATA[GUILDS.avasArcade.id]!;
    expect(data.channels.filter((c) => c.type === 4).map((c) => c.name)).toEqual(['Support', 'Archive']);
    expect(data.channels.filter((c) => c.type === 0).map((c) => c.name)).toEqual(['welcome', 'support', 'staff-only', 'faq', 'transcripts', 'mod-log']);
    expect(data.roles.map((r) => r.name)).toEqual(['@everyone', 'Member', 'Support Team', 'Moderator', 'Tickety', 'Admin']);
    expect(data.roles.find((r) => r.name === 'Tickety')?.bot).toBe(true);
  });

  test('Retro Modders: Ben is a member holding Dashboard Readers, without a manage permission', () => {
    const data = DEMO_GUILD_DATA[GUILDS.modGuild.id]!;
    expect(data.members.find((m) => m.userId === DEMO_USERS.ben.id)?.roles).toContain(DEMO_ROLES.modGuild.dashboardReaders);
    expect(data.roles.find((r) => r.id === DEMO_ROLES.modGuild.dashboardReaders)).toMatchObject({ name: 'Dashboard Readers', permissions: '0' });
    const membership = DEMO_USERS.ben.memberships.find((m) => m.guildId === GUILDS.modGuild.id);
    expect(membership).toMatchObject({ owner: false });
    // Neither ADMINISTRATOR (1<<3) nor MANAGE_GUILD (1<<5).
    expect(BigInt(membership!.permissions) & 0x28n).toBe(0n);
  });

  test("Ava's Arcade: Nico is Ava's co-admin (the Admin role: Administrator), with an avatar", () => {
    const data = DEMO_GUILD_DATA[GUILDS.avasArcade.id]!;
    expect(data.members.find((m) => m.userId === DEMO_USERS.nico.id)?.roles).toContain(DEMO_ROLES.avasArcade.admin);
    expect(DEMO_USERS.nico.memberships).toEqual([{ guildId: GUILDS.avasArcade.id, owner: false, permissions: expect.any(String) }]);
    expect(BigInt(DEMO_USERS.nico.memberships[0]!.permissions) & 8n).toBe(8n);
    expect(DEMO_USERS.nico.avatar).toMatch(/^[0-9a-f]{32}$/);
  });

  test('members are demo users or demo people; servers no demo user owns have Orion', () => {
    const known = new Set<string>([...Object.values(DEMO_USERS).map((u) => u.id), ...Object.values(DEMO_PEOPLE).map((p) => p.id)]);
    for (const data of Object.values(DEMO_GUILD_DATA)) for (const member of data.members) expect(known.has(member.userId)).toBe(true);
    for (const guild of Object.values(GUILDS)) {
      const ownedByDemoUser = Object.values(DEMO_USERS).some((u) => u.memberships.some((m) => m.guildId === guild.id && m.owner));
      if (!ownedByDemoUser) expect(DEMO_GUILD_DATA[guild.id]!.members.map((m) => m.userId), guild.name).toContain(DEMO_PEOPLE.orion.id);
    }
  });
});
