import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ConfigHealth, ServerAccess } from '@tickety/api-contract';
import { changeLocale } from '@tickety/shared';
import { apiError, getSidebarBadge, json, mockApi, renderPage, resetShared, useServedServer } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ARCADE } from '../../test/fixtures';
import { HealthBadge } from './badge';
import { HealthSummary } from './summary';

const SERVER = ARCADE.id;
const URL_HEALTH = `/api/guilds/${SERVER}/config/health`;
const FULL = { via: 'full', areas: { panels: 'write', tickets: 'write', statistics: 'write', logs: 'write', configs: 'write', premium: 'write' }, grantedBy: [] } as unknown as ServerAccess;
const NO_PANELS = { via: 'roles', areas: { panels: null, tickets: 'read', statistics: null, logs: null, configs: null, premium: null }, grantedBy: ['Helpers'] } as unknown as ServerAccess;

const TWO: ConfigHealth = {
  version: 5,
  checkedAt: '2026-11-29T10:00:00.000Z',
  problems: [
    {
      kind: 'channel-cannot-post',
      setting: { scope: 'general', id: null, name: null, field: 'logChannelId' },
      target: { id: '1200000000000001008', name: 'mod-log' },
      missing: ['VIEW_CHANNEL', 'SEND_MESSAGES'],
      href: `/dashboard/${SERVER}/configs?tab=settings`,
    },
    {
      kind: 'role-missing',
      setting: { scope: 'panel', id: 'purchases', name: 'Purchases & refunds', field: 'supportRoleIds' },
      target: { id: '1400000000000001006', name: null },
      missing: [],
      href: `/dashboard/${SERVER}/configs?edit=panel&id=purchases`,
    },
  ],
};

function ServerPage({ access, children }: { access: ServerAccess; children?: React.ReactNode }) {
  useServedServer(SERVER, access);
  return (
    <>
      <HealthBadge />
      {children}
    </>
  );
}

const show = (access: ServerAccess, children?: React.ReactNode) => renderPage(<ServerPage access={access}>{children}</ServerPage>, { url: `/dashboard/${SERVER}/tickets`, path: '/dashboard/:server/tickets' });

describe('the configuration check', () => {
  afterEach(async () => {
    resetShared();
    await changeLocale('en');
  });

  it('puts the count on the Panel Menu’s sidebar entry from any server page, and takes it off when the page goes', async () => {
    const api = mockApi({ [URL_HEALTH]: TWO, [`/api/guilds/${SERVER}`]: {} });
    const page = show(FULL);
    await waitFor(() => expect(getSidebarBadge(SERVER, 'configs')).toEqual({ count: 2, label: '2 configuration problems' }));
    expect(api.calls(URL_HEALTH)).toHaveLength(1);
    page.unmount();
    expect(getSidebarBadge(SERVER, 'configs')).toBeNull();
  });

  it('asks nothing, and shows no count, without Panel Menu access', async () => {
    const api = mockApi({ [URL_HEALTH]: TWO, [`/api/guilds/${SERVER}`]: {} });
    show(NO_PANELS);
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(api.calls(URL_HEALTH)).toHaveLength(0);
    expect(getSidebarBadge(SERVER, 'configs')).toBeNull();
  });

  it('counts in German', async () => {
    await changeLocale('de');
    mockApi({ [URL_HEALTH]: { ...TWO, problems: TWO.problems.slice(1) }, [`/api/guilds/${SERVER}`]: {} });
    show(FULL);
    await waitFor(() => expect(getSidebarBadge(SERVER, 'configs')).toEqual({ count: 1, label: '1 Konfigurationsproblem' }));
  });

  it('lists the problems at the top of the Panel Menu when opened: the setting, what is wrong, why, and a link to the setting', async () => {
    mockApi({ [URL_HEALTH]: TWO, [`/api/guilds/${SERVER}`]: {} });
    show(FULL, <HealthSummary server={SERVER} />);
    const summary = await screen.findByText('2 configuration problems');
    const open = screen.getByRole('button', { name: 'Show' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(open);
    const list = await screen.findByRole('list');
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('General settings: log channel');
    expect(items[0]).toHaveTextContent('The bot can’t post in #mod-log: it lacks View Channel and Send Messages.'.replace('’', "'"));
    expect(items[0]).toHaveTextContent('Ticket events can\'t be logged there.');
    expect(items[1]).toHaveTextContent('Panel “Purchases & refunds”: support roles');
    expect(items[1]).toHaveTextContent('Role 1400000000000001006 was deleted in Discord but is still named here.');
    const fix = within(items[1]!).getByRole('link', { name: 'Open the setting: Panel “Purchases & refunds”: support roles' });
    expect(fix).toHaveAttribute('href', `/dashboard/${SERVER}/configs?edit=panel&id=purchases`);
    // Keyboard: the links are reached with Tab.
    fix.focus();
    expect(fix).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Hide' })).toHaveAttribute('aria-expanded', 'true');
    expect(summary).toBeInTheDocument();
  });

  it('shows nothing when the check finds nothing, and says so when it cannot be made', async () => {
    mockApi({ [URL_HEALTH]: { ...TWO, problems: [] }, [`/api/guilds/${SERVER}`]: {} });
    const first = show(FULL, <HealthSummary server={SERVER} />);
    await waitFor(() => expect(getSidebarBadge(SERVER, 'configs')).toEqual({ count: 0, label: '0 configuration problems' }));
    expect(screen.queryByRole('button', { name: 'Show' })).toBeNull();
    first.unmount();
    resetShared();

    mockApi({ [URL_HEALTH]: () => apiError(503, 1008, 'Discord is unavailable.'), [`/api/guilds/${SERVER}`]: json({}) });
    show(FULL, <HealthSummary server={SERVER} />);
    expect(await screen.findByText('Could not check the configuration against Discord: trying again in a minute.')).toBeInTheDocument();
    expect(getSidebarBadge(SERVER, 'configs')).toBeNull();
  });
});
