import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, json, mockApi, renderPage, resetShared, signedInMe, testSubscription } from '@tickety/shared/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StaffSearchAnswer, StaffServerCard, StaffUserCard } from './api';
import SupportTeamPage from './support-team';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => {
  vi.useRealTimers();
  cleanup();
  resetShared(store);
});

const searcher = signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] } });

const AVA = '1000000000000000001';
const ZOE = '1500000000000000001';
const ARCADE = '1100000000000000001';

const answer = (query: string): StaffSearchAnswer => ({
  q: query,
  users: [
    { id: AVA, username: 'ava', globalName: 'Ava', avatarUrl: 'http://cdn.test/a.png', match: 'exact' },
    { id: ZOE, username: 'zoe', globalName: 'Zoë', avatarUrl: 'http://cdn.test/z.png', match: 'similar' },
  ],
  servers: [{ id: ARCADE, name: "Ava's Arcade", iconUrl: null, botInGuild: true, match: 'prefix' }],
});

function userCard(canViewBilling: boolean, sessions: StaffUserCard['sessions'] = { active: 2, canEnd: false }): StaffUserCard {
  return {
    sessions,
    user: { id: AVA, username: 'ava', globalName: 'Ava', avatarUrl: 'http://cdn.test/a.png', createdAt: '2026-01-01T10:00:00.000Z', updatedAt: '2026-03-01T10:00:00.000Z', guildsRefreshedAt: '2026-03-01T10:00:00.000Z' },
    servers: [{ id: ARCADE, name: "Ava's Arcade", iconUrl: null, owner: true, botInGuild: true }],
    subscriptions: [testSubscription({ provider: 'paddle', id: 'sub_1', userId: AVA, planName: 'Premium', status: 'active', premium: true })],
    canViewBilling,
    tickets: [
      { serverId: ARCADE, serverName: "Ava's Arcade", ticketId: 't1', number: 7, panelId: 'support', openerId: AVA, openedAt: '2026-02-01T10:00:00.000Z', closedAt: '2026-02-01T11:00:00.000Z', rating: null, transcriptId: 'file-7' },
      { serverId: ARCADE, serverName: "Ava's Arcade", ticketId: 't2', number: 8, panelId: 'support', openerId: AVA, openedAt: '2026-02-02T10:00:00.000Z', closedAt: null, rating: null, transcriptId: null },
    ],
  };
}

const serverCard: StaffServerCard = {
  server: { id: ARCADE, name: "Ava's Arcade", iconUrl: null, botInGuild: true, updatedAt: '2026-03-01T10:00:00.000Z' },
  premium: { active: true, coveredBy: { subscription: testSubscription({ provider: 'discord', id: 'sub_9', userId: AVA, planName: 'Premium' }), owner: { id: AVA, name: 'Ava', avatarUrl: 'x' }, slot: 1 } },
  canViewBilling: false,
  config: { version: 5, savedAt: '2026-03-01T10:00:00.000Z', panels: 2, multiPanels: 1 },
  managers: [{ id: AVA, name: 'Ava', avatarUrl: 'x', owner: true }],
  webLogs: [{ id: '1', at: '2026-03-01T10:00:00.000Z', actor: { id: AVA, name: 'Ava', avatarUrl: null }, action: 'config.update', target: 'Panel “Support”', version: 5, changes: [] }],
  tickets: [],
};

describe('Support Team (/support-team)', () => {
  it('searches as you type (debounced, one request for the pause), groups the results, opens a card by keyboard into the URL', async () => {
    const api = mockApi({
      'GET /api/staff/search': (url: URL) => json(answer(url.searchParams.get('q') ?? '')),
      [`GET /api/staff/users/${AVA}`]: userCard(false),
    });
    const user = userEvent.setup();
    let router: ReturnType<typeof renderPage>['router'];
    ({ store, router } = renderPage(<SupportTeamPage />, { url: '/support-team', me: searcher }));
    expect(screen.getByText('Type a name or an id to search.')).toBeInTheDocument();
    const box = screen.getByRole('combobox', { name: 'Search users and servers' });
    await user.type(box, 'ava');
    const list = await screen.findByRole('listbox', { name: 'Results' });
    // One request for the whole word typed quickly, not one per letter.
    expect(api.calls('/api/staff/search').map(([input]) => new URL(String(input)).searchParams.get('q'))).toEqual(['ava']);
    expect(within(within(list).getByRole('group', { name: /Users/ })).getAllByRole('option').map((o) => o.textContent)).toEqual([
      expect.stringContaining('Ava'),
      expect.stringContaining('Zoë'),
    ]);
    expect(within(list).getByRole('group', { name: /Servers/ })).toHaveTextContent("Ava's Arcade");
    expect(router.state.location.search).toBe('?q=ava');
    // The first result is active; arrows move; Enter opens the card.
    const options = within(list).getAllByRole('option');
    expect(box).toHaveAttribute('aria-activedescendant', options[0]!.id);
    await user.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', options[1]!.id);
    await user.keyboard('{ArrowUp}{Enter}');
    await screen.findByRole('heading', { level: 2, name: 'Ava' });
    expect(new URLSearchParams(router.state.location.search).get('user')).toBe(AVA);
    // The card asked as the dashboard's own fetch (audited by the API).
    const [, init] = api.calls(`/api/staff/users/${AVA}`)[0]!;
    expect(new Headers(init?.headers).get('x-requested-with')).toBe('tickety');
    // Its servers, subscriptions (no billing link without DASHBOARD_SUPPORT_SYSTEM_READ), tickets with their transcript.
    expect(screen.getByRole('link', { name: "Ava's Arcade" })).toHaveAttribute('href', `/support-team?server=${ARCADE}`);
    expect(screen.queryByRole('link', { name: 'Open their billing' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Transcript' })).toHaveAttribute('href', `/transcript/v2/${ARCADE}/file-7`);
    expect(screen.getByText('No transcript')).toBeInTheDocument();
    expect(api.unexpected).toEqual([]);
  });

  it('a shared link opens the card; the billing link only when the answer allows it; a server card opens its dashboard read-only', async () => {
    mockApi({ [`GET /api/staff/users/${AVA}`]: userCard(true), [`GET /api/staff/servers/${ARCADE}`]: serverCard });
    let router: ReturnType<typeof renderPage>['router'];
    ({ store, router } = renderPage(<SupportTeamPage />, { url: `/support-team?user=${AVA}`, me: searcher }));
    expect(await screen.findByRole('link', { name: 'Open their billing' })).toHaveAttribute('href', `/billing/${AVA}`);
    await act(() => router.navigate(`/support-team?server=${ARCADE}`));
    await screen.findByRole('heading', { level: 2, name: "Ava's Arcade" });
    expect(screen.getByRole('link', { name: 'Open the server dashboard' })).toHaveAttribute('href', `/dashboard/${ARCADE}`);
    expect(screen.getByText('It opens read-only for staff: nothing can be saved.')).toBeInTheDocument();
    expect(screen.getByText(/2 panels and 1 multi-panel; version 5/)).toBeInTheDocument();
    expect(screen.getByText(/Covered by Premium \(Discord, slot 1\) of/)).toBeInTheDocument();
    expect(screen.getByText('Panel “Support”')).toBeInTheDocument();
  });

  it('says how many sessions the user has; with the system write flag, signs them out everywhere after a confirmation, and reads the card again', async () => {
    let ended = false;
    let fail = true;
    const { calls } = mockApi({
      [`GET /api/staff/users/${AVA}`]: () => json(userCard(true, { active: ended ? 0 : 2, canEnd: true })),
      [`POST /api/staff/users/${AVA}/sessions/end`]: () => {
        if (fail) return apiError(503, 1009, 'The service is temporarily unavailable (database). Try again shortly.');
        ended = true;
        return json({ ended: 2 });
      },
    });
    const writer = signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SEARCH_READ', 'DASHBOARD_SUPPORT_SYSTEM_WRITE'] } });
    ({ store } = renderPage(<SupportTeamPage />, { url: `/support-team?user=${AVA}`, me: writer }));
    expect(await screen.findByText('Signed in on 2 devices or browsers.')).toBeInTheDocument();
    const open = screen.getByRole('button', { name: 'Sign out everywhere…' });
    await userEvent.click(open);
    const dialog = screen.getByRole('alertdialog', { name: 'Sign Ava out everywhere?' });
    expect(dialog).toHaveTextContent('2 sessions end at once');
    // Cancel: nothing sent, focus back on the button.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await waitFor(() => expect(open).toHaveFocus());
    expect(calls(`/api/staff/users/${AVA}/sessions/end`)).toHaveLength(0);
    // A failure stays in the dialog; Try again succeeds.
    await userEvent.click(open);
    const again = screen.getByRole('alertdialog', { name: 'Sign Ava out everywhere?' });
    await userEvent.click(within(again).getByRole('button', { name: 'Sign out everywhere' }));
    expect(await within(again).findByRole('alert')).toHaveTextContent('The sessions were not ended');
    fail = false;
    await userEvent.click(within(again).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.getByRole('status')).toHaveTextContent('2 sessions of Ava ended.');
    expect(await screen.findByText('Signed in nowhere right now.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign out everywhere…' })).toBeDisabled();
    expect(calls(`/api/staff/users/${AVA}/sessions/end`).map(([, init]) => init?.method)).toEqual(['POST', 'POST']);
  });

  it('without the system write flag, the sessions are only counted', async () => {
    mockApi({ [`GET /api/staff/users/${AVA}`]: userCard(false) });
    ({ store } = renderPage(<SupportTeamPage />, { url: `/support-team?user=${AVA}`, me: searcher }));
    expect(await screen.findByText('Signed in on 2 devices or browsers.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign out everywhere…' })).not.toBeInTheDocument();
  });

  it('says when nothing matches, shows a failure with Retry, and a card that cannot be read', async () => {
    let fail = true;
    mockApi({
      'GET /api/staff/search': (url: URL) => {
        const query = url.searchParams.get('q');
        if (query === 'boom') return fail ? apiError(500, 1500, 'Something went wrong on our side.') : json({ q: query, users: [], servers: [] });
        return json({ q: query, users: [], servers: [] });
      },
      '/api/staff/users/1999999999999999999': () => apiError(404, 1002, 'No user with this id has signed in to the dashboard.'),
    });
    const user = userEvent.setup();
    ({ store } = renderPage(<SupportTeamPage />, { url: '/support-team?user=1999999999999999999', me: searcher }));
    expect(await screen.findByText('The card could not be loaded')).toBeInTheDocument();
    const box = screen.getByRole('combobox');
    await user.type(box, 'nobody');
    expect(await screen.findByText('No users or servers match')).toBeInTheDocument();
    await user.clear(box);
    await user.type(box, 'boom');
    const failure = (await screen.findByText('The search failed')).closest('[role="alert"]') as HTMLElement;
    expect(failure).toHaveTextContent('Something went wrong on our side.');
    fail = false;
    await user.click(within(failure).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No users or servers match')).toBeInTheDocument();
  });

  it('/ focuses the search box from anywhere on the page, but is typed inside a field; a newer query cancels the one in flight', async () => {
    const signals: AbortSignal[] = [];
    mockApi({
      'GET /api/staff/search': (url: URL, init: RequestInit | undefined) => {
        const query = url.searchParams.get('q') ?? '';
        if (init?.signal) signals.push(init.signal);
        if (query === 'slow') return new Promise<Response>(() => undefined);
        return json(answer(query));
      },
    });
    ({ store } = renderPage(<SupportTeamPage />, { url: '/support-team', me: searcher }));
    const box = screen.getByRole('combobox');
    expect(box).not.toHaveFocus();
    fireEvent.keyDown(document.body, { key: '/' });
    expect(box).toHaveFocus();
    fireEvent.change(box, { target: { value: 'slow' } });
    await waitFor(() => expect(signals).toHaveLength(1));
    fireEvent.change(box, { target: { value: 'ava' } });
    await screen.findByRole('listbox');
    await waitFor(() => expect(signals[0]!.aborted).toBe(true));
  });
});
