/**
 * The demo bot's ticket history: deterministic per server and UTC day (a seeded generator), so the
 * same day always gives the same events with the same ids (the API ignores what it already has), and
 * a later day adds only the days that are new. Events after `now` are not sent yet: tickets opened
 * recently stay open until their close time has come.
 */
import { DEMO_GUILD_DATA, DEMO_GUILDS, DEMO_PEOPLE, DEMO_USERS } from '../discord/demo-data';

export const DAY_MS = 86_400_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** mulberry32: a tiny seeded PRNG (same seed, same numbers). */
export function prng(seed: number): () => number {
  let left = seed >>> 0;
  return () => {
    left = (left + 0x6d2b79f5) >>> 0;
    let time = left;
    time = Math.imul(time ^ (time >>> 15), time | 1);
    time ^= time + Math.imul(time ^ (time >>> 7), time | 61);
    return ((time ^ (time >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit hash of text (FNV-1a), for seeds. */
export function hash(text: string): number {
  let hours = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hours ^= text.charCodeAt(i);
    hours = Math.imul(hours, 0x01000193);
  }
  return hours >>> 0;
}

/** A log-normal sample with the given median (ms) and spread. */
function logNormal(random: () => number, median: number, sigma: number): number {
  const units = Math.max(random(), 1e-9);
  const value = random();
  const zeros = Math.sqrt(-2 * Math.log(units)) * Math.cos(2 * Math.PI * value);
  return median * Math.exp(sigma * zeros);
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length) % items.length]!;
}

/** A ticket event as the bot API takes it (packages/api-contract/src/bot-api.ts, `TicketEvent`). */
export type DemoEvent = { id: string; serverId: string; ticketId: string; at: string; type: string } & Record<string, unknown>;

/** One generated ticket: what happened, for the events and for its transcript. */
export interface DemoTicket {
  serverId: string;
  ticketId: string;
  number: number;
  panelId: string;
  openerId: string;
  staffId: string;
  openedAt: number;
  firstResponseAt: number | null;
  closedAt: number | null;
  closedBy: string | null;
  reopenedAt: number | null;
  finalClosedAt: number | null;
  rating: number | null;
  feedback: string | null;
  abandoned: boolean;
  answer: string;
}

/** A panel as the demo bot reads it from the server's configuration (the desk's fields optional). */
export interface DemoPanel {
  id: string;
  name: string;
  supportRoleIds: string[];
  question: string | null;
  /** Where its tickets' channels go (the panel's category, else the server's default), and how they are named. */
  categoryId?: string | null;
  namingScheme?: string;
  /** The form's questions, in order. */
  questions?: string[];
}

/** What the bot knows of a server: its panels (from the bot API) and who works there. */
export interface DemoServer {
  id: string;
  name: string;
  panels: DemoPanel[];
  staff: string[];
  openers: string[];
  /** Tickets a day on an average weekday. */
  perDay: number;
}

/** Made-up members who open tickets (beside the demo users who are members). */
export const DEMO_OPENERS = Array.from({ length: 40 }, (_, index) => ({
  id: String(1000000000000100000n + BigInt(index)),
  username: `player${String(index + 1).padStart(2, '0')}`,
  globalName: ['Kai', 'Noa', 'Lena', 'Theo', 'Maya', 'Finn', 'Zoe', 'Liam', 'Ivy', 'Omar'][index % 10]! + (index >= 10 ? ` ${Math.floor(index / 10) + 1}` : ''),
}));

/** Names of everyone the demo bot writes about. */
export function demoUserName(id: string): { username: string; displayName: string | null } {
  for (const user of [...Object.values(DEMO_USERS), ...Object.values(DEMO_PEOPLE), ...DEMO_OPENERS]) {
    if (user.id === id) return { username: user.username, displayName: user.globalName ?? null };
  }
  return { username: `user-${id.slice(-4)}`, displayName: null };
}

const PER_DAY: Record<string, number> = { [DEMO_GUILDS.avasArcade.id]: 14, [DEMO_GUILDS.pixelPals.id]: 6 };

/**
 * The servers the demo bot works in, from their saved configurations: staff are the members holding
 * a panel's support role (else the owner); openers the other members and made-up players.
 */
export function demoServer(id: string, name: string, panels: DemoServer['panels']): DemoServer {
  const members = DEMO_GUILD_DATA[id]?.members ?? [];
  const supportRoles = new Set(panels.flatMap((p) => p.supportRoleIds));
  let staff = members.filter((m) => m.roles.some((r) => supportRoles.has(r))).map((m) => m.userId);
  if (staff.length === 0) {
    const owner = Object.values(DEMO_USERS).find((u) => u.memberships.some((m) => m.guildId === id && m.owner));
    staff = owner ? [owner.id] : [DEMO_PEOPLE.orion.id];
  }
  const memberOpeners = members.map((m) => m.userId).filter((u) => !staff.includes(u));
  // Cleo is a member of Pixel Pals without a role: she opens tickets there (and reads her transcripts).
  const demoMembers = Object.values(DEMO_USERS)
    .filter((u) => u.memberships.some((m) => m.guildId === id && !m.owner) && !staff.includes(u.id))
    .map((u) => u.id);
  const openers = [...new Set([...demoMembers, ...memberOpeners, ...DEMO_OPENERS.map((o) => o.id)])];
  return { id, name, panels, staff, openers, perDay: PER_DAY[id] ?? 3 };
}

const ANSWERS = [
  'I bought the season pass but it does not show up in my inventory.',
  'The leaderboard reset my score after the update.',
  'Someone is spamming invite links in #general.',
  'How do I link my account to the server?',
  'The bot did not give me the verified role.',
  'I was charged twice for the same order.',
  'Can I get a refund for the tournament entry?',
  'My ticket from yesterday was closed before anyone answered.',
];
const FEEDBACK = ['Quick and friendly, thanks!', 'Solved in minutes.', 'Took a while, but sorted.', 'Great help from the team.', 'Could have been faster.', null, null];

/** Hour-of-day weights (UTC): quiet at night, busy in the evening. */
const HOURS = [2, 1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9, 10, 10, 10, 9, 7, 5, 3];
const HOURS_TOTAL = HOURS.reduce((a, b) => a + b, 0);

function hourOf(random: () => number): number {
  let remainder = random() * HOURS_TOTAL;
  for (let h = 0; h < 24; h++) {
    remainder -= HOURS[h]!;
    if (remainder <= 0) return h;
  }
  return 23;
}

/** Staff answer faster during their hours (09-23 UTC). */
function staffAway(at: number): boolean {
  const hours = new Date(at).getUTCHours();
  return hours < 9 || hours >= 23;
}

/** The tickets of one server on one UTC day (`day`: ms at 00:00 UTC). */
export function ticketsOfDay(server: DemoServer, day: number): DemoTicket[] {
  if (server.panels.length === 0) return [];
  const random = prng(hash(`${server.id}:${day}`));
  const weekday = new Date(day).getUTCDay();
  const factor = weekday === 0 || weekday === 6 ? 0.7 : 1;
  const count = Math.max(0, Math.round(server.perDay * factor * (0.6 + random() * 0.8)));
  const dayNumber = Math.round(day / DAY_MS);
  const tickets: DemoTicket[] = [];
  for (let i = 0; i < count; i++) {
    const openedAt = day + hourOf(random) * HOUR + Math.floor(random() * HOUR);
    const panel = pick(random, server.panels);
    const openerId = pick(random, server.openers);
    const staffId = pick(random, server.staff);
    const abandoned = random() < 0.08;
    const reopened = !abandoned && random() < 0.1;
    const firstResponseAt = abandoned ? null : openedAt + Math.round(logNormal(random, staffAway(openedAt) ? 3 * HOUR : 20 * MINUTE, 0.9));
    const closedAt = abandoned ? openedAt + Math.round(logNormal(random, 6 * HOUR, 0.8)) : firstResponseAt! + Math.round(logNormal(random, 4 * HOUR, 1));
    const reopenedAt = reopened ? closedAt + Math.round(logNormal(random, 20 * HOUR, 0.6)) : null;
    const finalClosedAt = reopenedAt ? reopenedAt + Math.round(logNormal(random, 3 * HOUR, 0.7)) : closedAt;
    const rated = !abandoned && random() < 0.7;
    const remainder = random();
    const rating = rated ? (remainder < 0.5 ? 5 : remainder < 0.8 ? 4 : remainder < 0.9 ? 3 : remainder < 0.96 ? 2 : 1) : null;
    tickets.push({
      serverId: server.id,
      ticketId: `d${dayNumber}n${i}`,
      number: (dayNumber - 20454) * 40 + i + 1,
      panelId: panel.id,
      openerId,
      staffId,
      openedAt,
      firstResponseAt,
      closedAt,
      closedBy: abandoned ? openerId : staffId,
      reopenedAt,
      finalClosedAt,
      rating,
      feedback: rating ? pick(random, FEEDBACK) : null,
      abandoned,
      answer: pick(random, ANSWERS),
    });
  }
  return tickets;
}

/** A generated ticket by its id (`d<day>n<index>`, as ticketsOfDay names them); null for any other id. */
export function historyTicket(server: DemoServer, ticketId: string): DemoTicket | null {
  const match = /^d(\d{1,6})n(\d{1,4})$/.exec(ticketId);
  if (!match) return null;
  return ticketsOfDay(server, Number(match[1]) * DAY_MS)[Number(match[2])] ?? null;
}

/** A ticket's events (all of them; the caller drops those not due yet). */
export function eventsOf(ticket: DemoTicket): DemoEvent[] {
  const base = (kind: string, at: number) => ({ id: `${ticket.serverId}:${ticket.ticketId}:${kind}`, serverId: ticket.serverId, ticketId: ticket.ticketId, at: new Date(at).toISOString() });
  const events: DemoEvent[] = [];
  const panel = ticket.panelId;
  events.push({ ...base('o', ticket.openedAt), type: 'opened', panelId: panel, openerId: ticket.openerId, number: ticket.number, answers: [{ question: 'What do you need help with?', answer: ticket.answer }] });
  if (ticket.firstResponseAt !== null) {
    events.push({ ...base('c', ticket.firstResponseAt - MINUTE), type: 'claimed', staffId: ticket.staffId });
    events.push({ ...base('f', ticket.firstResponseAt), type: 'first_response', staffId: ticket.staffId });
  }
  const total = 3 + (hash(ticket.ticketId) % 18);
  const staff = ticket.firstResponseAt === null ? 0 : Math.floor(total / 2);
  if (ticket.closedAt !== null) {
    events.push({ ...base('m', ticket.closedAt - MINUTE), type: 'messages', total, staff });
    events.push({ ...base('x', ticket.closedAt), type: 'closed', closedBy: ticket.closedBy!, reason: ticket.abandoned ? 'Closed by the opener' : 'Resolved' });
  }
  if (ticket.reopenedAt !== null && ticket.finalClosedAt !== null) {
    events.push({ ...base('ro', ticket.reopenedAt), type: 'reopened', by: ticket.openerId });
    events.push({ ...base('m2', ticket.finalClosedAt - MINUTE), type: 'messages', total: total + 4, staff: staff + 2 });
    events.push({ ...base('x2', ticket.finalClosedAt), type: 'closed', closedBy: ticket.staffId, reason: 'Resolved again' });
  }
  if (ticket.rating !== null && ticket.finalClosedAt !== null) {
    events.push({ ...base('r', ticket.finalClosedAt + 5 * MINUTE), type: 'rated', rating: ticket.rating, feedback: ticket.feedback });
  }
  return events;
}

/** The UTC midnight of `ms`. */
export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** Every ticket of the `days` days up to and including today (oldest first). */
export function history(server: DemoServer, now: number, days: number): DemoTicket[] {
  const today = dayOf(now);
  const tickets: DemoTicket[] = [];
  for (let d = days - 1; d >= 0; d--) tickets.push(...ticketsOfDay(server, today - d * DAY_MS).filter((t) => t.openedAt <= now));
  return tickets;
}

/** The events due by `now` of the given tickets, in time order. */
export function dueEvents(tickets: readonly DemoTicket[], now: number): DemoEvent[] {
  return tickets
    .flatMap(eventsOf)
    .filter((e) => Date.parse(e.at) <= now)
    .sort((a, b) => a.at.localeCompare(b.at));
}
