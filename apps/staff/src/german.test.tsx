import { cleanup, screen, within } from '@testing-library/react';
import { inLocale, mockApi, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import SystemPage from './features/system/system';
import SystemUpdatePage from './features/system-update/system-update';
import TeamManagerPage from './features/team-manager/team-manager';
import TestPage from './features/test/test';

let store: ReturnType<typeof renderPage>['store'] | undefined;
inLocale('de');
afterEach(() => {
  cleanup();
  resetShared(store);
});

describe('staff pages in German', () => {
  it('team manager: the members, their flags and the audit in German, read-only without the write flag', async () => {
    const sam = { id: '1000000000000000004', name: 'Sam', username: 'sam', avatarUrl: 'https://cdn.test/a.png' };
    mockApi({
      'GET /api/staff/team': {
        members: [
          { ...sam, id: '1000000000000000005', name: 'Nico', username: 'nico', owner: false, permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'], grants: [{ permission: 'DASHBOARD_SUPPORT_SEARCH_READ', grantedBy: sam, grantedAt: '2026-02-18T10:00:00.000Z' }], addedBy: sam, addedAt: '2026-02-18T10:00:00.000Z' },
        ],
      },
      'GET /api/staff/audit': { entries: [{ id: '1', at: '2026-02-18T10:00:00.000Z', staff: sam, action: 'team.add', target: 'user 1000000000000000005 (Nico)', before: null, after: { permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] } }], nextCursor: null, actions: ['team.add'] },
    });
    ({ store } = renderPage(<TeamManagerPage />, { url: '/team-manager', me: signedInMe({ team: { owner: false, permissions: ['SPECIAL_TEAM_MANAGER_READ'] } }) }));
    expect(screen.getByRole('heading', { level: 1, name: 'Teamverwaltung' })).toBeInTheDocument();
    expect(screen.getByText('Nur lesen')).toBeInTheDocument();
    const flags = await screen.findByRole('list', { name: 'Berechtigungen von Nico' });
    expect(within(flags).getByText('Support-Suche')).toBeInTheDocument();
    expect(within(flags).getByText(/Erteilt von Sam am/)).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Prüfprotokoll des Teams, neueste zuerst' });
    expect(within(table).getByText('Mitglied hinzugefügt')).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Vorher → nachher' })).toBeInTheDocument();
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
      'GET /api/staff/system': {
        database: { kind: 'postgres', reachable: true, latencyMs: 250, sizeBytes: 12_345_678, pool: { total: 5, idle: 2, waiting: 2, max: 10 } },
        redis: { reachable: false, latencyMs: null, since: '2026-03-01T12:30:00.000Z', error: 'Command timed out' },
        shards: [],
        errors: [],
        api: { version: '0.1.0', node: 'v20.20.2', startedAt: '2026-03-01T08:00:00.000Z', uptimeSeconds: 3 * 86_400 + 4 * 3_600 },
      },
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
    // The service health above: German words, numbers and units.
    expect(screen.getByRole('heading', { level: 2, name: 'Zustand des Dienstes' })).toBeInTheDocument();
    const database = await screen.findByRole('region', { name: 'Datenbank' });
    expect(within(database).getByText('Langsam: über 200 ms')).toBeInTheDocument();
    expect(within(database).getByText('12,3 MB')).toBeInTheDocument();
    expect(within(database).getByText('3 von 10 belegt')).toBeInTheDocument();
    expect(within(database).getByText('2 Anfragen warten')).toBeInTheDocument();
    const redis = screen.getByRole('region', { name: 'Redis' });
    expect(within(redis).getByText('Nicht erreichbar')).toBeInTheDocument();
    expect(within(redis).getByText('Pro Instanz gezählt')).toBeInTheDocument();
    expect(within(redis).getByText('Nicht erreichbar seit')).toBeInTheDocument();
    expect(redis).toHaveTextContent('Diese API-Instanz erreicht Redis nicht');
    expect(within(screen.getByRole('region', { name: 'API' })).getByText('3 Tg. 4 Std.')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Ausgelieferte Frontends' })).getAllByText('Build ohne Version')).toHaveLength(5);
    expect(screen.getByRole('heading', { name: 'Noch kein Shard hat sich gemeldet' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Keine Serverfehler seit dem Start dieser Instanz' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Zustand des Dienstes aktualisieren' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Statusseite' })).toHaveAttribute('href', '/status');
    cleanup();
    resetShared(store);
    ({ store } = renderPage(<SystemUpdatePage />, { url: '/systemUpdate', me: reader }));
    expect(screen.getByRole('heading', { level: 1, name: 'Systemmeldungen' })).toBeInTheDocument();
    expect(screen.getByText(/braucht die Berechtigung „System \(schreiben\)“/)).toHaveTextContent('DASHBOARD_SUPPORT_SYSTEM_WRITE');
    expect(screen.getByRole('heading', { level: 2, name: 'Mitteilungen' })).toBeInTheDocument();
  });
});
