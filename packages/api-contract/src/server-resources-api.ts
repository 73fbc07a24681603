/**
 * What the dashboard needs from Discord about a server (read with the bot's token, cached briefly by
 * the API) and the panels the bot has posted: `/api/guilds/:server/resources` and `/posts`.
 */
import { z } from './zod-setup';
import { Snowflake } from './auth';

export const CHANNEL_KINDS = ['category', 'text', 'announcement', 'forum', 'voice', 'other'] as const;

export const ServerChannel = z.object({
  id: Snowflake,
  name: z.string(),
  kind: z.enum(CHANNEL_KINDS),
  parentId: Snowflake.nullable(),
  position: z.number().int(),
  /** Whether the bot can post a panel here (view, send messages, embed links). */
  botCanPost: z.boolean(),
  /** The permissions the bot lacks here for that, by Discord's names ("SEND_MESSAGES"). */
  botMissing: z.array(z.string()),
});
export type ServerChannel = z.infer<typeof ServerChannel>;

export const ServerRole = z.object({
  id: Snowflake,
  name: z.string(),
  /** 0xRRGGBB, 0 for none. */
  color: z.number().int().nonnegative(),
  position: z.number().int(),
  /** A bot's or integration's role (cannot be given to members). */
  managed: z.boolean(),
});
export type ServerRole = z.infer<typeof ServerRole>;

export const ServerEmoji = z.object({ id: Snowflake, name: z.string(), animated: z.boolean() });
export type ServerEmoji = z.infer<typeof ServerEmoji>;

/** `GET /api/guilds/:server/resources` (`?refresh=1` reads Discord again instead of the cache). */
export const ServerResources = z.object({
  channels: z.array(ServerChannel),
  roles: z.array(ServerRole),
  emojis: z.array(ServerEmoji),
  fetchedAt: z.string(),
});
export type ServerResources = z.infer<typeof ServerResources>;
export const ServerResourcesQuery = z.object({ refresh: z.enum(['1']).optional() });

export const POST_KINDS = ['panel', 'multiPanel'] as const;
export type PostKind = (typeof POST_KINDS)[number];

/** A panel or multi-panel the bot has posted. */
export const PanelPost = z.object({
  kind: z.enum(POST_KINDS),
  /** The panel's or multi-panel's id in the configuration. */
  id: z.string(),
  channelId: Snowflake,
  messageId: Snowflake,
  /** The configuration version it was posted (or last updated) from. */
  postedVersion: z.number().int().positive(),
  postedAt: z.string(),
  /**
   * 'posted': the message shows the live configuration; 'outdated': the configuration changed since
   * (an update is needed); 'deleted': the message was deleted in Discord (send it again).
   */
  state: z.enum(['posted', 'outdated', 'deleted']),
});
export type PanelPost = z.infer<typeof PanelPost>;
export const PanelPostList = z.object({ posts: z.array(PanelPost) });

/** `POST /api/guilds/:server/posts`: the bot posts a panel or multi-panel to a text channel. */
export const SendPanelBody = z.object({ kind: z.enum(POST_KINDS), id: z.string().min(1).max(32), channelId: Snowflake });
/** `POST /api/guilds/:server/posts/:kind/:id/update`: the bot edits the posted message in place. */
export const PanelPostParams = z.object({ server: Snowflake, kind: z.enum(POST_KINDS), id: z.string().min(1).max(32) });
