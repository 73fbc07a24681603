/**
 * Feedback after close: when a ticket whose panel asks for feedback closes (`panel.feedback`, null:
 * the server's `feedback.enabled`, read fresh from the bot API), the demo bot asks its opener for a
 * rating of 1 to 5 stars and a comment, and reports the answer as `rated`. Discord's way is a direct
 * message with five buttons and a modal for the comment; the sandbox's Discord has no direct
 * messages, so the desk keeps the message it would send, and it is answered through the controls
 * (`feedback()`, `rate()`) or, when the desk runs on its own, by the simulated opener after a while.
 * docs/sandbox.md, "The demo bot's desk".
 */
import { type Desk, type DeskTicket, deskKey } from './desk';
import { hash, prng } from './history';

/** The bot's own question when the server's is empty, in the server's language (the contract's FEEDBACK_DEFAULT_QUESTION). */
export const DEFAULT_QUESTIONS: Record<string, string> = {
  en: 'How did we do? Rate your ticket from 1 to 5 stars and tell us what you think.',
  de: 'Wie haben wir dir geholfen? Bewerte dein Ticket mit 1 bis 5 Sternen und sag uns deine Meinung.',
};
const WORDS: Record<string, { closed: string; comment: string; placeholder: string; thanks: string }> = {
  en: { closed: 'Your ticket #{number} in {server} was closed.', comment: 'A comment (optional)', placeholder: 'What went well, what could be better?', thanks: 'Thanks for your feedback!' },
  de: { closed: 'Dein Ticket #{number} auf {server} wurde geschlossen.', comment: 'Ein Kommentar (optional)', placeholder: 'Was war gut, was können wir besser machen?', thanks: 'Danke für dein Feedback!' },
};
/** The comment's longest (the `rated` event takes 1,024 characters). */
export const COMMENT_MAX = 1000;
/** Questions kept per desk (the oldest answered ones go first). */
const KEPT_MAX = 200;

const OPENER_ANSWERS: Array<[number, string | null]> = [
  [5, 'Quick and friendly, thank you!'],
  [5, null],
  [4, 'Solved, though it took a while.'],
  [5, 'Great help, the problem is gone.'],
  [3, 'Okay in the end, but I had to explain it twice.'],
  [4, null],
  [2, 'Slow answers.'],
];

/** What the member is sent, as Discord takes a message (content, embed, the five buttons) and the comment's modal. */
export interface FeedbackMessage {
  embeds: Array<{ title: string; description: string; color: number }>;
  components: Array<{ type: 1; components: Array<{ type: 2; style: 2; label: string; custom_id: string }> }>;
  modal: { custom_id: string; title: string; components: Array<{ type: 1; components: Array<{ type: 4; custom_id: string; style: 2; label: string; placeholder: string; required: false; max_length: number }> }> };
  thanks: string;
}

export interface FeedbackQuestion {
  serverId: string;
  ticketId: string;
  number: number | null;
  openerId: string;
  language: string;
  question: string;
  askedAt: string;
  /** What the opener would see in their direct messages. */
  message: FeedbackMessage;
  answer: { rating: number; comment: string | null; at: string } | null;
}

/** A control's refused input (answered 400 by the sandbox's control routes). */
export class FeedbackInputError extends Error {}

/** What the bot reads of the configuration for feedback (`GET /api/bot/v1/servers/:server/config`). */
interface FeedbackConfig {
  general?: { language?: string };
  feedback?: { enabled?: boolean; question?: string };
  panels?: Array<{ id: string; feedback?: boolean | null }>;
}

interface DeskFeedback {
  questions: Map<string, FeedbackQuestion>;
  /** Tickets opened through the controls: their openers answer through the controls only. */
  controlled: WeakSet<DeskTicket>;
  timers: Set<NodeJS.Timeout>;
  /** The simulated opener answers after this long; null: only through `rate`. */
  answerAfter: { minMs: number; maxMs: number } | null;
}

const byDesk = new WeakMap<Desk, DeskFeedback>();

function stateOf(desk: Desk): DeskFeedback {
  let state = byDesk.get(desk);
  if (!state) {
    // The opener answers on their own only while the desk runs on its own (tests ask through `rate`).
    const every = desk.options.every;
    state = { questions: new Map(), controlled: new WeakSet(), timers: new Set(), answerAfter: every ? { minMs: 20_000, maxMs: 60_000 } : null };
    byDesk.set(desk, state);
  }
  return state;
}

export function feedbackMessage(serverId: string, ticketId: string, serverName: string, number: number | null, question: string, language: string): FeedbackMessage {
  const words = WORDS[language] ?? WORDS.en!;
  const id = `feedback:${serverId}:${ticketId}`;
  return {
    embeds: [{ title: question, description: words.closed.replace('{number}', String(number ?? '?')).replace('{server}', serverName), color: 0x10b981 }],
    components: [{ type: 1, components: [1, 2, 3, 4, 5].map((stars) => ({ type: 2, style: 2, label: `${stars} ★`, custom_id: `${id}:${stars}`.slice(0, 100) })) }],
    modal: {
      custom_id: `${id}:comment`.slice(0, 100),
      title: words.comment.slice(0, 45),
      components: [{ type: 1, components: [{ type: 4, custom_id: 'comment', style: 2, label: words.comment.slice(0, 45), placeholder: words.placeholder, required: false, max_length: COMMENT_MAX }] }],
    },
    thanks: words.thanks,
  };
}

/**
 * After a close: asks the opener when the ticket's panel wants feedback (once per ticket; a repeated
 * close asks no second time). Never fails the close: a configuration it cannot read asks nothing.
 */
export async function askFeedback(desk: Desk, ticket: DeskTicket): Promise<void> {
  const state = stateOf(desk);
  const key = deskKey(ticket.server.id, ticket.ticketId);
  if (ticket.openerId === null || state.questions.has(key)) return;
  try {
    const res = await desk.botApi('GET', `/servers/${ticket.server.id}/config`);
    if (res.status !== 200) return;
    const { config } = (await res.json()) as { config: FeedbackConfig };
    const panel = config.panels?.find((p) => p.id === ticket.panel.id);
    const wanted = panel?.feedback ?? config.feedback?.enabled ?? false;
    if (!wanted) return;
    const language = config.general?.language ?? 'en';
    const question = config.feedback?.question?.trim() || DEFAULT_QUESTIONS[language] || DEFAULT_QUESTIONS.en!;
    const asked: FeedbackQuestion = {
      serverId: ticket.server.id,
      ticketId: ticket.ticketId,
      number: ticket.number,
      openerId: ticket.openerId,
      language,
      question,
      askedAt: new Date(desk.clock()).toISOString(),
      message: feedbackMessage(ticket.server.id, ticket.ticketId, ticket.server.name, ticket.number, question, language),
      answer: null,
    };
    state.questions.set(key, asked);
    const answered = [...state.questions.entries()].filter(([, q]) => q.answer !== null);
    for (const [old] of answered.slice(0, Math.max(0, state.questions.size - KEPT_MAX))) state.questions.delete(old);
    desk.log.info({ server: asked.serverId, ticket: asked.ticketId, opener: asked.openerId }, 'demo bot: asked the opener for feedback');
    if (state.answerAfter && !state.controlled.has(ticket)) openerAnswersLater(desk, state, asked, state.answerAfter);
  } catch (error) {
    desk.log.warn({ ticket: ticket.ticketId, err: error instanceof Error ? error.message : String(error) }, 'demo bot: could not ask for feedback');
  }
}

function openerAnswersLater(desk: Desk, state: DeskFeedback, asked: FeedbackQuestion, after: { minMs: number; maxMs: number }): void {
  const random = prng(hash(`feedback:${asked.serverId}:${asked.ticketId}`));
  const wait = after.minMs + Math.floor(random() * Math.max(0, after.maxMs - after.minMs));
  const [rating, comment] = OPENER_ANSWERS[Math.floor(random() * OPENER_ANSWERS.length)]!;
  const timer = setTimeout(() => {
    state.timers.delete(timer);
    if (asked.answer !== null) return;
    desk
      .serial(() => rate(desk, asked.serverId, asked.ticketId, rating, comment))
      .catch((error: unknown) => desk.log.warn({ ticket: asked.ticketId, err: error instanceof Error ? error.message : String(error) }, 'demo bot: the opener’s rating was refused'));
  }, wait);
  timer.unref();
  state.timers.add(timer);
}

/** A ticket opened through the controls (a test drives it): its opener does not answer on their own. */
export function leaveToControls(desk: Desk, ticket: DeskTicket): DeskTicket {
  stateOf(desk).controlled.add(ticket);
  return ticket;
}

/** The questions asked so far, newest first (answered or not). */
export function feedbackQuestions(desk: Desk): FeedbackQuestion[] {
  return [...stateOf(desk).questions.values()].reverse();
}

/**
 * The opener answers: a button (the rating), then the modal (the comment, may be empty). Reported as
 * `rated`; a question is answered once (Discord's buttons go after the first press).
 */
export async function rate(desk: Desk, serverId: string, ticketId: string, rating: number, comment: string | null): Promise<FeedbackQuestion> {
  const asked = stateOf(desk).questions.get(deskKey(serverId, ticketId));
  if (!asked) throw new FeedbackInputError(`The demo bot asked for no feedback on ticket ${ticketId} in server ${serverId}.`);
  if (asked.answer !== null) throw new FeedbackInputError(`Ticket ${ticketId} was rated already.`);
  if (!Number.isInteger(rating) || rating < 1 || rating > 5) throw new FeedbackInputError('"rating" must be a whole number from 1 to 5.');
  const text = comment?.trim() ?? '';
  if (text.length > COMMENT_MAX) throw new FeedbackInputError(`"comment" may be at most ${COMMENT_MAX} characters.`);
  const at = new Date(desk.clock()).toISOString();
  const res = await desk.botApi('POST', '/events', { events: [{ id: `${serverId}:${ticketId}:rated`.slice(0, 64), serverId, ticketId, type: 'rated', at, rating, feedback: text === '' ? null : text }] });
  if (res.status !== 200) throw new Error(`the bot API refused the rating: ${res.status} ${(await res.text()).slice(0, 300)}`);
  asked.answer = { rating, comment: text === '' ? null : text, at };
  return asked;
}

/** Stops the openers' pending answers (the desk stops). */
export function stopFeedback(desk: Desk): void {
  const state = byDesk.get(desk);
  for (const timer of state?.timers ?? []) clearTimeout(timer);
  state?.timers.clear();
}
