import type { ServerResponse } from 'node:http';
import type { Guild, ServerConfig, TicketStreamEvent } from '@tickety/api-contract';
import type { FastifyBaseLogger } from 'fastify';
import { ApiHttpError } from '../lib/errors';
import { queueTopic, type Signals, ticketTopic } from '../lib/signals';
import type { TicketQueueService } from './ticket-queue';

const HEARTBEAT_MS = 15_000;
const ACCESS_RECHECK_MS = 60_000;
/** Messages one `messages` frame carries (a longer backlog comes in several). */
const MESSAGES_PER_FRAME = 200;
/** A command still under way is read again at the latest this often (its lease may lapse, its time run out). */
const COMMANDS_RECHECK_MS = 30_000;

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
 * One open SSE stream. A signal marks what changed (the queue, the ticket) and starts a read unless
 * one is under way, which then runs once more when it ends: at most one read in flight, however many
 * signals. A read sends what changed since the last: the ticket's messages after the cursor (seq
 * order; services/ticket-messages.ts says why nothing committed later can be below it), the ticket's
 * summary and commands when they differ from what was sent, and the queue's counts. It keeps only
 * the cursor and what it last sent of the summary, the commands and the counts.
 */
class TicketStream {
  #cursor: string;
  #sentTicket: string | null = null;
  #sentCommands = new Map<string, string>();
  #dirty = { queue: true, ticket: true };
  #running = false;
  #again = false;
  #closed = false;
  readonly #timers: NodeJS.Timeout[] = [];
  #commandTimer: NodeJS.Timeout | null = null;
  readonly #unsubscribe: Array<() => void> = [];

  constructor(
    private readonly options: StreamOptions,
    private readonly queue: TicketQueueService,
    signals: Signals,
    private readonly onEnd: () => void,
  ) {
    this.#cursor = options.cursor ?? '0';
    const { res, guild, ticketId } = options;
    this.#unsubscribe.push(signals.subscribe(queueTopic(guild.id), () => this.#signal('queue')));
    if (ticketId) this.#unsubscribe.push(signals.subscribe(ticketTopic(guild.id, ticketId), () => this.#signal('ticket')));
    this.#timers.push(setInterval(() => this.#write(': keep-alive\n\n'), HEARTBEAT_MS).unref());
    this.#timers.push(setInterval(() => void this.#recheck(), ACCESS_RECHECK_MS).unref());
    res.on('close', () => this.end());
    res.on('error', () => this.end());
  }

  /** Sends the first frames: the client's state as of now. */
  async start(): Promise<void> {
    if (this.options.cursor === null && this.options.ticketId) {
      this.#cursor = await this.queue.cursor(this.options.botId, this.options.guild.id, this.options.ticketId);
    }
    this.#write('retry: 3000\n\n');
    this.#run();
  }

  #signal(what: 'queue' | 'ticket'): void {
    this.#dirty[what] = true;
    this.#run();
  }

  #run(): void {
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
          const dirty = this.#dirty;
          this.#dirty = { queue: false, ticket: false };
          await this.#read(dirty);
        } while (this.#again && !this.#closed);
      } catch (error) {
        // A read that failed (the database away) is tried again on the next signal or recheck.
        this.options.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'ticket stream: a read failed');
        this.#dirty = { queue: true, ticket: true };
      } finally {
        this.#running = false;
      }
    })();
  }

  async #read(dirty: { queue: boolean; ticket: boolean }): Promise<void> {
    const { botId, guild, ticketId, userId } = this.options;
    if (ticketId && dirty.ticket) {
      for (;;) {
        const page = await this.queue.changedSince(botId, guild.id, ticketId, this.#cursor, MESSAGES_PER_FRAME);
        this.#cursor = page.cursor;
        if (page.messages.length > 0) await this.#send({ type: 'messages', messages: page.messages });
        if (!page.more || this.#closed) break;
      }
      const found = await this.queue.summary(guild, await this.options.config(), ticketId);
      if (found) {
        const json = JSON.stringify(found);
        if (json !== this.#sentTicket) {
          this.#sentTicket = json;
          await this.#send({ type: 'ticket', ticket: found.ticket, closed: found.closed });
        }
      }
      const commands = await this.queue.commands(guild.id, ticketId);
      const changed = commands.filter((command) => this.#sentCommands.get(command.id) !== JSON.stringify(command));
      this.#sentCommands = new Map(commands.map((command) => [command.id, JSON.stringify(command)]));
      if (changed.length > 0) await this.#send({ type: 'commands', commands: changed });
      this.#scheduleCommands(commands.filter((c) => c.state === 'queued' || c.state === 'taken').map((c) => Date.parse(c.expiresAt)));
    }
    if (dirty.queue) await this.#send({ type: 'queue', counts: await this.queue.counts(guild.id, userId) });
  }

  /** Reads the commands again when the first of those under way may change by time alone. */
  #scheduleCommands(expiries: number[]): void {
    if (this.#commandTimer) clearTimeout(this.#commandTimer);
    this.#commandTimer = null;
    if (expiries.length === 0 || this.#closed) return;
    const wait = Math.min(COMMANDS_RECHECK_MS, Math.max(500, Math.min(...expiries) - Date.now() + 100));
    this.#commandTimer = setTimeout(() => this.#signal('ticket'), wait).unref();
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

  async #send(event: TicketStreamEvent): Promise<void> {
    const ok = this.#write(`id: ${this.#cursor}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    if (!ok && !this.#closed) {
      // A slow reader: the next read waits until this frame has left (no frames pile up in memory).
      await new Promise<void>((resolve) => {
        const done = () => {
          this.options.res.off('drain', done);
          this.options.res.off('close', done);
          resolve();
        };
        this.options.res.on('drain', done);
        this.options.res.on('close', done);
      });
    }
  }

  #write(text: string): boolean {
    const { res } = this.options;
    if (this.#closed || res.destroyed || res.writableEnded) return true;
    return res.write(text);
  }

  /** Releases everything: the subscriptions, the timers, the user's slot; ends the answer. */
  end(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const stop of this.#unsubscribe) stop();
    for (const timer of this.#timers) clearInterval(timer);
    if (this.#commandTimer) clearTimeout(this.#commandTimer);
    if (!this.options.res.writableEnded) this.options.res.end();
    this.onEnd();
  }
}

/** The open streams of this instance, by user (docs/api.md, "Tickets", the stream). */
export class TicketStreams {
  readonly #perUser = new Map<string, number>();
  readonly #open = new Set<TicketStream>();

  /** `perUser`: streams one user may hold open on this instance (a page and a few tabs); more are refused (429). */
  constructor(private readonly deps: { signals: Signals; queue: TicketQueueService; perUser: number }) {}

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
    const stream = new TicketStream(options, this.deps.queue, this.deps.signals, () => {
      this.#open.delete(stream);
      release();
    });
    this.#open.add(stream);
    await stream.start();
  }

  /** Streams open now (tests, health). */
  get size(): number {
    return this.#open.size;
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
