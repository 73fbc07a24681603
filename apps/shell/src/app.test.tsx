import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { selectOpenServer } from '@tickety/shared';
import { apiError, json, mockApi, overlayStore, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registry } from './test/registry-mock';
import { here, renderApp } from './test/render-app';
import { configWithTables, TEST_ROUTE_TABLES } from './test/route-tables';

vi.mock('./remotes/registry', () => import('./test/registry-mock'));

const SAM = signedInMe({
  user: { id: '1000000000000000004', username: 'sam', globalName: 'Sam', avatar: null, avatarUrl: 'https://cdn.test/a.png' },
  team: { owner: true, permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ', 'DASHBOARD_SUPPORT_SYSTEM_WRITE', 'DASHBOARD_SUPPORT_SEARCH_READ', 'SPECIAL_TEAM_MANAGER_READ', 'SPECIAL_TEAM_MANAGER_WRITE'] },
});
const CLEO = signedInMe({ user: { id: '1000000000000000003', username: 'cleo', globalName: 'Cleo', avatar: null, avatarUrl: 'https://cdn.test/c.png' }, guilds: [] });
const ARCADE = '1100000000000000001';

let current: ReturnType<typeof renderApp> | undefined;
function open(url: string, me?: Parameters<typeof renderApp>[1]) {
  current = renderApp(url, me);
  return current;
}

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
  document.title = '';
});

describe('titles and the 404 page', () => {
  it.each([
    ['/', 'Tickety - The #1 Discord support bot', 'marketing:home'],
    ['/premium', 'Tickety - Premium', 'marketing:premium'],
    ['/privacy-policy', 'Tickety - Privacy Policy', 'marketing:policy'],
    ['/home-display?text=1', 'Tickety - Home Display', 'marketing:homeDisplay'],
    ['/premium-purchase', 'Tickety - Premium Purchase', 'billing:premiumPurchase'],
  ])('%s is titled "%s" and renders %s', async (url, title, heading) => {
    open(url);
    expect(await screen.findByRole('heading', { name: heading })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(title));
  });

  it('an unknown path shows the 404 page in the public layout, with a link home', async () => {
    open('/nope/really');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Tickety - Not Found'));
    expect(registry.calls).toEqual([]);
  });
});

describe('the guard', () => {
  it('asks a visitor to log in on /dashboard, without fetching the remote', async () => {
    open('/dashboard');
    expect(await screen.findByText('Login Required')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login with discord' })).toBeInTheDocument();
    expect(registry.calls).toEqual([]);
    await waitFor(() => expect(document.title).toBe('Tickety - Manage Servers'));
  });

  it('renders Manage Servers for a signed-in user', async () => {
    open('/dashboard', signedInMe());
    expect(await screen.findByRole('heading', { name: 'dashboard:manageServers' })).toBeInTheDocument();
    expect(screen.getByRole('banner')).toHaveTextContent('Ava');
  });

  it('refuses a staff page to a user without the flag and never asks for the staff remote', async () => {
    mockApi({ 'GET /api/auth/@me': () => json(CLEO) });
    open('/system', CLEO);
    expect(await screen.findByText(/don't have permission/i)).toBeInTheDocument();
    expect(screen.getByText(/DASHBOARD_SUPPORT_SYSTEM_READ/)).toBeInTheDocument();
    expect(registry.calls).not.toContain('staff');
  });

  it('decides a staff page on fresh flags: a flag revoked since the page loaded refuses the next staff page', async () => {
    registry.registered.add('staff');
    let me = SAM;
    const { router } = open('/team-manager', SAM);
    mockApi({ 'GET /api/auth/@me': () => json(me) });
    expect(await screen.findByRole('heading', { name: 'staff:teamManager' })).toBeInTheDocument();
    me = signedInMe({ ...SAM, team: { owner: false, permissions: ['SPECIAL_TEAM_MANAGER_READ'] } });
    await act(() => router.navigate('/system'));
    expect(await screen.findByText(/don't have permission/i)).toBeInTheDocument();
    expect(screen.getByText(/DASHBOARD_SUPPORT_SYSTEM_READ/)).toBeInTheDocument();
  });

  it('renders a staff page for staff once the staff remote is registered', async () => {
    registry.registered.add('staff');
    mockApi({ 'GET /api/auth/@me': () => json(SAM) });
    open('/team-manager', SAM);
    expect(await screen.findByRole('heading', { name: 'staff:teamManager' })).toBeInTheDocument();
    expect(registry.calls).toEqual(['staff']);
  });
});

describe('navigation', () => {
  it('moves focus to the main region after a client-side move, not on the first load', async () => {
    const { router } = open('/');
    await screen.findByRole('heading', { name: 'marketing:home' });
    expect(document.activeElement).not.toBe(document.getElementById('content'));
    await act(() => router.navigate('/premium'));
    await screen.findByRole('heading', { name: 'marketing:premium' });
    await waitFor(() => expect(document.activeElement).toBe(document.getElementById('content')));
  });
});

describe('redirects', () => {
  it('/manage-servers goes to /dashboard and /subscriptions to /billing', async () => {
    const { router } = open('/manage-servers', signedInMe());
    await waitFor(() => expect(here(router)).toBe('/dashboard'));
    cleanup();
    const second = open('/subscriptions', signedInMe());
    await waitFor(() => expect(here(second.router)).toBe('/billing'));
    expect(await screen.findByRole('heading', { name: 'billing:billing' })).toBeInTheDocument();
  });

  it('/subscriptions/:user needs DASHBOARD_SUPPORT_SYSTEM_READ, then goes to /billing/:user', async () => {
    mockApi({ 'GET /api/auth/@me': () => json(CLEO) });
    const { router } = open('/subscriptions/1000000000000000001', CLEO);
    expect(await screen.findByText(/don't have permission/i)).toBeInTheDocument();
    expect(here(router)).toBe('/subscriptions/1000000000000000001');
    cleanup();
    const staff = open('/subscriptions/1000000000000000001', SAM);
    await waitFor(() => expect(here(staff.router)).toBe('/billing/1000000000000000001'));
  });

  it.each([
    ['/dashboard/server-id/statistics#x', '/dashboard?page=statistics#x'],
    ['/dashboard/server/logs-web', '/dashboard?page=logs-web'],
    ['/dashboard/server_id', '/dashboard'],
  ])('placeholder %s goes to %s', async (from, to) => {
    const { router } = open(from, signedInMe());
    await waitFor(() => expect(here(router)).toBe(to));
  });

  it('/dashboard/:server goes to its configs page after the API grants access', async () => {
    const guild = signedInMe().guilds[0]!;
    mockApi({ [`GET /api/guilds/${ARCADE}`]: guild });
    const { router } = open(`/dashboard/${ARCADE}`, signedInMe());
    await waitFor(() => expect(here(router)).toBe(`/dashboard/${ARCADE}/configs`));
    expect(await screen.findByRole('heading', { name: 'dashboard:serverConfigs' })).toBeInTheDocument();
    // The sidebar lists the table's server pages, in its order.
    const sidebar = screen.getByRole('navigation', { name: 'Server' });
    expect([...sidebar.querySelectorAll('a')].map((a) => a.textContent)).toEqual(['Panel Menu', 'Statistics']);
    await waitFor(() => expect(document.title).toBe('Tickety - Panel Menu'));
  });
});

describe('the server dashboard frame', () => {
  it('shows the docs/behaviour.md#request-overlay-and-error-catalogue no-access overlay when the API answers 403', async () => {
    mockApi({ [`GET /api/guilds/${ARCADE}`]: () => apiError(403, 403, "Only this server's owner and members with the Administrator or Manage Server permission can manage it here.", { selector: true }) });
    open(`/dashboard/${ARCADE}/statistics`, signedInMe());
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent("You don't have access to this server.");
    for (const name of ['Retry', 'Home', 'Select Another Server']) expect(screen.getByRole('button', { name })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'dashboard:serverStatistics' })).toBeNull();
  });

  it('offers to invite the bot to a server without it instead of the page', async () => {
    const study = signedInMe().guilds[1]!;
    mockApi({ [`GET /api/guilds/${study.id}`]: study });
    open(`/dashboard/${study.id}/configs`, signedInMe());
    expect(await screen.findByText("Tickety isn't in Study Hall yet")).toBeInTheDocument();
    const invite = screen.getByRole('link', { name: 'Invite the bot' });
    expect(new URL(invite.getAttribute('href')!).searchParams.get('guild_id')).toBe(study.id);
  });

  it('after the bot is added, "refresh" refreshes the server list, checks again and opens the page', async () => {
    const study = signedInMe().guilds[1]!;
    let added = false;
    mockApi({
      [`GET /api/guilds/${study.id}`]: () => json({ ...study, botInGuild: added }),
      'POST /api/auth/guilds/refresh': () => {
        added = true;
        return json(signedInMe({ guilds: signedInMe().guilds.map((g) => (g.id === study.id ? { ...g, botInGuild: true } : g)) }));
      },
    });
    open(`/dashboard/${study.id}/configs`, signedInMe());
    fireEvent.click(await screen.findByRole('button', { name: "I've added it: refresh" }));
    expect(await screen.findByRole('heading', { name: 'dashboard:serverConfigs' })).toBeInTheDocument();
  });

  it('says so when Discord still does not list the bot after a refresh', async () => {
    const study = signedInMe().guilds[1]!;
    mockApi({ [`GET /api/guilds/${study.id}`]: study, 'POST /api/auth/guilds/refresh': signedInMe() });
    open(`/dashboard/${study.id}/configs`, signedInMe());
    fireEvent.click(await screen.findByRole('button', { name: "I've added it: refresh" }));
    expect(await screen.findByText(/Discord does not list Tickety in Study Hall yet/)).toBeInTheDocument();
  });
});

describe('server access by role (the API\'s `access`, mirrored)', () => {
  const arcade = () => signedInMe().guilds[0]!;
  const READER = {
    via: 'roles',
    areas: { panels: 'read', statistics: null, logs: 'read', configs: null, premium: null },
    grantedBy: ['Dashboard Readers'],
  } as const;

  it('a page the roles do not open: the refusal names the area, what the roles give and who can grant it; no page is loaded', async () => {
    mockApi({ [`GET /api/guilds/${ARCADE}`]: { ...arcade(), access: READER } });
    open(`/dashboard/${ARCADE}/statistics`, signedInMe());
    expect(await screen.findByRole('heading', { name: "Your roles don't give you access to Statistics" })).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(main).toHaveTextContent("On Ava's Arcade, your role Dashboard Readers gives you: Panel Menu (read only), Web Logs (read only).");
    expect(main).toHaveTextContent(
      "The server's owner, or a member with the Administrator or Manage Server permission, can give one of your roles access to Statistics under Panel Menu › Settings and access.",
    );
    expect(screen.getByRole('link', { name: 'Open Panel Menu' })).toHaveAttribute('href', `/dashboard/${ARCADE}/configs`);
    expect(screen.getByRole('link', { name: 'Select Another Server' })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByRole('heading', { name: 'dashboard:serverStatistics' })).toBeNull();
    expect(registry.calls).not.toContain('dashboard');
  });

  it('the sidebar marks what the roles read only and what they do not open, as links a keyboard reaches', async () => {
    mockApi({ [`GET /api/guilds/${ARCADE}`]: { ...arcade(), access: READER } });
    open(`/dashboard/${ARCADE}/configs`, signedInMe());
    await screen.findByRole('heading', { name: 'dashboard:serverConfigs' });
    const sidebar = screen.getByRole('navigation', { name: 'Server' });
    await waitFor(() => expect([...sidebar.querySelectorAll('a')].map((a) => a.textContent)).toEqual(['Panel Menu (read only)', 'Statistics (no access)']));
    expect(screen.getByRole('link', { name: 'Statistics (no access)' })).toHaveAttribute('href', `/dashboard/${ARCADE}/statistics`);
  });

  it('a page the roles read: the page renders, and the open server record carries the access for it to mirror', async () => {
    mockApi({ [`GET /api/guilds/${ARCADE}`]: { ...arcade(), access: READER } });
    const { store } = open(`/dashboard/${ARCADE}/configs`, signedInMe());
    expect(await screen.findByRole('heading', { name: 'dashboard:serverConfigs' })).toBeInTheDocument();
    await waitFor(() => expect(selectOpenServer(store.getState())).toMatchObject({ id: ARCADE, name: "Ava's Arcade", access: READER }));
  });

  it('full access: nothing marked; an answer without access (an older API) counts as full', async () => {
    mockApi({ [`GET /api/guilds/${ARCADE}`]: arcade() });
    const { store } = open(`/dashboard/${ARCADE}/statistics`, signedInMe());
    expect(await screen.findByRole('heading', { name: 'dashboard:serverStatistics' })).toBeInTheDocument();
    const sidebar = screen.getByRole('navigation', { name: 'Server' });
    expect([...sidebar.querySelectorAll('a')].map((a) => a.textContent)).toEqual(['Panel Menu', 'Statistics']);
    expect(selectOpenServer(store.getState())?.access).toBeNull();
  });

  it('no access at all: the no-access screen gives the API\'s reason', async () => {
    const reason = 'You are not the owner of Cozy Corner and have neither the Administrator nor the Manage Server permission there, and the server gives no role dashboard access.';
    mockApi({ [`GET /api/guilds/${ARCADE}`]: () => apiError(403, 403, reason, { selector: true }) });
    open(`/dashboard/${ARCADE}/configs`, signedInMe());
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(reason);
  });
});

describe('a remote that fails to load', () => {
  it('shows the error panel with Retry on its routes only; Retry loads again', async () => {
    registry.failing.add('billing');
    const { router } = open('/premium-purchase');
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('Request Failed');
    expect(screen.getByRole('alertdialog')).toHaveTextContent('billing');
    registry.failing.delete('billing');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'billing:premiumPurchase' })).toBeInTheDocument();
    expect(registry.calls.filter((c) => c === 'billing')).toHaveLength(2);
    await act(() => router.navigate('/premium'));
    expect(await screen.findByRole('heading', { name: 'marketing:premium' })).toBeInTheDocument();
  });

  it('leaves other remotes working', async () => {
    registry.failing.add('billing');
    open('/');
    expect(await screen.findByRole('heading', { name: 'marketing:home' })).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(overlayStore.getSnapshot().error).toBeNull();
  });
});

describe('remotes own their routes (config.json carries their tables)', () => {
  function openWith(url: string, tables: Parameters<typeof configWithTables>[0], me?: Parameters<typeof renderApp>[1]) {
    current = renderApp(url, me, configWithTables(tables));
    return current;
  }
  const withFeatures = {
    ...TEST_ROUTE_TABLES,
    marketing: {
      ...TEST_ROUTE_TABLES.marketing,
      mounts: [...TEST_ROUTE_TABLES.marketing.mounts, '/features'],
      routes: [...TEST_ROUTE_TABLES.marketing.routes, { path: '/features', layout: 'public', page: 'features', title: 'Features' }],
    },
  };

  it('a page a remote adds to its table works with this very shell build; without it, the address is a 404', async () => {
    openWith('/features', withFeatures);
    expect(await screen.findByRole('heading', { name: 'marketing:features' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Tickety - Features'));
    cleanup();
    open('/features');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(registry.calls).not.toContain('marketing-features');
  });

  it('a remote adds a nested page and a sidebar entry to the server layout', async () => {
    const dashboard = TEST_ROUTE_TABLES.dashboard;
    const server = dashboard.routes[1];
    const tables = {
      ...TEST_ROUTE_TABLES,
      dashboard: {
        ...dashboard,
        routes: [dashboard.routes[0], { ...server, children: [...server.children, { path: 'tickets', page: 'serverTickets', title: 'Tickets', requiresAuth: true, sidebar: { label: 'Tickets', icon: 'tickets' } }] }, dashboard.routes[2]],
      },
    };
    mockApi({ [`GET /api/guilds/${ARCADE}`]: signedInMe().guilds[0]! });
    openWith(`/dashboard/${ARCADE}/tickets`, tables, signedInMe());
    expect(await screen.findByRole('heading', { name: 'dashboard:serverTickets' })).toBeInTheDocument();
    const sidebar = screen.getByRole('navigation', { name: 'Server' });
    expect([...sidebar.querySelectorAll('a')].map((a) => a.textContent)).toEqual(['Panel Menu', 'Statistics', 'Tickets']);
    await waitFor(() => expect(document.title).toBe('Tickety - Tickets'));
  });

  it('a mount two tables claim belongs to neither: a clear console error, and only the routes under it are affected', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const tables = {
      ...TEST_ROUTE_TABLES,
      billing: {
        ...TEST_ROUTE_TABLES.billing,
        mounts: [...TEST_ROUTE_TABLES.billing.mounts, '/dashboard'],
        routes: [...TEST_ROUTE_TABLES.billing.routes, { path: '/dashboard', layout: 'subscription', page: 'hijack' }],
      },
    };
    openWith('/dashboard', tables, signedInMe());
    expect(await screen.findByText(/This part of the site \((billing|dashboard)\) is not available right now/)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /hijack|manageServers/ })).toBeNull();
    expect(errors.mock.calls.flat().join(' ')).toMatch(/billing and dashboard both claim "\/dashboard"/);
    cleanup();
    // Their other mounts, and the other remotes, are unaffected.
    openWith('/premium-purchase', tables);
    expect(await screen.findByRole('heading', { name: 'billing:premiumPurchase' })).toBeInTheDocument();
    cleanup();
    mockApi({ [`GET /api/guilds/${ARCADE}`]: signedInMe().guilds[0]! });
    openWith(`/dashboard/${ARCADE}/configs`, tables, signedInMe());
    expect(await screen.findByText(/not available right now/)).toBeInTheDocument();
    cleanup();
    openWith('/transcript/v2/1/2', tables, signedInMe());
    expect(await screen.findByRole('heading', { name: 'dashboard:transcriptV2' })).toBeInTheDocument();
  });

  it('a malformed table: that remote\'s addresses say it is unavailable, the others work', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const tables = { ...TEST_ROUTE_TABLES, billing: { ...TEST_ROUTE_TABLES.billing, routes: [{ path: 'relative', layout: 'nowhere' }] } };
    openWith('/billing/paddle/sub_1', tables, signedInMe());
    expect(await screen.findByRole('heading', { name: 'Request Failed' })).toBeInTheDocument();
    expect(screen.getByText(/This part of the site \(billing\) is not available right now/)).toBeInTheDocument();
    expect(errors.mock.calls.flat().join(' ')).toMatch(/The route table of billing is not valid/);
    expect(registry.calls).not.toContain('billing');
    cleanup();
    openWith('/premium', tables);
    expect(await screen.findByRole('heading', { name: 'marketing:premium' })).toBeInTheDocument();
  });
});
