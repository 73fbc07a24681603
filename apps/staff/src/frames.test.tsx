import { cleanup, screen } from '@testing-library/react';
import { mockApi, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import SystemPage from './features/system/system';
import SystemUpdatePage from './features/system-update/system-update';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => {
  cleanup();
  resetShared(store);
});

const owner = signedInMe({ team: { owner: true, permissions: [] } });
const reader = signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ'] } });

describe('staff page frames', () => {

  it('system shows the service health above the payment webhooks, promises nothing for later and links to the public status page', async () => {
    mockApi({
      'GET /api/staff/system': {
        database: { kind: 'pglite', reachable: true, latencyMs: 1, sizeBytes: 8_200_000, pool: null },
        shards: [],
        errors: [],
        api: { version: '0.1.0', node: 'v20.20.2', startedAt: '2026-03-01T08:00:00.000Z', uptimeSeconds: 60 },
      },
      'GET /api/staff/webhooks': { queues: [], dead: [], nextCursor: null },
    });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader }));
    expect(screen.getByRole('heading', { level: 1, name: 'System' })).toBeInTheDocument();
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings.filter((h) => h === 'Service health' || h === 'Payment webhooks')).toEqual(['Service health', 'Payment webhooks']);
    expect(await screen.findByRole('region', { name: 'Database' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No dead letters: every event was applied' })).toBeInTheDocument();
    expect(screen.queryByText(/come next|comes with the staff tools/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Status page' })).toHaveAttribute('href', '/status');
  });

  it('system update lists the announcements; read only without the write flag, a New button with it (features/system-update has the rest)', async () => {
    mockApi({ 'GET /api/staff/announcements': { announcements: [], nextCursor: null } });
    ({ store } = renderPage(<SystemUpdatePage />, { url: '/systemUpdate', me: reader }));
    expect(screen.getByRole('heading', { level: 1, name: 'System Update' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No announcements yet' })).toBeInTheDocument();
    expect(screen.getByText('Read only')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New announcement' })).not.toBeInTheDocument();
    cleanup();
    resetShared(store);
    mockApi({ 'GET /api/staff/announcements': { announcements: [], nextCursor: null } });
    ({ store } = renderPage(<SystemUpdatePage />, { url: '/systemUpdate', me: owner }));
    expect(screen.getByRole('button', { name: 'New announcement' })).toBeInTheDocument();
    expect(screen.queryByText('Read only')).not.toBeInTheDocument();
  });

});
