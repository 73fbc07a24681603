import { describe, expect, test } from 'vitest';
import { DEMO_APP, DEMO_GUILDS, DEMO_USERS, PERMISSION_ADMIN, PERMISSION_MEMBER, PERMISSION_OWNER, SYNTHETIC_GUILD_ID_BASE } from './demo-data';
import type { PartialGuild } from './rest';
import { get, signIn, useHarness } from './test-helpers';
import { compareIds } from './util';

const session = useHarness();

const BOT = `Bot ${DEMO_APP.botToken}`;
const { ava, ben, cleo } = DEMO_USERS;

async function guildsOf(authorization: string, query = ''): Promise<PartialGuild[]> {
  const res = await get(session.app, `/users/@me/guilds${query}`, authorization);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Every page of a guild list, as a client pages it (`after` = the last id of the previous page). */
async function allPages(authorization: string): Promise<{ pages: number; guilds: PartialGuild[] }> {
  const guilds: PartialGuild[] = [];
  let pages = 0;
  for (;;) {
    const after = guilds.at(-1)?.id;
    const page = await guildsOf(authorization, `?limit=200${after ? `&after=${after}` : ''}`);
    pages++;
    guilds.push(...page);
    if (page.length < 200) return { pages, guilds };
  }
}

describe('SandboxControl.setMembership', () => {
  test("changes what GET /users/@me/guilds answers the user's token at once, for that user only", async () => {
    const avaToken = `Bearer ${(await signIn(session.app, ava.id)).access_token}`;
    const benToken = `Bearer ${(await signIn(session.app, ben.id)).access_token}`;
    const benBefore = await guildsOf(benToken);

    session.h.control
      // Loses Manage Server in Retro Modders (a plain member now).
      .setMembership('ava', DEMO_GUILDS.modGuild.id, { owner: false, permissions: PERMISSION_MEMBER })
      // Leaves Ava's Arcade (no longer owner, nor a member).
      .setMembership(ava.id, DEMO_GUILDS.avasArcade.id, null)
      // Is made administrator of Ben's Workshop (joins it).
      .setMembership('ava', DEMO_GUILDS.bensWorkshop.id, { owner: false, permissions: PERMISSION_ADMIN });

    const guilds = await guildsOf(avaToken);
    expect(guilds.map((g) => g.id)).toEqual(
      [DEMO_GUILDS.pixelPals.id, DEMO_GUILDS.studyHall.id, DEMO_GUILDS.cozyCorner.id, DEMO_GUILDS.bensWorkshop.id, DEMO_GUILDS.modGuild.id].sort(compareIds),
    );
    expect(guilds.find((g) => g.id === DEMO_GUILDS.modGuild.id)).toMatchObject({ owner: false, permissions: PERMISSION_MEMBER });
    expect(guilds.find((g) => g.id === DEMO_GUILDS.bensWorkshop.id)).toMatchObject({ owner: false, permissions: PERMISSION_ADMIN, name: "Ben's Workshop" });
    expect(session.h.control.memberships('ava')).toContainEqual({ guildId: DEMO_GUILDS.modGuild.id, owner: false, permissions: PERMISSION_MEMBER });
    expect(session.h.control.memberships('ava').map((m) => m.guildId)).not.toContain(DEMO_GUILDS.avasArcade.id);
    expect(await guildsOf(benToken)).toEqual(benBefore);

    // Becoming owner shows in the guild the bot sees too (owner_id).
    session.h.control.setMembership('cleo', DEMO_GUILDS.cozyCorner.id, { owner: true, permissions: PERMISSION_OWNER });
    expect((await get(session.app, `/guilds/${DEMO_GUILDS.cozyCorner.id}`, BOT)).json().owner_id).toBe(cleo.id);

    session.h.control.reset();
    expect((await guildsOf(avaToken)).map((g) => g.id)).toEqual(ava.memberships.map((m) => m.guildId).sort(compareIds));
    expect(session.h.control.memberships('ava')).toEqual(ava.memberships.map((m) => ({ ...m })));
  });

  test('refuses unknown users, unknown servers and malformed memberships', () => {
    expect(() => session.h.control.setMembership('nobody', DEMO_GUILDS.avasArcade.id, null)).toThrow(/not a demo user/);
    expect(() => session.h.control.setMembership('ava', '123456789012345678', null)).toThrow(/not a demo or synthetic server/);
    expect(() => session.h.control.setMembership('ava', 'abc', null)).toThrow(/not a demo or synthetic server/);
    expect(() => session.h.control.setMembership('ava', DEMO_GUILDS.avasArcade.id, { owner: false, permissions: '8n' })).toThrow(/decimal string/);
    expect(() =>
      session.h.control.setMembership('ava', DEMO_GUILDS.avasArcade.id, { owner: 'yes', permissions: '8' } as unknown as { owner: boolean; permissions: string }),
    ).toThrow(/owner/);
  });
});

describe('SandboxControl.addBotGuilds', () => {
  test("a bot in 10,050 more servers: its list spans 51 pages of 200, the demo servers on the last", async () => {
    const demo = session.h.control.botGuildIds();
    const added = session.h.control.addBotGuilds(10_050);
    expect(added).toHaveLength(10_050);
    expect(added[0]).toBe(String(SYNTHETIC_GUILD_ID_BASE + 1n));
    expect(session.h.control.botGuildIds()).toHaveLength(10_050 + demo.length);

    const { pages, guilds } = await allPages(BOT);
    expect(pages).toBe(51);
    expect(guilds).toHaveLength(10_050 + demo.length);
    expect(new Set(guilds.map((g) => g.id)).size).toBe(guilds.length);
    expect(guilds.map((g) => g.id)).toEqual([...guilds.map((g) => g.id)].sort(compareIds));
    expect(guilds.slice(10_000).map((g) => g.id)).toEqual(expect.arrayContaining(demo));
    expect(guilds[0]).toMatchObject({ id: added[0], name: 'Synthetic server 1', owner: false });

    // The bot can read a synthetic server; users are not in them.
    const one = await get(session.app, `/guilds/${added[42]}`, BOT);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: added[42], name: 'Synthetic server 43' });
    const avaToken = `Bearer ${(await signIn(session.app, ava.id)).access_token}`;
    expect(await guildsOf(avaToken)).toHaveLength(ava.memberships.length);

    // More are numbered on; reset() takes them all away.
    expect(session.h.control.addBotGuilds(2)).toEqual([String(SYNTHETIC_GUILD_ID_BASE + 10_051n), String(SYNTHETIC_GUILD_ID_BASE + 10_052n)]);
    session.h.control.reset();
    expect(session.h.control.botGuildIds()).toEqual(demo);
    expect((await get(session.app, `/guilds/${added[42]}`, BOT)).statusCode).toBe(404);
    expect(session.h.control.addBotGuilds(1)).toEqual([String(SYNTHETIC_GUILD_ID_BASE + 1n)]);
  });

  test('`before` pages backwards through synthetic servers too', async () => {
    const added = session.h.control.addBotGuilds(450);
    const page = await guildsOf(BOT, `?limit=200&before=${added[300]}`);
    expect(page.map((g) => g.id)).toEqual(added.slice(100, 300));
  });

  test('refuses a count that is not a positive integer', () => {
    for (const count of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => session.h.control.addBotGuilds(count)).toThrow(RangeError);
  });
});

describe('compareIds', () => {
  test('orders decimal ids numerically, ignoring leading zeros', () => {
    expect(compareIds('9', '10')).toBe(-1);
    expect(compareIds('1100000000000000001', '1090000000000000002')).toBe(1);
    expect(compareIds('0007', '7')).toBe(0);
    expect(compareIds('0', '00')).toBe(0);
    expect(['20', '3', '100', '003'].sort(compareIds)).toEqual(['3', '003', '20', '100']);
  });
});
