import { inLocale, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { cleanup, screen, within } from '@testing-library/react';
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

  it('system and system update speak German and keep their links and codes', () => {
    const reader = signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ'] } });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader }));
    expect(screen.getByRole('heading', { level: 1, name: 'System' })).toBeInTheDocument();
    expect(screen.getByText('Der Systemzustand kommt mit den Team-Tools')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Statusseite' })).toHaveAttribute('href', '/status');
    cleanup();
    resetShared(store);
    ({ store } = renderPage(<SystemUpdatePage />, { url: '/systemUpdate', me: reader }));
    expect(screen.getByRole('heading', { level: 1, name: 'Systemmeldungen' })).toBeInTheDocument();
    expect(screen.getByText('DASHBOARD_SUPPORT_SYSTEM_WRITE').parentElement).toHaveTextContent('Teammitglieder mit DASHBOARD_SUPPORT_SYSTEM_WRITE. Dein Konto:');
    expect(screen.getByText('Nicht erteilt')).toBeInTheDocument();
  });
});
