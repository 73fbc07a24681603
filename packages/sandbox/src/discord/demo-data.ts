/**
 * Demo data of the Discord sandbox: the people and servers a demo-mode visitor and the tests sign in as.
 * Ids are fixed snowflakes so tests, e2e runs and screenshots are repeatable.
 *
 * Permissions are Discord's decimal strings (role-based guild permissions of the member).
 * ADMINISTRATOR = 1<<3 (8), MANAGE_GUILD = 1<<5 (32).
 */
import { type PermissionName, type PermissionOverwrite, permissionBits } from './permissions';
import { snowflakeAt } from './snowflake';

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
/** VIEW_CHANNEL | SEND_MESSAGES: @everyone's permissions where members may talk (Retro Modders, Study Hall). */
export const PERMISSION_VIEW_SEND = String((1n << 10n) | (1n << 11n));
/** A plain member's permissions (PERMISSION_MEMBER) plus ADMINISTRATOR: the Admin role of Ava's Arcade. */
export const PERMISSION_MEMBER_ADMIN = String(BigInt(PERMISSION_MEMBER) | 8n);

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
  /**
   * Administrator of a server without the bot; a plain member of Ava's Arcade; in Retro Modders he
   * holds the "Dashboard Readers" role (no manage permission), which that server's configuration (the
   * API's demo seed) gives read access to its dashboard.
   */
  ben: {
    id: '1000000000000000002',
    username: 'ben',
    globalName: 'Ben',
    avatar: null,
    blurb: 'Administrator of a server without the bot; reads Retro Modders through a role',
    memberships: [
      { guildId: DEMO_GUILDS.bensWorkshop.id, owner: false, permissions: PERMISSION_ADMIN },
      { guildId: DEMO_GUILDS.avasArcade.id, owner: false, permissions: PERMISSION_MEMBER },
      { guildId: DEMO_GUILDS.modGuild.id, owner: false, permissions: PERMISSION_VIEW_SEND },
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
  /** Ava's co-admin on Ava's Arcade (its Admin role: Administrator), who saved some of its configuration versions. */
  nico: {
    id: '1000000000000000005',
    username: 'nico',
    globalName: 'Nico',
    avatar: 'f5a0000000000000000000000000a005',
    blurb: "Co-admin of Ava's Arcade (Administrator)",
    memberships: [{ guildId: DEMO_GUILDS.avasArcade.id, owner: false, permissions: PERMISSION_MEMBER_ADMIN }],
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

// ---------------------------------------------------------------------------------------------------
// Inside the servers: people, roles, channels, emojis, members and a few messages, for the bot's REST
// routes (GET /guilds/{id}/channels, /roles, /emojis, /members/{user}, the channel messages) and the
// sandbox's channel pages. Role ids are 14…, channel ids 12…, emoji ids 15… (19-digit snowflakes); each
// server's @everyone role has the server's id, as on Discord.
//
// Every demo user's membership above matches the member's roles here: the decimal `permissions` string
// of GET /users/@me/guilds is @everyone's permissions OR the member's roles' (every bit for an owner).
// ---------------------------------------------------------------------------------------------------

/** Someone in the demo servers who cannot sign in to the sandbox (owners, moderators, helpers). */
export interface DemoPerson {
  id: string;
  username: string;
  globalName: string;
  avatar: string | null;
}

export const DEMO_PEOPLE = {
  /** Owns the demo servers no demo user owns (Study Hall, Cozy Corner, Ben's Workshop, Retro Modders). */
  orion: { id: '1000000000000000900', username: 'orion', globalName: 'Orion', avatar: null },
  mika: { id: '1000000000000000901', username: 'mika', globalName: 'Mika', avatar: null },
  jules: { id: '1000000000000000902', username: 'jules', globalName: 'Jules', avatar: null },
  rin: { id: '1000000000000000903', username: 'rin', globalName: 'Rin', avatar: null },
} as const satisfies Record<string, DemoPerson>;

export interface DemoRole {
  id: string;
  name: string;
  /** RGB integer; 0 = no colour. */
  color: number;
  /** Higher is more senior; @everyone is 0. */
  position: number;
  /** Decimal string. */
  permissions: string;
  hoist?: boolean;
  mentionable?: boolean;
  /** The bot's own managed role (Discord creates it when the bot joins; `tags.bot_id` is the application). */
  bot?: boolean;
}

export interface DemoChannel {
  id: string;
  /** 0 text, 4 category. */
  type: 0 | 4;
  name: string;
  /** Order among the server's channels of the same kind (categories apart). */
  position: number;
  parentId: string | null;
  topic?: string;
  overwrites: PermissionOverwrite[];
}

export interface DemoEmoji {
  id: string;
  name: string;
  animated: boolean;
}

export interface DemoMember {
  /** A demo user's or a demo person's id (the bot's member comes from the roles marked `bot`). */
  userId: string;
  /** Role ids, @everyone excluded. */
  roles: string[];
  nick?: string;
  joinedAt: string;
}

export interface DemoMessage {
  id: string;
  channelId: string;
  authorId: string;
  content: string;
}

export interface DemoGuildData {
  roles: DemoRole[];
  channels: DemoChannel[];
  emojis: DemoEmoji[];
  members: DemoMember[];
  systemChannelId: string | null;
}

/** What the bot's managed role grants: VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES, READ_MESSAGE_HISTORY, MANAGE_CHANNELS, MANAGE_ROLES, MANAGE_THREADS, SEND_MESSAGES_IN_THREADS. */
export const PERMISSION_BOT = String(
  permissionBits(
    'VIEW_CHANNEL',
    'SEND_MESSAGES',
    'EMBED_LINKS',
    'ATTACH_FILES',
    'READ_MESSAGE_HISTORY',
    'MANAGE_CHANNELS',
    'MANAGE_ROLES',
    'MANAGE_THREADS',
    'SEND_MESSAGES_IN_THREADS',
  ),
);

const bits = (...names: PermissionName[]): string => String(permissionBits(...names));
/** A role (type 0) overwrite. */
const roleOw = (id: string, allow: PermissionName[], deny: PermissionName[]): PermissionOverwrite => ({
  id,
  type: 0,
  allow: bits(...allow),
  deny: bits(...deny),
});
/** A member (type 1) overwrite. */
const memberOw = (id: string, allow: PermissionName[], deny: PermissionName[]): PermissionOverwrite => ({
  id,
  type: 1,
  allow: bits(...allow),
  deny: bits(...deny),
});
const everyoneRole = (guildId: string, permissions: string): DemoRole => ({ id: guildId, name: '@everyone', color: 0, position: 0, permissions });
const VIEW_SEND = PERMISSION_VIEW_SEND;

/** Role ids by server, for tests and the product's fixtures. */
export const DEMO_ROLES = {
  avasArcade: {
    member: '1400000000000001001',
    supportTeam: '1400000000000001002',
    moderator: '1400000000000001003',
    tickety: '1400000000000001004',
    admin: '1400000000000001005',
  },
  pixelPals: { pixelPal: '1400000000000002001', helper: '1400000000000002002', tickety: '1400000000000002003', admin: '1400000000000002004' },
  studyHall: { student: '1400000000000003001', tickety: '1400000000000003002', headTutor: '1400000000000003003' },
  cozyCorner: { regular: '1400000000000004001', tickety: '1400000000000004002', host: '1400000000000004003' },
  bensWorkshop: { tickety: '1400000000000005001', foreman: '1400000000000005002' },
  ticketyHq: { staff: '1400000000000006001', tickety: '1400000000000006002' },
  modGuild: {
    modder: '1400000000000007001',
    dashboardReaders: '1400000000000007002',
    moderator: '1400000000000007003',
    tickety: '1400000000000007004',
    founder: '1400000000000007005',
  },
} as const satisfies Record<keyof typeof DEMO_GUILDS, Record<string, string>>;

/** Channel ids by server. The comments say what the bot can do there (see DEMO_GUILD_DATA's overwrites). */
export const DEMO_CHANNELS = {
  avasArcade: {
    /** Read-only for members; the bot's role may post (and embed). */
    welcome: '1200000000000001001',
    /** Category. */
    supportCategory: '1200000000000001002',
    /** No overwrites: the bot can post panels. */
    support: '1200000000000001003',
    /** The bot sees it but lacks SEND_MESSAGES. */
    staffOnly: '1200000000000001004',
    /** The bot can post text but lacks EMBED_LINKS. */
    faq: '1200000000000001005',
    /** Category (read-only for @everyone). */
    archiveCategory: '1200000000000001006',
    /** Staff and the bot only: the bot can post transcripts. */
    transcripts: '1200000000000001007',
    /** The bot lacks VIEW_CHANNEL. */
    modLog: '1200000000000001008',
  },
  pixelPals: {
    general: '1200000000000002001',
    helpDeskCategory: '1200000000000002002',
    help: '1200000000000002003',
    /** The bot lacks VIEW_CHANNEL. */
    ticketLogs: '1200000000000002004',
    galleryCategory: '1200000000000002005',
    /** The bot lacks SEND_MESSAGES. */
    showcase: '1200000000000002006',
  },
  studyHall: { general: '1200000000000003001', studyCategory: '1200000000000003002', homeworkHelp: '1200000000000003003' },
  cozyCorner: { lounge: '1200000000000004001', helpCategory: '1200000000000004002', askHere: '1200000000000004003' },
  bensWorkshop: { general: '1200000000000005001', projectsCategory: '1200000000000005002', workbench: '1200000000000005003' },
  ticketyHq: {
    announcements: '1200000000000006001',
    supportCategory: '1200000000000006002',
    supportQueue: '1200000000000006003',
    transcripts: '1200000000000006004',
  },
  modGuild: {
    /** The bot lacks SEND_MESSAGES. */
    announcements: '1200000000000007001',
    moddingCategory: '1200000000000007002',
    modHelp: '1200000000000007003',
    /** The bot can post text but lacks EMBED_LINKS. */
    releases: '1200000000000007004',
    /** Category hidden from @everyone. */
    staffCategory: '1200000000000007005',
    /** The bot lacks VIEW_CHANNEL. */
    modQueue: '1200000000000007006',
  },
} as const satisfies Record<keyof typeof DEMO_GUILDS, Record<string, string>>;

const ROLES = DEMO_ROLES;
const CHANNELS = DEMO_CHANNELS;
const GUILDS = DEMO_GUILDS;
const USERS = DEMO_USERS;
const PEOPLE = DEMO_PEOPLE;
const JOINED = '2025-06-01T12:00:00.000000+00:00';

const text = (id: string, name: string, position: number, parentId: string | null, overwrites: PermissionOverwrite[] = [], topic?: string): DemoChannel => ({
  id,
  type: 0,
  name,
  position,
  parentId,
  overwrites,
  ...(topic ? { topic } : {}),
});
const category = (id: string, name: string, position: number, overwrites: PermissionOverwrite[] = []): DemoChannel => ({
  id,
  type: 4,
  name,
  position,
  parentId: null,
  overwrites,
});
const member = (userId: string, roles: string[], nick?: string): DemoMember => ({ userId, roles, joinedAt: JOINED, ...(nick ? { nick } : {}) });

/** Channels, roles, emojis and members of every demo server, by server id. */
export const DEMO_GUILD_DATA: Readonly<Record<string, DemoGuildData>> = {
  [GUILDS.avasArcade.id]: {
    roles: [
      everyoneRole(GUILDS.avasArcade.id, PERMISSION_MEMBER),
      { id: ROLES.avasArcade.member, name: 'Member', color: 0x3ba55c, position: 1, permissions: PERMISSION_MEMBER },
      {
        id: ROLES.avasArcade.supportTeam,
        name: 'Support Team',
        color: 0x1abc9c,
        position: 2,
        permissions: bits('VIEW_CHANNEL', 'SEND_MESSAGES', 'READ_MESSAGE_HISTORY', 'MANAGE_MESSAGES', 'EMBED_LINKS', 'ATTACH_FILES', 'MANAGE_THREADS'),
        hoist: true,
        mentionable: true,
      },
      {
        id: ROLES.avasArcade.moderator,
        name: 'Moderator',
        color: 0xe67e22,
        position: 3,
        permissions: bits('KICK_MEMBERS', 'BAN_MEMBERS', 'MANAGE_MESSAGES', 'MODERATE_MEMBERS', 'VIEW_AUDIT_LOG', 'MANAGE_NICKNAMES', 'MANAGE_THREADS'),
        hoist: true,
      },
      { id: ROLES.avasArcade.tickety, name: 'Tickety', color: 0, position: 4, permissions: PERMISSION_BOT, bot: true },
      { id: ROLES.avasArcade.admin, name: 'Admin', color: 0xe74c3c, position: 5, permissions: bits('ADMINISTRATOR'), hoist: true },
    ],
    channels: [
      text(CHANNELS.avasArcade.welcome, 'welcome', 0, null, [roleOw(GUILDS.avasArcade.id, [], ['SEND_MESSAGES']), roleOw(ROLES.avasArcade.tickety, ['SEND_MESSAGES', 'EMBED_LINKS'], [])], 'Start here: the rules and how to get help'),
      category(CHANNELS.avasArcade.supportCategory, 'Support', 0),
      text(CHANNELS.avasArcade.support, 'support', 1, CHANNELS.avasArcade.supportCategory, [], 'Open a ticket with the button below'),
      text(
        CHANNELS.avasArcade.staffOnly,
        'staff-only',
        2,
        CHANNELS.avasArcade.supportCategory,
        [
          roleOw(GUILDS.avasArcade.id, [], ['VIEW_CHANNEL']),
          roleOw(ROLES.avasArcade.supportTeam, ['VIEW_CHANNEL', 'SEND_MESSAGES'], []),
          roleOw(ROLES.avasArcade.moderator, ['VIEW_CHANNEL', 'SEND_MESSAGES'], []),
          roleOw(ROLES.avasArcade.tickety, ['VIEW_CHANNEL'], ['SEND_MESSAGES']),
          memberOw(PEOPLE.mika.id, [], ['SEND_MESSAGES']),
        ],
        'Staff chat: the bot may read, not post',
      ),
      text(CHANNELS.avasArcade.faq, 'faq', 3, CHANNELS.avasArcade.supportCategory, [roleOw(ROLES.avasArcade.tickety, [], ['EMBED_LINKS'])], 'Answers to common questions (no embeds here)'),
      category(CHANNELS.avasArcade.archiveCategory, 'Archive', 1, [roleOw(GUILDS.avasArcade.id, [], ['SEND_MESSAGES'])]),
      text(
        CHANNELS.avasArcade.transcripts,
        'transcripts',
        4,
        CHANNELS.avasArcade.archiveCategory,
        [
          roleOw(GUILDS.avasArcade.id, [], ['VIEW_CHANNEL', 'SEND_MESSAGES']),
          roleOw(ROLES.avasArcade.supportTeam, ['VIEW_CHANNEL'], []),
          roleOw(ROLES.avasArcade.tickety, ['VIEW_CHANNEL', 'SEND_MESSAGES', 'EMBED_LINKS', 'ATTACH_FILES'], []),
        ],
        'Closed tickets',
      ),
      text(CHANNELS.avasArcade.modLog, 'mod-log', 5, CHANNELS.avasArcade.archiveCategory, [
        roleOw(GUILDS.avasArcade.id, [], ['VIEW_CHANNEL', 'SEND_MESSAGES']),
        roleOw(ROLES.avasArcade.moderator, ['VIEW_CHANNEL'], []),
      ]),
    ],
    emojis: [
      { id: '1500000000000001001', name: 'ticket', animated: false },
      { id: '1500000000000001002', name: 'arcade_coin', animated: true },
      { id: '1500000000000001003', name: 'gg', animated: false },
    ],
    members: [
      member(USERS.ava.id, [ROLES.avasArcade.admin]),
      member(USERS.ben.id, [ROLES.avasArcade.member]),
      member(PEOPLE.mika.id, [ROLES.avasArcade.moderator, ROLES.avasArcade.member]),
      member(PEOPLE.jules.id, [ROLES.avasArcade.supportTeam, ROLES.avasArcade.member], 'Jules | Support'),
      member(USERS.nico.id, [ROLES.avasArcade.admin, ROLES.avasArcade.member], 'Nico | Co-Admin'),
    ],
    systemChannelId: CHANNELS.avasArcade.welcome,
  },
  [GUILDS.pixelPals.id]: {
    roles: [
      everyoneRole(GUILDS.pixelPals.id, PERMISSION_MEMBER),
      { id: ROLES.pixelPals.pixelPal, name: 'Pixel Pal', color: 0xeb459e, position: 1, permissions: '0' },
      { id: ROLES.pixelPals.helper, name: 'Helper', color: 0x57f287, position: 2, permissions: bits('MANAGE_MESSAGES', 'MANAGE_THREADS'), hoist: true },
      { id: ROLES.pixelPals.tickety, name: 'Tickety', color: 0, position: 3, permissions: PERMISSION_BOT, bot: true },
      { id: ROLES.pixelPals.admin, name: 'Admin', color: 0xfee75c, position: 4, permissions: bits('ADMINISTRATOR'), hoist: true },
    ],
    channels: [
      text(CHANNELS.pixelPals.general, 'general', 0, null),
      category(CHANNELS.pixelPals.helpDeskCategory, 'Help Desk', 0),
      text(CHANNELS.pixelPals.help, 'help', 1, CHANNELS.pixelPals.helpDeskCategory, [], 'Stuck? Open a ticket'),
      text(CHANNELS.pixelPals.ticketLogs, 'ticket-logs', 2, CHANNELS.pixelPals.helpDeskCategory, [
        roleOw(GUILDS.pixelPals.id, [], ['VIEW_CHANNEL']),
        roleOw(ROLES.pixelPals.helper, ['VIEW_CHANNEL'], []),
      ]),
      category(CHANNELS.pixelPals.galleryCategory, 'Gallery', 1),
      text(CHANNELS.pixelPals.showcase, 'showcase', 3, CHANNELS.pixelPals.galleryCategory, [
        roleOw(GUILDS.pixelPals.id, [], ['SEND_MESSAGES']),
        roleOw(ROLES.pixelPals.pixelPal, ['SEND_MESSAGES'], []),
      ]),
    ],
    emojis: [
      { id: '1500000000000002001', name: 'pixel_heart', animated: false },
      { id: '1500000000000002002', name: 'pixel_star', animated: true },
    ],
    members: [
      member(USERS.ava.id, [ROLES.pixelPals.admin]),
      member(USERS.cleo.id, [ROLES.pixelPals.pixelPal]),
      member(PEOPLE.rin.id, [ROLES.pixelPals.helper, ROLES.pixelPals.pixelPal]),
    ],
    systemChannelId: CHANNELS.pixelPals.general,
  },
  [GUILDS.studyHall.id]: {
    roles: [
      everyoneRole(GUILDS.studyHall.id, VIEW_SEND),
      { id: ROLES.studyHall.student, name: 'Student', color: 0x3498db, position: 1, permissions: '0' },
      { id: ROLES.studyHall.tickety, name: 'Tickety', color: 0, position: 2, permissions: PERMISSION_BOT, bot: true },
      { id: ROLES.studyHall.headTutor, name: 'Head Tutor', color: 0x9b59b6, position: 3, permissions: bits('ADMINISTRATOR'), hoist: true },
    ],
    channels: [
      text(CHANNELS.studyHall.general, 'general', 0, null),
      category(CHANNELS.studyHall.studyCategory, 'Study Rooms', 0),
      text(CHANNELS.studyHall.homeworkHelp, 'homework-help', 1, CHANNELS.studyHall.studyCategory),
    ],
    emojis: [],
    members: [member(PEOPLE.orion.id, []), member(USERS.ava.id, [ROLES.studyHall.headTutor])],
    systemChannelId: CHANNELS.studyHall.general,
  },
  [GUILDS.cozyCorner.id]: {
    roles: [
      everyoneRole(GUILDS.cozyCorner.id, PERMISSION_MEMBER),
      { id: ROLES.cozyCorner.regular, name: 'Regular', color: 0xc27c0e, position: 1, permissions: '0' },
      { id: ROLES.cozyCorner.tickety, name: 'Tickety', color: 0, position: 2, permissions: PERMISSION_BOT, bot: true },
      { id: ROLES.cozyCorner.host, name: 'Host', color: 0xe91e63, position: 3, permissions: bits('ADMINISTRATOR'), hoist: true },
    ],
    channels: [
      text(CHANNELS.cozyCorner.lounge, 'lounge', 0, null),
      category(CHANNELS.cozyCorner.helpCategory, 'Help', 0),
      text(CHANNELS.cozyCorner.askHere, 'ask-here', 1, CHANNELS.cozyCorner.helpCategory),
    ],
    emojis: [{ id: '1500000000000004001', name: 'cozy_tea', animated: false }],
    members: [member(PEOPLE.orion.id, [ROLES.cozyCorner.host]), member(USERS.ava.id, [ROLES.cozyCorner.regular]), member(USERS.cleo.id, [ROLES.cozyCorner.regular])],
    systemChannelId: CHANNELS.cozyCorner.lounge,
  },
  [GUILDS.bensWorkshop.id]: {
    roles: [
      everyoneRole(GUILDS.bensWorkshop.id, VIEW_SEND),
      { id: ROLES.bensWorkshop.tickety, name: 'Tickety', color: 0, position: 1, permissions: PERMISSION_BOT, bot: true },
      { id: ROLES.bensWorkshop.foreman, name: 'Foreman', color: 0xf1c40f, position: 2, permissions: bits('ADMINISTRATOR'), hoist: true },
    ],
    channels: [
      text(CHANNELS.bensWorkshop.general, 'general', 0, null),
      category(CHANNELS.bensWorkshop.projectsCategory, 'Projects', 0),
      text(CHANNELS.bensWorkshop.workbench, 'workbench', 1, CHANNELS.bensWorkshop.projectsCategory),
    ],
    emojis: [],
    members: [member(PEOPLE.orion.id, []), member(USERS.ben.id, [ROLES.bensWorkshop.foreman])],
    systemChannelId: CHANNELS.bensWorkshop.general,
  },
  [GUILDS.ticketyHq.id]: {
    roles: [
      everyoneRole(GUILDS.ticketyHq.id, PERMISSION_MEMBER),
      { id: ROLES.ticketyHq.staff, name: 'Staff', color: 0x5865f2, position: 1, permissions: bits('MANAGE_MESSAGES', 'MANAGE_THREADS', 'EMBED_LINKS'), hoist: true },
      { id: ROLES.ticketyHq.tickety, name: 'Tickety', color: 0, position: 2, permissions: PERMISSION_BOT, bot: true },
    ],
    channels: [
      text(CHANNELS.ticketyHq.announcements, 'announcements', 0, null, [roleOw(GUILDS.ticketyHq.id, [], ['SEND_MESSAGES']), roleOw(ROLES.ticketyHq.tickety, ['SEND_MESSAGES'], [])]),
      category(CHANNELS.ticketyHq.supportCategory, 'Support', 0),
      text(CHANNELS.ticketyHq.supportQueue, 'support-queue', 1, CHANNELS.ticketyHq.supportCategory),
      text(CHANNELS.ticketyHq.transcripts, 'transcripts', 2, CHANNELS.ticketyHq.supportCategory, [
        roleOw(GUILDS.ticketyHq.id, [], ['VIEW_CHANNEL']),
        roleOw(ROLES.ticketyHq.staff, ['VIEW_CHANNEL'], []),
        roleOw(ROLES.ticketyHq.tickety, ['VIEW_CHANNEL'], []),
      ]),
    ],
    emojis: [{ id: '1500000000000006001', name: 'tickety', animated: false }],
    members: [member(USERS.sam.id, [ROLES.ticketyHq.staff])],
    systemChannelId: CHANNELS.ticketyHq.announcements,
  },
  [GUILDS.modGuild.id]: {
    roles: [
      everyoneRole(GUILDS.modGuild.id, VIEW_SEND),
      { id: ROLES.modGuild.modder, name: 'Modder', color: 0x2ecc71, position: 1, permissions: '0' },
      { id: ROLES.modGuild.dashboardReaders, name: 'Dashboard Readers', color: 0x9b59b6, position: 2, permissions: '0', mentionable: true },
      { id: ROLES.modGuild.moderator, name: 'Moderator', color: 0xe67e22, position: 3, permissions: bits('MANAGE_GUILD'), hoist: true },
      { id: ROLES.modGuild.tickety, name: 'Tickety', color: 0, position: 4, permissions: PERMISSION_BOT, bot: true },
      { id: ROLES.modGuild.founder, name: 'Founder', color: 0xe74c3c, position: 5, permissions: bits('ADMINISTRATOR'), hoist: true },
    ],
    channels: [
      text(CHANNELS.modGuild.announcements, 'announcements', 0, null, [roleOw(GUILDS.modGuild.id, [], ['SEND_MESSAGES'])], 'Releases and news (staff only)'),
      category(CHANNELS.modGuild.moddingCategory, 'Modding', 0),
      text(CHANNELS.modGuild.modHelp, 'mod-help', 1, CHANNELS.modGuild.moddingCategory),
      text(CHANNELS.modGuild.releases, 'releases', 2, CHANNELS.modGuild.moddingCategory, [roleOw(ROLES.modGuild.tickety, [], ['EMBED_LINKS'])]),
      category(CHANNELS.modGuild.staffCategory, 'Staff', 1, [roleOw(GUILDS.modGuild.id, [], ['VIEW_CHANNEL']), roleOw(ROLES.modGuild.moderator, ['VIEW_CHANNEL'], [])]),
      text(CHANNELS.modGuild.modQueue, 'mod-queue', 3, CHANNELS.modGuild.staffCategory, [
        roleOw(GUILDS.modGuild.id, [], ['VIEW_CHANNEL']),
        roleOw(ROLES.modGuild.moderator, ['VIEW_CHANNEL'], []),
      ]),
    ],
    emojis: [
      { id: '1500000000000007001', name: 'floppy', animated: false },
      { id: '1500000000000007002', name: 'pixel_sword', animated: true },
    ],
    members: [
      member(PEOPLE.orion.id, [ROLES.modGuild.founder]),
      member(USERS.ava.id, [ROLES.modGuild.moderator]),
      // Ben holds Dashboard Readers (no manage permission): the API's demo seed gives that role read
      // access to Retro Modders' dashboard.
      member(USERS.ben.id, [ROLES.modGuild.dashboardReaders, ROLES.modGuild.modder]),
    ],
    systemChannelId: CHANNELS.modGuild.announcements,
  },
};

/** When the seeded messages were posted (before any sandbox clock a test uses). */
const SEEDED_AT = Date.UTC(2026, 0, 1, 9, 0, 0);

/** Messages already in the demo channels when the sandbox starts (and after `control.reset()`). */
export const DEMO_MESSAGES: readonly DemoMessage[] = [
  {
    id: snowflakeAt(SEEDED_AT, 1),
    channelId: CHANNELS.avasArcade.welcome,
    authorId: USERS.ava.id,
    content: `Welcome to **Ava's Arcade**! 🎮\nRead the rules, be kind, and if you need help head to <#${CHANNELS.avasArcade.support}>.`,
  },
  {
    id: snowflakeAt(SEEDED_AT + 60_000, 2),
    channelId: CHANNELS.pixelPals.general,
    authorId: PEOPLE.rin.id,
    content: `Post your pixel art in <#${CHANNELS.pixelPals.showcase}> and ask for help in <#${CHANNELS.pixelPals.help}> :)`,
  },
];
