import {
  DEMO_GUILD_DATA,
  DEMO_MESSAGES,
  DEMO_PEOPLE,
  type DemoChannel,
  type DemoGuildData,
  type DemoMember,
  type DemoPerson,
  type DemoRole,
  PERMISSION_MEMBER,
} from './demo-data';
import type { ActionRowOut, EmbedOut } from './message-validation';
import type { PermissionChannel, PermissionGuild, PermissionOverwrite } from './permissions';
import { snowflakeAt, timestampOf } from './snowflake';
import { compareIds, demoUsers } from './util';

/** A file of a message, as the sandbox keeps it. */
export interface StoredAttachment {
  id: string;
  filename: string;
  contentType: string;
  size: number;
  width: number | null;
  height: number | null;
}

/** A message as the sandbox keeps it. */
export interface StoredMessage {
  id: string;
  channelId: string;
  guildId: string;
  authorId: string;
  content: string;
  embeds: EmbedOut[];
  components: ActionRowOut[];
  flags: number;
  tts: boolean;
  nonce: string | number | null;
  /** Files uploaded with it (their bytes in the CDN's attachment store). */
  attachments?: StoredAttachment[];
  /** Epoch ms. */
  createdAt: number;
  editedAt: number | null;
}

/** Messages kept per channel (the oldest go first) and in all (the oldest of the fullest channel go first). */
export const MAX_MESSAGES_PER_CHANNEL = 100;
const MAX_MESSAGES = 1000;
/** People the world route met who are not demo people, and channels made at run time, at most. */
const MAX_VISITORS = 1000;
export const MAX_CREATED_CHANNELS = 2000;

interface ChannelEntry {
  guildId: string;
  channel: DemoChannel;
}

const CHANNELS = new Map<string, ChannelEntry>();
for (const [guildId, data] of Object.entries(DEMO_GUILD_DATA)) {
  for (const channel of data.channels) CHANNELS.set(channel.id, { guildId, channel });
}

const PEOPLE: readonly DemoPerson[] = Object.values(DEMO_PEOPLE);

/** A synthetic server (SandboxControl.addBotGuilds): @everyone only, no channels. */
function syntheticData(guildId: string): DemoGuildData {
  return {
    roles: [{ id: guildId, name: '@everyone', color: 0, position: 0, permissions: PERMISSION_MEMBER }],
    channels: [],
    emojis: [],
    members: [],
    systemChannelId: null,
  };
}

/** Who a user id is: a demo user (who can sign in) or a demo person (who cannot). */
export function personOf(userId: string): DemoPerson | undefined {
  const user = demoUsers().find((u) => u.id === userId);
  if (user) return { id: user.id, username: user.username, globalName: user.globalName, avatar: user.avatar };
  return PEOPLE.find((p) => p.id === userId);
}

/**
 * What the sandbox's servers hold at run time: the demo data (channels, roles, emojis, members), the
 * channel overwrites SandboxControl changed, and the messages. One instance per registration.
 */
export class GuildState {
  readonly #messages = new Map<string, StoredMessage[]>();
  readonly #byId = new Map<string, StoredMessage>();
  readonly #overwrites = new Map<string, PermissionOverwrite[]>();
  /** Channels made through `POST /guilds/{id}/channels`, and demo channels deleted (`DELETE /channels/{id}`). */
  readonly #created = new Map<string, ChannelEntry>();
  readonly #deleted = new Set<string>();
  /** People who wrote through the world route without being demo people (the demo bot's made-up players). */
  readonly #visitors = new Map<string, DemoPerson>();
  #lastId = 0n;
  #total = 0;

  constructor() {
    this.reset();
  }

  /** Messages back to the seeded ones, overwrites back to the demo data's. */
  reset(): void {
    this.#messages.clear();
    this.#byId.clear();
    this.#overwrites.clear();
    this.#created.clear();
    this.#deleted.clear();
    this.#visitors.clear();
    this.#total = 0;
    this.#lastId = 0n;
    for (const message of DEMO_MESSAGES) {
      const entry = CHANNELS.get(message.channelId);
      if (!entry) continue;
      const createdAt = timestampOf(message.id);
      this.#insert({
        id: message.id,
        channelId: message.channelId,
        guildId: entry.guildId,
        authorId: message.authorId,
        content: message.content,
        embeds: [],
        components: [],
        flags: 0,
        tts: false,
        nonce: null,
        createdAt,
        editedAt: null,
      });
    }
  }

  /** A server's data (a synthetic server's is generated), or undefined for an unknown id. */
  data(guildId: string, known: boolean): DemoGuildData | undefined {
    const base = DEMO_GUILD_DATA[guildId] ?? (known ? syntheticData(guildId) : undefined);
    if (!base || (this.#created.size === 0 && this.#deleted.size === 0)) return base;
    const created = [...this.#created.values()].filter((e) => e.guildId === guildId).map((e) => e.channel);
    return { ...base, channels: [...base.channels.filter((c) => !this.#deleted.has(c.id)), ...created] };
  }

  channel(channelId: string): { guildId: string; channel: DemoChannel; overwrites: PermissionOverwrite[] } | undefined {
    const entry = this.#created.get(channelId) ?? (this.#deleted.has(channelId) ? undefined : CHANNELS.get(channelId));
    if (!entry) return undefined;
    return { ...entry, overwrites: this.overwritesOf(entry.channel) };
  }

  /** Channels made at run time, in all servers (the sandbox's memory bound, below Discord's own limits). */
  get createdChannels(): number {
    return this.#created.size;
  }

  /** A channel made at run time (its id from `nextId`). */
  createChannel(guildId: string, channel: DemoChannel): DemoChannel {
    this.#created.set(channel.id, { guildId, channel });
    return channel;
  }

  /** Renames a channel or changes its topic (a demo channel's change is kept beside the demo data). */
  updateChannel(channelId: string, change: { name?: string; topic?: string | null }): DemoChannel | undefined {
    const found = this.channel(channelId);
    if (!found) return undefined;
    const { topic: _old, ...rest } = found.channel;
    const topic = change.topic === undefined ? found.channel.topic : change.topic;
    const next: DemoChannel = { ...rest, name: change.name ?? found.channel.name, ...(topic ? { topic } : {}) };
    if (CHANNELS.has(channelId)) this.#deleted.add(channelId);
    this.#created.set(channelId, { guildId: found.guildId, channel: next });
    return next;
  }

  /** Deletes a channel and its messages (and, for a category, leaves its channels without a parent, as Discord does). */
  deleteChannel(channelId: string): void {
    const found = this.channel(channelId);
    if (!found) return;
    this.#created.delete(channelId);
    if (CHANNELS.has(channelId)) this.#deleted.add(channelId);
    for (const message of [...this.list(channelId)]) this.delete(message);
    this.#messages.delete(channelId);
    this.#overwrites.delete(channelId);
    if (found.channel.type === 4) {
      for (const child of this.data(found.guildId, true)?.channels.filter((c) => c.parentId === channelId) ?? []) {
        this.#deleted.add(child.id);
        this.#created.set(child.id, { guildId: found.guildId, channel: { ...child, parentId: null } });
      }
    }
  }

  /** Someone the demo bot made up, writing in a channel (known to the sandbox from then on). */
  addVisitor(person: DemoPerson): void {
    if (personOf(person.id)) return;
    this.#visitors.delete(person.id);
    this.#visitors.set(person.id, person);
    // The least recently seen go first beyond MAX_VISITORS (their messages then show a deleted user).
    for (const id of this.#visitors.keys()) {
      if (this.#visitors.size <= MAX_VISITORS) break;
      this.#visitors.delete(id);
    }
  }

  visitor(userId: string): DemoPerson | undefined {
    return this.#visitors.get(userId);
  }

  overwritesOf(channel: DemoChannel): PermissionOverwrite[] {
    return this.#overwrites.get(channel.id) ?? channel.overwrites;
  }

  /** Replaces a channel's overwrites (null: back to the demo data's). */
  setOverwrites(channelId: string, overwrites: PermissionOverwrite[] | null): void {
    if (!this.channel(channelId)) throw new Error(`setChannelOverwrites: ${channelId} is not a demo channel`);
    if (overwrites === null) this.#overwrites.delete(channelId);
    else this.#overwrites.set(channelId, overwrites.map((o) => ({ ...o })));
  }

  /** A new message id: a snowflake of `now`, always above every id given before. */
  nextId(now: number): string {
    let id = BigInt(snowflakeAt(now));
    if (id <= this.#lastId) id = this.#lastId + 1n;
    this.#lastId = id;
    return String(id);
  }

  add(message: StoredMessage): StoredMessage {
    this.#insert(message);
    this.#trim(message.channelId);
    return message;
  }

  /** Puts back a message with its own id, in id order among the channel's; false when the id is taken. */
  restore(message: StoredMessage): boolean {
    if (this.#byId.has(message.id)) return false;
    this.#insert(message);
    this.#messages.get(message.channelId)!.sort((a, b) => compareIds(a.id, b.id));
    this.#trim(message.channelId);
    return true;
  }

  get(channelId: string, messageId: string): StoredMessage | undefined {
    const message = this.#byId.get(messageId);
    return message && message.channelId === channelId ? message : undefined;
  }

  delete(message: StoredMessage): void {
    const list = this.#messages.get(message.channelId);
    if (!list) return;
    const index = list.indexOf(message);
    if (index !== -1) {
      list.splice(index, 1);
      this.#byId.delete(message.id);
      this.#total--;
    }
  }

  /** A channel's messages, oldest first. */
  list(channelId: string): readonly StoredMessage[] {
    return this.#messages.get(channelId) ?? [];
  }

  /** Every message, or one channel's, oldest first. */
  all(channelId?: string): StoredMessage[] {
    if (channelId !== undefined) return [...this.list(channelId)];
    return [...this.#byId.values()].sort((a, b) => compareIds(a.id, b.id));
  }

  get size(): number {
    return this.#total;
  }

  lastMessageId(channelId: string): string | null {
    return this.list(channelId).at(-1)?.id ?? null;
  }

  #insert(message: StoredMessage): void {
    const list = this.#messages.get(message.channelId) ?? [];
    this.#messages.set(message.channelId, list);
    list.push(message);
    this.#byId.set(message.id, message);
    if (BigInt(message.id) > this.#lastId) this.#lastId = BigInt(message.id);
    this.#total++;
  }

  #trim(channelId: string): void {
    const list = this.#messages.get(channelId)!;
    while (list.length > MAX_MESSAGES_PER_CHANNEL) this.delete(list[0]!);
    while (this.#total > MAX_MESSAGES) {
      let fullest: StoredMessage[] | null = null;
      for (const messages of this.#messages.values()) if (!fullest || messages.length > fullest.length) fullest = messages;
      if (!fullest?.length) break;
      this.delete(fullest[0]!);
    }
  }
}

/** A server as the permission functions see it. */
export function permissionGuild(guildId: string, ownerId: string, data: DemoGuildData): PermissionGuild {
  return { id: guildId, ownerId, roles: data.roles };
}

export function permissionChannel(channel: DemoChannel, overwrites: readonly PermissionOverwrite[]): PermissionChannel {
  return { type: channel.type, permission_overwrites: overwrites };
}

/** The bot's member in a server: the roles marked `bot` (its managed role). */
export function botMember(botId: string, data: DemoGuildData): DemoMember {
  return { userId: botId, roles: data.roles.filter((r) => r.bot).map((r) => r.id), joinedAt: '2025-06-02T12:00:00.000000+00:00' };
}

/** Roles in Discord's order (by position, then id). */
export function sortedRoles(roles: readonly DemoRole[]): DemoRole[] {
  return [...roles].sort((a, b) => a.position - b.position || compareIds(a.id, b.id));
}

/** Channels in Discord's display order: top-level channels, then each category followed by its channels. */
export function displayOrder(channels: readonly DemoChannel[]): Array<{ channel: DemoChannel; children: DemoChannel[] }> {
  const byPosition = (a: DemoChannel, b: DemoChannel) => a.position - b.position || compareIds(a.id, b.id);
  const top = channels.filter((c) => c.type !== 4 && c.parentId === null).sort(byPosition);
  const groups = channels
    .filter((c) => c.type === 4)
    .sort(byPosition)
    .map((cat) => ({ channel: cat, children: channels.filter((c) => c.parentId === cat.id).sort(byPosition) }));
  return [...top.map((channel) => ({ channel, children: [] })), ...groups];
}
