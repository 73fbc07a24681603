import { afterEach, describe, expect, test, vi } from 'vitest';
import { DEMO_GUILDS } from '../discord/demo-data';
import type { Desk, DeskTicket } from './desk';
import { askFeedback, DEFAULT_QUESTIONS, FeedbackInputError, feedbackQuestions, leaveToControls, rate, stopFeedback } from './feedback';

const ARCADE = DEMO_GUILDS.avasArcade.id;
const OPENER = '1000000000000100003';

// biome-ignore lint/suspicious/noExplicitAny: test payloads are read freely
type Json = Record<string, any>;

/** What feedback.ts uses of the desk: the bot API (config and events), the clock, the log, its pace. */
function fakeDesk(config: Json, options: { every?: { minMs: number; maxMs: number } | null; eventsStatus?: number } = {}) {
  const events: Json[] = [];
  const configReads: string[] = [];
  const desk = {
    options: { every: options.every ?? null },
    clock: () => Date.parse('2026-03-02T10:00:00Z'),
    log: { info: () => undefined, warn: () => undefined },
    serial: <T>(task: () => Promise<T>) => task(),
    async botApi(method: string, path: string, body?: Json) {
      if (method === 'GET') {
        configReads.push(path);
        return new Response(JSON.stringify({ config }), { status: 200 });
      }
      if (options.eventsStatus && options.eventsStatus !== 200) return new Response('{"message":"no"}', { status: options.eventsStatus });
      events.push(...(body?.events ?? []));
      return new Response(JSON.stringify({ accepted: 1 }), { status: 200 });
    },
  } as unknown as Desk;
  return { desk, events, configReads };
}

function ticket(ticketId: string, panelId = 'support', openerId: string | null = OPENER): DeskTicket {
  return { server: { id: ARCADE, name: "Ava's Arcade" }, panel: { id: panelId }, ticketId, number: 2431, openerId } as unknown as DeskTicket;
}

const panels = [
  { id: 'support', feedback: null },
  { id: 'billing', feedback: false },
  { id: 'vip', feedback: true },
];

afterEach(() => {
  vi.useRealTimers();
});

describe('feedback after close', () => {
  test('asks the opener when the panel says so, or follows the server while it says nothing', async () => {
    const on = fakeDesk({ general: { language: 'en' }, feedback: { enabled: true, question: '' }, panels });
    await askFeedback(on.desk, ticket('t1', 'support'));
    await askFeedback(on.desk, ticket('t2', 'billing'));
    await askFeedback(on.desk, ticket('t3', 'vip'));
    expect(feedbackQuestions(on.desk).map((q) => q.ticketId)).toEqual(['t3', 't1']);
    const off = fakeDesk({ general: { language: 'en' }, feedback: { enabled: false, question: '' }, panels });
    await askFeedback(off.desk, ticket('t1', 'support'));
    await askFeedback(off.desk, ticket('t3', 'vip'));
    expect(feedbackQuestions(off.desk).map((q) => q.ticketId)).toEqual(['t3']);
    // The configuration is read at each close: a change on the dashboard counts from the next one.
    expect(off.configReads).toEqual([`/servers/${ARCADE}/config`, `/servers/${ARCADE}/config`]);
  });

  test('sends the question with five buttons and a comment modal, in the server\'s language or the server\'s own words', async () => {
    const german = fakeDesk({ general: { language: 'de' }, feedback: { enabled: true, question: '' }, panels });
    await askFeedback(german.desk, ticket('t1'));
    const [asked] = feedbackQuestions(german.desk);
    expect(asked).toMatchObject({ serverId: ARCADE, ticketId: 't1', number: 2431, openerId: OPENER, language: 'de', question: DEFAULT_QUESTIONS.de, answer: null });
    expect(asked!.message.embeds[0]).toEqual({ title: DEFAULT_QUESTIONS.de, description: "Dein Ticket #2431 auf Ava's Arcade wurde geschlossen.", color: 0x10b981 });
    expect(asked!.message.components[0]!.components.map((b) => [b.label, b.custom_id])).toEqual([1, 2, 3, 4, 5].map((stars) => [`${stars} ★`, `feedback:${ARCADE}:t1:${stars}`]));
    expect(asked!.message.modal.components[0]!.components[0]).toMatchObject({ type: 4, style: 2, required: false, max_length: 1000, label: 'Ein Kommentar (optional)' });
    const own = fakeDesk({ general: { language: 'de' }, feedback: { enabled: true, question: 'Wie war’s?' }, panels });
    await askFeedback(own.desk, ticket('t1'));
    expect(feedbackQuestions(own.desk)[0]!.question).toBe('Wie war’s?');
  });

  test('asks once per ticket, and nobody when the opener is unknown', async () => {
    const { desk } = fakeDesk({ feedback: { enabled: true, question: '' }, panels });
    await askFeedback(desk, ticket('t1'));
    await askFeedback(desk, ticket('t1'));
    await askFeedback(desk, ticket('t9', 'support', null));
    expect(feedbackQuestions(desk)).toHaveLength(1);
    expect(feedbackQuestions(desk)[0]!.question).toBe(DEFAULT_QUESTIONS.en);
  });

  test('reports the answer as rated, once; refuses a bad rating, a long comment and a ticket not asked', async () => {
    const { desk, events } = fakeDesk({ feedback: { enabled: true, question: '' }, panels });
    await askFeedback(desk, ticket('t1'));
    await expect(rate(desk, ARCADE, 't1', 6, null)).rejects.toThrow(/1 to 5/);
    await expect(rate(desk, ARCADE, 't1', 4, 'x'.repeat(1001))).rejects.toThrow(/1000/);
    await expect(rate(desk, ARCADE, 'nope', 4, null)).rejects.toBeInstanceOf(FeedbackInputError);
    const answered = await rate(desk, ARCADE, 't1', 4, '  Quick help, thanks!  ');
    expect(answered.answer).toEqual({ rating: 4, comment: 'Quick help, thanks!', at: '2026-03-02T10:00:00.000Z' });
    expect(events).toEqual([{ id: `${ARCADE}:t1:rated`, serverId: ARCADE, ticketId: 't1', type: 'rated', at: '2026-03-02T10:00:00.000Z', rating: 4, feedback: 'Quick help, thanks!' }]);
    await expect(rate(desk, ARCADE, 't1', 5, null)).rejects.toThrow(/rated already/);
    expect(events).toHaveLength(1);
  });

  test('a rating the API refuses stays unanswered (it can be given again)', async () => {
    const { desk } = fakeDesk({ feedback: { enabled: true, question: '' }, panels }, { eventsStatus: 503 });
    await askFeedback(desk, ticket('t1'));
    await expect(rate(desk, ARCADE, 't1', 5, '')).rejects.toThrow(/refused/);
    expect(feedbackQuestions(desk)[0]!.answer).toBeNull();
  });

  test('running on its own, the opener answers after a while (an empty comment is none)', async () => {
    vi.useFakeTimers();
    const { desk, events } = fakeDesk({ feedback: { enabled: true, question: '' }, panels }, { every: { minMs: 1000, maxMs: 2000 } });
    await askFeedback(desk, ticket('t1'));
    await askFeedback(desk, ticket('t2'));
    expect(events).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(events.map((e) => e.ticketId).sort()).toEqual(['t1', 't2']);
    for (const event of events) expect(event).toMatchObject({ type: 'rated', rating: expect.any(Number) });
    expect(feedbackQuestions(desk).every((q) => q.answer !== null)).toBe(true);
    // A ticket opened through the controls is answered through them only.
    const driven = leaveToControls(desk, ticket('t4'));
    await askFeedback(desk, driven);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(events).toHaveLength(2);
    // Stopped: no answer comes any more.
    await askFeedback(desk, ticket('t3'));
    stopFeedback(desk);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(events).toHaveLength(2);
  });
});
