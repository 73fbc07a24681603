/**
 * The demo's seed data (issue 8 §6), written when demo mode starts (`npm start` → all-in-one.ts) and
 * safe to run on every start with the embedded database:
 * - Ava's Arcade has premium: a subscription of Ava's covering it, as billing will write them;
 * - Ava's Arcade has a history of configuration versions saved by Ava and her co-admin Nico (two
 *   panels, a multi-panel, general settings, support hours, dashboard access by role), each with its
 *   Web Logs entry, and the two panels and the multi-panel posted by the bot in the sandbox's
 *   channels (`panel_posts` records them, Web Logs logs the sends);
 * - Pixel Pals is free and at its 3-panel limit;
 * - Retro Modders gives its "Dashboard Readers" role (Ben holds it) read access to its Panel Menu,
 *   Statistics, Web Logs and Restore Configs.
 * Everything goes through the product's services (ServerConfigs.save: validated, versioned, logged;
 * PanelPosts.send: the bot posts through the sandbox), except the subscription row, which billing
 * will own. Each part is written only while what it would write is absent (a server without a saved
 * configuration, an item without a post, a subscription id not yet stored), so a restart, or a
 * visitor's changes, are left as they are.
 *
 * The sandbox keeps its messages in memory: on every start, the messages the database says the bot
 * posted (and that Discord has not deleted) are put back into the sandbox's channels with their ids
 * (`SandboxControl.restoreMessage`), built from the version each message shows.
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
import { itemMessage } from '../src/services/panel-posts';
import { ServerConfigs } from '../src/services/server-config';

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

type Step = { by: 'ava' | 'nico'; ago: number; config: ServerConfig };

const A = DEMO_GUILDS.avasArcade.id;
const CA = DEMO_CHANNELS.avasArcade;
const RA = DEMO_ROLES.avasArcade;

function supportPanel(): Panel {
  return {
    ...newPanel('support', {
      name: 'General support',
      title: '🎮 Need a hand?',
      description:
        'Stuck on a level, lost your progress or found a bug?\nPress **Open a ticket** and the **Support Team** will answer in a private channel.',
      button: 'Open a ticket',
    }),
    categoryId: CA.supportCategory,
    supportRoleIds: [RA.supportTeam],
    pingRoleIds: [RA.supportTeam],
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
    categoryId: CA.supportCategory,
    namingScheme: 'purchase-{count}',
    supportRoleIds: [RA.supportTeam, RA.admin],
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
    general: { ...defaultServerConfig().general, defaultCategoryId: CA.supportCategory, transcriptChannelId: CA.transcripts },
    panels: [supportPanel()],
  };
  const v2: ServerConfig = { ...structuredClone(v1), panels: [supportPanel(), purchasesPanel()] };
  const v3: ServerConfig = { ...structuredClone(v2), multiPanels: [helpDesk()] };
  const v4: ServerConfig = structuredClone(v3);
  v4.general = { ...v4.general, claiming: true, twoStepClose: true, maxOpenTicketsPerUser: 2 };
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
    { roleId: RA.supportTeam, areas: { panels: 'read', logs: 'read' } },
    { roleId: RA.moderator, areas: { statistics: 'read', logs: 'read' } },
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
  const C = DEMO_CHANNELS.pixelPals;
  const R = DEMO_ROLES.pixelPals;
  const panel = (id: string, name: string, title: string, description: string, button: string, emoji: string): Panel => ({
    ...newPanel(id, { name, title, description, button }),
    button: { label: button, emoji, style: 'primary' },
    categoryId: C.helpDeskCategory,
    supportRoleIds: [R.helper],
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
  const C = DEMO_CHANNELS.modGuild;
  const R = DEMO_ROLES.modGuild;
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
        categoryId: C.moddingCategory,
        supportRoleIds: [R.moderator],
      },
    ],
  };
  const v2: ServerConfig = structuredClone(v1);
  v2.access = [{ roleId: R.dashboardReaders, areas: { panels: 'read', statistics: 'read', logs: 'read', configs: 'read' } }];
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
      A,
      new Date(start).toISOString(),
    ]);
  }
  if (sub.rows.length > 0) report.written.push("premium subscription for Ava's Arcade");

  // The configuration histories, each only on a server without a saved configuration.
  const histories: Array<[string, string, Step[]]> = [
    [A, "Ava's Arcade", arcadeHistory()],
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
  const arcade = await app.serverConfigs.live(A);
  const seeded = arcadeHistory();
  if (arcade.version === seeded.length && arcade.savedBy?.id === DEMO_USERS.ava.id) {
    for (const post of DEMO_POSTS) {
      const { rows } = await app.db.query('SELECT 1 FROM panel_posts WHERE guild_id = $1 AND kind = $2 AND item_id = $3', [A, post.kind, post.id]);
      if (rows.length > 0) continue;
      await withRetries(() => app.panelPosts.send({ guildId: A, kind: post.kind, id: post.id, channelId: post.channelId, actor: actor(post.by) }));
      report.written.push(`Ava's Arcade: ${post.kind} ${post.id} posted`);
    }
  }

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
