/**
 * The configuration health check (`GET /api/guilds/:server/config/health`): what in a server's live
 * configuration no longer matches what the bot sees in Discord. Each problem names the setting, what
 * is wrong, and the dashboard address that opens the setting to fix it.
 */
import { z } from './zod-setup';

export const CONFIG_PROBLEM_KINDS = [
  /** A channel the bot posts in (a posted panel's, transcripts, the log) where it lacks a permission. */
  'channel-cannot-post',
  /** A channel the configuration names that is gone (deleted, or no longer a text channel). */
  'channel-missing',
  /** A category the configuration names that is gone (deleted, or no longer a category). */
  'category-missing',
  /** A category with Discord's maximum of 50 channels: no ticket channel can be made in it. */
  'category-full',
  /** A role the configuration names that is gone (deleted in Discord). */
  'role-missing',
  /** A panel with support hours but no support role: nobody answers in those hours. */
  'support-hours-no-team',
  /** A posted panel or multi-panel whose message was deleted in Discord. */
  'message-deleted',
] as const;
export type ConfigProblemKind = (typeof CONFIG_PROBLEM_KINDS)[number];

/** Where a problem's setting lives: a panel, a multi-panel, the general settings, an access rule, the blocklist. */
export const CONFIG_PROBLEM_SCOPES = ['panel', 'multiPanel', 'general', 'access', 'blocklist'] as const;
export type ConfigProblemScope = (typeof CONFIG_PROBLEM_SCOPES)[number];

/**
 * The setting's field: a panel's `supportRoleIds`, `additionalRoleIds`, `pingRoleIds`, `categoryId`,
 * `transcriptChannelId`, `supportHours`; `post` (where a panel or multi-panel is posted); the general
 * `defaultCategoryId`, `transcriptChannelId`, `logChannelId`; an access rule's or a blocklist entry's `roleId`.
 */
export const CONFIG_PROBLEM_FIELDS = [
  'supportRoleIds',
  'additionalRoleIds',
  'pingRoleIds',
  'categoryId',
  'transcriptChannelId',
  'supportHours',
  'post',
  'defaultCategoryId',
  'logChannelId',
  'roleId',
] as const;
export type ConfigProblemField = (typeof CONFIG_PROBLEM_FIELDS)[number];

export const ConfigProblem = z.object({
  kind: z.enum(CONFIG_PROBLEM_KINDS),
  setting: z.object({
    scope: z.enum(CONFIG_PROBLEM_SCOPES),
    /** The panel's or multi-panel's id; null for the general settings, access and the blocklist. */
    id: z.string().nullable(),
    /** The panel's or multi-panel's name (as typed); null otherwise. */
    name: z.string().nullable(),
    field: z.enum(CONFIG_PROBLEM_FIELDS),
  }),
  /** The channel, category or role concerned (its id; its name when Discord still has it). */
  target: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  /** For `channel-cannot-post`: the permissions the bot lacks there, by Discord's names ("SEND_MESSAGES"). */
  missing: z.array(z.string()),
  /** The dashboard address that opens the setting (`/dashboard/:server/configs?edit=panel&id=…`). */
  href: z.string(),
});
export type ConfigProblem = z.infer<typeof ConfigProblem>;

export const ConfigHealth = z.object({
  /** The live configuration's version the check read. */
  version: z.number().int().nonnegative(),
  problems: z.array(ConfigProblem),
  /** When Discord was read for it (the oldest read used): at most a minute before the answer. */
  checkedAt: z.string(),
});
export type ConfigHealth = z.infer<typeof ConfigHealth>;
