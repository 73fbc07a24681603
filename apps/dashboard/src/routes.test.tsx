import { screen } from '@testing-library/react';
import { mockApi, renderPage, resetShared, routesModuleProblems } from '@tickety/shared/testing';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { PanelMenuPage } from './features/configs/route';
import routes, { remoteRoutes } from './routes';
import { avaMe } from './test/fixtures';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => resetShared(store));

const LAZY = Symbol.for('react.lazy');

describe('the dashboard remote routes module', () => {
  it('declares its pages in its route table (the routes.json its build emits), a component for each', () => {
    expect(routesModuleProblems(routes)).toEqual([]);
  });

  it('provides each page as a lazily loaded chunk', () => {
    expect(routes).toBe(remoteRoutes);
    expect(routes.id).toBe('dashboard');
    for (const mod of Object.values(routes.routes)) expect((mod.Component as unknown as { $$typeof: symbol }).$$typeof).toBe(LAZY);
    // The Panel Menu's route is a small chunk of its own that starts the page's reads; its page is a chunk too.
    expect((PanelMenuPage as unknown as { $$typeof: symbol }).$$typeof).toBe(LAZY);
  });

  it.each([
    ['manageServers', '/dashboard', '/dashboard', 'Manage Servers'],
    ['serverConfigs', '/dashboard/1100000000000000001/configs', '/dashboard/:server/configs', 'Panel Menu'],
    ['transcriptV2', '/transcript/v2/1100000000000000001/abc', '/transcript/v2/:server/:fileid', 'Ticket #1 · #ticket-0001'],
    ['serverTickets', '/dashboard/1100000000000000001/tickets', '/dashboard/:server/tickets', 'Tickets'],
    ['serverAutomation', '/dashboard/1100000000000000001/configs/automation', '/dashboard/:server/configs/automation', 'Automation'],
  ] as const)('%s loads and renders inside Suspense', async (id, url, path, heading) => {
    mockApi({
      'GET /api/guilds/1100000000000000001/tickets': { tickets: [], counts: { open: 0, mine: 0, unclaimed: 0, waiting: 0 }, labels: [], panels: [] },
      'GET /api/transcripts/v2/1100000000000000001/abc': {
        version: 2,
        server: { id: '1100000000000000001', name: "Ava's Arcade", iconUrl: null },
        channel: { id: '1200000000000000001', name: 'ticket-0001' },
        ticket: { id: 'abc', number: 1, panelId: null, openerId: '1000000000000000001', openedAt: '2026-03-01T10:00:00Z', closedAt: '2026-03-01T11:00:00Z', closedBy: null, reason: null },
        users: [],
        roles: [],
        channels: [],
        messages: [],
      },
    });
    const Page = routes.routes[id].Component;
    ({ store } = renderPage(
      <Suspense fallback={<p>Loading page</p>}>
        <Page />
      </Suspense>,
      { url, path, me: avaMe() },
    ));
    expect(await screen.findByRole('heading', { level: 1, name: heading }, { timeout: 10_000 })).toBeInTheDocument();
  });
});
