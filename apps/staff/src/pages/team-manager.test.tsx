import { cleanup, screen, within } from '@testing-library/react';
import { renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import TeamManagerPage from './team-manager';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => {
  cleanup();
  resetShared(store);
});

const FLAGS = [
  'DASHBOARD_SUPPORT_SYSTEM_READ',
  'DASHBOARD_SUPPORT_SYSTEM_WRITE',
  'DASHBOARD_SUPPORT_SEARCH_READ',
  'SPECIAL_TEAM_MANAGER_READ',
  'SPECIAL_TEAM_MANAGER_WRITE',
];

/** Each body row of the flags table: [flag, granted?]. */
function flagRows(): Array<[string, string]> {
  const table = screen.getByRole('table', { name: /your staff permission flags/i });
  const [, ...rows] = within(table).getAllByRole('row');
  return rows.map((row) => {
    const cells = within(row).getAllByRole('cell');
    return [within(row).getByRole('rowheader').querySelector('code')!.textContent!, cells[cells.length - 1]!.textContent!];
  });
}

describe('team manager page', () => {
  it('shows an owner every one of the five flags as granted', () => {
    ({ store } = renderPage(<TeamManagerPage />, { url: '/team-manager', me: signedInMe({ team: { owner: true, permissions: [] } }) }));
    expect(screen.getByRole('heading', { level: 1, name: 'Team Manager' })).toBeInTheDocument();
    expect(screen.getByText('Owner')).toBeInTheDocument();
    expect(screen.getByText(/owners hold every flag/)).toBeInTheDocument();
    expect(flagRows()).toEqual(FLAGS.map((f) => [f, 'Granted']));
    expect(screen.getByRole('columnheader', { name: 'What it allows' })).toBeInTheDocument();
    expect(screen.getByText('Grant and revoke staff flags (every change is logged).')).toBeInTheDocument();
    expect(screen.getByText(/which you hold\./)).toBeInTheDocument();
  });

  it('shows a one-flag member only that flag as granted', () => {
    ({ store } = renderPage(<TeamManagerPage />, {
      url: '/team-manager',
      me: signedInMe({ team: { owner: false, permissions: ['SPECIAL_TEAM_MANAGER_READ'] } }),
    }));
    expect(screen.queryByText('Owner')).not.toBeInTheDocument();
    expect(screen.getByText('You hold 1 of the 5 flags.')).toBeInTheDocument();
    expect(flagRows()).toEqual(FLAGS.map((f) => [f, f === 'SPECIAL_TEAM_MANAGER_READ' ? 'Granted' : 'Not granted']));
    expect(screen.getByText(/which you do not hold\./)).toBeInTheDocument();
  });
});
