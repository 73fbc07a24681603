/**
 * The Tickets page's model, without markup: the conversation kept from the ticket's read and the
 * stream's frames (one message per id, the later wins; commands likewise), label colours, and what
 * a reply may carry. Pure functions, tested without a browser.
 */
import type { CommandState, LiveMessage, TicketCommandView, TicketDetail, TicketPerson, TicketStreamEvent, TicketSummary } from '@tickety/api-contract';

/** What the conversation shows: the ticket's latest summary, its messages in order, its commands. */
export interface Conversation {
  ticket: TicketSummary;
  closed: boolean;
  /** Oldest first, one per message id. */
  messages: LiveMessage[];
  /** Newest last, one per command id. */
  commands: TicketCommandView[];
  /** The people mentions are named by: the read's `users`, then the opener and claimer of each `ticket` frame. */
  users: ReadonlyMap<string, TicketPerson>;
}

/** `users` with `people` added (the later names win). */
export function withPeople(users: ReadonlyMap<string, TicketPerson>, people: ReadonlyArray<TicketPerson | null>): ReadonlyMap<string, TicketPerson> {
  const known = people.filter((person): person is TicketPerson => person !== null);
  if (known.length === 0) return users;
  return new Map([...users, ...known.map((person) => [person.id, person] as const)]);
}

const byTime = (one: LiveMessage, other: LiveMessage) => one.message.createdAt.localeCompare(other.message.createdAt) || compareIds(one.message.id, other.message.id);

/** Snowflakes compare as numbers: a longer id is a later one. */
function compareIds(one: string, other: string): number {
  return one.length - other.length || one.localeCompare(other);
}

/** `messages` with `fresh` merged in: one per id, the later one wins, in Discord's order. */
export function mergeMessages(messages: readonly LiveMessage[], fresh: readonly LiveMessage[]): LiveMessage[] {
  if (fresh.length === 0) return messages as LiveMessage[];
  const byId = new Map<string, LiveMessage>();
  for (const item of messages) byId.set(item.message.id, item);
  for (const item of fresh) byId.set(item.message.id, item);
  return [...byId.values()].sort(byTime);
}

/** `commands` with `fresh` merged in: one per id, the later one wins, in the order they were asked. */
export function mergeCommands(commands: readonly TicketCommandView[], fresh: readonly TicketCommandView[]): TicketCommandView[] {
  if (fresh.length === 0) return commands as TicketCommandView[];
  const byId = new Map<string, TicketCommandView>();
  for (const item of commands) byId.set(item.id, item);
  for (const item of fresh) byId.set(item.id, item);
  return [...byId.values()].sort((one, other) => one.requestedAt.localeCompare(other.requestedAt) || one.id.localeCompare(other.id));
}

/** The conversation as the ticket's read gives it. */
export function fromDetail(detail: TicketDetail): Conversation {
  return {
    ticket: detail.ticket,
    closed: detail.closed,
    messages: mergeMessages([], detail.messages),
    commands: mergeCommands([], detail.commands),
    users: withPeople(new Map(), [...detail.users, detail.ticket.opener, detail.ticket.claimer]),
  };
}

/** How far a message has come: deleted last, then by its last edit. */
function messageAge(item: LiveMessage): string {
  return `${item.deleted ? 1 : 0}${item.message.editedAt ?? ''}`;
}

const STATE_RANK: Record<CommandState, number> = { queued: 0, taken: 1, done: 2, failed: 2, expired: 2, lost: 2 };

/**
 * A read of the ticket (again: after the stream was reopened) joined with what the page has. The
 * read may have been answered before frames the page already applied, so it replaces a message
 * only when it is not older (edited earlier, or not yet deleted) and a command only when it is not
 * behind (queued after taken).
 */
export function withDetail(current: Conversation | null, detail: TicketDetail): Conversation {
  if (!current || current.ticket.id !== detail.ticket.id) return fromDetail(detail);
  const messages = new Map(current.messages.map((item) => [item.message.id, item]));
  const commands = new Map(current.commands.map((item) => [item.id, item]));
  return {
    ticket: detail.ticket,
    closed: current.closed || detail.closed,
    users: withPeople(current.users, [...detail.users, detail.ticket.opener, detail.ticket.claimer]),
    messages: mergeMessages(
      current.messages,
      detail.messages.filter((item) => {
        const known = messages.get(item.message.id);
        return !known || messageAge(item) >= messageAge(known);
      }),
    ),
    commands: mergeCommands(
      current.commands,
      detail.commands.filter((item) => {
        const known = commands.get(item.id);
        return !known || STATE_RANK[item.state] >= STATE_RANK[known.state];
      }),
    ),
  };
}

/** One frame of the ticket's stream applied (a `queue` frame changes nothing here). */
export function applyEvent(current: Conversation, event: TicketStreamEvent): Conversation {
  switch (event.type) {
    case 'messages':
      return { ...current, messages: mergeMessages(current.messages, event.messages) };
    case 'commands':
      return { ...current, commands: mergeCommands(current.commands, event.commands) };
    case 'ticket':
      return event.ticket.id === current.ticket.id
        ? { ...current, ticket: event.ticket, closed: current.closed || event.closed, users: withPeople(current.users, [event.ticket.opener, event.ticket.claimer]) }
        : current;
    default:
      return current;
  }
}

/** A command that is still waiting for the bot or being done. */
export function isPending(state: CommandState): boolean {
  return state === 'queued' || state === 'taken';
}

/** 0xRRGGBB as CSS. */
export function colourCss(colour: number): string {
  return `#${colour.toString(16).padStart(6, '0')}`;
}

/** Dark text on a light colour, white on a dark one (WCAG relative luminance). */
export function textOn(colour: number): '#000000' | '#ffffff' {
  const channel = (shift: number) => {
    const value = ((colour >> shift) & 0xff) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0);
  return luminance > 0.179 ? '#000000' : '#ffffff';
}

/** Why a reply's files cannot be sent as they are, or null: too many, or too large together. */
export function attachmentsProblem(sizes: readonly number[], maxFiles: number, maxBytes: number): 'tooMany' | 'tooLarge' | null {
  if (sizes.length > maxFiles) return 'tooMany';
  if (sizes.reduce((sum, size) => sum + size, 0) > maxBytes) return 'tooLarge';
  return null;
}
