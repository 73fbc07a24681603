import { cleanup, screen, within } from '@testing-library/react';
import { inLocale, mockApi, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import SystemPage from './system';
import SystemUpdatePage from './system-update';
import TeamManagerPage from './team-manager';
import TestPage from './test-playground';

let store: ReturnType<typeof renderPage>['store'] | undefined;
inLocale('de');
afterEach(() => {
  cleanup();
  resetShared(store);
});

describe('staff pages in German', () => {
  it('team manager names the flags, their meaning and the count in German', () => {
    ({ store } = renderPage(<TeamManagerPage />, {
      url: '/team-manager',
      me: signedInMe({ team: { owner: false, permissions: ['SPECIAL_TEAM_MANAGER_READ'] } }),
    }));
    expect(screen.getByRole('heading', { level: 1, name: 'Teamverwaltung' })).toBeInTheDocument();
    expect(screen.getByText('Du hast 1 von 5 Berechtigungen.')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Deine Teamberechtigungen und was sie jeweils erlauben' });
    expect(within(table).getByRole('columnheader', { name: 'Was sie erlaubt' })).toBeInTheDocument();
    const row = within(table).getByRole('row', { name: /SPECIAL_TEAM_MANAGER_READ/ });
    expect(within(row).getByText('Teamverwaltung (lesen)')).toBeInTheDocument();
    expect(within(row).getByText('Erteilt')).toBeInTheDocument();
    expect(within(table).getAllByText('Nicht erteilt')).toHaveLength(4);
    expect(screen.getByText(/ist die Berechtigung „Teamverwaltung \(schreiben\)“ nötig, die du nicht hast\./)).toBeInTheDocument();
  });

  it('the playground describes the states in German, its numbers through the formatter', () => {
    ({ store } = renderPage(<TestPage />, { url: '/test', me: signedInMe({ team: { owner: true, permissions: [] } }) }));
    expect(screen.getByRole('heading', { level: 1, name: 'Test' })).toBeInTheDocument();
    for (const state of ['Lade-Overlay', 'Anmeldung erforderlich', 'Kein Zugriff auf einen Server', 'Anfrage fehlgeschlagen', 'Wiederholungslimit']) {
      expect(screen.getByText(state)).toBeInTheDocument();
    }
    expect(screen.getByText('Erscheint, wenn eine Anfrage nach 250 ms noch läuft, und verschwindet, sobald sie beantwortet ist.')).toBeInTheDocument();
    expect(screen.getByText('Nach 999 Wiederholungen einer Anfrage wird der Nutzer zur Startseite geleitet.')).toBeInTheDocument();
    expect(screen.getByText(/'<code> - <http status>'/)).toBeInTheDocument();
  });

  it('system and system update speak German and keep their links and codes', async () => {
    const reader = signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ'] } });
    const queue = { pending: 0, failing: 0, dead: 0, oldestPendingAt: null };
    mockApi({
      'GET /api/staff/webhooks': {
        queues: [
          { provider: 'paddle', ...queue, dead: 1 },
          { provider: 'fastspring', ...queue },
          { provider: 'discord', ...queue },
          { provider: 'chargebee', ...queue },
        ],
        dead: [{ id: '1', provider: 'paddle', type: 'x.y', key: 'evt_1', subject: null, attempts: 8, lastError: 'boom', receivedAt: '2026-03-01T12:00:00.000Z' }],
        nextCursor: null,
      },
    });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader }));
    expect(screen.getByRole('heading', { level: 1, name: 'System' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Zahlungs-Webhooks' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Unzustellbare Webhook-Ereignisse, neueste zuerst' });
    expect(within(table).getByRole('columnheader', { name: 'Letzter Fehler' })).toBeInTheDocument();
    expect(screen.getByText('Handlungsbedarf')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Anbieter' })).toHaveDisplayValue('Alle Anbieter');
    expect(screen.getByText(/die du nicht hast\./)).toHaveTextContent('DASHBOARD_SUPPORT_SYSTEM_WRITE');
    expect(screen.getByRole('button', { name: 'Aktualisieren' })).toBeInTheDocument();
    expect(screen.getByText('Mehr vom System kommt mit den Team-Tools')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Statusseite' })).toHaveAttribute('href', '/status');
    cleanup();
    resetShared(store);
    ({ store } = renderPage(<SystemUpdatePage />, { url: '/systemUpdate', me: reader }));
    expect(screen.getByRole('heading', { level: 1, name: 'Systemmeldungen' })).toBeInTheDocument();
    expect(screen.getByText('DASHBOARD_SUPPORT_SYSTEM_WRITE').parentElement).toHaveTextContent('Teammitglieder mit DASHBOARD_SUPPORT_SYSTEM_WRITE. Dein Konto:');
    expect(screen.getByText('Nicht erteilt')).toBeInTheDocument();
  });
});
