/**
 * The demo bot's auto-close (docs/sandbox.md, "Auto-close"): it reads each server's rules from the
 * configuration through the bot API, warns in a ticket (with a "Keep open" button) before an
 * inactivity close, closes when due, and closes a ticket whose opener left the server. The due time
 * is computed as docs/api.md, "Auto-close", says (the API's copy: packages/api-contract/src/auto-close.ts;
 * the demo bot, like any bot, only talks HTTP). `hourMs` is the demo's clock: how long an hour lasts.
 */
import { DEMO_APP } from '../discord/demo-data';
import type { Desk, DeskTicket } from './desk';
import { deskKey } from './desk';
import { DAY_MS, dayOf, ticketsOfDay } from './history';

/** What the bot reads of the rules (`config.autoClose`, `panels[].autoClose`; null: the server's). */
export interface AutoCloseRulesRead {
  memberSilentHours: number | null;
  staffSilentHours: number | null;
  onOpenerLeave: boolean;
  warningHours: number;
  warningMessage: string;
}

interface RulesOfServer {
  language: string;
  server: AutoCloseRulesRead | null;
  panels: Map<string, AutoCloseRulesRead | null>;
}

/** A ticket's activity as the bot saw it (epoch ms). */
interface Activity {
  memberAt: number | null;
  staffAt: number | null;
  keptOpenAt: number | null;
  /** The due time the warning was posted for (a new due time warns again), and when it said the ticket closes. */
  warnedFor: number | null;
  closesAt?: number;
}

export const HOUR_MS = 3_600_000;
/** The bot's id as the `closed` event names it when a rule closed the ticket. */
export const AUTO_CLOSER_ID = DEMO_APP.clientId;
/** The shortest hour the demo's clock takes (tests), and the longest (a real one). */
export const HOUR_MS_MIN = 100;
const RULES_REFRESH_MS = 5_000;
export const KEEP_OPEN_ID = 'autoclose:keep-open';

const WORDS = {
  en: {
    warning: '⏳ {user}, this ticket closes {time} because it has been quiet. Press **Keep open** or write here to keep it open.',
    button: 'Keep open',
  },
  de: {
    warning: '⏳ {user}, dieses Ticket wird {time} geschlossen, weil es ruhig geworden ist. Drücke **Offen lassen** oder schreib hier, damit es offen bleibt.',
    button: 'Offen lassen',
  },
} as const;

/** The rule's due time: docs/api.md, "Auto-close" (the same steps as the API's `autoCloseDue`). */
export function dueOf(rules: AutoCloseRulesRead, openedAt: number, activity: Pick<Activity, 'memberAt' | 'staffAt' | 'keptOpenAt'>, hourMs: number) {
  const { staffAt, memberAt, keptOpenAt } = activity;
  const staffLast = staffAt !== null && (memberAt === null || staffAt > memberAt);
  const hours = staffLast ? rules.memberSilentHours : rules.staffSilentHours;
  if (hours === null) return null;
  const since = Math.max(staffLast ? staffAt : (memberAt ?? openedAt), keptOpenAt ?? Number.NEGATIVE_INFINITY);
  const at = since + hours * hourMs;
  return { rule: staffLast ? ('member_silent' as const) : ('staff_silent' as const), hours, at, warnAt: rules.warningHours > 0 ? at - rules.warningHours * hourMs : null };
}

/** The `closed` event's reason, naming the rule (docs/api.md, "Auto-close"). */
export function closeReason(rule: 'member_silent' | 'staff_silent' | 'opener_left', hours: number | null): string {
  if (rule === 'opener_left') return 'Auto-close (opener_left): the member who opened this ticket left the server.';
  const span = `${hours} hour${hours === 1 ? '' : 's'}`;
  return rule === 'member_silent' ? `Auto-close (member_silent): no answer from the member for ${span}.` : `Auto-close (staff_silent): no answer from staff for ${span}.`;
}

/** Closes a ticket as the bot (commands.ts's close steps with the bot's own line). */
export type CloseAsBot = (ticket: DeskTicket, reason: string, line: string) => Promise<void>;

export class AutoCloser {
  hourMs: number;
  readonly #rules = new Map<string, RulesOfServer>();
  readonly #activity = new Map<string, Activity>();
  #readAt = 0;
  #historyAt = 0;
  /** The generated history's open tickets the bot closed by a rule (`deskKey`): the history scripts them no more. */
  readonly closedHistory = new Set<string>();
  #timer: NodeJS.Timeout | null = null;
  #checking = false;

  constructor(
    private readonly desk: Desk,
    private readonly closeAsBot: CloseAsBot,
    hourMs = HOUR_MS,
  ) {
    this.hourMs = clampHour(hourMs);
  }

  /** Sets how long an hour lasts (ms) and checks at the new pace. */
  setHourMs(hourMs: number): void {
    this.hourMs = clampHour(hourMs);
    this.#readAt = 0;
    if (this.#timer) this.start();
  }

  /** Checks every 1/20 of an hour (at least every 100 ms, at most every minute). */
  start(): void {
    this.stop();
    const every = Math.min(60_000, Math.max(100, Math.floor(this.hourMs / 20)));
    this.#timer = setInterval(() => {
      if (this.#checking) return;
      this.#checking = true;
      this.desk
        .serial(() => this.check())
        .catch((error: unknown) => this.desk.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'demo bot: auto-close failed (tried again later)'))
        .finally(() => {
          this.#checking = false;
        });
    }, every);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  #of(ticket: DeskTicket): Activity {
    const key = deskKey(ticket.server.id, ticket.ticketId);
    let activity = this.#activity.get(key);
    if (!activity) {
      activity = { memberAt: null, staffAt: null, keptOpenAt: null, warnedFor: null };
      this.#activity.set(key, activity);
    }
    return activity;
  }

  /** A message in a ticket (desk.ts's `record`): the opener's counts as the member's, a person's or a staff reply as staff's. */
  noted(ticket: DeskTicket, authorId: string, bot: boolean, staff: boolean, at: number): void {
    const activity = this.#of(ticket);
    if (authorId === ticket.openerId) activity.memberAt = Math.max(activity.memberAt ?? at, at);
    else if (staff || !bot) activity.staffAt = Math.max(activity.staffAt ?? at, at);
  }

  /** Reads each server's rules again (at most every 5 s; `force`: now). */
  async readRules(force = false): Promise<void> {
    const now = Date.now();
    if (!force && now - this.#readAt < RULES_REFRESH_MS) return;
    this.#readAt = now;
    for (const server of this.desk.options.servers) {
      const res = await this.desk.botApi('GET', `/servers/${server.id}/config`);
      if (res.status !== 200) {
        await res.text().catch(() => undefined);
        continue;
      }
      const { config } = (await res.json()) as { config: { general?: { language?: string }; autoClose?: AutoCloseRulesRead; panels?: Array<{ id: string; autoClose?: AutoCloseRulesRead | null }> } };
      this.#rules.set(server.id, {
        language: config.general?.language ?? 'en',
        server: config.autoClose ?? null,
        panels: new Map((config.panels ?? []).map((panel) => [panel.id, panel.autoClose ?? null])),
      });
    }
  }

  rulesOf(ticket: Pick<DeskTicket, 'server' | 'panel'>): AutoCloseRulesRead | null {
    const rules = this.#rules.get(ticket.server.id);
    return rules?.panels.get(ticket.panel.id) ?? rules?.server ?? null;
  }

  /**
   * The generated history's open tickets (of today and yesterday, as the history scripts them): no
   * channel and no messages, so, as the API counts, `staffSilentHours` from the opening; closed by
   * the `closed` event alone (no warning: there is no channel to post it in). At most once a second.
   */
  async #closeHistory(now: number): Promise<void> {
    if (Date.now() - this.#historyAt < 1000) return;
    this.#historyAt = Date.now();
    for (const server of this.desk.options.servers) {
      for (const ticket of [...ticketsOfDay(server, dayOf(now) - DAY_MS), ...ticketsOfDay(server, dayOf(now))]) {
        const key = deskKey(server.id, ticket.ticketId);
        if (ticket.openedAt > now || (ticket.closedAt !== null && ticket.closedAt <= now) || ticket.reopenedAt !== null) continue;
        if (this.closedHistory.has(key) || this.desk.tickets.has(key)) continue;
        const rules = this.rulesOf({ server, panel: { id: ticket.panelId } as DeskTicket['panel'] });
        const due = rules ? dueOf(rules, ticket.openedAt, { memberAt: null, staffAt: null, keptOpenAt: null }, this.hourMs) : null;
        if (!due || now < due.at) continue;
        this.closedHistory.add(key);
        const event = { id: `${server.id}:${ticket.ticketId}:auto-close`, serverId: server.id, ticketId: ticket.ticketId, at: new Date(now).toISOString(), type: 'closed', closedBy: AUTO_CLOSER_ID, reason: closeReason(due.rule, due.hours) };
        const res = await this.desk.botApi('POST', '/events', { events: [event] });
        if (res.status !== 200) this.desk.log.warn({ ticket: ticket.ticketId, status: res.status }, 'demo bot: an auto-close of a history ticket was refused');
        await res.text().catch(() => undefined);
      }
    }
  }

  /**
   * Warns and closes what is due: the desk's tickets (an adopted one counts from the messages since it
   * was adopted, as the API does: it has no others), then the history's open ones.
   */
  async check(): Promise<void> {
    await this.readRules();
    const now = this.desk.clock();
    await this.#closeHistory(now);
    for (const ticket of this.desk.openTickets()) {
      if (ticket.openerId === null) continue;
      const rules = this.rulesOf(ticket);
      if (!rules) continue;
      const activity = this.#of(ticket);
      const due = dueOf(rules, ticket.openedAt, activity, this.hourMs);
      if (!due) continue;
      // The member always gets the warning and its hours: one not posted yet (the bot was away, the
      // rules or the clock just changed) is posted now, and the close waits its hours from now.
      if (due.warnAt !== null && activity.warnedFor !== due.at) {
        if (now < due.warnAt) continue;
        activity.warnedFor = due.at;
        activity.closesAt = Math.max(due.at, now + rules.warningHours * this.hourMs);
        await this.#warn(ticket, rules, activity.closesAt);
        continue;
      }
      if (now >= (due.warnAt === null ? due.at : Math.max(due.at, activity.closesAt ?? due.at))) {
        const reason = closeReason(due.rule, due.hours);
        const why = due.rule === 'member_silent' ? `no answer from <@${ticket.openerId}> for ${plural(due.hours)}` : `no answer from the support team for ${plural(due.hours)}`;
        await this.closeAsBot(ticket, reason, `🔒 This ticket was closed automatically: ${why}. The conversation is kept as a transcript.`);
      }
    }
  }

  async #warn(ticket: DeskTicket, rules: AutoCloseRulesRead, at: number): Promise<void> {
    const language = this.#rules.get(ticket.server.id)?.language === 'de' ? 'de' : 'en';
    const words = WORDS[language];
    const text = (rules.warningMessage.trim() || words.warning).replaceAll('{user}', `<@${ticket.openerId}>`).replaceAll('{time}', `<t:${Math.floor(at / 1000)}:R>`);
    const scaled = this.hourMs === HOUR_MS ? '' : `\n-# Demo clock: one hour lasts ${formatMs(this.hourMs)}.`;
    const message = await this.desk.discord.call<Parameters<Desk['record']>[1]>('POST', `/channels/${ticket.channelId}/messages`, {
      content: `${text}${scaled}`.slice(0, 2000),
      allowed_mentions: { users: [ticket.openerId] },
      components: [{ type: 1, components: [{ type: 2, style: 1, label: words.button, custom_id: KEEP_OPEN_ID }] }],
    });
    await this.desk.record(ticket, message);
  }

  /** The opener pressed "Keep open": a line, the `kept_open` event, and the count starts again. */
  async keepOpen(ticket: DeskTicket): Promise<void> {
    if (ticket.openerId === null) return;
    const message = await this.desk.botSays(ticket, `👍 <@${ticket.openerId}> asked to keep this ticket open.`);
    const at = Date.parse(message.timestamp) || this.desk.clock();
    const activity = this.#of(ticket);
    activity.keptOpenAt = at;
    activity.warnedFor = null;
    await this.desk.events(ticket, [{ id: this.desk.eventId(ticket, `k:${message.id}`), type: 'kept_open', at: new Date(at).toISOString(), by: ticket.openerId }]);
  }

  /** The opener left the server: closed when the rules say so (`onOpenerLeave`), else a line says it. */
  async openerLeft(ticket: DeskTicket): Promise<boolean> {
    await this.readRules(true);
    const rules = this.rulesOf(ticket);
    if (rules?.onOpenerLeave) {
      await this.closeAsBot(ticket, closeReason('opener_left', null), `🔒 This ticket was closed automatically: <@${ticket.openerId}> left the server. The conversation is kept as a transcript.`);
      return true;
    }
    await this.desk.botSays(ticket, `🚪 <@${ticket.openerId}> left the server.`);
    return false;
  }
}

function clampHour(hourMs: number): number {
  if (!Number.isFinite(hourMs)) return HOUR_MS;
  return Math.min(HOUR_MS, Math.max(HOUR_MS_MIN, Math.round(hourMs)));
}

function plural(hours: number): string {
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
