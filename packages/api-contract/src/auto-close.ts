/**
 * When a ticket auto-closes (docs/api.md, "Auto-close"): the rules that apply to a ticket (its
 * panel's own, else the server's) and the due time of its next inactivity close, from the last
 * message of the member and of staff and the member's last "Keep open". The API computes the
 * Tickets queue's "closes in" with it; a bot follows the same steps (the demo bot's copy is
 * packages/sandbox/src/demo-bot/auto-close.ts, which talks to the API over HTTP only).
 */

import type { AutoCloseRules } from './server-config/automation';
import { z } from './zod-setup';

/** An hour as the rules count it. */
export const HOUR_MS = 3_600_000;

/** The rules a bot closes by; a `closed` event's reason names one (`autoCloseReason`). */
export const AUTO_CLOSE_RULES = ['member_silent', 'staff_silent', 'opener_left'] as const;
export type AutoCloseRule = (typeof AUTO_CLOSE_RULES)[number];

/** When an open ticket closes by itself, as the Tickets page shows it. */
export const TicketAutoClose = z.object({
  /** `member_silent`: staff spoke last and waits for the member; `staff_silent`: the member waits for staff. */
  rule: z.enum(['member_silent', 'staff_silent']),
  /** The due time (ISO); already past while the bot has not closed it yet. */
  at: z.string(),
  /** When the bot warns (ISO), or null without a warning. */
  warnAt: z.string().nullable(),
});
export type TicketAutoClose = z.infer<typeof TicketAutoClose>;

/** The rules a panel's tickets follow: its own when it has them, else the server's. */
export function effectiveAutoClose(
  config: { autoClose: AutoCloseRules; panels: ReadonlyArray<{ id: string; autoClose: AutoCloseRules | null }> },
  panelId: string | null,
): AutoCloseRules {
  const panel = panelId === null ? undefined : config.panels.find((candidate) => candidate.id === panelId);
  return panel?.autoClose ?? config.autoClose;
}

/** What the due time is computed from (epoch milliseconds; null: never happened). */
export interface TicketActivity {
  openedAt: number;
  /** The opener's last message (system lines not counted). */
  memberAt: number | null;
  /** Staff's last message (anyone but the opener and bots; a dashboard reply the bot posted counts). */
  staffAt: number | null;
  /** The opener's last "Keep open" (the `kept_open` event). */
  keptOpenAt: number | null;
}

/**
 * The next inactivity close: when staff spoke last, `memberSilentHours` after staff's last message;
 * otherwise (the member spoke last, or nobody has), `staffSilentHours` after the member's last
 * message (the opening when they wrote none). A "Keep open" later than that start counts from the
 * press instead. Null when the rule that applies is off. `hourMs` scales an hour (the demo bot's clock).
 */
export function autoCloseDue(rules: AutoCloseRules, activity: TicketActivity, hourMs = HOUR_MS): { rule: 'member_silent' | 'staff_silent'; at: number; warnAt: number | null } | null {
  const { staffAt, memberAt, keptOpenAt, openedAt } = activity;
  const staffLast = staffAt !== null && (memberAt === null || staffAt > memberAt);
  const rule = staffLast ? 'member_silent' : 'staff_silent';
  const hours = staffLast ? rules.memberSilentHours : rules.staffSilentHours;
  if (hours === null) return null;
  const since = Math.max(staffLast ? staffAt : (memberAt ?? openedAt), keptOpenAt ?? Number.NEGATIVE_INFINITY);
  const at = since + hours * hourMs;
  return { rule, at, warnAt: rules.warningHours > 0 ? at - rules.warningHours * hourMs : null };
}

/**
 * The reason of a `closed` event a bot sends when it closes by a rule: `Auto-close (<rule>): …`, so
 * the dashboard, Web Logs and the transcript say which rule closed it.
 */
export function autoCloseReason(rule: AutoCloseRule, hours: number | null): string {
  if (rule === 'opener_left') return 'Auto-close (opener_left): the member who opened this ticket left the server.';
  const span = `${hours} hour${hours === 1 ? '' : 's'}`;
  return rule === 'member_silent' ? `Auto-close (member_silent): no answer from the member for ${span}.` : `Auto-close (staff_silent): no answer from staff for ${span}.`;
}

/**
 * The bot's own warning when `warningMessage` is empty, in the server's language (`general.language`),
 * and its button's label. `{user}` is the member's mention, `{time}` a Discord timestamp of the close.
 */
export const AUTO_CLOSE_DEFAULT_WARNING = {
  en: '⏳ {user}, this ticket closes {time} because it has been quiet. Press **Keep open** or write here to keep it open.',
  de: '⏳ {user}, dieses Ticket wird {time} geschlossen, weil es ruhig geworden ist. Drücke **Offen lassen** oder schreib hier, damit es offen bleibt.',
} as const;
export const AUTO_CLOSE_KEEP_OPEN_LABEL = { en: 'Keep open', de: 'Offen lassen' } as const;
/** The custom id of the warning's button (the bot routes the press by it). */
export const AUTO_CLOSE_KEEP_OPEN_ID = 'autoclose:keep-open';

/** The warning as the bot posts it: the text with `{user}` and `{time}` filled in. */
export function autoCloseWarning(rules: Pick<AutoCloseRules, 'warningMessage'>, language: 'en' | 'de', userId: string, closesAt: number): string {
  const text = rules.warningMessage.trim() === '' ? AUTO_CLOSE_DEFAULT_WARNING[language] : rules.warningMessage;
  return text.replaceAll('{user}', `<@${userId}>`).replaceAll('{time}', `<t:${Math.floor(closesAt / 1000)}:R>`);
}
