import { randomBytes } from 'node:crypto';
import {
  BOT_COMMAND_LEASE_SECONDS,
  BOT_COMMAND_TTL_SECONDS,
  type BotCommand,
  type BotCommandPayload,
  type BotCommandResult,
  type CommandRequester,
  canonicalJson,
  type CommandState,
} from '@tickety/api-contract';
import type { Db, Queryable } from '../db/driver';
import { type Clock, iso, toMs } from '../lib/clock';
import { ApiHttpError } from '../lib/errors';
import { publishTickets, type Signals } from '../lib/signals';

/** A waiting poll reads again about this often even without a signal (a lapsed lease, a signal lost with Redis), give or take a second. */
const RECHECK_MS = 5_000;
/**
 * Polls of one bot waiting at once on one instance; more are refused (429) at once. A bot needs one
 * poll (a few for many shards); without a cap, one key could keep hundreds waiting, each reading
 * every few seconds and all woken by each command, and take the database pool from everyone else.
 */
export const WAITING_POLLS_PER_BOT = 4;
/** Commands queued this long ago (long finished, expired or lost) are deleted, a few at a time, as new ones are queued. */
const KEEP_MS = 30 * 24 * 3600 * 1000;
const PRUNE_BATCH = 100;

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** `cmd_` and 26 base32 characters of 130 random bits. */
export function newCommandId(): string {
  const bytes = randomBytes(26);
  let id = 'cmd_';
  for (const byte of bytes) id += BASE32[byte & 31];
  return id;
}

interface CommandRow {
  id: string;
  bot_id: string;
  guild_id: string;
  ticket_id: string;
  kind: string;
  payload: Record<string, unknown>;
  requested_by: CommandRequester;
  requested_at: unknown;
  expires_at: unknown;
  state: string;
  attempts: number;
  lease_until: unknown;
  finished_at: unknown;
  outcome: BotCommandResult | null;
}

/** A command as the dashboard follows it. */
export interface CommandView {
  id: string;
  serverId: string;
  ticketId: string;
  kind: BotCommandPayload['kind'];
  state: CommandState;
  attempts: number;
  requestedAt: string;
  expiresAt: string;
  finishedAt: string | null;
  outcome: BotCommandResult | null;
  requestedBy: CommandRequester;
  /** What the command carries besides its kind (a reply's content and files, a close's reason...). */
  payload: Record<string, unknown>;
}

const topic = (botId: string) => `bot-commands:${botId}`;

/**
 * The command queue (docs/api.md, "Bot commands"): the dashboard queues, a bot takes and reports.
 * Taking locks the rows it hands out (FOR UPDATE SKIP LOCKED), so two pollers, on one instance or
 * many, never get the same command; a command taken and not reported within its lease is handed out
 * again (same id, next attempt) until it expires, and a bot makes that repeat harmless by the id.
 */
export class BotCommands {
  /** The polls waiting on this instance, by bot. */
  readonly #waiting = new Map<string, Set<AbortController>>();

  constructor(private readonly deps: { db: Db; clock: Clock; signals: Signals }) {}

  /**
   * Queues a command for `botId` and wakes its polls. Inside the caller's transaction (`tx`), nothing
   * is woken: the caller calls wake() once it has committed.
   */
  async enqueue(
    input: { botId: string; guildId: string; ticketId: string; payload: BotCommandPayload; requestedBy: CommandRequester; id?: string },
    tx?: Queryable,
  ): Promise<CommandView> {
    const { clock } = this.deps;
    const db = tx ?? this.deps.db;
    const now = clock();
    const { kind, ...payload } = input.payload;
    // Old rows go first, and a failure there only costs the tidying: the command is queued either way.
    await db
      .query(`DELETE FROM bot_commands WHERE id IN (SELECT id FROM bot_commands WHERE guild_id = $1 AND requested_at <= $2 LIMIT ${PRUNE_BATCH})`, [input.guildId, iso(now - KEEP_MS)])
      .catch(() => undefined);
    const { rows } = await db.query<CommandRow>(
      `INSERT INTO bot_commands (id, bot_id, guild_id, ticket_id, kind, payload, requested_by, requested_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
      [input.id ?? newCommandId(), input.botId, input.guildId, input.ticketId, kind, JSON.stringify(payload), JSON.stringify(input.requestedBy), iso(now), iso(now + BOT_COMMAND_TTL_SECONDS * 1000)],
    );
    if (!tx) this.wake(input.botId, input.guildId, input.ticketId);
    return this.#view(rows[0]!, now);
  }

  /** Wakes the bot's polls and the ticket's streams: a command of the ticket was queued. */
  wake(botId: string, guildId: string, ticketId: string): void {
    this.deps.signals.publish(topic(botId));
    publishTickets(this.deps.signals, [{ guild_id: guildId, ticket_id: ticketId }], false);
  }

  /** The ticket's commands for `botId` queued since `since` (epoch ms), oldest first, as the dashboard follows them. */
  async ofTicket(botId: string, guildId: string, ticketId: string, since: number): Promise<CommandView[]> {
    const { rows } = await this.deps.db.query<CommandRow>(
      'SELECT * FROM bot_commands WHERE bot_id = $1 AND guild_id = $2 AND ticket_id = $3 AND requested_at > $4 ORDER BY requested_at, id',
      [botId, guildId, ticketId, iso(since)],
    );
    const now = this.deps.clock();
    return rows.map((row) => this.#view(row, now));
  }

  /**
   * Hands out up to `max` of the bot's commands (oldest first), each leased to this caller. A ticket's
   * commands go one at a time in the order they were queued: a command waits while an older one of
   * its ticket is still open (queued, or taken and leased), so a repeat never lands after a newer one.
   * The scan reads only the last TTL of the bot's open commands (`requested_at` range on the partial
   * index): expired and lost rows, kept for 30 days, cost nothing.
   */
  async take(botId: string, max: number): Promise<BotCommand[]> {
    const { db, clock } = this.deps;
    const now = clock();
    const { rows } = await db.query<CommandRow>(
      `UPDATE bot_commands c SET state = 'taken', attempts = c.attempts + 1, lease_until = $3
       FROM (SELECT id FROM bot_commands n
             WHERE n.bot_id = $1 AND n.state IN ('queued', 'taken') AND n.requested_at > $5
               AND (n.state = 'queued' OR n.lease_until <= $2)
               AND NOT EXISTS (
                 SELECT 1 FROM bot_commands o
                 WHERE o.guild_id = n.guild_id AND o.ticket_id = n.ticket_id AND o.bot_id = n.bot_id
                   AND (o.requested_at, o.id) < (n.requested_at, n.id)
                   AND ((o.state = 'queued' AND o.expires_at > $2) OR (o.state = 'taken' AND (o.lease_until > $2 OR o.expires_at > $2))))
             ORDER BY n.requested_at, n.id LIMIT $4 FOR UPDATE SKIP LOCKED) AS next
       WHERE c.id = next.id RETURNING c.*`,
      [botId, iso(now), iso(now + BOT_COMMAND_LEASE_SECONDS * 1000), max, iso(now - BOT_COMMAND_TTL_SECONDS * 1000)],
    );
    if (rows.length > 0) publishTickets(this.deps.signals, rows, false);
    return rows
      .sort((a, b) => (toMs(a.requested_at) ?? 0) - (toMs(b.requested_at) ?? 0) || a.id.localeCompare(b.id))
      .map((row) => ({
        ...(row.payload as object),
        kind: row.kind,
        id: row.id,
        serverId: row.guild_id,
        ticketId: row.ticket_id,
        requestedBy: row.requested_by,
        requestedAt: iso(toMs(row.requested_at) ?? 0),
        attempt: Number(row.attempts),
        leaseUntil: iso(toMs(row.lease_until) ?? 0),
      })) as BotCommand[];
  }

  /**
   * Takes the bot's commands, waiting up to `waitMs` for one to arrive when there is none: woken by
   * a signal from any instance, and reading again every RECHECK_MS. Ends early, empty, when `abort`
   * fires (the bot hung up) or the service closes (the instance shuts down).
   */
  async poll(botId: string, max: number, waitMs: number, abort: AbortSignal): Promise<BotCommand[]> {
    if (abort.aborted) return [];
    const waiting = this.#waitingOf(botId);
    if (waitMs > 0 && waiting.size >= WAITING_POLLS_PER_BOT) {
      throw new ApiHttpError('RATE_LIMITED', { retryAfter: 5, message: `This bot already has ${WAITING_POLLS_PER_BOT} polls waiting here: one poll at a time is enough, commands wake it at once.` });
    }
    const deadline = performance.now() + waitMs;
    const controller = new AbortController();
    const stop = () => controller.abort();
    abort.addEventListener('abort', stop, { once: true });
    waiting.add(controller);
    // A signal between a read and the wait must not be lost: it is remembered until the next read.
    let signalled = false;
    let wake: () => void = () => undefined;
    const unsubscribe = this.deps.signals.subscribe(topic(botId), () => {
      signalled = true;
      wake();
    });
    try {
      for (;;) {
        if (controller.signal.aborted) return [];
        signalled = false;
        const commands = await this.take(botId, max);
        if (controller.signal.aborted && commands.length > 0) {
          // The bot hung up while they were being taken: they go back to the queue at once.
          await this.#release(commands.map((c) => c.id));
          return [];
        }
        const left = deadline - performance.now();
        if (commands.length > 0 || left <= 0 || controller.signal.aborted) return commands;
        if (signalled) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.min(left, RECHECK_MS - 1_000 + Math.random() * 2_000));
          function done() {
            clearTimeout(timer);
            controller.signal.removeEventListener('abort', done);
            wake = () => undefined;
            resolve();
          }
          wake = done;
          controller.signal.addEventListener('abort', done, { once: true });
        });
      }
    } finally {
      unsubscribe();
      abort.removeEventListener('abort', stop);
      waiting.delete(controller);
      if (waiting.size === 0) this.#waiting.delete(botId);
    }
  }

  /**
   * Records the bot's report on a command it took. The current attempt's report decides; an earlier
   * attempt's counts only when it says the command was done (what happened, happened), also after the
   * lease ran out. The first report stands: the same report again is answered as before, another
   * one is refused (409 code 1032). Polls waiting for the bot are woken: its ticket's next command
   * may be handed out now.
   */
  async report(botId: string, id: string, result: BotCommandResult): Promise<{ id: string; state: CommandState }> {
    const { db, clock, signals } = this.deps;
    const state = result.outcome === 'done' ? 'done' : 'failed';
    const { attempt, ...outcome } = result;
    // A reply written from a tag counts as the tag's use once it is done (tag_uses, migration 027).
    const { rows } = await db.query<{ id: string; guild_id: string; ticket_id: string }>(
      `WITH changed AS (UPDATE bot_commands SET state = $3, finished_at = $4, outcome = $5
         WHERE id = $1 AND bot_id = $2 AND state = 'taken' AND (attempts = $6 OR ($3 = 'done' AND attempts > $6))
         RETURNING id, bot_id, guild_id, ticket_id, kind, payload, requested_by, finished_at),
       used AS (INSERT INTO tag_uses (bot_id, source, ref, guild_id, ticket_id, tag_id, staff_id, at)
         SELECT bot_id, 'dashboard', id, guild_id, ticket_id, payload->>'tagId', requested_by->>'id', finished_at FROM changed
         WHERE $3 = 'done' AND kind = 'reply' AND payload->>'tagId' IS NOT NULL ON CONFLICT DO NOTHING)
       SELECT id, guild_id, ticket_id FROM changed`,
      [id, botId, state, iso(clock()), JSON.stringify(outcome), attempt],
    );
    if (rows.length > 0) {
      signals.publish(topic(botId));
      publishTickets(signals, rows, false);
      return { id, state };
    }
    const existing = await db.query<{ state: string; attempts: number; outcome: Record<string, unknown> | null }>('SELECT state, attempts, outcome FROM bot_commands WHERE id = $1 AND bot_id = $2', [id, botId]);
    const row = existing.rows[0];
    if (!row) throw new ApiHttpError('NOT_FOUND', { message: 'This bot has no command with this id.' });
    if (row.state === state && row.outcome !== null && canonicalJson(row.outcome) === canonicalJson(outcome)) return { id, state };
    if (Number(row.attempts) > 0 && attempt > Number(row.attempts)) throw new ApiHttpError('VALIDATION_FAILED', { message: `This command was handed out ${row.attempts} time(s): attempt ${attempt} is not one of them.` });
    if (row.state === 'taken') {
      throw new ApiHttpError('BOT_COMMAND_CLOSED', { message: `Attempt ${row.attempts} of this command is under way: only its report, or a report that the command was done, counts. Nothing was changed.` });
    }
    throw new ApiHttpError('BOT_COMMAND_CLOSED');
  }

  /** A command of `guildId` as the dashboard follows it, or null. */
  async get(guildId: string, id: string): Promise<CommandView | null> {
    const { rows } = await this.deps.db.query<CommandRow>('SELECT * FROM bot_commands WHERE id = $1 AND guild_id = $2', [id, guildId]);
    return rows[0] ? this.#view(rows[0], this.deps.clock()) : null;
  }

  /** Ends every waiting poll (empty): the instance is shutting down. */
  close(): void {
    for (const polls of this.#waiting.values()) for (const controller of polls) controller.abort();
  }

  #waitingOf(botId: string): Set<AbortController> {
    let polls = this.#waiting.get(botId);
    if (!polls) {
      polls = new Set();
      this.#waiting.set(botId, polls);
    }
    return polls;
  }

  /** Commands taken for a bot that is gone before they were sent: offered again now, not after their lease. */
  async #release(ids: string[]): Promise<void> {
    await this.deps.db.query(`UPDATE bot_commands SET lease_until = $2 WHERE id = ANY($1::text[]) AND state = 'taken'`, [ids, iso(this.deps.clock())]).catch(() => undefined);
  }

  #view(row: CommandRow, now: number): CommandView {
    const expiresAt = toMs(row.expires_at) ?? 0;
    const leaseUntil = toMs(row.lease_until);
    const finishedAt = toMs(row.finished_at);
    return {
      id: row.id,
      serverId: row.guild_id,
      ticketId: row.ticket_id,
      kind: row.kind as CommandView['kind'],
      state: effectiveState(row.state, now, expiresAt, leaseUntil),
      attempts: Number(row.attempts),
      requestedAt: iso(toMs(row.requested_at) ?? 0),
      expiresAt: iso(expiresAt),
      finishedAt: finishedAt === null ? null : iso(finishedAt),
      outcome: row.outcome,
      requestedBy: row.requested_by,
      payload: row.payload,
    };
  }
}

/** Where a command stands at `now`: the stored state, with expiry and lost leases read from the times. */
function effectiveState(stored: string, now: number, expiresAt: number, leaseUntil: number | null): CommandState {
  if (stored === 'done' || stored === 'failed') return stored;
  const leaseOver = leaseUntil === null || leaseUntil <= now;
  if (stored === 'taken' && !leaseOver) return 'taken';
  if (now >= expiresAt) return stored === 'taken' ? 'lost' : 'expired';
  return 'queued';
}
