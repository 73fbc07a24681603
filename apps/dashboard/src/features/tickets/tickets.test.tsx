import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LiveMessage, ServerAccess, TicketCommandView, TicketDetail, TicketQueue, TicketStreamEvent, TicketSummary } from '@tickety/api-contract';
import { changeLocale } from '@tickety/shared';
import { apiError, getSidebarBadge, json, mockApi, renderPage, resetShared, useServedServer } from '@tickety/shared/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ARCADE, avaMe } from '../../test/fixtures';
import { labelProblems } from './labels-dialog';
import { mergeMessages, withDetail } from './model';
import TicketsPage from './tickets';

const SERVER = ARCADE.id;
const BASE = `/api/guilds/${SERVER}/tickets`;
const AVA = { id: '1000000000000000001', name: 'Ava', avatarUrl: null };
const MIA = { id: '1000000000000000007', name: 'Mia', avatarUrl: null };
const WRITE: ServerAccess = { via: 'full', areas: { panels: 'write', tickets: 'write', statistics: 'write', logs: 'write', configs: 'write', premium: 'write' }, grantedBy: [] } as unknown as ServerAccess;
const READ: ServerAccess = { via: 'roles', areas: { panels: null, tickets: 'read', statistics: null, logs: null, configs: null, premium: null }, grantedBy: ['Helpers'] } as unknown as ServerAccess;
const BUG = { id: 'bug', name: 'Bug', colour: 0xed4245 };
const VIP = { id: 'vip', name: 'VIP', colour: 0xfee75c };

function summary(id: string, number: number, over: Partial<TicketSummary> = {}): TicketSummary {
  return {
    id,
    number,
    panelId: 'support',
    panelName: 'Support',
    opener: MIA,
    claimer: null,
    labels: [],
    openedAt: new Date(Date.now() - 30 * 60_000).toISOString(),
    lastMessage: { author: MIA, excerpt: 'My order never arrived', at: new Date(Date.now() - 5 * 60_000).toISOString(), fromMember: true },
    waitingForStaff: true,
    waitingSince: new Date(Date.now() - 5 * 60_000).toISOString(),
    autoClose: null,
    ...over,
  };
}

const T12 = summary('t12', 12, { labels: ['bug'] });
const T13 = summary('t13', 13, { claimer: AVA, waitingForStaff: false, waitingSince: null, lastMessage: { author: AVA, excerpt: 'On it!', at: new Date().toISOString(), fromMember: false } });

function queue(tickets: TicketSummary[] = [T12, T13], over: Partial<TicketQueue> = {}): TicketQueue {
  return { tickets, counts: { open: 2, mine: 1, unclaimed: 1, waiting: 1 }, labels: [BUG, VIP], panels: [{ id: 'support', name: 'Support' }], ...over };
}

function live(id: string, content: string, over: Partial<LiveMessage['message']> = {}, deleted = false, author = MIA): LiveMessage {
  return {
    message: { id, authorId: author.id, content, createdAt: `2026-03-01T10:00:0${id.slice(-1)}.000Z`, editedAt: null, system: null, replyTo: null, embeds: [], attachments: [], reactions: [], stickers: [], ...over },
    author: { id: author.id, username: author.name.toLowerCase(), displayName: author.name, avatarUrl: null, bot: false, staff: author === AVA, colour: null },
    deleted,
  };
}

function detail(over: Partial<TicketDetail> = {}): TicketDetail {
  return {
    ticket: T12,
    answers: [{ question: 'Order number?', answer: 'A-1001' }],
    messages: [live('1300000000000000001', 'Hello, my order never arrived'), live('1300000000000000002', 'It was order A-1001')],
    truncated: false,
    users: [MIA],
    commands: [],
    cursor: 'c1',
    closed: false,
    ...over,
  };
}

function command(kind: TicketCommandView['kind'], over: Partial<TicketCommandView> = {}): TicketCommandView {
  return {
    id: 'cmd_aaaaaaaaaaaaaaaaaaaaaaaaaa',
    kind,
    state: 'queued',
    requestedBy: AVA,
    requestedAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 60_000).toISOString(),
    finishedAt: null,
    failure: null,
    content: null,
    ...over,
  };
}

/** Stands in for the browser's EventSource: the test opens it, sends frames and drops it. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static all: FakeEventSource[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  private listeners = new Map<string, Array<(event: MessageEvent) => void>>();
  constructor(readonly url: string) {
    FakeEventSource.all.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.readyState = 2;
  }
  open() {
    act(() => {
      this.readyState = 1;
      this.onopen?.();
    });
  }
  send(frame: TicketStreamEvent) {
    act(() => {
      for (const listener of this.listeners.get(frame.type) ?? []) listener(new MessageEvent(frame.type, { data: JSON.stringify(frame) }));
    });
  }
  drop(closed: boolean) {
    act(() => {
      this.readyState = closed ? 2 : 0;
      this.onerror?.();
    });
  }
  static last(): FakeEventSource {
    return FakeEventSource.all.at(-1)!;
  }
}

let store: ReturnType<typeof renderPage>['store'] | undefined;
beforeEach(() => {
  FakeEventSource.all = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => {
  resetShared(store);
  vi.unstubAllGlobals();
});

function Page({ access }: { access: ServerAccess }) {
  useServedServer(SERVER, access);
  return <TicketsPage />;
}

function show(path: string, answers: Record<string, unknown> = {}, access: ServerAccess = WRITE) {
  const api = mockApi({ [`GET ${BASE}`]: queue(), [`GET ${BASE}/t12`]: detail(), ...answers });
  const page = renderPage(<Page access={access} />, {
    url: `/dashboard/${SERVER}/${path}`,
    path: path.includes('/') ? '/dashboard/:server/tickets/:ticket' : '/dashboard/:server/tickets',
    me: avaMe(),
    routes: [
      { path: '/dashboard/:server/tickets', element: <Page access={access} /> },
      { path: '/dashboard/:server/tickets/:ticket', element: <Page access={access} /> },
      { path: '/dashboard/:server/logs-web/transcripts', element: <p>Transcripts page</p> },
    ],
  });
  store = page.store;
  return { ...page, ...api };
}

const queueQueries = (calls: ReturnType<typeof mockApi>['calls']) => calls(BASE).map(([input]) => Object.fromEntries(new URL(String(input)).searchParams));

describe('Tickets: the queue', () => {
  it('lists the open tickets with number, panel, opener, claimer, labels, waiting (in words) and the last message', async () => {
    const { unexpected } = show('tickets');
    const list = await screen.findByRole('list', { name: 'Open tickets' });
    const rows = within(list).getAllByRole('link');
    expect(rows).toHaveLength(2);
    const [first, second] = rows as [HTMLElement, HTMLElement];
    expect(first).toHaveAttribute('href', `/dashboard/${SERVER}/tickets/t12`);
    expect(within(first).getByText('#12')).toBeInTheDocument();
    expect(within(first).getByText('Support')).toBeInTheDocument();
    expect(within(first).getByText('Mia')).toBeInTheDocument();
    expect(within(first).getByText('Waiting for staff')).toBeInTheDocument();
    expect(within(first).getByText('Not claimed')).toBeInTheDocument();
    expect(within(first).getByText('Bug')).toBeInTheDocument();
    expect(within(first).getByText('Mia: My order never arrived')).toBeInTheDocument();
    expect(within(first).getByText(/^Opened 30 minutes ago$/)).toBeInTheDocument();
    expect(within(second).getByText('Claimed by Ava')).toBeInTheDocument();
    expect(within(second).queryByText('Waiting for staff')).toBeNull();
    // The filter chips carry the counts; the sidebar shows the waiting count.
    expect(screen.getByRole('button', { name: 'All (2)', pressed: true })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Waiting (1)', pressed: false })).toBeInTheDocument();
    expect(getSidebarBadge(SERVER, 'tickets')).toEqual({ count: 1, label: '1 ticket waits for staff' });
    // The arrow keys move between the rows.
    first.focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(second).toHaveFocus();
    expect(screen.getByText('Connecting…')).toBeInTheDocument();
    FakeEventSource.last().open();
    expect(screen.getByText('Live')).toBeInTheDocument();
    expect(FakeEventSource.last().url).toBe(`http://api.test${BASE}/stream`);
    expect(unexpected).toEqual([]);
  });

  it('filters by chip, panel, label and a debounced search, kept in the address', async () => {
    const { calls, router } = show('tickets');
    await screen.findByRole('list', { name: 'Open tickets' });
    await userEvent.click(screen.getByRole('button', { name: 'Waiting (1)' }));
    await waitFor(() => expect(queueQueries(calls).at(-1)).toEqual({ filter: 'waiting' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Label' }), 'vip');
    await waitFor(() => expect(queueQueries(calls).at(-1)).toEqual({ filter: 'waiting', label: 'vip' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Panel' }), 'support');
    const before = calls(BASE).length;
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search tickets' }), 'order');
    // One read for the whole word, once the typing stopped.
    await waitFor(() => expect(queueQueries(calls).at(-1)).toEqual({ filter: 'waiting', label: 'vip', panel: 'support', q: 'order' }));
    expect(calls(BASE).length).toBe(before + 1);
    expect(new URLSearchParams(router.state.location.search).get('q')).toBe('order');
  });

  it('says so when there are no open tickets, and offers to clear filters when none match', async () => {
    show('tickets', { [`GET ${BASE}`]: (url: URL) => json(queue([], { counts: { open: url.searchParams.has('filter') ? 3 : 0, mine: 0, unclaimed: 0, waiting: 0 } })) });
    expect(await screen.findByRole('heading', { name: 'No open tickets' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Mine (0)' }));
    expect(await screen.findByRole('heading', { name: 'No ticket matches' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByRole('heading', { name: 'No open tickets' })).toBeInTheDocument();
  });

  it('shows a failed read with Try again, which reads again', async () => {
    let fail = true;
    show('tickets', { [`GET ${BASE}`]: () => (fail ? apiError(500, 1000, 'Something went wrong.') : json(queue())) });
    expect(await screen.findByText('The tickets could not be loaded.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: 'Open tickets' })).toBeInTheDocument();
  });

  it('reads the queue again on a queue frame, and publishes its waiting count at once', async () => {
    const { calls } = show('tickets');
    await screen.findByRole('list', { name: 'Open tickets' });
    const before = calls(BASE).length;
    FakeEventSource.last().send({ type: 'queue', counts: { open: 3, mine: 1, unclaimed: 2, waiting: 2 } });
    expect(getSidebarBadge(SERVER, 'tickets')).toEqual({ count: 2, label: '2 tickets wait for staff' });
    await waitFor(() => expect(calls(BASE).length).toBe(before + 1));
  });
});

describe('Tickets: one ticket', () => {
  it('shows the header, the form answers and the conversation, streamed with ?ticket=', async () => {
    const { calls } = show('tickets/t12');
    expect(await screen.findByRole('heading', { level: 2, name: 'Ticket #12' })).toBeInTheDocument();
    expect(screen.getByText('Order number?')).toBeInTheDocument();
    expect(screen.getByText('A-1001')).toBeInTheDocument();
    const log = screen.getByRole('log', { name: 'Conversation' });
    expect(within(log).getAllByRole('article')).toHaveLength(2);
    expect(within(log).getByText('It was order A-1001')).toBeInTheDocument();
    expect(FakeEventSource.last().url).toBe(`http://api.test${BASE}/stream?ticket=t12`);
    expect(screen.getByRole('button', { name: 'Claim' })).toBeInTheDocument();
    // The stream starts from now: what was read before it opened is read again.
    const reads = calls(`${BASE}/t12`).length;
    FakeEventSource.last().open();
    await waitFor(() => expect(calls(`${BASE}/t12`).length).toBe(reads + 1));
    // The browser's own reconnection resumes with Last-Event-ID: nothing is read again.
    FakeEventSource.last().drop(false);
    expect(screen.getByText('Reconnecting…')).toBeInTheDocument();
    FakeEventSource.last().open();
    expect(FakeEventSource.all).toHaveLength(1);
    // A stream the server ended is opened anew after a wait, and reads again.
    vi.useFakeTimers();
    FakeEventSource.last().drop(true);
    act(() => vi.advanceTimersByTime(1000));
    vi.useRealTimers();
    expect(FakeEventSource.all).toHaveLength(2);
    FakeEventSource.last().open();
    await waitFor(() => expect(calls(`${BASE}/t12`).length).toBe(reads + 2));
    expect(screen.getByText('Live')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Reply' })).toBeInTheDocument();
  });

  it('names mentions by the read’s users and a claim frame’s claimer; an unknown opener is "Unknown member" with the id', async () => {
    const STRANGER = { id: '1999999999999999002', name: '1999999999999999002', avatarUrl: null, unknown: true as const };
    const BOT = { id: '1000000000000000099', name: 'Tickety', avatarUrl: null };
    const NICO = { id: '1000000000000000005', name: 'Nico', avatarUrl: null };
    const opened = summary('t12', 12, { opener: STRANGER, lastMessage: null });
    const read = detail({ ticket: opened, messages: [live('1300000000000000001', `Welcome <@${STRANGER.id}>! <@${NICO.id}> may help.`, {}, false, BOT)], users: [BOT, NICO, STRANGER] });
    show('tickets/t12', { [`GET ${BASE}`]: queue([opened]), [`GET ${BASE}/t12`]: read });
    const log = await screen.findByRole('log', { name: 'Conversation' });
    expect(within(log).getByText('@Nico')).toHaveAttribute('title', NICO.id);
    expect(within(log).getByText('@Unknown member')).toHaveAttribute('title', STRANGER.id);
    // The queue row and the header: "Unknown member", the id as the tooltip (and beside it in the header).
    const row = within(screen.getByRole('list', { name: 'Open tickets' })).getByRole('link');
    expect(within(row).getByText('Unknown member')).toHaveAttribute('title', STRANGER.id);
    expect(within(row).queryByText(STRANGER.id)).toBeNull();
    const header = screen.getByRole('heading', { level: 2, name: 'Ticket #12' }).closest('header')!;
    expect(within(header).getByText('Unknown member')).toHaveAttribute('title', STRANGER.id);
    expect(within(header).getByText(STRANGER.id)).toBeInTheDocument();
    // The bot's claim line arrives with the ticket frame naming the claimer: Ava, who never wrote here.
    FakeEventSource.last().open();
    FakeEventSource.last().send({ type: 'ticket', ticket: { ...opened, claimer: AVA }, closed: false });
    FakeEventSource.last().send({ type: 'messages', messages: [live('1300000000000000003', `🙋 <@${AVA.id}> claimed this ticket and will help you.`, {}, false, BOT)] });
    expect(await within(log).findByText('@Ava')).toHaveAttribute('title', AVA.id);
    expect(within(log).queryByText('@user')).toBeNull();
  });

  it('keeps one message per id when frames repeat (the later wins), and shows a deleted one as deleted', async () => {
    show('tickets/t12');
    const log = await screen.findByRole('log', { name: 'Conversation' });
    const source = FakeEventSource.last();
    source.open();
    const third = live('1300000000000000003', 'Any news?');
    source.send({ type: 'messages', messages: [third] });
    // A reconnect replays frames: the same messages again, one of them edited since.
    source.send({ type: 'messages', messages: [live('1300000000000000002', 'It was order A-1002', { editedAt: '2026-03-01T10:05:00.000Z' }), third] });
    source.send({ type: 'messages', messages: [third] });
    expect(within(log).getAllByRole('article')).toHaveLength(3);
    expect(within(log).getAllByText('Any news?')).toHaveLength(1);
    expect(within(log).getByText('It was order A-1002')).toBeInTheDocument();
    expect(within(log).queryByText('It was order A-1001')).toBeNull();
    source.send({ type: 'messages', messages: [live('1300000000000000001', 'Hello, my order never arrived', {}, true)] });
    expect(within(log).getAllByRole('article')).toHaveLength(3);
    expect(within(log).getByText('This message was deleted.')).toBeInTheDocument();
    expect(within(log).queryByText('Hello, my order never arrived')).toBeNull();
  });

  it('says a closed ticket is closed (from its read or a ticket frame) and links to Transcripts, without actions', async () => {
    show('tickets/t12');
    await screen.findByRole('heading', { level: 2, name: 'Ticket #12' });
    FakeEventSource.last().send({ type: 'ticket', ticket: T12, closed: true });
    expect(await screen.findByText('This ticket is closed')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open Transcripts' })).toHaveAttribute('href', `/dashboard/${SERVER}/logs-web/transcripts`);
    expect(screen.queryByRole('button', { name: 'Claim' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Reply' })).toBeNull();
  });

  it('follows a command: queued, taken, done; each failure in its own words; expired asks whether the bot is online', async () => {
    const posted: unknown[] = [];
    show('tickets/t12', {
      [`POST ${BASE}/t12/commands`]: (_url: URL, init: RequestInit | undefined) => {
        posted.push(JSON.parse(String(init?.body)));
        return json(command('claim'), 202);
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Claim' }));
    expect(posted).toEqual([{ kind: 'claim' }]);
    const progress = screen.getByRole('list', { name: 'Progress of actions' });
    await waitFor(() => expect(progress).toHaveTextContent('Claim: waiting for the bot…'));
    const source = FakeEventSource.last();
    source.send({ type: 'commands', commands: [command('claim', { state: 'taken' })] });
    expect(progress).toHaveTextContent('Claim: the bot is on it…');
    const failures = {
      missing_permission: 'Claim failed: The bot lacks a permission it needs in this channel.',
      channel_gone: "Claim failed: The ticket's channel no longer exists in Discord.",
      member_gone: 'Claim failed: The member is no longer on the server.',
      ticket_closed: 'Claim failed: The ticket is already closed.',
      rate_limited: 'Claim failed: Discord is limiting the bot right now: try again in a moment.',
      unsupported: 'Claim failed: The bot does not support this action.',
      other: 'Claim failed: Discord refused it.',
    } as const;
    for (const [reason, text] of Object.entries(failures)) {
      source.send({ type: 'commands', commands: [command('claim', { state: 'failed', failure: { reason: reason as keyof typeof failures, message: null } })] });
      expect(progress).toHaveTextContent(text);
    }
    source.send({ type: 'commands', commands: [command('claim', { state: 'expired' })] });
    expect(progress).toHaveTextContent('Claim: No bot took this within a minute: is the bot online?');
    source.send({ type: 'commands', commands: [command('claim', { state: 'lost' })] });
    expect(progress).toHaveTextContent('the bot took this but never said whether it worked');
    source.send({ type: 'commands', commands: [command('claim', { state: 'done' })] });
    expect(progress).toHaveTextContent('Claim: done.');
  });

  it('closes after the question, with the reason typed', async () => {
    const posted: unknown[] = [];
    show('tickets/t12', {
      [`POST ${BASE}/t12/commands`]: (_url: URL, init: RequestInit | undefined) => {
        posted.push(JSON.parse(String(init?.body)));
        return json(command('close'), 202);
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Close ticket' }));
    const dialog = screen.getByRole('dialog', { name: 'Close this ticket?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason (optional)' }), 'Solved');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close ticket' }));
    await waitFor(() => expect(posted).toEqual([{ kind: 'close', reason: 'Solved' }]));
  });

  it('sets labels from the popover of the server labels', async () => {
    const posted: unknown[] = [];
    show('tickets/t12', {
      [`POST ${BASE}/t12/commands`]: (_url: URL, init: RequestInit | undefined) => {
        posted.push(JSON.parse(String(init?.body)));
        return json(command('set_labels'), 202);
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Labels' }));
    const group = screen.getByRole('group', { name: 'Labels of this ticket' });
    expect(within(group).getByRole('checkbox', { name: 'Bug' })).toBeChecked();
    await userEvent.click(within(group).getByRole('checkbox', { name: 'VIP' }));
    await userEvent.click(screen.getByRole('button', { name: 'Apply labels' }));
    await waitFor(() => expect(posted).toEqual([{ kind: 'set_labels', labels: ['bug', 'vip'] }]));
  });
});

describe('Tickets: the reply', () => {
  it('counts characters as Discord does and refuses more than 2000', async () => {
    show('tickets/t12');
    const box = await screen.findByRole('textbox', { name: 'Reply' });
    const send = screen.getByRole('button', { name: 'Send reply' });
    expect(send).toBeDisabled();
    fireEvent.change(box, { target: { value: '👋 hi' } });
    expect(screen.getByText('4 of 2000 characters, as Discord counts them')).toBeInTheDocument();
    expect(send).toBeEnabled();
    fireEvent.change(box, { target: { value: 'a'.repeat(2001) } });
    expect(screen.getByText('2001 / 2000')).toBeInTheDocument();
    expect(screen.getByText('Discord allows at most 2000 characters: remove 1.')).toBeInTheDocument();
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(send).toBeDisabled();
  });

  it('refuses files over the size limit or the count, before uploading anything', async () => {
    const xhr = vi.fn();
    vi.stubGlobal('XMLHttpRequest', xhr);
    show('tickets/t12');
    await screen.findByRole('textbox', { name: 'Reply' });
    const input = screen.getByTestId('reply-files');
    const big = new File(['x'], 'video.mp4', { type: 'video/mp4' });
    Object.defineProperty(big, 'size', { value: 11 * 1024 * 1024 });
    fireEvent.change(input, { target: { files: [big] } });
    expect(screen.getByRole('alert')).toHaveTextContent('11.0 MB together is too much: Discord takes at most 10.0 MB in one message.');
    const many = Array.from({ length: 11 }, (_, index) => new File(['x'], `f${index}.txt`));
    fireEvent.change(input, { target: { files: many } });
    expect(screen.getByRole('alert')).toHaveTextContent('A reply can carry at most 10 files.');
    expect(xhr).not.toHaveBeenCalled();
  });

  it('uploads a file with progress, sends with Ctrl+Enter, shows "Sending…" until done, and a failure keeps the text to retry', async () => {
    const requests: Array<{ headers: Record<string, string>; body: unknown; fake: { upload: { onprogress: ((event: { loaded: number }) => void) | null }; onload: (() => void) | null } & Record<string, unknown> }> = [];
    class FakeXhr {
      upload = { onprogress: null as ((event: { loaded: number }) => void) | null };
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      onabort: (() => void) | null = null;
      status = 0;
      responseText = '';
      withCredentials = false;
      headers: Record<string, string> = {};
      open() {}
      setRequestHeader(name: string, value: string) {
        this.headers[name] = value;
      }
      send(body: unknown) {
        requests.push({ headers: this.headers, body, fake: this as never });
      }
      abort() {}
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const posted: unknown[] = [];
    show('tickets/t12', {
      [`POST ${BASE}/t12/commands`]: (_url: URL, init: RequestInit | undefined) => {
        posted.push(JSON.parse(String(init?.body)));
        return json(command('reply', { id: `cmd_${'b'.repeat(26)}`, content: 'See the log' }), 202);
      },
    });
    const box = await screen.findByRole('textbox', { name: 'Reply' });
    fireEvent.change(screen.getByTestId('reply-files'), { target: { files: [new File(['hello world'], 'log file.txt', { type: 'text/plain' })] } });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers['x-filename']).toBe('log%20file.txt');
    act(() => requests[0]!.fake.upload.onprogress?.({ loaded: 5 }));
    expect(screen.getByText('Uploading: 45%')).toBeInTheDocument();
    act(() => {
      Object.assign(requests[0]!.fake, { status: 201, responseText: JSON.stringify({ id: `att_${'c'.repeat(26)}`, filename: 'log file.txt', contentType: 'text/plain', size: 11 }) });
      requests[0]!.fake.onload?.();
    });
    expect(await screen.findByText('Uploaded')).toBeInTheDocument();
    await userEvent.type(box, 'See the log');
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(posted).toEqual([{ kind: 'reply', content: 'See the log', attachmentIds: [`att_${'c'.repeat(26)}`] }]));
    expect(box).toHaveValue('');
    const log = screen.getByRole('log', { name: 'Conversation' });
    const pending = within(log).getByRole('article', { name: 'Your reply' });
    expect(pending).toHaveTextContent('See the log');
    expect(pending).toHaveTextContent('Sending…');
    const source = FakeEventSource.last();
    source.send({ type: 'commands', commands: [command('reply', { id: `cmd_${'b'.repeat(26)}`, state: 'failed', failure: { reason: 'missing_permission', message: null }, content: 'See the log' })] });
    expect(pending).toHaveTextContent('Not sent. Reply failed: The bot lacks a permission it needs in this channel.');
    await userEvent.click(within(pending).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(posted).toHaveLength(2));
    source.send({ type: 'commands', commands: [command('reply', { id: `cmd_${'b'.repeat(26)}`, state: 'done', content: 'See the log' })] });
    source.send({ type: 'messages', messages: [live('1300000000000000004', 'See the log', {}, false, AVA)] });
    expect(within(log).queryByRole('article', { name: 'Your reply' })).toBeNull();
    expect(within(log).getAllByText('See the log')).toHaveLength(1);
  });
});

describe('Tickets: read-only members and labels', () => {
  it('shows the queue and the conversation without any action, saying why', async () => {
    show('tickets/t12', {}, READ);
    expect(await screen.findByRole('heading', { level: 2, name: 'Ticket #12' })).toBeInTheDocument();
    expect(screen.getByText('Read only')).toBeInTheDocument();
    expect(screen.getByText(/your roles \(Helpers\) give read access only/)).toBeInTheDocument();
    for (const name of ['Claim', 'Unclaim', 'Close ticket', 'Labels', 'Send reply', 'Manage labels']) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Reply' })).toBeNull();
    expect(screen.getByRole('list', { name: 'Open tickets' })).toBeInTheDocument();
  });

  it('manages labels: names checked before saving, the whole list saved at the version read, a conflict said plainly', async () => {
    const puts: unknown[] = [];
    show('tickets', {
      [`GET /api/guilds/${SERVER}/config`]: { version: 7, config: { labels: [BUG, VIP] } },
      [`PUT ${BASE}/labels`]: (_url: URL, init: RequestInit | undefined) => {
        puts.push(JSON.parse(String(init?.body)));
        return puts.length === 1 ? apiError(409, 1013, 'Someone saved version 8.') : json({ labels: [], version: 9 });
      },
    });
    await screen.findByRole('list', { name: 'Open tickets' });
    await userEvent.click(screen.getByRole('button', { name: 'Manage labels' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage labels' });
    const first = within(dialog).getByRole('textbox', { name: 'Name of label 1' });
    expect(first).toHaveFocus();
    await userEvent.clear(first);
    expect(within(dialog).getByText('A label needs a name.')).toBeInTheDocument();
    await userEvent.type(first, 'VIP');
    expect(within(dialog).getByText('Another label has this name.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save labels' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Fix the marked labels first.');
    expect(puts).toEqual([]);
    await userEvent.clear(first);
    await userEvent.type(first, 'Bug report');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Use #57f287 for label 2' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save labels' }));
    await waitFor(() => expect(puts).toEqual([{ labels: [{ ...BUG, name: 'Bug report' }, { ...VIP, colour: 0x57f287 }], version: 7 }]));
    expect(await within(dialog).findByText(/Someone else saved the configuration meanwhile/)).toBeInTheDocument();
  });

  it('checks labels with the contract schema (names of 1 to 32 characters) and names used twice', () => {
    const problems = labelProblems([
      { id: 'a', name: ' ', colour: 1 },
      { id: 'b', name: 'x'.repeat(33), colour: 1 },
      { id: 'c', name: 'Bug', colour: 1 },
      { id: 'd', name: 'bug', colour: 1 },
    ]);
    expect([...problems]).toEqual([
      [0, 'name'],
      [1, 'nameLong'],
      [3, 'duplicate'],
    ]);
  });

  it('does not let a read answered before newer frames undo an edit, a deletion or a command state', () => {
    const edited = live('1300000000000000002', 'It was order A-1002', { editedAt: '2026-03-01T10:05:00.000Z' });
    const current = withDetail(null, detail({ commands: [command('claim', { state: 'done' })] }));
    const streamed = { ...current, messages: mergeMessages(current.messages, [edited, live('1300000000000000001', 'x', {}, true)]) };
    const reread = withDetail(streamed, detail({ commands: [command('claim', { state: 'queued' })] }));
    expect(reread.messages.map((item) => [item.message.content, item.deleted])).toEqual([
      ['x', true],
      ['It was order A-1002', false],
    ]);
    expect(reread.commands.map((item) => item.state)).toEqual(['done']);
  });

  it('merges messages by id, the later winning, in order', () => {
    const one = live('1300000000000000001', 'one');
    const two = live('1300000000000000002', 'two');
    expect(mergeMessages([two], [one, { ...two, deleted: true }]).map((item) => [item.message.id, item.deleted])).toEqual([
      ['1300000000000000001', false],
      ['1300000000000000002', true],
    ]);
  });
});

describe('Tickets in German', () => {
  afterEach(async () => {
    await changeLocale('en');
  });

  it('says everything in German', async () => {
    await changeLocale('de');
    const STRANGER = { id: '1999999999999999002', name: '1999999999999999002', avatarUrl: null, unknown: true as const };
    show('tickets/t12', { [`GET ${BASE}/t12`]: detail({ ticket: summary('t12', 12, { opener: STRANGER }) }) });
    expect(await screen.findByRole('heading', { level: 2, name: 'Ticket #12' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Übernehmen' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ticket schließen' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Antwort' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Antwort senden' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Wartend (1)' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Offene Tickets' })).toBeInTheDocument();
    expect(screen.getAllByText('Wartet auf das Team').length).toBeGreaterThan(0);
    expect(screen.getByText('Unbekanntes Mitglied')).toHaveAttribute('title', STRANGER.id);
  });
});

describe('Tickets: auto-close', () => {
  it('shows when each open ticket closes by the rules (the exact time and the rule as its tooltip), none where no rule applies, and in the ticket’s header', async () => {
    const at = new Date(Date.now() + 3 * 3_600_000 + 60_000).toISOString();
    const closing = summary('t12', 12, { autoClose: { rule: 'member_silent', at, warnAt: null } });
    const overdue = summary('t14', 14, { autoClose: { rule: 'staff_silent', at: new Date(Date.now() - 60_000).toISOString(), warnAt: null } });
    const { unexpected } = show('tickets/t12', { [`GET ${BASE}`]: queue([closing, T13, overdue]), [`GET ${BASE}/t12`]: detail({ ticket: closing }) });
    const list = await screen.findByRole('list', { name: 'Open tickets' });
    const [first, second, third] = within(list).getAllByRole('link') as [HTMLElement, HTMLElement, HTMLElement];
    const badge = within(first).getByText('Closes in 3 hours');
    expect(badge).toHaveAttribute('datetime', at);
    expect(badge.parentElement).toHaveAttribute('title', expect.stringMatching(/^Closes automatically at .+ unless the member answers \(auto-close\)$/));
    expect(within(second).queryByText(/^Closes/)).toBeNull();
    expect(within(third).getByText('Closing now').parentElement).toHaveAttribute('title', expect.stringMatching(/unless staff answer/));
    const header = await screen.findByRole('heading', { name: /Ticket #12/ });
    expect(within(header.parentElement!).getByText('Closes in 3 hours')).toBeInTheDocument();
    expect(unexpected).toEqual([]);
  });
});
