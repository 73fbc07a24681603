/**
 * The demo bot's live half, started once its history is in: the desk (live tickets in the sandbox's
 * Discord) and the command loop, with the controls tests and the sandbox's `/_control/demo-bot/*`
 * routes use to make things happen now (docs/sandbox.md, "The demo bot's desk").
 */
import { AUTO_CLOSER_ID, AutoCloser, HOUR_MS, HOUR_MS_MIN } from './auto-close';
import type { Refusal } from './blocklist';
import { type CommandLoop, close, startCommandLoop } from './commands';
import { Desk, type DeskOptions, type DeskTicket } from './desk';
import { type FeedbackQuestion, feedbackQuestions, leaveToControls, rate, stopFeedback } from './feedback';
import { staffWrites } from './tags';

export interface LiveTicketInfo {
  serverId: string;
  ticketId: string;
  channelId: string;
  channelName: string;
  /** Null for an adopted ticket the desk cannot place (docs/sandbox.md, "The demo bot's desk"). */
  number: number | null;
  openerId: string | null;
  adopted: boolean;
  claimedBy: string | null;
  labels: string[];
  closed: boolean;
  messages: number;
}

/** What tests (and the sandbox's control routes) can ask of the running desk. */
export interface LiveDesk {
  /** Resolves once the start tickets are open (rejects if opening them failed). */
  readonly started: Promise<void>;
  /** Opens a ticket now (in `serverId`, else the first server the desk works in; for `userId`, else one of its members). A blocked member: `TicketRefused`. */
  openTicket(serverId?: string, userId?: string): Promise<LiveTicketInfo>;
  /** The tickets the blocklist refused so far, oldest first (blocklist.ts). */
  refusals(): Refusal[];
  /** The opener writes now in `ticketId` (else in a random open ticket). */
  memberWrites(ticketId?: string): Promise<LiveTicketInfo & { messageId: string }>;
  tickets(): LiveTicketInfo[];
  /** A support member (`staffId`, else the ticket's) writes `content` now; `/tag <name>` uses a tag (tags.ts). */
  staffWrites(ticketId: string, content: string, staffId?: string): Promise<LiveTicketInfo & { messageId: string; tagId: string | null }>;
  /** The opener presses the auto-close warning's "Keep open" in `ticketId` (auto-close.ts). */
  keepOpen(ticketId: string): Promise<LiveTicketInfo>;
  /** The opener of `ticketId` leaves the server: closed when the rules say so. */
  openerLeaves(ticketId: string): Promise<LiveTicketInfo & { autoClosed: boolean }>;
  /** History tickets auto-close closed (`serverId:ticketId`): the history scripts them no more. */
  autoClosedHistory(): string[];
  /** How long an hour lasts for auto-close (ms); sets it when given. */
  hourMs(set?: number): number;
  /** The feedback questions asked after closes, newest first, and the opener's answer (feedback.ts). */
  feedback(): FeedbackQuestion[];
  rate(serverId: string, ticketId: string, rating: number, comment: string | null): Promise<FeedbackQuestion>;
  /** Commands carried out so far. */
  readonly commandsHandled: number;
  stop(): Promise<void>;
}

export interface LiveDeskOptions extends DeskOptions {
  /** Poll and carry out the dashboard's commands (default true). */
  commands?: boolean;
  waitSeconds?: number;
  backoffMs?: { first: number; max: number };
  /** How long an hour lasts for auto-close (default a real hour; DEMO_BOT_HOUR_MS in `npm start`). */
  autoCloseHourMs?: number;
}

/** Refused input of a control (an unknown server or ticket): the control route answers 400. */
export class LiveDeskInputError extends Error {}

const running: LiveDesk[] = [];

/** The desk started last and still running (the sandbox's control routes act on it), if any. */
export function runningDesk(): LiveDesk | undefined {
  return running.at(-1);
}

function infoOf(ticket: DeskTicket): LiveTicketInfo {
  return {
    serverId: ticket.server.id,
    ticketId: ticket.ticketId,
    channelId: ticket.channelId,
    channelName: ticket.channelName,
    number: ticket.number,
    openerId: ticket.openerId,
    adopted: ticket.adopted,
    claimedBy: ticket.claimedBy,
    labels: [...ticket.labels],
    closed: ticket.closed !== null,
    messages: ticket.messages.length,
  };
}

export function startLiveDesk(options: LiveDeskOptions, botApi: ConstructorParameters<typeof Desk>[1]): LiveDesk {
  const desk = new Desk(options, botApi);
  const closer = new AutoCloser(
    desk,
    async (ticket, reason, line) => {
      const outcome = await close(desk, ticket, { requestedBy: { id: AUTO_CLOSER_ID, name: 'Tickety', avatarUrl: null }, reason }, line);
      if (outcome.outcome === 'failed') throw new Error(`auto-close of ${ticket.ticketId}: ${outcome.reason}`);
    },
    options.autoCloseHourMs,
  );
  desk.autoClose = closer;
  closer.start();
  const started = desk.start();
  started.catch((error: unknown) => desk.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'demo bot: the desk could not open its tickets'));
  const loop: CommandLoop | null = options.commands === false ? null : startCommandLoop(desk, { apiBase: options.apiBase, key: options.key, ...(options.fetch ? { fetch: options.fetch } : {}), ...(options.waitSeconds !== undefined ? { waitSeconds: options.waitSeconds } : {}), ...(options.backoffMs ? { backoffMs: options.backoffMs } : {}) });
  const openTicket = (ticketId: string) => {
    const ticket = desk.openTickets().find((t) => t.ticketId === ticketId && t.openerId !== null);
    if (!ticket) throw new LiveDeskInputError(`No open ticket ${ticketId} the demo bot knows the opener of.`);
    return ticket;
  };
  const live: LiveDesk = {
    started,
    async openTicket(serverId, userId) {
      if (userId !== undefined && !/^\d{17,20}$/.test(userId)) throw new LiveDeskInputError(`"userId" must be a Discord user id, not ${JSON.stringify(userId.slice(0, 40))}.`);
      const server = serverId === undefined ? desk.deskServers()[0] : desk.deskServers().find((s) => s.id === serverId);
      if (!server) throw new LiveDeskInputError(serverId === undefined ? 'The demo bot works in no server with a ticket category.' : `The demo bot opens no tickets in server ${serverId}.`);
      return infoOf(leaveToControls(desk, await desk.serial(() => desk.openTicket(server, 'waiting', userId))));
    },
    async memberWrites(ticketId) {
      const open = desk.openTickets().filter((t) => t.openerId !== null);
      const ticket = ticketId === undefined ? open[Math.floor(desk.random() * open.length)] : open.find((t) => t.ticketId === ticketId);
      if (!ticket) throw new LiveDeskInputError(ticketId === undefined ? 'No ticket is open.' : `No open ticket ${ticketId}.`);
      const message = await desk.serial(() => desk.memberWrites(ticket));
      return { ...infoOf(ticket), messageId: message.id };
    },
    tickets: () => [...desk.tickets.values()].map(infoOf),
    async staffWrites(ticketId, content, staffId) {
      const ticket = desk.openTickets().find((t) => t.ticketId === ticketId);
      if (!ticket) throw new LiveDeskInputError(`No open ticket ${ticketId}.`);
      const wrote = await desk.serial(() => staffWrites(desk, ticket, content, staffId));
      return { ...infoOf(ticket), ...wrote };
    },
    async keepOpen(ticketId) {
      const ticket = openTicket(ticketId);
      await desk.serial(() => closer.keepOpen(ticket));
      return infoOf(ticket);
    },
    async openerLeaves(ticketId) {
      const ticket = openTicket(ticketId);
      const autoClosed = await desk.serial(() => closer.openerLeft(ticket));
      return { ...infoOf(ticket), autoClosed };
    },
    autoClosedHistory: () => [...closer.closedHistory],
    hourMs(set) {
      if (set !== undefined) {
        if (!Number.isFinite(set) || set < HOUR_MS_MIN || set > HOUR_MS) throw new LiveDeskInputError(`An hour lasts ${HOUR_MS_MIN} to ${HOUR_MS} ms.`);
        closer.setHourMs(set);
      }
      return closer.hourMs;
    },
    refusals: () => [...desk.blocklist.refusals],
    feedback: () => feedbackQuestions(desk),
    rate: (serverId, ticketId, rating, comment) => desk.serial(() => rate(desk, serverId, ticketId, rating, comment)),
    get commandsHandled() {
      return loop?.handled ?? 0;
    },
    async stop() {
      desk.stop();
      closer.stop();
      stopFeedback(desk);
      const index = running.indexOf(live);
      if (index !== -1) running.splice(index, 1);
      await loop?.stop();
      await started.catch(() => undefined);
    },
  };
  running.push(live);
  return live;
}
