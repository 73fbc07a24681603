import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { selectOpenServer } from '@tickety/shared';
import { mockApi, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registry } from '../test/registry-mock';
import { renderApp } from '../test/render-app';

vi.mock('../remotes/registry', () => import('../test/registry-mock'));

/** Ben, staff with DASHBOARD_SUPPORT_SEARCH_READ, whose own list does not hold Ava's Arcade. */
const BEN = signedInMe({
  user: { id: '1000000000000000002', username: 'ben', globalName: 'Ben', avatar: null, avatarUrl: 'https://cdn.test/b.png' },
  team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] },
  guilds: [],
});
const ARCADE = '1100000000000000001';
const STAFF = { via: 'staff', areas: { panels: 'read', statistics: 'read', logs: 'read', configs: 'read', premium: 'read' }, grantedBy: [] } as const;
/** What `GET /api/guilds/:server` answers a staff member's read-only view: the server as the product knows it. */
const ANSWER = {
  id: ARCADE,
  name: "Ava's Arcade",
  icon: null,
  iconUrl: 'https://cdn.test/icons/1.png',
  owner: false,
  permissions: '0',
  canManage: false,
  botInGuild: true,
  roleAccess: false,
  access: STAFF,
};

let current: ReturnType<typeof renderApp> | undefined;
beforeEach(() => {
  registry.calls.length = 0;
  registry.failing.clear();
  registry.registered.clear();
  for (const id of ['marketing', 'billing', 'dashboard']) registry.registered.add(id);
});
afterEach(() => {
  cleanup();
  resetShared(current?.store);
  current = undefined;
});

describe("the server layout: a staff member's read-only view (access via staff)", () => {
  it('opens a server not in their list: named from the answer, every page marked read only, the staff banner on every page with the way back', async () => {
    mockApi({ [`GET /api/guilds/${ARCADE}`]: ANSWER });
    current = renderApp(`/dashboard/${ARCADE}/configs`, BEN);
    expect(await screen.findByRole('heading', { name: 'dashboard:serverConfigs' })).toBeInTheDocument();
    const banner = screen.getByRole('status', { name: '' });
    expect(banner).toHaveTextContent('Viewing as staff, read-only');
    expect(banner).toHaveTextContent("You see Ava's Arcade through your staff access (support search), not as a member: every page is read-only and nothing can be saved.");
    expect(within(banner).getByRole('link', { name: 'Back to support search' })).toHaveAttribute('href', '/support-team');
    // The sidebar names the server from the answer (it is not in Ben's list) and marks every page read only.
    const sidebar = screen.getByRole('navigation', { name: 'Server' });
    await waitFor(() => expect([...sidebar.querySelectorAll('a')].map((a) => a.textContent)).toEqual(['Panel Menu (read only)', 'Statistics (read only)']));
    expect(screen.getAllByText("Ava's Arcade").length).toBeGreaterThan(0);
    // Pages mirror the open server: the answered server, with the staff access.
    await waitFor(() => expect(selectOpenServer(current!.store.getState())).toMatchObject({ id: ARCADE, name: "Ava's Arcade", access: STAFF }));
  });

  it('keeps the banner on the next page of the server', async () => {
    mockApi({ [`GET /api/guilds/${ARCADE}`]: ANSWER });
    current = renderApp(`/dashboard/${ARCADE}/statistics`, BEN);
    expect(await screen.findByRole('heading', { name: 'dashboard:serverStatistics' })).toBeInTheDocument();
    expect(screen.getByText('Viewing as staff, read-only')).toBeInTheDocument();
  });

  it('no banner, and the server not taken from the answer, for anyone else', async () => {
    const roles = { via: 'roles', areas: { panels: 'read', statistics: 'read', logs: null, configs: null, premium: null }, grantedBy: ['Readers'] } as const;
    mockApi({ [`GET /api/guilds/${ARCADE}`]: { ...ANSWER, access: roles } });
    current = renderApp(`/dashboard/${ARCADE}/configs`, BEN);
    expect(await screen.findByRole('heading', { name: 'dashboard:serverConfigs' })).toBeInTheDocument();
    expect(screen.queryByText('Viewing as staff, read-only')).toBeNull();
    // Not one of the user's servers and no staff view: no open-server record to mirror.
    expect(selectOpenServer(current.store.getState())).toBeNull();
  });
});
