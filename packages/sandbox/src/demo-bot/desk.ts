/**
 * The demo bot's desk: live tickets in the sandbox's Discord. It opens tickets as a ticket bot does
 * (a channel in the panel's category, visible to the opener, the support roles and the bot; the
 * welcome embed with the form's answers), lets the demo's members write in them, and tells the bot
 * API everything (`opened`, `first_response`, `messages` events and each message as
 * `message_created`). The commands the dashboard sends it are carried out by commands.ts.
 * What it does and when: docs/sandbox.md, "The demo bot's desk".
 */
import { DEMO_APP, DEMO_GUILD_DATA } from '../discord/demo-data';
import type { AutoCloser } from './auto-close';
import { DeskBlocklist } from './blocklist';
import { type DiscordChannel, DiscordClient, type DiscordMessage, type FetchLike } from './discord';
import { type DemoPanel, type DemoServer, dayOf, DAY_MS, demoUserName, hash, historyTicket, prng } from './history';

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

export interface DeskOptions {
  /** The API's public URL and the bot key. */
  apiBase: string;
  key: string;
  /** Discord's REST base (`.../sandbox/discord/api/v10`) and the sandbox's mount (`.../sandbox/discord`). */
  discordApiBase: string;
  sandboxBase: string;
  botToken: string;
  cdnBase: string;
  /** The servers it works in (the desk opens tickets in those whose guild has the panel's category). */
  servers: DemoServer[];
  clock?: () => number;
  fetch?: FetchLike;
  log?: Log;
  /** Tickets opened at start per server (default 5 in the first server, 2 in the others; 0: none). */
  startTickets?: number;
  /** Something happens every `min`–`max` ms (a ticket opens, a member writes); null: only when asked. */
  every?: { minMs: number; maxMs: number } | null;
  /** Open tickets per server beyond which no new one opens by itself (default 8). */
  maxOpen?: number;
  /** The random source (tests pass a seeded one). */
  random?: () => number;
}

/** A transcript message (the bot API's `TranscriptMessage`). */
export interface DeskMessage {
  id: string;
  authorId: string;
  content: string;
  createdAt: string;
  editedAt: string | null;
  system: string | null;
  replyTo: string | null;
  embeds: Array<Record<string, unknown>>;
  attachments: DeskAttachment[];
  reactions: never[];
  stickers: never[];
}

/** A transcript attachment (the bot API's `TranscriptAttachment`): `url` the Discord CDN's link. */
export interface DeskAttachment {
  id: string;
  filename: string;
  contentType: string | null;
  size: number;
  url: string;
  width: number | null;
  height: number | null;
}

/** A transcript user (the bot API's `TranscriptUser`). */
export interface DeskUser {
  id: string;
  username: string;
  displayName: string | null;
  avatarUrl: string | null;
  bot: boolean;
  staff: boolean;
  colour: number | null;
}

/** A live ticket: its channel, who is in it and every message so far (its transcript). */
export interface DeskTicket {
  server: DemoServer;
  panel: DemoPanel;
  ticketId: string;
  channelId: string;
  channelName: string;
  /** Null for an adopted ticket the desk cannot place (opened before a restart): it knows neither. */
  number: number | null;
  openerId: string | null;
  /** Adopted: a ticket the desk did not open, given a channel when a command for it came (`adopt`). */
  adopted: boolean;
  openedAt: number;
  claimedBy: string | null;
  labels: string[];
  messages: DeskMessage[];
  users: Map<string, DeskUser>;
  staffMessages: number;
  /** Set by the close command; the steps after it are repeated until each is done. */
  closed: { by: string; reason: string | null; at: number; transcript: boolean; channelDeleted: boolean } | null;
}

const MEMBER_LINES = [
  'Any news? I am still stuck.',
  'I tried logging out and in again, same thing.',
  'Here is my in-game name: `{name}`',
  'It happened again just now, right after the update.',
  'Thanks! Should I restart the game?',
  'Is there anything else you need from me?',
  'I checked my e-mail, no receipt there either.',
];
const STAFF_LINES = [
  'Hi {name}! Thanks for the details, I am looking into it now.',
  'Could you send me your order number or a screenshot?',
  'I found the problem on our side: it should be fixed in a few minutes.',
];

const VIEW = 1n << 10n;
const SEND = 1n << 11n;
const EMBED = 1n << 14n;
const HISTORY = 1n << 16n;

/** Channel names as ticket bots fill a naming scheme, then as Discord stores a text channel's name. */
export function channelName(scheme: string, number: number, username: string, userId: string): string {
  const name = scheme.replaceAll('{count}', String(number).padStart(4, '0')).replaceAll('{username}', username).replaceAll('{userid}', userId);
  return name.toLowerCase().replace(/\s+/g, '-').slice(0, 100);
}

/** The desk's key of a ticket: ticket ids are the bot's own per server (the history's repeat across servers). */
export function deskKey(serverId: string, ticketId: string): string {
  return `${serverId}:${ticketId}`;
}

export class Desk {
  /** By `deskKey(serverId, ticketId)`. */
  readonly tickets = new Map<string, DeskTicket>();
  readonly discord: DiscordClient;
  readonly fetch: FetchLike;
  readonly clock: () => number;
  readonly log: Log;
  readonly random: () => number;
  readonly botUser: DeskUser;
  /** Told of every message (auto-close.ts); set by live.ts. */
  autoClose: AutoCloser | null = null;
  /** Who may not open tickets (blocklist.ts): checked before each ticket opens. */
  readonly blocklist = new DeskBlocklist(this);
  /** The next ticket number per server. */
  readonly #numbers = new Map<string, number>();
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly options: DeskOptions,
    readonly botApi: (method: string, path: string, body?: unknown, gzip?: boolean) => Promise<Response>,
  ) {
    this.clock = options.clock ?? Date.now;
    this.log = options.log ?? { info: () => undefined, warn: () => undefined };
    this.random = options.random ?? prng(hash(`desk:${this.clock()}`));
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.discord = new DiscordClient(options.discordApiBase, options.sandboxBase, options.botToken, this.fetch);
    this.botUser = { id: DEMO_APP.clientId, username: 'Tickety', displayName: null, avatarUrl: null, bot: true, staff: false, colour: null };
  }

  /** A server's next ticket number: above those the day's generated history uses (at most 40 a day). */
  #nextNumber(serverId: string): number {
    const number = this.#numbers.get(serverId) ?? Math.round(dayOf(this.clock()) / DAY_MS - 20454) * 40 + 31;
    this.#numbers.set(serverId, number + 1);
    return number;
  }

  /** One thing at a time: the timer, the controls and the commands never interleave in one ticket. */
  serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Servers the desk can open tickets in: a panel whose category exists in the guild. */
  deskServers(): DemoServer[] {
    return this.options.servers.filter((s) => s.panels.some((p) => this.categoryOf(s, p) !== null));
  }

  categoryOf(server: DemoServer, panel: DemoPanel): string | null {
    const data = DEMO_GUILD_DATA[server.id];
    const category = data?.channels.find((c) => c.id === panel.categoryId && c.type === 4);
    return category?.id ?? null;
  }

  /** Opens the start tickets, then schedules what happens next. */
  async start(): Promise<void> {
    const servers = this.deskServers();
    for (const [index, server] of servers.entries()) {
      const count = this.options.startTickets ?? (index === 0 ? 5 : 2);
      for (let i = 0; i < count && !this.#stopped; i++) {
        // Some waiting for staff (the member wrote last), some answered, one claimed.
        const scene = (['waiting', 'answered', 'waiting', 'claimed', 'answered'] as const)[i % 5]!;
        await this.serial(() => this.openTicket(server, scene)).catch(this.blocklist.logRefused);
      }
    }
    this.#schedule();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
  }

  #schedule(): void {
    const every = this.options.every;
    if (!every || this.#stopped) return;
    const wait = every.minMs + Math.floor(this.random() * Math.max(0, every.maxMs - every.minMs));
    this.#timer = setTimeout(() => {
      this.serial(() => this.tick())
        .catch((error: unknown) => this.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'demo bot: the desk’s turn failed (tried again later)'))
        .finally(() => this.#schedule());
    }, wait);
    this.#timer.unref();
  }

  /** A new ticket opens, or a member writes in an open one. */
  async tick(): Promise<void> {
    const servers = this.deskServers();
    if (servers.length === 0) return;
    const server = servers[Math.floor(this.random() * servers.length)]!;
    const open = this.openTickets(server.id).filter((t) => t.openerId !== null);
    if (open.length === 0 || (open.length < (this.options.maxOpen ?? 8) && this.random() < 0.4)) await this.openTicket(server, 'waiting').catch(this.blocklist.logRefused);
    else await this.memberWrites(open[Math.floor(this.random() * open.length)]!);
  }

  openTickets(serverId?: string): DeskTicket[] {
    return [...this.tickets.values()].filter((t) => t.closed === null && (serverId === undefined || t.server.id === serverId));
  }

  /**
   * A ticket opens: its channel, the welcome message, the opener's first words (and, by scene, an
   * answer and a claim). `pressedBy`: who pressed the button (else one of the server's openers); a
   * blocked one is refused (`TicketRefused`, nothing opens).
   */
  async openTicket(server: DemoServer, scene: 'waiting' | 'answered' | 'claimed' = 'waiting', pressedBy?: string): Promise<DeskTicket> {
    const panels = server.panels.filter((p) => this.categoryOf(server, p) !== null);
    if (panels.length === 0) throw new Error(`the demo bot has no panel with a category in ${server.name}`);
    const panel = panels[Math.floor(this.random() * panels.length)]!;
    const openerId = pressedBy ?? this.#anOpener(server);
    await this.blocklist.check(server, openerId);
    const opener = demoUserName(openerId);
    const number = this.#nextNumber(server.id);
    const name = channelName(panel.namingScheme ?? 'ticket-{count}', number, opener.username, openerId);
    const channel = await this.#createChannel(server, panel, name, `Ticket #${number} · ${panel.name} · opened by ${opener.displayName ?? opener.username}`, openerId);
    const now = this.clock();
    const ticket: DeskTicket = {
      server,
      panel,
      ticketId: channel.id,
      channelId: channel.id,
      channelName: channel.name,
      number,
      openerId,
      adopted: false,
      openedAt: now,
      claimedBy: null,
      labels: [],
      messages: [],
      users: new Map(),
      staffMessages: 0,
      closed: null,
    };
    this.#keep(ticket);
    const random = prng(hash(`desk:${channel.id}`));
    const answer = ANSWERS[Math.floor(random() * ANSWERS.length)]!;
    const questions = panel.questions?.length ? panel.questions : [panel.question ?? 'What do you need help with?'];
    // The form's answers: an order number where one is asked for, the problem in the first other one.
    const formAnswer = (question: string, index: number) => {
      if (/order/i.test(question)) return `AA-${10_000 + Math.floor(random() * 90_000)}`;
      return index === 0 ? answer : `${opener.username} (${['PC', 'Switch', 'Mobile'][index % 3]})`;
    };
    const answers = questions.map((question, index) => ({ question: question.slice(0, 45), answer: formAnswer(question, index) }));
    await this.events(ticket, [{ id: this.eventId(ticket, 'o'), type: 'opened', at: new Date(now).toISOString(), panelId: panel.id, openerId, number, answers }]);
    const role = panel.supportRoleIds[0];
    const welcome = await this.discord.call<DiscordMessage>('POST', `/channels/${channel.id}/messages`, {
      content: `<@${openerId}> welcome!${role ? ` <@&${role}> will be with you shortly.` : ''}`,
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: panel.name,
          description: 'Thanks for reaching out. Please describe your problem; a member of the team will answer here.',
          color: 0x10b981,
          author: { name: opener.displayName ?? opener.username, icon_url: this.avatarOf(openerId) },
          fields: answers.map((a, index) => ({ name: a.question, value: a.answer || '-', inline: index > 0 })),
          footer: { text: `Ticket #${number}` },
        },
      ],
    });
    await this.record(ticket, welcome);
    await this.memberWrites(ticket, answer);
    if (scene === 'waiting') return ticket;
    const staffId = this.staffFor(ticket);
    if (scene === 'claimed') await this.claim(ticket, staffId);
    await this.staffWrites(ticket, staffId);
    if (scene === 'claimed') await this.memberWrites(ticket);
    return ticket;
  }

  /** One of the server's openers, who has no open ticket if one is left. */
  #anOpener(server: DemoServer): string {
    const busy = new Set(this.openTickets(server.id).map((t) => t.openerId));
    const openers = server.openers.filter((id) => !busy.has(id));
    const pool = openers.length > 0 ? openers : server.openers;
    return pool[Math.floor(this.random() * pool.length)]!;
  }

  /** A ticket channel: hidden from @everyone, open to the opener (when known), the panel's support roles and the bot. */
  #createChannel(server: DemoServer, panel: DemoPanel, name: string, topic: string, openerId: string | null): Promise<DiscordChannel> {
    const bits = (value: bigint) => String(value);
    return this.discord.call<DiscordChannel>('POST', `/guilds/${server.id}/channels`, {
      name,
      type: 0,
      parent_id: this.categoryOf(server, panel),
      topic: topic.slice(0, 1024),
      permission_overwrites: [
        { id: server.id, type: 0, allow: '0', deny: bits(VIEW) },
        ...(openerId ? [{ id: openerId, type: 1, allow: bits(VIEW | SEND | HISTORY), deny: '0' }] : []),
        ...panel.supportRoleIds.map((roleId) => ({ id: roleId, type: 0, allow: bits(VIEW | SEND | HISTORY), deny: '0' })),
        { id: DEMO_APP.clientId, type: 1, allow: bits(VIEW | SEND | EMBED | HISTORY), deny: '0' },
      ],
    });
  }

  /** Keeps a ticket; closed ones are forgotten, oldest first, beyond the last 100 (memory stays bounded). */
  #keep(ticket: DeskTicket): void {
    this.tickets.set(deskKey(ticket.server.id, ticket.ticketId), ticket);
    const closed = [...this.tickets.entries()].filter(([, t]) => t.closed !== null);
    for (const [key] of closed.slice(0, Math.max(0, closed.length - 100))) this.tickets.delete(key);
  }

  /**
   * A ticket the desk has no channel for, adopted when a command for it comes: the generated
   * history's (the desk regenerates it from its id: number, panel, opener, claim) or one opened
   * before a restart (nothing known: named by its id, no opener). A channel as for its own tickets
   * and a line saying the demo bot recreated it; the API is not told `opened` (it has the ticket).
   */
  async adopt(server: DemoServer, ticketId: string): Promise<DeskTicket> {
    const now = this.clock();
    const known = historyTicket(server, ticketId);
    const placed = known !== null && known.openedAt <= now ? known : null;
    const panel = server.panels.find((p) => p.id === placed?.panelId) ?? server.panels.find((p) => this.categoryOf(server, p) !== null) ?? server.panels[0];
    if (!panel) throw new Error(`the demo bot has no panel in ${server.name}`);
    const opener = placed ? demoUserName(placed.openerId) : null;
    const name = placed && opener ? channelName(panel.namingScheme ?? 'ticket-{count}', placed.number, opener.username, placed.openerId) : `ticket-${ticketId.toLowerCase()}`;
    const topic = placed && opener ? `Ticket #${placed.number} · ${panel.name} · opened by ${opener.displayName ?? opener.username}` : `Ticket ${ticketId} · ${panel.name}`;
    const channel = await this.#createChannel(server, panel, name, topic, placed?.openerId ?? null);
    const answered = placed?.firstResponseAt != null && placed.firstResponseAt <= now;
    const ticket: DeskTicket = {
      server,
      panel,
      ticketId,
      channelId: channel.id,
      channelName: channel.name,
      number: placed?.number ?? null,
      openerId: placed?.openerId ?? null,
      adopted: true,
      openedAt: placed?.openedAt ?? now,
      // The history claims a ticket a minute before its first answer.
      claimedBy: answered ? placed.staffId : null,
      labels: [],
      messages: [],
      users: new Map(),
      staffMessages: answered ? 1 : 0,
      closed: null,
    };
    this.#keep(ticket);
    await this.botSays(ticket, '♻️ The demo bot recreated this ticket’s channel: the conversation before it is not here (the demo’s history, or a ticket from before the bot restarted).');
    return ticket;
  }

  staffFor(ticket: DeskTicket): string {
    const staff = ticket.server.staff;
    return staff[hash(ticket.ticketId) % staff.length]!;
  }

  /** The opener (or someone added to the ticket) writes: in the channel, then as `message_created`. */
  async memberWrites(ticket: DeskTicket, text?: string): Promise<DiscordMessage> {
    if (ticket.openerId === null) throw new Error(`the demo bot does not know who opened ticket ${ticket.ticketId}`);
    const opener = demoUserName(ticket.openerId);
    const line = text ?? MEMBER_LINES[Math.floor(this.random() * MEMBER_LINES.length)]!.replaceAll('{name}', opener.username);
    const message = await this.discord.memberWrites(ticket.channelId, { id: ticket.openerId, username: opener.username, global_name: opener.displayName }, line);
    await this.record(ticket, message);
    return message;
  }

  /** A support member writes in the channel themselves (in Discord's client). */
  async staffWrites(ticket: DeskTicket, staffId: string, text?: string): Promise<DiscordMessage> {
    const staff = demoUserName(staffId);
    const opener = ticket.openerId ? demoUserName(ticket.openerId) : { username: 'there', displayName: null };
    const line = text ?? STAFF_LINES[ticket.staffMessages % STAFF_LINES.length]!.replaceAll('{name}', opener.displayName ?? opener.username);
    const message = await this.discord.memberWrites(ticket.channelId, { id: staffId, username: staff.username, global_name: staff.displayName }, line);
    await this.record(ticket, message, staffId);
    return message;
  }

  /** The bot claims the ticket for a support member: a line in the channel and the `claimed` event. */
  async claim(ticket: DeskTicket, staffId: string): Promise<void> {
    const message = await this.botSays(ticket, `🙋 <@${staffId}> claimed this ticket and will help you.`);
    ticket.claimedBy = staffId;
    await this.events(ticket, [{ id: this.eventId(ticket, `c:${message.id}`), type: 'claimed', at: new Date(this.clock()).toISOString(), staffId }]);
  }

  async botSays(ticket: DeskTicket, content: string): Promise<DiscordMessage> {
    const message = await this.discord.call<DiscordMessage>('POST', `/channels/${ticket.channelId}/messages`, { content, allowed_mentions: { parse: [] } });
    await this.record(ticket, message);
    return message;
  }

  /**
   * A message posted in the ticket: kept for its transcript and sent as `message_created`, then the
   * counts (`messages`) and, for a support member's first words, `first_response`. `staffId`: whom
   * the message counts for as staff (a reply the bot posted for them included).
   */
  async record(ticket: DeskTicket, message: DiscordMessage, staffId?: string): Promise<void> {
    if (ticket.messages.some((m) => m.id === message.id)) return;
    const author = this.userOf(ticket, message.author);
    const createdAt = new Date(Date.parse(message.timestamp) || this.clock()).toISOString();
    const entry: DeskMessage = {
      id: message.id,
      authorId: author.id,
      content: message.content,
      createdAt,
      editedAt: null,
      system: null,
      replyTo: null,
      embeds: message.embeds.map(transcriptEmbed),
      attachments: (message.attachments ?? []).map((file) => ({ id: file.id, filename: file.filename, contentType: file.content_type ?? null, size: file.size, url: file.url, width: file.width ?? null, height: file.height ?? null })),
      reactions: [],
      stickers: [],
    };
    ticket.messages.push(entry);
    this.autoClose?.noted(ticket, author.id, author.bot, staffId !== undefined, Date.parse(createdAt));
    const res = await this.botApi('POST', '/messages', { messages: [{ id: `m:${ticket.ticketId}:${message.id}`, serverId: ticket.server.id, ticketId: ticket.ticketId, at: createdAt, type: 'message_created', message: entry, author }] });
    if (res.status !== 200) this.log.warn({ ticket: ticket.ticketId, status: res.status, body: (await res.text()).slice(0, 300) }, 'demo bot: a live message was refused');
    const events: Array<Record<string, unknown>> = [];
    if (staffId) {
      if (ticket.staffMessages === 0) events.push({ id: this.eventId(ticket, 'f'), type: 'first_response', at: createdAt, staffId });
      ticket.staffMessages++;
    }
    // An adopted ticket's counts stay the API's: the desk did not see the messages before it.
    if (!ticket.adopted) events.push({ id: this.eventId(ticket, `n:${ticket.messages.length}`), type: 'messages', at: createdAt, total: ticket.messages.length, staff: ticket.staffMessages });
    if (events.length > 0) await this.events(ticket, events);
  }

  userOf(ticket: DeskTicket, author: DiscordMessage['author']): DeskUser {
    const known = ticket.users.get(author.id);
    if (known) return known;
    const staff = ticket.server.staff.includes(author.id);
    const user: DeskUser =
      author.id === DEMO_APP.clientId
        ? this.botUser
        : { id: author.id, username: author.username, displayName: author.global_name ?? null, avatarUrl: this.avatarOf(author.id), bot: author.bot === true, staff, colour: staff ? 0x10b981 : null };
    ticket.users.set(author.id, user);
    return user;
  }

  /** A staff member who acted from the dashboard, as the transcript names them (a sign-in's name and avatar). */
  knowStaff(ticket: DeskTicket, person: { id: string; name: string; avatarUrl: string | null }): void {
    if (ticket.users.has(person.id)) return;
    const avatarUrl = person.avatarUrl && /^https?:\/\//.test(person.avatarUrl) ? person.avatarUrl : this.avatarOf(person.id);
    ticket.users.set(person.id, { id: person.id, username: (person.name || 'Support').slice(0, 64), displayName: null, avatarUrl, bot: false, staff: true, colour: 0x10b981 });
  }

  avatarOf(userId: string): string {
    return `${this.options.cdnBase}/embed/avatars/${Number(BigInt(userId) % 6n)}.png`;
  }

  eventId(ticket: DeskTicket, kind: string): string {
    return `${ticket.server.id}:${ticket.ticketId}:${kind}`.slice(0, 64);
  }

  /** Ticket events of one ticket (`POST /api/bot/v1/events`). */
  async events(ticket: DeskTicket, list: Array<Record<string, unknown>>): Promise<void> {
    const res = await this.botApi('POST', '/events', { events: list.map((e) => ({ serverId: ticket.server.id, ticketId: ticket.ticketId, ...e })) });
    if (res.status !== 200) throw new Error(`the bot API refused events: ${res.status} ${(await res.text()).slice(0, 300)}`);
  }

  /** The ticket's transcript (v2) from the messages the bot saw, for its close. */
  transcript(ticket: DeskTicket) {
    const closed = ticket.closed!;
    const { openerId, number } = ticket;
    if (openerId === null || number === null) throw new Error(`the demo bot does not know the opener and number of ticket ${ticket.ticketId}`);
    const data = DEMO_GUILD_DATA[ticket.server.id];
    const users = [...ticket.users.values()];
    if (!ticket.users.has(openerId)) {
      const name = demoUserName(openerId);
      users.push({ id: openerId, username: name.username, displayName: name.displayName, avatarUrl: this.avatarOf(openerId), bot: false, staff: false, colour: null });
    }
    return {
      version: 2 as const,
      server: { id: ticket.server.id, name: ticket.server.name, iconUrl: null },
      channel: { id: ticket.channelId, name: ticket.channelName },
      ticket: {
        id: ticket.ticketId,
        number,
        panelId: ticket.panel.id,
        openerId,
        openedAt: new Date(ticket.openedAt).toISOString(),
        closedAt: new Date(closed.at).toISOString(),
        closedBy: closed.by,
        reason: closed.reason,
      },
      users,
      roles: (data?.roles ?? []).map((r) => ({ id: r.id, name: r.name, colour: r.color || null })),
      channels: (data?.channels ?? []).filter((c) => c.type === 0).map((c) => ({ id: c.id, name: c.name })),
      messages: ticket.messages,
    };
  }

  /**
   * The messages with their files' CDN links signed anew (`POST /attachments/refresh-urls`, 50 a
   * call), as a bot does before it uploads a transcript: Discord's links expire a day after they are
   * handed out, and the API copies the files at upload.
   */
  async freshLinks(messages: DeskMessage[]): Promise<DeskMessage[]> {
    const urls = [...new Set(messages.flatMap((m) => m.attachments.map((file) => file.url)))];
    const fresh = new Map<string, string>();
    for (let index = 0; index < urls.length; index += 50) {
      const answer = await this.discord.call<{ refreshed_urls: Array<{ original: string; refreshed: string }> }>('POST', '/attachments/refresh-urls', { attachment_urls: urls.slice(index, index + 50) });
      for (const link of answer.refreshed_urls) fresh.set(link.original, link.refreshed);
    }
    return messages.map((m) => (m.attachments.length === 0 ? m : { ...m, attachments: m.attachments.map((file) => ({ ...file, url: fresh.get(file.url) ?? file.url })) }));
  }

  /** Uploads the transcript (gzipped) and sends `transcript_stored`; false when the API refused it. */
  async uploadTranscript(ticket: DeskTicket): Promise<boolean> {
    const fileId = `t-${ticket.ticketId}`;
    const transcript = this.transcript(ticket);
    transcript.messages = await this.freshLinks(transcript.messages);
    const res = await this.botApi('PUT', `/servers/${ticket.server.id}/transcripts/${fileId}`, transcript, true);
    if (res.status !== 200) {
      this.log.warn({ ticket: ticket.ticketId, status: res.status, body: (await res.text()).slice(0, 300) }, 'demo bot: a transcript was refused');
      return false;
    }
    await this.events(ticket, [{ id: this.eventId(ticket, 't'), type: 'transcript_stored', at: new Date(this.clock()).toISOString(), fileId }]);
    return true;
  }
}

const ANSWERS = [
  'I bought the season pass but it does not show up in my inventory.',
  'The leaderboard reset my score after the update.',
  'Someone is spamming invite links in #general.',
  'How do I link my account to the server?',
  'The bot did not give me the verified role.',
  'I was charged twice for the same order.',
];

/** A Discord embed as a transcript has it. */
export function transcriptEmbed(embed: Record<string, unknown>) {
  const author = embed.author as { name: string; url?: string; icon_url?: string } | undefined;
  const footer = embed.footer as { text: string; icon_url?: string } | undefined;
  const fields = (embed.fields as Array<{ name: string; value: string; inline?: boolean }> | undefined) ?? [];
  return {
    title: (embed.title as string | undefined) ?? null,
    description: (embed.description as string | undefined) ?? null,
    url: (embed.url as string | undefined) ?? null,
    colour: (embed.color as number | undefined) ?? null,
    author: author ? { name: author.name, url: author.url ?? null, iconUrl: author.icon_url ?? null } : null,
    fields: fields.map((f) => ({ name: f.name, value: f.value, inline: f.inline === true })),
    footer: footer ? { text: footer.text, iconUrl: footer.icon_url ?? null } : null,
    imageUrl: ((embed.image as { url?: string } | undefined)?.url as string | undefined) ?? null,
    thumbnailUrl: ((embed.thumbnail as { url?: string } | undefined)?.url as string | undefined) ?? null,
    timestamp: (embed.timestamp as string | undefined) ? new Date(Date.parse(embed.timestamp as string)).toISOString() : null,
  };
}
