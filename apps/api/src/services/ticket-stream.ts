import type { ServerResponse } from 'node:http';
import type { Guild, LiveMessage, ServerConfig } from '@tickety/api-contract';
import type { FastifyBaseLogger } from 'fastify';
import { ApiHttpError } from '../lib/errors';
import { queueTopic, type Signals, ticketTopic } from '../lib/signals';
import type { ServerCounts, TicketQueueService } from './ticket-queue';

const HEARTBEAT_MS = 15_000;
const ACCESS_RECHECK_MS = 60_000;
/** Messages one `messages` frame carries (a longer backlog comes in several). */
const MESSAGES_PER_FRAME = 200;
/** A command still under way is read again at the latest this often (its lease may lapse, its time run out). */
const COMMANDS_RECHECK_MS = 30_000;
/** A feed whose read failed reads again after this long (or at the next signal). */
const RETRY_MS = 5_000;
/** Bytes a stream may hold unsent (a client that does not read) before it is ended; it resumes from its Last-Event-ID. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

type FrameType = 'messages' | 'ticket' | 'commands';

/** One frame of a ticket's feed, serialised once for all its streams (`text`, with the feed's cursor as `id`). */
interface FeedFrame {
  id: string;
  type: FrameType;
  data: string;
  text: string;
  /** A `messages` frame's messages and their seqs (a stream resumed past the feed's cursor skips those it has). */
  messages?: LiveMessage[];
  seqs?: string[];
}

const frameText = (id: string, type: string, data: string): string => `id: ${id}\nevent: ${type}\ndata: ${data}\n\n`;
const after = (left: string, right: string): boolean => BigInt(left) > BigInt(right);
const messagesData = (messages: LiveMessage[]): string => JSON.stringify({ type: 'messages', messages });

/** What one stream needs from its request. */
export interface StreamOptions {
  res: ServerResponse;
  userId: string;
  guild: Guild;
  botId: string;
  ticketId: string | null;
  /** The message seq the client has seen (`Last-Event-ID`, else the detail's `cursor`), or null: from now. */
  cursor: string | null;
  config: () => Promise<ServerConfig>;
  /** Whether the user may still read the server's tickets (checked every minute). */
  stillAllowed: () => Promise<boolean>;
  log: FastifyBaseLogger;
}

/**
 * What the streams of one topic on this instance share: a signal starts ONE read unless one is under
 * way, which then runs once more when it ends (at most one read in flight, however many signals and
 * streams). The first read sets the feed up (`ready`); later ones are sent to the streams.
 */
abstract class Feed {
  readonly streams = new Set<TicketStream>();
  readonly ready: Promise<void>;
  #settle!: { resolve: () => void; reject: (error: unknown) => void };
  #isReady = false;
  #running = false;
  #again = false;
  #closed = false;
  #retry: NodeJS.Timeout | null = null;
  readonly #unsubscribe: () => void;

  constructor(
    signals: Signals,
    topic: string,
    protected readonly log: FastifyBaseLogger,
    private readonly onClose: () => void,
  ) {
    this.ready = new Promise<void>((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    this.ready.catch(() => {});
    this.#unsubscribe = signals.subscribe(topic, () => this.run());
  }

  protected abstract read(): Promise<void>;

  get isReady(): boolean {
    return this.#isReady;
  }

  get closed(): boolean {
    return this.#closed;
  }

  run(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    void (async () => {
      try {
        do {
          this.#again = false;
          await this.read();
          if (!this.#isReady && !this.#closed) {
            this.#isReady = true;
            this.#settle.resolve();
          }
        } while (this.#again && !this.#closed);
      } catch (error) {
        if (!this.#isReady) {
          // The streams waiting for it fail to start (their clients reconnect); the next one sets up a new feed.
          this.#settle.reject(error);
          this.close();
        } else {
          this.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'ticket stream: a read failed');
          if (!this.#closed && !this.#retry) {
            this.#retry = setTimeout(() => {
              this.#retry = null;
              this.run();
            }, RETRY_MS).unref();
          }
        }
      } finally {
        this.#running = false;
      }
    })();
  }

  add(stream: TicketStream): void {
    this.streams.add(stream);
  }

  /** A stream left; an empty feed is dropped. */
  remove(stream: TicketStream): void {
    this.streams.delete(stream);
    if (this.streams.size === 0) this.close();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe();
    if (this.#retry) clearTimeout(this.#retry);
    this.stopTimers();
    this.#settle.reject(new Error('the feed closed'));
    this.onClose();
  }

  protected stopTimers(): void {}
}

/**
 * One ticket's feed: a read sends what changed since the last, to every stream of the ticket: the
 * messages after the feed's cursor (seq order; services/ticket-messages.ts says why nothing committed
 * later can be below it), the ticket's summary and its commands when they differ from what was sent.
 */
class TicketFeed extends Feed {
  /** The seq up to which the feed has sent the ticket's messages. */
  position = '0';
  #ticketData: string | null = null;
  #commands = new Map<string, string>();
  #commandTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly key: { botId: string; guild: Guild; ticketId: string; config: () => Promise<ServerConfig> },
    private readonly queue: TicketQueueService,
    signals: Signals,
    log: FastifyBaseLogger,
    onClose: () => void,
  ) {
    super(signals, ticketTopic(key.guild.id, key.ticketId), log, onClose);
    this.run();
  }

  protected async read(): Promise<void> {
    const { botId, guild, ticketId } = this.key;
    if (!this.isReady) this.position = await this.queue.cursor(botId, guild.id, ticketId);
    else {
      for (;;) {
        const page = await this.queue.changedSince(botId, guild.id, ticketId, this.position, MESSAGES_PER_FRAME);
        if (this.closed) return;
        // The position moves with the frame that carries it (a joining stream reads up to it itself).
        this.position = page.cursor;
        if (page.messages.length > 0) this.#send('messages', messagesData(page.messages), page.messages, page.seqs);
        if (!page.more) break;
      }
    }
    const found = await this.queue.summary(guild, await this.key.config(), ticketId);
    if (found) {
      const data = JSON.stringify({ type: 'ticket', ticket: found.ticket, closed: found.closed });
      if (data !== this.#ticketData) {
        this.#ticketData = data;
        this.#send('ticket', data);
      }
    }
    const commands = await this.queue.commands(guild.id, ticketId);
    const next = new Map(commands.map((command) => [command.id, JSON.stringify(command)]));
    const changed = [...next].filter(([id, json]) => this.#commands.get(id) !== json).map(([, json]) => json);
    this.#commands = next;
    if (changed.length > 0) this.#send('commands', `{"type":"commands","commands":[${changed.join(',')}]}`);
    this.#scheduleCommands(commands.filter((c) => c.state === 'queued' || c.state === 'taken').map((c) => Date.parse(c.expiresAt)));
  }

  /** Serialises the frame once and hands the same string to every stream (none before the feed is ready). */
  #send(type: FrameType, data: string, messages?: LiveMessage[], seqs?: string[]): void {
    if (!this.isReady || this.closed) return;
    const frame: FeedFrame = { id: this.position, type, data, text: frameText(this.position, type, data), messages, seqs };
    for (const stream of this.streams) stream.deliver(frame);
  }

  /** The ticket as it stands (a joining stream's first state): the summary, then every command, as frames' type and data. */
  snapshot(): Array<[FrameType, string]> {
    const frames: Array<[FrameType, string]> = [];
    if (this.#ticketData !== null) frames.push(['ticket', this.#ticketData]);
    if (this.#commands.size > 0) frames.push(['commands', `{"type":"commands","commands":[${[...this.#commands.values()].join(',')}]}`]);
    return frames;
  }

  /** Reads the commands again when the first of those under way may change by time alone. */
  #scheduleCommands(expiries: number[]): void {
    this.stopTimers();
    if (expiries.length === 0 || this.closed) return;
    const wait = Math.min(COMMANDS_RECHECK_MS, Math.max(500, Math.min(...expiries) - Date.now() + 100));
    this.#commandTimer = setTimeout(() => this.run(), wait).unref();
  }

  protected override stopTimers(): void {
    if (this.#commandTimer) clearTimeout(this.#commandTimer);
    this.#commandTimer = null;
  }
}

/** One server's queue counts, read once for all its streams (each viewer's `mine` picked from the same read). */
class ServerFeed extends Feed {
  #counts: ServerCounts | null = null;

  constructor(
    private readonly key: { botId: string; guildId: string },
    private readonly queue: TicketQueueService,
    signals: Signals,
    log: FastifyBaseLogger,
    onClose: () => void,
  ) {
    super(signals, queueTopic(key.guildId), log, onClose);
    this.run();
  }

  protected async read(): Promise<void> {
    this.#counts = await this.queue.countsOfAll(this.key.botId, this.key.guildId);
    if (!this.isReady || this.closed) return;
    // Viewers with the same counts share one serialised frame.
    const byMine = new Map<number, string>();
    for (const stream of this.streams) {
      const counts = this.#counts.of(stream.userId);
      let data = byMine.get(counts.mine);
      if (data === undefined) {
        data = JSON.stringify({ type: 'queue', counts });
        byMine.set(counts.mine, data);
      }
      stream.queueChanged(data);
    }
  }

  /** The `queue` frame's data for one viewer, as the counts stand. */
  dataFor(userId: string): string {
    return JSON.stringify({ type: 'queue', counts: this.#counts!.of(userId) });
  }
}

/**
 * One open SSE stream. It joins its feeds (the ticket's, the server's), reads the messages from its
 * resume cursor up to the ticket feed's position itself, sends the ticket as it stands, then follows
 * the feeds; frames they send meanwhile wait in `#pending` (bounded). It keeps its cursor (the last
 * `id:` sent) and ends when its socket holds more than `maxBuffered` bytes unsent.
 */
class TicketStream {
  #cursor: string | null;
  #joining = true;
  #pending: FeedFrame[] = [];
  #pendingBytes = 0;
  #closed = false;
  #recheckTimer: NodeJS.Timeout | null = null;
  #feeds: Feed[] = [];

  constructor(
    private readonly options: StreamOptions,
    private readonly queue: TicketQueueService,
    private readonly maxBuffered: number,
    private readonly onEnd: () => void,
  ) {
    this.#cursor = options.cursor ?? (options.ticketId ? null : '0');
    options.res.on('close', () => this.end());
    options.res.on('error', () => this.end());
    // A client that hung up before this (while the route read the ticket): its 'close' has passed and
    // never comes again, and writes to it fail silently. Ended once the caller has registered it.
    if (this.#gone()) queueMicrotask(() => this.end());
    // Each stream's first check comes at a random point of the first minute, so streams opened together check apart.
    this.#scheduleRecheck(Math.random() * ACCESS_RECHECK_MS);
  }

  get userId(): string {
    return this.options.userId;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Joins the feeds and sends the client's state as of now, then follows them. */
  async start(ticket: TicketFeed | null, server: ServerFeed): Promise<void> {
    this.#feeds = ticket ? [ticket, server] : [server];
    for (const feed of this.#feeds) feed.add(this);
    this.#write('retry: 3000\n\n');
    await Promise.all(this.#feeds.map((feed) => feed.ready));
    if (this.#closed) return;
    if (ticket) {
      // Synchronously: what the feed sent before is in the snapshot or at most `upTo`, what it sends after comes pending.
      this.#pending = [];
      this.#pendingBytes = 0;
      const upTo = ticket.position;
      const snapshot = ticket.snapshot();
      if (this.#cursor === null) this.#cursor = upTo;
      else await this.#catchUp(upTo);
      if (this.#closed) return;
      for (const [type, data] of snapshot) this.#write(frameText(this.#cursor, type, data));
    }
    this.#write(frameText(this.#cursor!, 'queue', server.dataFor(this.options.userId)));
    this.#joining = false;
    const pending = this.#pending;
    this.#pending = [];
    for (const frame of pending) this.#emit(frame);
  }

  /** The stream's own read: the ticket's messages after its cursor up to `upTo` (the feed's position when it joined). */
  async #catchUp(upTo: string): Promise<void> {
    const { botId, guild, ticketId } = this.options;
    while (!this.#closed && after(upTo, this.#cursor!)) {
      const page = await this.queue.changedSince(botId, guild.id, ticketId!, this.#cursor!, MESSAGES_PER_FRAME, upTo);
      if (page.cursor === this.#cursor) break;
      this.#cursor = page.cursor;
      if (page.messages.length > 0 && !this.#write(frameText(page.cursor, 'messages', messagesData(page.messages)))) await this.#drained();
      if (!page.more) break;
    }
  }

  /** A frame of the ticket's feed: sent now, or after the stream's own catch-up. */
  deliver(frame: FeedFrame): void {
    if (this.#closed) return;
    if (this.#joining) {
      this.#pending.push(frame);
      this.#pendingBytes += frame.text.length;
      if (this.#pendingBytes > this.maxBuffered) this.#overflow();
      return;
    }
    this.#emit(frame);
  }

  #emit(frame: FeedFrame): void {
    const cursor = this.#cursor!;
    if (frame.type === 'messages') {
      // A stream resumed from a cursor past the feed's (another instance's) skips what it has.
      if (!after(frame.id, cursor)) return;
      if (after(frame.seqs![0]!, cursor)) this.#write(frame.text);
      else {
        const kept = frame.messages!.filter((_, index) => after(frame.seqs![index]!, cursor));
        if (kept.length > 0) this.#write(frameText(frame.id, 'messages', messagesData(kept)));
      }
    } else this.#write(after(cursor, frame.id) ? frameText(cursor, frame.type, frame.data) : frame.text);
    if (after(frame.id, cursor)) this.#cursor = frame.id;
  }

  /** The server's queue changed: its counts as this viewer sees them (the latest are sent at the end of joining). */
  queueChanged(data: string): void {
    if (this.#closed || this.#joining) return;
    this.#write(frameText(this.#cursor!, 'queue', data));
  }

  heartbeat(): void {
    this.#write(': keep-alive\n\n');
  }

  #scheduleRecheck(wait: number): void {
    this.#recheckTimer = setTimeout(() => {
      void this.#recheck().finally(() => {
        if (!this.#closed) this.#scheduleRecheck(ACCESS_RECHECK_MS);
      });
    }, wait).unref();
  }

  /** Ends the stream unless the user may still read the server's tickets. */
  async recheck(): Promise<void> {
    await this.#recheck();
  }

  async #recheck(): Promise<void> {
    if (this.#closed) return;
    let allowed = false;
    try {
      allowed = await this.options.stillAllowed();
    } catch {
      // Access could not be confirmed (Discord or the database away): the stream ends; the client reconnects and is checked again.
    }
    if (!allowed) this.end();
  }

  #drained(): Promise<void> {
    const { res } = this.options;
    return new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  }

  /** Whether the client's connection is gone (the answer or its socket destroyed). */
  #gone(): boolean {
    const { res } = this.options;
    return res.destroyed || (res.socket?.destroyed ?? false);
  }

  /** Writes to the client; false when it should drain first. A connection found gone ends the stream. */
  #write(text: string): boolean {
    const { res } = this.options;
    if (this.#closed || res.writableEnded) return true;
    if (this.#gone()) {
      this.end();
      return true;
    }
    const ok = res.write(text);
    if (!ok && res.writableLength > this.maxBuffered) this.#overflow();
    return ok;
  }

  /** A client that does not read: the stream ends (its buffer freed) rather than grow; EventSource resumes from its Last-Event-ID. */
  #overflow(): void {
    this.options.log.info({ buffered: this.options.res.writableLength, pending: this.#pendingBytes }, 'ticket stream: the client reads too slowly, ended');
    this.end(true);
  }

  /** Releases everything: its place in the feeds, the timer, the user's slot; ends the answer (`abort`: at once, unsent bytes dropped). */
  end(abort = false): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#pending = [];
    for (const feed of this.#feeds) feed.remove(this);
    if (this.#recheckTimer) clearTimeout(this.#recheckTimer);
    const { res } = this.options;
    if (abort) res.destroy();
    else if (!res.writableEnded) res.end();
    this.onEnd();
  }
}

/**
 * The open streams of this instance, by user, and their feeds: one per (bot, server, ticket) and one
 * per (bot, server) for the counts (docs/api.md, "Tickets", the stream). One heartbeat for all.
 */
export class TicketStreams {
  readonly #perUser = new Map<string, number>();
  readonly #open = new Set<TicketStream>();
  readonly #ticketFeeds = new Map<string, TicketFeed>();
  readonly #serverFeeds = new Map<string, ServerFeed>();
  #heartbeat: NodeJS.Timeout | null = null;

  /**
   * `perUser`: streams one user may hold open on this instance (a page and a few tabs); more are
   * refused (429). `maxBuffered`: bytes a stream may hold unsent before it is ended (1 MiB). `log`:
   * the feeds' (they outlive the request that set them up).
   */
  constructor(private readonly deps: { signals: Signals; queue: TicketQueueService; log: FastifyBaseLogger; perUser: number; maxBuffered?: number }) {}

  /** Takes one of the user's slots, or refuses (429) when they hold `perUser`. */
  reserve(userId: string): () => void {
    const count = this.#perUser.get(userId) ?? 0;
    if (count >= this.deps.perUser) {
      throw new ApiHttpError('RATE_LIMITED', { retryAfter: 30, message: `You have ${this.deps.perUser} live ticket pages open already: close one, then try again.` });
    }
    this.#perUser.set(userId, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#perUser.get(userId) ?? 1) - 1;
      if (left <= 0) this.#perUser.delete(userId);
      else this.#perUser.set(userId, left);
    };
  }

  /** Streams on the hijacked answer until the client hangs up, access ends, or the instance closes. */
  async open(options: StreamOptions, release: () => void): Promise<void> {
    const stream = new TicketStream(options, this.deps.queue, this.deps.maxBuffered ?? MAX_BUFFERED_BYTES, () => {
      this.#open.delete(stream);
      release();
      if (this.#open.size === 0 && this.#heartbeat) {
        clearInterval(this.#heartbeat);
        this.#heartbeat = null;
      }
    });
    this.#open.add(stream);
    this.#heartbeat ??= setInterval(() => {
      for (const open of this.#open) open.heartbeat();
    }, HEARTBEAT_MS).unref();
    try {
      await stream.start(options.ticketId ? this.#ticketFeed(options, options.ticketId) : null, this.#serverFeed(options));
    } catch (error) {
      // A client that hung up while joining is no failure.
      const hungUp = stream.closed;
      stream.end();
      if (!hungUp) throw error;
    }
  }

  #ticketFeed(options: StreamOptions, ticketId: string): TicketFeed {
    const key = `${options.botId}:${options.guild.id}:${ticketId}`;
    let feed = this.#ticketFeeds.get(key);
    if (!feed) {
      const made: TicketFeed = new TicketFeed({ botId: options.botId, guild: options.guild, ticketId, config: options.config }, this.deps.queue, this.deps.signals, this.deps.log, () => {
        if (this.#ticketFeeds.get(key) === made) this.#ticketFeeds.delete(key);
      });
      feed = made;
      this.#ticketFeeds.set(key, feed);
    }
    return feed;
  }

  #serverFeed(options: StreamOptions): ServerFeed {
    const key = `${options.botId}:${options.guild.id}`;
    let feed = this.#serverFeeds.get(key);
    if (!feed) {
      const made: ServerFeed = new ServerFeed({ botId: options.botId, guildId: options.guild.id }, this.deps.queue, this.deps.signals, this.deps.log, () => {
        if (this.#serverFeeds.get(key) === made) this.#serverFeeds.delete(key);
      });
      feed = made;
      this.#serverFeeds.set(key, feed);
    }
    return feed;
  }

  /** Streams open now (tests, health). */
  get size(): number {
    return this.#open.size;
  }

  /** Feeds held now, ticket and server ones (tests: an empty feed is dropped). */
  get feeds(): number {
    return this.#ticketFeeds.size + this.#serverFeeds.size;
  }

  /** Checks every stream's access now (as each does every minute). */
  async recheckAll(): Promise<void> {
    await Promise.all([...this.#open].map((stream) => stream.recheck()));
  }

  /** Ends every stream: the instance shuts down (clients reconnect to another). */
  close(): void {
    for (const stream of [...this.#open]) stream.end();
  }
}
