import { cleanup, screen } from '@testing-library/react';
import { mockApi, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import SupportTeamPage from './support-team';
import SystemPage from './system';
import SystemUpdatePage from './system-update';
import TestPage from './test-playground';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => {
  cleanup();
  resetShared(store);
});

const owner = signedInMe({ team: { owner: true, permissions: [] } });
const reader = signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ'] } });

describe('staff page frames', () => {
  it('test describes every overlay state the playground will trigger, without buttons', () => {
    ({ store } = renderPage(<TestPage />, { url: '/test', me: owner }));
    expect(screen.getByRole('heading', { level: 1, name: 'Test' })).toBeInTheDocument();
    for (const state of ['Loading overlay', 'Login Required', 'No access to a server', 'Request Failed', 'Retry limit']) {
      expect(screen.getByText(state)).toBeInTheDocument();
    }
    expect(screen.getByText("The playground's triggers come with the staff tools")).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('system shows the payment webhooks, says the rest comes later and links to the public status page', async () => {
    mockApi({ 'GET /api/staff/webhooks': { queues: [], dead: [], nextCursor: null } });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader }));
    expect(screen.getByRole('heading', { level: 1, name: 'System' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Payment webhooks' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No dead letters: every event was applied' })).toBeInTheDocument();
    expect(screen.getByText('More of System comes with the staff tools')).toBeInTheDocument();
    expect(screen.getByText(/come next/)).not.toHaveTextContent(/webhook/i);
    expect(screen.getByRole('link', { name: 'Status page' })).toHaveAttribute('href', '/status');
  });

  it('system update tells whether the signed-in staff member may publish', () => {
    ({ store } = renderPage(<SystemUpdatePage />, { url: '/systemUpdate', me: reader }));
    expect(screen.getByRole('heading', { level: 1, name: 'System Update' })).toBeInTheDocument();
    expect(screen.getByText('Publishing notices comes with the staff tools')).toBeInTheDocument();
    expect(screen.getByText('Not granted')).toBeInTheDocument();
    cleanup();
    resetShared(store);
    ({ store } = renderPage(<SystemUpdatePage />, { url: '/systemUpdate', me: owner }));
    expect(screen.getByText('Granted')).toBeInTheDocument();
  });

  it('support team says search comes later', () => {
    ({ store } = renderPage(<SupportTeamPage />, { url: '/support-team', me: owner }));
    expect(screen.getByRole('heading', { level: 1, name: 'Support Team' })).toBeInTheDocument();
    expect(screen.getByText('Search comes with the staff tools')).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });
});
