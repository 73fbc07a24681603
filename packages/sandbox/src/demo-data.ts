/**
 * Demo data of the Discord sandbox: the people and servers a demo-mode visitor and the tests sign in as.
 * Ids are fixed snowflakes so tests, e2e runs and screenshots are repeatable.
 *
 * Permissions are Discord's decimal strings (role-based guild permissions of the member).
 * ADMINISTRATOR = 1<<3 (8), MANAGE_GUILD = 1<<5 (32).
 */
export interface DemoGuild {
  id: string;
  name: string;
  /** Icon hash or null (served by the sandbox CDN at /cdn/icons/{id}/{hash}.png). */
  icon: string | null;
  /** Whether the bot has joined the server. */
  botInGuild: boolean;
}

export interface DemoMembership {
  guildId: string;
  owner: boolean;
  /** Decimal string, as Discord sends it. */
  permissions: string;
}

export interface DemoUser {
  id: string;
  username: string;
  globalName: string;
  avatar: string | null;
  /** What the demo user stands for, shown on the sandbox chooser. */
  blurb: string;
  memberships: DemoMembership[];
}

/** VIEW_CHANNEL | SEND_MESSAGES | READ_MESSAGE_HISTORY: a plain member. */
export const PERMISSION_MEMBER = String((1n << 10n) | (1n << 11n) | (1n << 16n));
/** A member with ADMINISTRATOR. */
export const PERMISSION_ADMIN = String(8n | (1n << 10n) | (1n << 11n));
/** A member with MANAGE_GUILD (but not ADMINISTRATOR). */
export const PERMISSION_MANAGE_GUILD = String(32n | (1n << 10n) | (1n << 11n));
/** What an owner is sent: every permission bit Discord defines today. */
export const PERMISSION_OWNER = '2251799813685247';

export const DEMO_GUILDS = {
  avasArcade: { id: '1100000000000000001', name: "Ava's Arcade", icon: 'a1c0ffee00000000000000000000001', botInGuild: true },
  pixelPals: { id: '1100000000000000002', name: 'Pixel Pals', icon: 'b2c0ffee00000000000000000000002', botInGuild: true },
  studyHall: { id: '1100000000000000003', name: 'Study Hall', icon: null, botInGuild: false },
  cozyCorner: { id: '1100000000000000004', name: 'Cozy Corner', icon: 'c3c0ffee00000000000000000000004', botInGuild: true },
  bensWorkshop: { id: '1100000000000000005', name: "Ben's Workshop", icon: 'd4c0ffee00000000000000000000005', botInGuild: false },
  ticketyHq: { id: '1100000000000000006', name: 'Tickety HQ', icon: 'e5c0ffee00000000000000000000006', botInGuild: true },
  modGuild: { id: '1100000000000000007', name: 'Retro Modders', icon: null, botInGuild: true },
} as const satisfies Record<string, DemoGuild>;

export const DEMO_USERS = {
  /** Owns two servers with the bot (one premium), administers a third without it; a plain member of a fourth. */
  ava: {
    id: '1000000000000000001',
    username: 'ava',
    globalName: 'Ava',
    avatar: 'f1a0000000000000000000000000a001',
    blurb: 'Owns two servers with the bot, administers one without it',
    memberships: [
      { guildId: DEMO_GUILDS.avasArcade.id, owner: true, permissions: PERMISSION_OWNER },
      { guildId: DEMO_GUILDS.pixelPals.id, owner: true, permissions: PERMISSION_OWNER },
      { guildId: DEMO_GUILDS.studyHall.id, owner: false, permissions: PERMISSION_ADMIN },
      { guildId: DEMO_GUILDS.cozyCorner.id, owner: false, permissions: PERMISSION_MEMBER },
      { guildId: DEMO_GUILDS.modGuild.id, owner: false, permissions: PERMISSION_MANAGE_GUILD },
    ],
  },
  /** Administrator of a server without the bot; a plain member where the bot is. */
  ben: {
    id: '1000000000000000002',
    username: 'ben',
    globalName: 'Ben',
    avatar: null,
    blurb: 'Administrator of a server without the bot',
    memberships: [
      { guildId: DEMO_GUILDS.bensWorkshop.id, owner: false, permissions: PERMISSION_ADMIN },
      { guildId: DEMO_GUILDS.avasArcade.id, owner: false, permissions: PERMISSION_MEMBER },
    ],
  },
  /** Member of servers but manages none: must see a helpful empty state, never a login loop. */
  cleo: {
    id: '1000000000000000003',
    username: 'cleo',
    globalName: 'Cleo',
    avatar: null,
    blurb: 'Member of servers, manages none',
    memberships: [
      { guildId: DEMO_GUILDS.pixelPals.id, owner: false, permissions: PERMISSION_MEMBER },
      { guildId: DEMO_GUILDS.cozyCorner.id, owner: false, permissions: PERMISSION_MEMBER },
    ],
  },
  /** Tickety staff with every staff flag (listed in STAFF_OWNER_IDS in demo mode). */
  sam: {
    id: '1000000000000000004',
    username: 'sam',
    globalName: 'Sam',
    avatar: 'f4a0000000000000000000000000a004',
    blurb: 'Tickety staff, every staff permission',
    memberships: [{ guildId: DEMO_GUILDS.ticketyHq.id, owner: true, permissions: PERMISSION_OWNER }],
  },
} as const satisfies Record<string, DemoUser>;

export type DemoUserKey = keyof typeof DEMO_USERS;

/**
 * Synthetic servers (`SandboxControl.addBotGuilds`): the bot is in them, no demo user is. Their ids are
 * `SYNTHETIC_GUILD_ID_BASE + n` (n = 1, 2, ...), all below every demo server's id, so the demo servers
 * come last in the bot's guild list (after 10,000 synthetic ones, on its 51st page of 200).
 */
export const SYNTHETIC_GUILD_ID_BASE = 1_090_000_000_000_000_000n;
/** At most this many synthetic servers (ids stay below the demo servers'). */
export const MAX_SYNTHETIC_GUILDS = 1_000_000;

/** The demo Discord application (client id, secret, bot token) used when no real credentials are set. */
export const DEMO_APP = {
  clientId: '1300000000000000001',
  clientSecret: 'sandbox-client-secret-not-a-real-secret',
  botToken: 'sandbox-bot-token-not-a-real-token',
  publicKey: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
  name: 'Tickety (sandbox)',
} as const;
