import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TranscriptSummary } from '@tickety/api-contract';
import { useOpenServer } from '@tickety/shared';
import { apiError, json, mockApi, renderPage, resetShared } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { live } from '../../test/config-fixtures';
import { ARCADE, avaMe } from '../../test/fixtures';
import ServerTranscripts from './server-transcripts';
import YourTickets from './your-tickets';

const SERVER = ARCADE.id;

function summary(number: number, over: Partial<TranscriptSummary> = {}): TranscriptSummary {
  return {
    serverId: SERVER,
    serverName: "Ava's Arcade",
    fileId: `t-${number}`,
    ticketId: `d${number}`,
    number: number,
    panelId: 'support',
    opener: { id: '1000000000000000003', name: 'Cleo' },
    closedBy: { id: '1000000000000000902', name: 'Jules' },
    openedAt: '2026-11-20T10:00:00.000Z',
    closedAt: `2026-11-20T1${number % 10}:00:00.000Z`,
    messages: 10 + number,
    rating: number % 2 ? 5 : null,
    ...over,
  };
}

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => resetShared(store));

describe('Your tickets', () => {
  it('lists the user’s transcripts across servers, linking to the viewer, and pages with Load more', async () => {
    const asked: URLSearchParams[] = [];
    mockApi({
      'GET /api/transcripts/mine': (url: URL) => {
        asked.push(url.searchParams);
        return url.searchParams.get('cursor') === 'next'
          ? json({ items: [summary(1, { serverId: '1100000000000000002', serverName: 'Pixel Pals' })], nextCursor: null })
          : json({ items: [summary(3), summary(2)], nextCursor: 'next' });
      },
    });
    const page = renderPage(<YourTickets />, { url: '/transcripts', path: '/transcripts', me: avaMe() });
    store = page.store;
    const table = await screen.findByRole('table', { name: 'Transcripts of the tickets you opened, newest first' });
    const link = within(table).getByRole('link', { name: 'Ticket #3' });
    expect(link).toHaveAttribute('href', `/transcript/v2/${SERVER}/t-3`);
    expect(within(table).getAllByText("Ava's Arcade")).toHaveLength(2);
    expect(within(table).getByText('5 of 5 stars')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(table).findByText('Pixel Pals')).toBeInTheDocument();
    expect(asked.map((q) => q.get('cursor'))).toEqual([null, 'next']);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('says when there is nothing yet, and when loading failed', async () => {
    mockApi({ 'GET /api/transcripts/mine': { items: [], nextCursor: null } });
    const page = renderPage(<YourTickets />, { url: '/transcripts', path: '/transcripts', me: avaMe() });
    store = page.store;
    expect(await screen.findByRole('heading', { name: 'No transcripts yet' })).toBeInTheDocument();
  });

  it('shows a failure with Try again', async () => {
    mockApi({ 'GET /api/transcripts/mine': () => apiError(503, 1009, 'The service is temporarily unavailable (database). Try again shortly.') });
    const page = renderPage(<YourTickets />, { url: '/transcripts', path: '/transcripts', me: avaMe() });
    store = page.store;
    expect(await screen.findByText('The transcripts could not be loaded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

function ServerPage() {
  useOpenServer(SERVER);
  return <ServerTranscripts />;
}

describe('A server’s transcripts', () => {
  it('sends the filters from the address and the form, and refuses a malformed user id', async () => {
    const asked: URLSearchParams[] = [];
    mockApi({
      [`GET /api/guilds/${SERVER}/transcripts`]: (url: URL) => {
        asked.push(url.searchParams);
        return json({ items: url.searchParams.get('q') === 'refund' ? [] : [summary(4)], nextCursor: null });
      },
      [`GET /api/guilds/${SERVER}/config`]: live(),
    });
    const page = renderPage(<ServerPage />, { url: `/dashboard/${SERVER}/logs-web/transcripts?rating=5&panel=support`, path: '/dashboard/:server/logs-web/transcripts', me: avaMe() });
    store = page.store;
    await screen.findByRole('link', { name: 'Ticket #4' });
    expect(asked[0]!.get('rating')).toBe('5');
    expect(asked[0]!.get('panel')).toBe('support');

    await userEvent.type(screen.getByLabelText('Opened by (user ID)'), 'cleo');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Opened by (user ID): enter a Discord user ID');
    expect(asked).toHaveLength(1);

    await userEvent.clear(screen.getByLabelText('Opened by (user ID)'));
    await userEvent.type(screen.getByLabelText('Words in the messages'), 'refund');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(asked.at(-1)?.get('q')).toBe('refund'));
    expect(page.router.state.location.search).toContain('q=refund');
    expect(await screen.findByRole('heading', { name: 'No transcript matches' })).toBeInTheDocument();
  });
});
