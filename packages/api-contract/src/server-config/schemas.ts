/**
 * One server's configuration as the dashboard edits it, the API stores (each save a version) and
 * the bot reads: general settings, dashboard access by role, panels and multi-panels.
 * `serverConfigSchema({ panelLimit })` checks it whole, the cross-field rules included; every issue
 * has a path into the config (`panels.0.button.label`) and a sentence to show next to that field.
 */
import { z } from '../zod-setup';
import { ACCESS_AREAS, ACCESS_LEVELS } from '../access-areas';
import { Snowflake } from '../auth';
import { LOCALES } from '../locales';
import { automationShape, checkAutomation, defaultAutoCloseRules, defaultFeedbackSettings } from './automation';
import { forEachDuplicate } from './fields';
import { DEFAULT_NAMING_SCHEME, NamingScheme } from './naming-scheme';
import { TICKET_LABELS_CONFIG_MAX, TicketLabel } from './labels';
import { MultiPanel, Panel, PerUserTicketLimit } from './panel';

/** Settings of the whole server; a panel's null field falls back to the matching one here. */
export const GeneralSettings = z.object({
  /** The category new tickets go in when their panel names none; null: none (top of the channel list). */
  defaultCategoryId: Snowflake.nullable(),
  /** Where transcripts of closed tickets are posted when their panel names no channel; null: not posted. */
  transcriptChannelId: Snowflake.nullable(),
  /** Where the bot logs ticket events; null: not logged in Discord. */
  logChannelId: Snowflake.nullable(),
  /** The naming scheme of panels that set none. */
  ticketNameScheme: NamingScheme,
  /** Open tickets one user may have at once, unless the panel says otherwise (1 to 10). */
  maxOpenTicketsPerUser: PerUserTicketLimit,
  claiming: z.boolean(),
  twoStepClose: z.boolean(),
  /** The language of the bot's own messages in this server. */
  language: z.enum(LOCALES, { error: `Must be one of ${LOCALES.join(', ')}.` }),
});
export type GeneralSettings = z.infer<typeof GeneralSettings>;

// The parts of the server dashboard a role can be given (a zod-free module: the shell reads them too).
export { ACCESS_AREAS, ACCESS_LEVELS, type AccessArea, type AccessLevel } from '../access-areas';
/** At most one rule per role, and a server has at most 250 roles. */
export const ACCESS_RULES_MAX = 250;

/**
 * Dashboard access given to the members of one role, per area: read (see) or write (see and
 * change). An area not listed: no access. The owner and members with Administrator or Manage
 * Server always have full access and need no rule.
 */
export const AccessRule = z
  .object({
    roleId: Snowflake,
    areas: z.partialRecord(z.enum(ACCESS_AREAS), z.enum(ACCESS_LEVELS, { error: 'Must be read or write.' }), {
      // An enum-keyed record reports other keys as `unrecognized_keys` (its declared issue types omit it).
      error: (issue) => {
        const keys = (issue as { keys?: unknown }).keys;
        return Array.isArray(keys)
          ? `Unknown area ${keys.map((k) => `"${String(k)}"`).join(', ')}: the areas are ${ACCESS_AREAS.join(', ')}.`
          : 'Must map areas to read or write.';
      },
    }),
  })
  .superRefine((rule, ctx) => {
    if (Object.keys(rule.areas).length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['areas'],
        input: rule.areas,
        message: 'Give this role access to at least one area, or remove the rule.',
      });
    }
  });
export type AccessRule = z.infer<typeof AccessRule>;

export const SERVER_CONFIG_SCHEMA_VERSION = 1;
/** Multi-panels one server may have (a bound on the stored size, not a plan limit). */
export const MULTI_PANELS_MAX = 50;
/** What free servers get (the plan catalogue's free plan says the same: `limits.panels`). */
export const FREE_PANEL_LIMIT = 3;

export interface ServerConfigSchemaOptions {
  /**
   * Most panels the server may have: its plan's `limits.panels` from the plan catalogue (free 3).
   * `Infinity` reads a stored version without the check (a version saved under an earlier plan).
   */
  panelLimit: number;
  /**
   * How many panels the saved configuration already has. A server over its limit (premium ended)
   * may still save a configuration with no more panels than that: edit them, remove some, never add.
   */
  savedPanels?: number;
  /**
   * Whether the server has premium. `false` (a free server): support hours, a premium feature, are
   * refused, and the panel-limit error says premium raises the limit. `true`: no such hint.
   * Left out: premium features are not checked and the limit error mentions premium.
   */
  premium?: boolean;
  /** The premium plan's panel limit, named in a free server's panel-limit error ("premium raises it to 50"). */
  premiumPanelLimit?: number;
  /** Most tags the plan allows (`limits.tags`); left out: only the stored bound (`TAGS_MAX`). */
  tagLimit?: number;
  /** Most blocklist entries the plan allows (`limits.blocklist`); left out: only `BLOCKLIST_MAX`. */
  blocklistLimit?: number;
  premiumTagLimit?: number;
  premiumBlocklistLimit?: number;
}

const configShape = {
  schemaVersion: z.literal(SERVER_CONFIG_SCHEMA_VERSION, {
    error: `This configuration is of another format (expected schemaVersion ${SERVER_CONFIG_SCHEMA_VERSION}).`,
  }),
  general: GeneralSettings,
  access: z.array(AccessRule).max(ACCESS_RULES_MAX, `At most ${ACCESS_RULES_MAX} access rules (one per role).`),
  panels: z.array(Panel),
  multiPanels: z.array(MultiPanel).max(MULTI_PANELS_MAX, `A server can have at most ${MULTI_PANELS_MAX} multi-panels.`),
  /** Versions saved before labels existed have none. */
  labels: z.array(TicketLabel).max(TICKET_LABELS_CONFIG_MAX, `A server can have at most ${TICKET_LABELS_CONFIG_MAX} labels.`).default([]),
  /** Auto-close, tags, blocklist, feedback (`./automation.ts`); versions saved before them have the defaults. */
  ...automationShape,
};

/**
 * The configuration's shape without the cross-field checks (ids once, panels that exist, the plan's
 * limits): what the bot API answers and its OpenAPI document describes field by field.
 */
export const ServerConfigDocument = z.object(configShape);

function panelLimitMessage(count: number, options: ServerConfigSchemaOptions): string {
  const kept = options.savedPanels !== undefined && options.savedPanels > options.panelLimit ? ` It already had ${options.savedPanels}: you can edit or remove those, but not add more.` : '';
  const base = `This server can have at most ${options.panelLimit} panels (this configuration has ${count}).${kept}`;
  if (options.premium === true) return `${base} Remove a panel to save.`;
  const to =
    options.premiumPanelLimit !== undefined && options.premiumPanelLimit > options.panelLimit
      ? ` to ${options.premiumPanelLimit}`
      : '';
  return `${base} Remove a panel, or get premium to raise the limit${to}.`;
}

/** The schema of a whole server configuration, for a server whose plan allows `panelLimit` panels. */
export function serverConfigSchema(options: ServerConfigSchemaOptions) {
  return z.object(configShape).superRefine((config, ctx) => {
    const { panels, multiPanels, access } = config;

    if (panels.length > options.panelLimit && panels.length > (options.savedPanels ?? 0)) {
      ctx.addIssue({
        code: 'too_big',
        origin: 'array',
        maximum: options.panelLimit,
        inclusive: true,
        path: ['panels'],
        input: panels,
        message: panelLimitMessage(panels.length, options),
      });
    }

    forEachDuplicate(
      access,
      (rule) => rule.roleId,
      (index) =>
        ctx.addIssue({
          code: 'custom',
          path: ['access', index, 'roleId'],
          input: access[index]?.roleId,
          message: 'This role already has a rule: change that one instead.',
        }),
    );

    // Panels and multi-panels share one id space (the web logs and sent messages name them by id).
    const entries = [
      ...panels.map((p, index) => ({ id: p.id, name: p.name, path: ['panels', index, 'id'], kind: 'panel' })),
      ...multiPanels.map((m, index) => ({ id: m.id, name: m.name, path: ['multiPanels', index, 'id'], kind: 'multi-panel' })),
    ];
    forEachDuplicate(
      entries,
      (entry) => entry.id,
      (index, firstIndex) => {
        const [entry, first] = [entries[index]!, entries[firstIndex]!];
        ctx.addIssue({
          code: 'custom',
          path: entry.path,
          input: entry.id,
          message: `The ${first.kind} "${first.name}" already has the id "${entry.id}": each panel and multi-panel needs its own.`,
        });
      },
    );

    forEachDuplicate(
      config.labels,
      (label) => label.id,
      (index) =>
        ctx.addIssue({
          code: 'custom',
          path: ['labels', index, 'id'],
          input: config.labels[index]?.id,
          message: 'Another label already has this id: each label needs its own.',
        }),
    );

    const panelIds = new Set(panels.map((p) => p.id));
    multiPanels.forEach((multi, multiIndex) => {
      multi.panelIds.forEach((id, i) => {
        if (!panelIds.has(id)) {
          ctx.addIssue({
            code: 'custom',
            path: ['multiPanels', multiIndex, 'panelIds', i],
            input: id,
            message: `There is no panel with the id "${id}" (it may have been deleted): remove it from this multi-panel.`,
          });
        }
      });
    });

    checkAutomation(config, options, ctx);

    if (options.premium === false) {
      panels.forEach((panel, index) => {
        if (panel.supportHours !== null) {
          ctx.addIssue({
            code: 'custom',
            path: ['panels', index, 'supportHours'],
            input: panel.supportHours,
            message: 'Support hours are a premium feature: turn them off, or give this server premium.',
          });
        }
      });
    }
  });
}

/** A whole server configuration (what `serverConfigSchema(...)` accepts). */
export type ServerConfig = z.infer<ReturnType<typeof serverConfigSchema>>;

/** The settings a server starts with. */
export function defaultGeneralSettings(): GeneralSettings {
  return {
    defaultCategoryId: null,
    transcriptChannelId: null,
    logChannelId: null,
    ticketNameScheme: DEFAULT_NAMING_SCHEME,
    maxOpenTicketsPerUser: 1,
    claiming: true,
    twoStepClose: false,
    language: 'en',
  };
}

/** The configuration of a server that has changed nothing yet. */
export function defaultServerConfig(): ServerConfig {
  return {
    schemaVersion: SERVER_CONFIG_SCHEMA_VERSION,
    general: defaultGeneralSettings(),
    access: [],
    panels: [],
    multiPanels: [],
    labels: [],
    autoClose: defaultAutoCloseRules(),
    tags: [],
    blocklist: [],
    feedback: defaultFeedbackSettings(),
  };
}
