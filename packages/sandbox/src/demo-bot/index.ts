/**
 * The demo bot: a simulated bot process that uses the product's bot API over HTTP exactly as a real
 * one would. Started by the all-in-one launcher in demo mode.
 * What it does and when: docs/sandbox.md#demo-bot.
 */
import { gzipSync } from 'node:zlib';
import { DEMO_APP, DEMO_GUILDS } from '../discord/demo-data';
import { type DemoEvent, type DemoServer, type DemoTicket, dayOf, demoServer, dueEvents, history, ticketsOfDay } from './history';
import { type LiveDesk, type LiveDeskOptions, startLiveDesk } from './live';
import { demoTranscript, transcriptFileId } from './transcripts';

export { demoServer, dueEvents, history } from './history';
export { demoTranscript } from './transcripts';

/** The demo bot's key to the bot API (demo mode only: public, like every demo credential). */
export const DEMO_BOT_API_KEY = 'tk_bot_demobot01_Tickety-demo-bot-key-not-a-secret-0001';

type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface DemoBotOptions {
  /** The API's public URL (`http://localhost:3000`). */
  apiBase: string;
  key: string;
  /** The sandbox CDN's base, for avatars in transcripts. */
  cdnBase: string;
  clock?: () => number;
  fetch?: FetchLike;
  /** Days of history (default 90). */
  days?: number;
  /** How often live events are sent (default 5 s) and shards heartbeat (default 15 s). */
  liveIntervalMs?: number;
  heartbeatMs?: number;
  /** Transcripts per server for recent closed tickets (default 12), and the two long ones (default on). */
  transcriptsPerServer?: number;
  longTranscripts?: boolean;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /**
   * The live desk (tickets in the sandbox's Discord) and the command loop, started `startAfterMs`
   * after the history is in (default: one live interval). Discord defaults to the sandbox mounted on
   * the API's origin (`<apiBase>/sandbox/discord`, as the all-in-one server does) with the demo
   * application's bot token. false: left out. docs/sandbox.md, "The demo bot's desk".
   */
  desk?: false | DeskSettings;
}

/** The desk's settings as `startDemoBot` takes them (everything else comes from the bot's own options). */
export type DeskSettings = Partial<Pick<LiveDeskOptions, 'discordApiBase' | 'sandboxBase' | 'botToken' | 'startTickets' | 'every' | 'maxOpen' | 'random' | 'commands' | 'waitSeconds' | 'backoffMs' | 'autoCloseHourMs'>> & {
  startAfterMs?: number;
};

/** Between two things happening at the desk on its own: 2 to 4 minutes. */
const DESK_EVERY = { minMs: 120_000, maxMs: 240_000 };

export interface SeedReport {
  servers: number;
  tickets: number;
  events: number;
  accepted: number;
  transcripts: number;
  ms: number;
}

export interface DemoBot {
  /** Resolves when the history, heartbeats and short transcripts are in (long ones follow). */
  ready: Promise<SeedReport>;
  /** Resolves when the long transcripts are in too. */
  done: Promise<void>;
  /** The live desk once it started (null: left out, or the bot stopped first). */
  live: Promise<LiveDesk | null>;
  stop(): Promise<void>;
}

const SHARDS = [
  { id: 0, state: 'ready', latency: 38, guilds: 1412 },
  { id: 1, state: 'ready', latency: 45, guilds: 1388 },
  { id: 2, state: 'resuming', latency: 912, guilds: 1297 },
  { id: 3, state: 'ready', latency: 41, guilds: 1430 },
] as const;

const BATCH = 1000;

/** What the demo bot reads of a server's configuration (`GET /api/bot/v1/servers/:server/config`). */
interface ConfigForBot {
  general?: { defaultCategoryId?: string | null; ticketNameScheme?: string };
  panels?: Array<{ id: string; name: string; supportRoleIds?: string[]; categoryId?: string | null; namingScheme?: string | null; form?: Array<{ label: string }> }>;
}

/** Starts the demo bot. */
export function startDemoBot(options: DemoBotOptions): DemoBot {
  const clock = options.clock ?? Date.now;
  const doFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const days = options.days ?? 90;
  const log = options.log ?? { info: () => undefined, warn: () => undefined };
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;
  let servers: DemoServer[] = [];
  let lastLive = 0;
  let desk: LiveDesk | null = null;

  async function call(method: string, path: string, body?: unknown, gzip = false): Promise<Response> {
    const json = body === undefined ? undefined : JSON.stringify(body);
    for (let attempt = 0; ; attempt++) {
      if (stopped) throw new Error('the demo bot stopped');
      let res: Response | null = null;
      try {
        res = await doFetch(`${options.apiBase}/api/bot/v1${path}`, {
          method,
          headers: {
            authorization: `Bearer ${options.key}`,
            ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(gzip ? { 'content-encoding': 'gzip' } : {}),
          },
          ...(json !== undefined ? { body: gzip ? gzipSync(json) : json } : {}),
        });
      } catch (error) {
        if (attempt >= 5) throw error;
      }
      if (res && res.status !== 429 && res.status < 500) return res;
      if (attempt >= 5) return res!;
      const retryAfter = Number(res?.headers.get('retry-after') ?? '0');
      await new Promise((ok) => setTimeout(ok, Math.max(retryAfter * 1000, 250 * 2 ** attempt)));
    }
  }

  async function send(events: DemoEvent[]): Promise<number> {
    let accepted = 0;
    for (let i = 0; i < events.length; i += BATCH) {
      const res = await call('POST', '/events', { events: events.slice(i, i + BATCH) });
      const body = (await res.json()) as { accepted?: number; message?: string };
      if (res.status !== 200) throw new Error(`the bot API refused events: ${res.status} ${body.message ?? ''}`);
      accepted += body.accepted ?? 0;
    }
    return accepted;
  }

  async function heartbeat(): Promise<void> {
    const time = clock();
    const shards = SHARDS.map((s) => ({ id: s.id, state: s.state, latencyMs: s.latency + Math.round(((time / 1000) % 7) - 3), guilds: s.guilds }));
    const res = await call('PUT', '/shards', { shards });
    if (res.status !== 204) throw new Error(`the bot API refused the heartbeat: ${res.status}`);
  }

  async function loadServers(): Promise<DemoServer[]> {
    const found: DemoServer[] = [];
    for (const guild of Object.values(DEMO_GUILDS).filter((g) => g.botInGuild)) {
      const res = await call('GET', `/servers/${guild.id}/config`);
      if (res.status !== 200) continue;
      const { config } = (await res.json()) as { config: ConfigForBot };
      const general = config.general ?? {};
      const panels = (config.panels ?? []).map((panel) => ({
        id: panel.id,
        name: panel.name,
        supportRoleIds: panel.supportRoleIds ?? [],
        question: panel.form?.[0]?.label ?? null,
        categoryId: panel.categoryId ?? general.defaultCategoryId ?? null,
        namingScheme: panel.namingScheme ?? general.ticketNameScheme ?? 'ticket-{count}',
        questions: (panel.form ?? []).map((q) => q.label),
      }));
      if (panels.length > 0) found.push(demoServer(guild.id, guild.name, panels));
    }
    return found;
  }

  async function upload(server: DemoServer, ticket: DemoTicket, fileId: string, messages?: number): Promise<boolean> {
    // Links to the files are fresh, as Discord gives them to a bot reading the channel before it uploads.
    const transcript = demoTranscript(server, ticket, { cdnBase: options.cdnBase, issuedMs: clock(), ...(messages ? { messages } : {}) });
    const res = await call('PUT', `/servers/${server.id}/transcripts/${fileId}`, transcript, true);
    if (res.status !== 200) {
      log.warn({ server: server.id, fileId, status: res.status, body: (await res.text()).slice(0, 300) }, 'demo bot: a transcript was refused');
      return false;
    }
    const at = new Date(Math.max(Date.parse(transcript.ticket.closedAt), clock() - 1000)).toISOString();
    await send([{ id: `${server.id}:${ticket.ticketId}:t:${fileId}`, serverId: server.id, ticketId: ticket.ticketId, at, type: 'transcript_stored', fileId }]);
    return true;
  }

  /** Closed tickets of the last two weeks, newest first, at most `count`; the demo users' first. */
  function recentClosed(tickets: DemoTicket[], count: number): DemoTicket[] {
    const now = clock();
    const closed = tickets.filter((t) => t.finalClosedAt !== null && t.finalClosedAt <= now && t.openedAt > now - 14 * 86_400_000).reverse();
    const byDemoUser = closed.filter((t) => t.openerId.length === 19 && t.openerId.startsWith('10000000000000000'));
    return [...new Set([...byDemoUser.slice(0, 3), ...closed])].slice(0, count);
  }

  async function live(): Promise<void> {
    const now = clock();
    const events: DemoEvent[] = [];
    const tick = Math.floor(now / (options.liveIntervalMs ?? 5000));
    // A ticket the desk adopted (or auto-close closed) is the desk's from then on: the history no longer scripts it.
    const adopted = new Set([...(desk?.tickets() ?? []).map((t) => `${t.serverId}:${t.ticketId}`), ...(desk?.autoClosedHistory() ?? [])]);
    for (const server of servers) {
      const all = [...ticketsOfDay(server, dayOf(now) - 86_400_000), ...ticketsOfDay(server, dayOf(now))];
      const today = all.filter((t) => !adopted.has(`${server.id}:${t.ticketId}`));
      events.push(...dueEvents(today, now).filter((e) => Date.parse(e.at) > lastLive));
      // The message counts of open tickets move while people talk.
      for (const ticket of today.filter((x) => x.openedAt <= now && (x.closedAt === null || x.closedAt > now)).slice(0, 5)) {
        const total = 2 + Math.floor((now - ticket.openedAt) / 120_000);
        events.push({ id: `${server.id}:${ticket.ticketId}:live:${tick}`, serverId: server.id, ticketId: ticket.ticketId, at: new Date(now).toISOString(), type: 'messages', total, staff: ticket.firstResponseAt !== null && ticket.firstResponseAt <= now ? Math.floor(total / 2) : 0 });
      }
    }
    lastLive = now;
    if (events.length > 0) await send(events);
  }

  const guard = (what: string, task: () => Promise<unknown>) => () => {
    if (stopped) return;
    task().catch((error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, `demo bot: ${what} failed (tried again later)`));
  };

  let long: Promise<void> = Promise.resolve();

  const ready = (async (): Promise<SeedReport> => {
    const started = Date.now();
    await heartbeat();
    timers.push(setInterval(guard('heartbeat', heartbeat), options.heartbeatMs ?? 15_000).unref());
    servers = await loadServers();
    const now = clock();
    let tickets = 0;
    let events = 0;
    let accepted = 0;
    let transcripts = 0;
    const all = new Map<string, DemoTicket[]>();
    for (const server of servers) {
      const list = history(server, now, days);
      all.set(server.id, list);
      const due = dueEvents(list, now);
      tickets += list.length;
      events += due.length;
      accepted += await send(due);
    }
    lastLive = now;
    for (const server of servers) {
      for (const ticket of recentClosed(all.get(server.id) ?? [], options.transcriptsPerServer ?? 12)) {
        if (await upload(server, ticket, transcriptFileId(ticket))) transcripts++;
      }
    }
    timers.push(setInterval(guard('live events', live), options.liveIntervalMs ?? 5000).unref());
    const report = { servers: servers.length, tickets, events, accepted, transcripts, ms: Date.now() - started };
    log.info(report, 'demo bot: history and transcripts sent');
    // The long tickets, after the rest: the first server's two oldest closed tickets.
    const first = servers[0];
    const closed = (all.get(first?.id ?? '') ?? []).filter((t) => t.finalClosedAt !== null && t.finalClosedAt <= now);
    if (first && (options.longTranscripts ?? true) && closed.length >= 2) {
      long = (async () => {
        try {
          await upload(first, closed[0]!, transcriptFileId(closed[0]!, '-long'), 5_000);
          await upload(first, closed[1]!, transcriptFileId(closed[1]!, '-very-long'), 50_000);
          log.info({ server: first.id }, 'demo bot: the 5,000- and 50,000-message transcripts are in');
        } catch (error) {
          if (!stopped) log.warn({ err: error instanceof Error ? error.message : String(error) }, 'demo bot: the long transcripts failed');
        }
      })();
    }
    return report;
  })();
  ready.then(
    () => undefined,
    (error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, 'demo bot: seeding failed'),
  );
  const done = ready.then(
    () => long,
    () => undefined,
  );

  let deskTimer: NodeJS.Timeout | null = null;
  const liveDesk = new Promise<LiveDesk | null>((resolve) => {
    if (options.desk === false) return resolve(null);
    const settings = options.desk ?? {};
    ready.then(
      () => {
        if (stopped) return resolve(null);
        deskTimer = setTimeout(() => {
          deskTimer = null;
          if (stopped) return resolve(null);
          const sandboxBase = settings.sandboxBase ?? `${options.apiBase}/sandbox/discord`;
          desk = startLiveDesk(
            {
              ...settings,
              apiBase: options.apiBase,
              key: options.key,
              cdnBase: options.cdnBase,
              sandboxBase,
              discordApiBase: settings.discordApiBase ?? `${sandboxBase}/api/v10`,
              botToken: settings.botToken ?? DEMO_APP.botToken,
              servers,
              clock,
              every: settings.every === undefined ? DESK_EVERY : settings.every,
              log,
              ...(options.fetch ? { fetch: options.fetch } : {}),
            },
            call,
          );
          resolve(desk);
        }, settings.startAfterMs ?? options.liveIntervalMs ?? 5000);
        deskTimer.unref();
      },
      () => resolve(null),
    );
  });

  return {
    ready,
    done,
    live: liveDesk,
    async stop() {
      stopped = true;
      for (const timeout of timers) clearInterval(timeout);
      if (deskTimer) clearTimeout(deskTimer);
      await (desk as LiveDesk | null)?.stop();
      await done.catch(() => undefined);
    },
  };
}
