/**
 * The demo's seed data, written when demo mode starts (`npm start` → all-in-one.ts) and safe to run on
 * every start: Ava's Arcade with premium and a history of versions and posted panels, Pixel Pals at
 * its free limit, Retro Modders' read-only role. Each part is written only while absent, through the
 * product's services; the sandbox's messages are put back on every start: docs/api.md#demo-seed-data.
 */
import {
  type ConfigActor,
  defaultServerConfig,
  type MultiPanel,
  newPanel,
  type Panel,
  type PostKind,
  type ServerConfig,
} from '@tickety/api-contract';
import { DEMO_CHANNELS, DEMO_GUILDS, DEMO_ROLES, DEMO_USERS, type SandboxControl } from '@tickety/sandbox';
import type { FastifyInstance } from 'fastify';
import { avatarUrl } from '../src/lib/discord';
import { ApiHttpError } from '../src/lib/errors';
import { Announcements } from '../src/services/announcements';
import { itemMessage } from '../src/services/panel-posts';
import { ServerConfigs } from '../src/services/server-config';
import { type StaffAuditAction, writeStaffAudit } from '../src/services/staff-audit';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The subscription that gives Ava's Arcade premium: a Discord app subscription (managed in Discord's
 * own app, so the billing pages offer no actions on it). Purchases through Paddle in the demo go
 * through the sandbox's Paddle and its webhooks like real ones.
 */
export const DEMO_SUBSCRIPTION = {
  id: 'demo-discord-avas-arcade',
  provider: 'discord',
  providerSubscriptionId: '1300000000000000901',
} as const;

/** The items of Ava's Arcade the seed posts, and where. */
export const DEMO_POSTS: ReadonlyArray<{ kind: PostKind; id: string; channelId: string; by: 'ava' | 'nico' }> = [
  { kind: 'panel', id: 'support', channelId: DEMO_CHANNELS.avasArcade.support, by: 'ava' },
  { kind: 'panel', id: 'purchases', channelId: DEMO_CHANNELS.avasArcade.support, by: 'ava' },
  { kind: 'multiPanel', id: 'help-desk', channelId: DEMO_CHANNELS.avasArcade.welcome, by: 'nico' },
];

export interface SeedReport {
  /** What was written this time (empty on a restart). */
  written: string[];
  /** Sandbox messages put back from `panel_posts`. */
  restoredMessages: number;
}

/**
 * A role of Ava's Arcade deleted in Discord after Nico gave it to the purchases panel ("Event Staff"):
 * the sandbox has no such role, so the health check shows it (with the log channel the bot cannot see:
 * the demo's two configuration problems, docs/behaviour.md#configuration-health-check).
 */
export const DEMO_DELETED_ROLE = '1400000000000001006';

type Step = { by: 'ava' | 'nico'; ago: number; config: ServerConfig };

const ARCADE = DEMO_GUILDS.avasArcade.id;
const ARCADE_CHANNELS = DEMO_CHANNELS.avasArcade;
const ARCADE_ROLES = DEMO_ROLES.avasArcade;

function supportPanel(): Panel {
  return {
    ...newPanel('support', {
      name: 'General support',
      title: '🎮 Need a hand?',
      description:
        'Stuck on a level, lost your progress or found a bug?\nPress **Open a ticket** and the **Support Team** will answer in a private channel.',
      button: 'Open a ticket',
    }),
    categoryId: ARCADE_CHANNELS.supportCategory,
    supportRoleIds: [ARCADE_ROLES.supportTeam],
    pingRoleIds: [ARCADE_ROLES.supportTeam],
    form: [{ id: 'what', label: 'What do you need help with?', style: 'paragraph', required: true, minLength: 10, maxLength: 1000, placeholder: 'Tell us what happened' }],
  };
}

function purchasesPanel(): Panel {
  const panel = newPanel('purchases', {
    name: 'Purchases & refunds',
    title: '🧾 Purchases & refunds',
    description: 'Questions about an order, a token pack or a refund? Open a ticket and have your order number ready.',
    button: 'Ask about a purchase',
  });
  return {
    ...panel,
    embed: { ...panel.embed, colour: 0xfee75c, footer: "Ava's Arcade • we answer within a day" },
    button: { label: 'Ask about a purchase', emoji: '🧾', style: 'success' },
    categoryId: ARCADE_CHANNELS.supportCategory,
    namingScheme: 'purchase-{count}',
    supportRoleIds: [ARCADE_ROLES.supportTeam, ARCADE_ROLES.admin, DEMO_DELETED_ROLE],
    form: [{ id: 'order', label: 'Order number', style: 'short', required: true, minLength: 4, maxLength: 40, placeholder: 'e.g. AA-12345' }],
    perUserLimit: 1,
  };
}

function helpDesk(): MultiPanel {
  return {
    id: 'help-desk',
    name: 'Help desk',
    embed: { title: 'How can we help?', description: 'Pick what your question is about and we will open the right ticket.', colour: 0x1abc9c, imageUrl: null, thumbnailUrl: null, footer: '' },
    mode: 'select',
    panelIds: ['support', 'purchases'],
    selectPlaceholder: 'Choose a topic…',
  };
}

/** Ava's Arcade, version by version: who saved it and how long before the first start. */
function arcadeHistory(): Step[] {
  const v1: ServerConfig = {
    ...defaultServerConfig(),
    general: { ...defaultServerConfig().general, defaultCategoryId: ARCADE_CHANNELS.supportCategory, transcriptChannelId: ARCADE_CHANNELS.transcripts },
    panels: [supportPanel()],
  };
  const v2: ServerConfig = { ...structuredClone(v1), panels: [supportPanel(), purchasesPanel()] };
  const v3: ServerConfig = { ...structuredClone(v2), multiPanels: [helpDesk()] };
  const v4: ServerConfig = structuredClone(v3);
  // #mod-log is the moderators' own: the bot cannot see it (a problem the health check shows).
  v4.general = { ...v4.general, claiming: true, twoStepClose: true, maxOpenTicketsPerUser: 2, logChannelId: ARCADE_CHANNELS.modLog };
  v4.panels[1] = {
    ...v4.panels[1]!,
    supportHours: {
      timeZone: 'Europe/London',
      hours: {
        monday: [{ from: '09:00', to: '18:00' }],
        tuesday: [{ from: '09:00', to: '18:00' }],
        wednesday: [{ from: '09:00', to: '18:00' }],
        thursday: [{ from: '09:00', to: '18:00' }],
        friday: [{ from: '09:00', to: '17:00' }],
        saturday: [],
        sunday: [],
      },
      outOfHoursMessage: 'Our purchase team is offline right now: leave your question and we will answer on the next working day.',
    },
  };
  const v5: ServerConfig = structuredClone(v4);
  v5.access = [
    { roleId: ARCADE_ROLES.supportTeam, areas: { panels: 'read', logs: 'read' } },
    { roleId: ARCADE_ROLES.moderator, areas: { statistics: 'read', logs: 'read' } },
  ];
  return [
    { by: 'ava', ago: 6 * DAY, config: v1 },
    { by: 'nico', ago: 5 * DAY + 3 * HOUR, config: v2 },
    { by: 'ava', ago: 3 * DAY, config: v3 },
    { by: 'nico', ago: 2 * DAY + 5 * HOUR, config: v4 },
    { by: 'ava', ago: 1 * DAY, config: v5 },
  ];
}

function pixelPalsConfig(): ServerConfig {
  const channels = DEMO_CHANNELS.pixelPals;
  const roles = DEMO_ROLES.pixelPals;
  const panel = (id: string, name: string, title: string, description: string, button: string, emoji: string): Panel => ({
    ...newPanel(id, { name, title, description, button }),
    button: { label: button, emoji, style: 'primary' },
    categoryId: channels.helpDeskCategory,
    supportRoleIds: [roles.helper],
  });
  return {
    ...defaultServerConfig(),
    panels: [
      panel('art-help', 'Art help', '🎨 Art help', 'Stuck on shading, palettes or animation? A Helper will take a look.', 'Ask for help', '🎨'),
      panel('report', 'Report a member', '🚨 Report a member', 'Tell the Helpers about a problem in the server. Reports are private.', 'Report', '🚨'),
      panel('commissions', 'Commissions', '💌 Commissions', 'Want to commission a Pixel Pal? Open a ticket with what you have in mind.', 'Start a commission', '💌'),
    ],
  };
}

function retroModdersHistory(): Step[] {
  const channels = DEMO_CHANNELS.modGuild;
  const roles = DEMO_ROLES.modGuild;
  const v1: ServerConfig = {
    ...defaultServerConfig(),
    panels: [
      {
        ...newPanel('mod-help', {
          name: 'Mod help',
          title: '🕹️ Mod help',
          description: 'Your mod does not load, or crashes the game? Open a ticket with your game version and the mods you use.',
          button: 'Get mod help',
        }),
        categoryId: channels.moddingCategory,
        supportRoleIds: [roles.moderator],
      },
    ],
  };
  const v2: ServerConfig = structuredClone(v1);
  v2.access = [{ roleId: roles.dashboardReaders, areas: { panels: 'read', statistics: 'read', logs: 'read', configs: 'read' } }];
  return [
    { by: 'ava', ago: 4 * DAY, config: v1 },
    { by: 'ava', ago: 4 * DAY - 2 * HOUR, config: v2 },
  ];
}

/** Seeds the demo (see the file's comment). `control` drives the mounted sandbox (messages put back). */
export async function seedDemo(app: FastifyInstance, control?: SandboxControl): Promise<SeedReport> {
  const report: SeedReport = { written: [], restoredMessages: 0 };
  const start = app.clock();
  const cdn = app.config.discord.cdnBase;
  const actor = (key: 'ava' | 'nico'): ConfigActor => {
    const user = DEMO_USERS[key];
    return { id: user.id, name: user.globalName, avatarUrl: avatarUrl(cdn, user.id, user.avatar) };
  };

  if (control) report.restoredMessages = await restoreMessages(app, control);

  // Premium for Ava's Arcade: a subscription of Ava's, as billing stores them, its one slot on the Arcade.
  const sub = await app.db.query(
    `INSERT INTO subscriptions (id, user_id, provider, provider_subscription_id, status, premium, plan_id, billing_interval, slots, current_period_end, provider_updated_at)
     VALUES ($1, $2, $3, $4, 'active', true, 'premium', 'month', 1, $5, $6)
     ON CONFLICT DO NOTHING RETURNING id`,
    [
      DEMO_SUBSCRIPTION.id,
      DEMO_USERS.ava.id,
      DEMO_SUBSCRIPTION.provider,
      DEMO_SUBSCRIPTION.providerSubscriptionId,
      new Date(start + 365 * DAY).toISOString(),
      new Date(start).toISOString(),
    ],
  );
  if (sub.rows.length > 0) {
    await app.db.query('INSERT INTO premium_slots (subscription_id, slot, guild_id, assigned_at) VALUES ($1, 1, $2, $3) ON CONFLICT DO NOTHING', [
      DEMO_SUBSCRIPTION.id,
      ARCADE,
      new Date(start).toISOString(),
    ]);
  }
  if (sub.rows.length > 0) report.written.push("premium subscription for Ava's Arcade");

  // The configuration histories, each only on a server without a saved configuration.
  const histories: Array<[string, string, Step[]]> = [
    [ARCADE, "Ava's Arcade", arcadeHistory()],
    [DEMO_GUILDS.pixelPals.id, 'Pixel Pals', [{ by: 'ava', ago: 4 * DAY + 6 * HOUR, config: pixelPalsConfig() }]],
    [DEMO_GUILDS.modGuild.id, 'Retro Modders', retroModdersHistory()],
  ];
  for (const [guildId, name, steps] of histories) {
    if ((await app.serverConfigs.live(guildId)).version !== 0) continue;
    for (const [index, step] of steps.entries()) {
      // The product's save, dated as the history says (its clock is the only thing changed).
      const configs = new ServerConfigs(app.db, () => start - step.ago, app.config.plans);
      await configs.save({ guildId, expectedVersion: index, config: step.config, actor: actor(step.by) });
    }
    report.written.push(`${name}: ${steps.length} configuration version${steps.length === 1 ? '' : 's'}`);
  }

  // Ava's Arcade's posts, while its configuration is still the seeded one and the item has none.
  const arcade = await app.serverConfigs.live(ARCADE);
  const seeded = arcadeHistory();
  if (arcade.version === seeded.length && arcade.savedBy?.id === DEMO_USERS.ava.id) {
    for (const post of DEMO_POSTS) {
      const { rows } = await app.db.query('SELECT 1 FROM panel_posts WHERE guild_id = $1 AND kind = $2 AND item_id = $3', [ARCADE, post.kind, post.id]);
      if (rows.length > 0) continue;
      await withRetries(() => app.panelPosts.send({ guildId: ARCADE, kind: post.kind, id: post.id, channelId: post.channelId, actor: actor(post.by) }));
      report.written.push(`Ava's Arcade: ${post.kind} ${post.id} posted`);
    }
  }

  // ---- Announcements (System Update) -----------------------------------------------------------------
  // One active, one scheduled and one withdrawn notice, published by Sam through the product's service
  // (each audited as his), only while there is no announcement at all: staff's own are left as they are.
  // The active one is for signed-in users: a visitor's prerendered page then starts no JavaScript
  // until they reach for it (a notice for everyone starts the app after load and idle).
  const anyAnnouncement = await app.db.query('SELECT 1 FROM announcements LIMIT 1');
  if (anyAnnouncement.rows.length === 0) {
    const notices = new Announcements(app.db, app.clock);
    const by = DEMO_USERS.sam.id;
    const when = (ms: number) => new Date(ms).toISOString();
    await notices.create(by, {
      severity: 'info',
      text: 'Welcome to the **Tickety demo**: everything here runs against the sandbox, so try any page. See the [status page](/status) for what runs here.',
      audience: 'signedIn',
      startsAt: null,
      endsAt: null,
      publish: true,
    });
    await notices.create(by, {
      severity: 'maintenance',
      text: 'Planned maintenance: the dashboard is read-only for about *30 minutes* while the database is upgraded. Tickets in Discord keep working.',
      audience: 'everyone',
      startsAt: when(start + 2 * DAY),
      endsAt: when(start + 2 * DAY + 2 * HOUR),
      publish: true,
    });
    const withdrawn = await notices.create(by, {
      severity: 'critical',
      text: 'Transcripts are slow to load right now; we are on it.',
      audience: 'signedIn',
      startsAt: null,
      endsAt: null,
      publish: true,
    });
    await notices.withdraw(by, withdrawn.id);
    report.written.push('announcements: one active, one scheduled, one withdrawn');
  }
  // ---- end of announcements ------------------------------------------------------------------------

  // ---- The staff team (Team Manager) ------------------------------------------------------------
  // Besides Sam (an owner, from STAFF_OWNER_IDS), Nico holds two flags, and the staff audit has their
  // history: Sam added Nico, then granted him System (read); Cleo held Team manager (read) for two
  // days; Nico looked at Ava's billing. Written once, while Nico is no staff member and the audit holds
  // no team change (a visitor's own changes are left as they are).
  if (app.config.staffOwnerIds.includes(DEMO_USERS.sam.id)) {
    const staffSeeded = await app.db.query(
      `SELECT 1 FROM staff_members WHERE user_id = $1 UNION ALL SELECT 1 FROM staff_audit WHERE action LIKE 'team.%' LIMIT 1`,
      [DEMO_USERS.nico.id],
    );
    if (staffSeeded.rows.length === 0) {
      const at = (ago: number) => new Date(start - ago).toISOString();
      const { sam, nico, cleo, ava } = DEMO_USERS;
      const search = ['DASHBOARD_SUPPORT_SEARCH_READ'];
      const searchAndSystem = ['DASHBOARD_SUPPORT_SYSTEM_READ', 'DASHBOARD_SUPPORT_SEARCH_READ'];
      const history: Array<[ago: number, staffId: string, action: StaffAuditAction, target: string, before: unknown, after: unknown]> = [
        [12 * DAY, sam.id, 'team.add', `user ${nico.id} (${nico.globalName})`, null, { permissions: search }],
        [10 * DAY, sam.id, 'team.add', `user ${cleo.id} (${cleo.globalName})`, null, { permissions: ['SPECIAL_TEAM_MANAGER_READ'] }],
        [8 * DAY, sam.id, 'team.remove', `user ${cleo.id} (${cleo.globalName})`, { permissions: ['SPECIAL_TEAM_MANAGER_READ'] }, null],
        [6 * DAY, sam.id, 'team.update', `user ${nico.id} (${nico.globalName})`, { permissions: search }, { permissions: searchAndSystem }],
        [2 * DAY, nico.id, 'billing.view', `user ${ava.id}`, null, null],
      ];
      await app.db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO staff_members (user_id, permissions, grants, added_by, created_at, updated_at, username, global_name, avatar)
           VALUES ($1, $2::text[], $3::jsonb, $4, $5, $6, $7, $8, $9) ON CONFLICT (user_id) DO NOTHING`,
          [
            nico.id,
            searchAndSystem,
            JSON.stringify({ DASHBOARD_SUPPORT_SEARCH_READ: { by: sam.id, at: at(12 * DAY) }, DASHBOARD_SUPPORT_SYSTEM_READ: { by: sam.id, at: at(6 * DAY) } }),
            sam.id,
            at(12 * DAY),
            at(6 * DAY),
            nico.username,
            nico.globalName,
            nico.avatar,
          ],
        );
        for (const [ago, staffId, action, target, before, after] of history) {
          await writeStaffAudit(tx, { at: start - ago, staffId, action, target, before, after });
        }
      });
      report.written.push(`staff team: Nico (2 flags), ${history.length} audit entries`);
    }
  }
  // ---- end of the staff team ------------------------------------------------------------------------

  // ---- Support search (Support Team) -----------------------------------------------------------------
  // Enough people and servers for the search to be worth trying: the sandbox's own (so staff find Ava
  // and Ava's Arcade before anyone signed in; sign-in replaces their server lists) and 200 users and
  // 150 servers with varied names (accents, mixed case), each of the first 150 users owning one server.
  // Written once, while the first of them is absent; rows that exist are left as they are.
  const SEARCH_USER = (n: number) => String(1500000000000000000n + BigInt(n));
  const SEARCH_SERVER = (n: number) => String(1510000000000000000n + BigInt(n));
  if ((await app.db.query('SELECT 1 FROM users WHERE id = $1', [SEARCH_USER(1)])).rows.length === 0) {
    const firsts = ['Zoë', 'Renée', 'José', 'Chloé', 'Björn', 'Amélie', 'Jürgen', 'Søren', 'Łukasz', 'Maëlle', 'François', 'João', 'Ömer', 'Ayşe', 'Siân', 'Aoife', 'Noémie', 'Raphaël', 'Inès', 'Tomás', 'Mia', 'Noah', 'Liam', 'Emma', 'Kai'];
    const lasts = ['Müller', 'García', 'Dubois', 'Novák', 'Kowalski', 'Jensen', 'Nguyen', 'Tanaka', 'Lefèvre', 'Weiß', 'Öztürk', 'Fernández', 'Murphy', 'Costa', 'Schäfer', 'Rossi'];
    const handles = ['pixel', 'retro', 'lofi', 'arcade', 'shadow', 'cozy', 'byte', 'storm'];
    const adjectives = ['Café', 'Pixel', 'Retro', 'Cozy', 'Midnight', 'Golden', 'Crimson', 'Neon', 'Forêt', 'Électrique', 'Tiny', 'Royal', 'Frozen', 'Wild', 'Lucky'];
    const nouns = ['Crew', 'Pals', 'Arcade', 'Corner', 'Guild', 'Club', 'Hub', 'Lounge', 'Workshop', 'Garden', 'Squad', 'Collective', 'Tavern', 'Station'];
    const at = new Date(start).toISOString();
    const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9]/g, '');
    const users = Array.from({ length: 200 }, (_, i) => {
      const first = firsts[i % firsts.length]!;
      const last = lasts[(i * 7) % lasts.length]!;
      const username = i % 3 === 0 ? `${fold(first)}_${handles[i % handles.length]}${i}` : `${fold(first)}.${fold(last)}${i}`;
      // Mixed case and a few without a display name, as Discord has them.
      const globalName = i % 10 === 9 ? null : i % 4 === 1 ? `${first} ${last}`.toUpperCase() : `${first} ${last}`;
      return { id: SEARCH_USER(i + 1), username, globalName };
    });
    const servers = Array.from({ length: 150 }, (_, i) => {
      const owner = users[i]!;
      const name =
        i % 5 === 0
          ? `${(owner.globalName ?? owner.username).split(' ')[0]}'s ${nouns[i % nouns.length]}`
          : `${adjectives[(i * 3) % adjectives.length]} ${nouns[(i * 5) % nouns.length]}${i % 7 === 0 ? ` ${i}` : ''}`;
      return { id: SEARCH_SERVER(i + 1), name: i % 11 === 3 ? name.toLowerCase() : name, bot: i % 3 !== 2 };
    });
    // The sandbox's people and servers, and the memberships of the people this writes.
    const people = Object.values(DEMO_USERS).map((u) => ({ id: u.id, username: u.username, globalName: u.globalName as string | null, avatar: u.avatar as string | null }));
    const places = Object.values(DEMO_GUILDS).map((g) => ({ id: g.id, name: g.name as string, icon: g.icon as string | null, bot: g.botInGuild as boolean }));
    await app.db.transaction(async (tx) => {
      const insertedPeople = await tx.query<{ id: string }>(
        `INSERT INTO users (id, username, global_name, avatar, created_at, updated_at)
         SELECT id, username, global_name, avatar, $5, $5 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(id, username, global_name, avatar)
         ON CONFLICT (id) DO NOTHING RETURNING id`,
        [
          [...people.map((u) => u.id), ...users.map((u) => u.id)],
          [...people.map((u) => u.username), ...users.map((u) => u.username)],
          [...people.map((u) => u.globalName), ...users.map((u) => u.globalName)],
          [...people.map((u) => u.avatar), ...users.map(() => null)],
          at,
        ],
      );
      await tx.query(
        `INSERT INTO guilds (id, name, icon, bot_in_guild, updated_at)
         SELECT id, name, icon, bot, $5 FROM unnest($1::text[], $2::text[], $3::text[], $4::boolean[]) AS t(id, name, icon, bot)
         ON CONFLICT (id) DO NOTHING`,
        [[...places.map((g) => g.id), ...servers.map((g) => g.id)], [...places.map((g) => g.name), ...servers.map((g) => g.name)], [...places.map((g) => g.icon), ...servers.map(() => null)], [...places.map((g) => g.bot), ...servers.map((g) => g.bot)], at],
      );
      const fresh = new Set(insertedPeople.rows.map((r) => r.id));
      const manages = (owner: boolean, permissions: string) => owner || (BigInt(permissions) & (8n | 32n)) !== 0n;
      const memberships = [
        ...Object.values(DEMO_USERS)
          .filter((u) => fresh.has(u.id))
          .flatMap((u) => u.memberships.map((m, position) => ({ user: u.id, guild: m.guildId, position, owner: m.owner, permissions: m.permissions }))),
        ...servers.map((g, i) => ({ user: users[i]!.id, guild: g.id, position: 0, owner: true, permissions: '8' })),
      ];
      await tx.query(
        `INSERT INTO user_guilds (user_id, guild_id, position, owner, permissions, can_manage)
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::boolean[], $5::text[], $6::boolean[])
         ON CONFLICT DO NOTHING`,
        [
          memberships.map((m) => m.user),
          memberships.map((m) => m.guild),
          memberships.map((m) => m.position),
          memberships.map((m) => m.owner),
          memberships.map((m) => m.permissions),
          memberships.map((m) => manages(m.owner, m.permissions)),
        ],
      );
    });
    report.written.push(`support search: ${users.length} users and ${servers.length} servers`);
  }
  // ---- end of support search -----------------------------------------------------------------------

  // ---- dead letters: two provider events that failed every attempt, for the System
  // page (its dead-letter list and replay). Real failures of the product's own appliers: a Paddle
  // price the catalogue no longer has, and a Chargebee subscription whose customer no user is linked to.
  const dead = await app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_events WHERE state = 'dead'`);
  if (dead.rows[0]!.n === 0) {
    const at = (ago: number) => new Date(start - ago).toISOString();
    const letters = [
      {
        provider: 'paddle',
        key: 'evt_01demo_dead_retired_price',
        type: 'subscription.updated',
        subject: 'sub_01demo_legacy',
        payload: { event_id: 'evt_01demo_dead_retired_price', event_type: 'subscription.updated', occurred_at: at(5 * HOUR), data: { id: 'sub_01demo_legacy', status: 'active', items: [{ quantity: 1, price: { id: 'pri_legacy_2024' } }], updated_at: at(5 * HOUR) } },
        error: 'paddle price pri_legacy_2024 is not in the plan catalogue (providerPrices in config/plans.json)',
        received: at(5 * HOUR),
      },
      {
        provider: 'chargebee',
        key: 'ev_demo_dead_unlinked_customer',
        type: 'subscription_created',
        subject: 'cb_demo_unlinked',
        payload: { id: 'ev_demo_dead_unlinked_customer', occurred_at: Math.floor((start - 3 * HOUR) / 1000), api_version: 'v2', event_type: 'subscription_created', content: { subscription: { id: 'cb_demo_unlinked', customer_id: 'cus_made_in_chargebee', status: 'active', subscription_items: [{ item_price_id: 'tickety-premium-USD-Monthly', item_type: 'plan', quantity: 1 }], resource_version: start - 3 * HOUR } } },
        error: 'not yet: no user is known for chargebee subscription cb_demo_unlinked (customer cus_made_in_chargebee)',
        received: at(3 * HOUR),
      },
    ];
    for (const l of letters) {
      await app.db.query(
        `INSERT INTO webhook_events (provider, event_key, event_type, subject, occurred_at, payload, received_at, state, attempts, next_attempt_at, last_error)
         VALUES ($1, $2, $3, $4, $5, $6, $5, 'dead', 8, $5, $7) ON CONFLICT DO NOTHING`,
        [l.provider, l.key, l.type, l.subject, l.received, JSON.stringify(l.payload), l.error],
      );
    }
    report.written.push('webhook dead letters: 2');
  }
  // ---- end of dead letters ------------------------------------------------------------------------

  if (report.written.length > 0 || report.restoredMessages > 0) app.log.info(report, 'demo data seeded');
  return report;
}

/**
 * The in-process sandbox can be refused by the instance's own load shedding while it starts (a busy
 * event loop right after the embedded database boots): 1008 / 1011 answers are tried again a few
 * times. Nothing was posted then (the request was refused before the sandbox handled it).
 */
async function withRetries<T>(task: () => Promise<T>, attempts = 5, waitMs = 1_000): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      const busy = error instanceof ApiHttpError && (error.errorName === 'DISCORD_UNAVAILABLE' || error.errorName === 'OVERLOADED');
      if (!busy || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}

/** The messages `panel_posts` says the bot posted, put back into the (restarted) sandbox. */
async function restoreMessages(app: FastifyInstance, control: SandboxControl): Promise<number> {
  const { rows } = await app.db.query<{ guild_id: string; kind: PostKind; item_id: string; channel_id: string; message_id: string; config: ServerConfig | null }>(
    `SELECT p.guild_id, p.kind, p.item_id, p.channel_id, p.message_id, v.config
       FROM panel_posts p
       LEFT JOIN server_config_versions v ON v.guild_id = p.guild_id AND v.version = p.posted_version
      WHERE p.deleted_at IS NULL
      ORDER BY p.message_id`,
  );
  let restored = 0;
  for (const row of rows) {
    const item = row.config ? itemMessage(row.config, row.kind, row.item_id) : null;
    if (!item) continue;
    try {
      if (control.restoreMessage({ id: row.message_id, channelId: row.channel_id, body: item.payload })) restored++;
    } catch (error) {
      app.log.warn({ guildId: row.guild_id, item: row.item_id, err: error instanceof Error ? error.message : String(error) }, 'demo: a posted panel could not be put back into the sandbox');
    }
  }
  return restored;
}
