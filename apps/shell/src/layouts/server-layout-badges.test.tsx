import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { setSidebarBadge } from '@tickety/shared';
import { mockApi, resetShared, signedInMe, testGuild } from '@tickety/shared/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registry } from '../test/registry-mock';
import { renderApp } from '../test/render-app';

vi.mock('../remotes/registry', () => import('../test/registry-mock'));

const ARCADE = testGuild({ id: '1100000000000000001', name: "Ava's Arcade", owner: true, permissions: '8', canManage: true, botInGuild: true });
const FULL = { via: 'full', areas: { panels: 'write', tickets: 'write', statistics: 'write', logs: 'write', configs: 'write', premium: 'write' }, grantedBy: [] } as const;

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

describe('the server sidebar: badges a page publishes for its entry', () => {
  it('shows the count on that entry of that server, names what it counts, and hides it again', async () => {
    mockApi({ [`GET /api/guilds/${ARCADE.id}`]: { ...ARCADE, roleAccess: false, access: FULL } });
    current = renderApp(`/dashboard/${ARCADE.id}/configs`, signedInMe({ guilds: [ARCADE] }));
    const sidebar = await screen.findByRole('navigation', { name: 'Server' });
    const statistics = await within(sidebar).findByRole('link', { name: /^Statistics/ });
    act(() => setSidebarBadge('1100000000000000009', 'statistics', { count: 5, label: '5 for another server' }));
    expect(statistics.querySelector('[data-sidebar-badge]')).toBeNull();
    act(() => setSidebarBadge(ARCADE.id, 'statistics', { count: 3, label: '3 waiting for staff' }));
    await waitFor(() => expect(statistics).toHaveAccessibleName('Statistics (3 waiting for staff)'));
    expect(statistics.querySelector('[data-sidebar-badge]')).toHaveAttribute('title', '3 waiting for staff');
    expect(within(sidebar).getByRole('link', { name: /^Panel Menu/ }).querySelector('[data-sidebar-badge]')).toBeNull();
    act(() => setSidebarBadge(ARCADE.id, 'statistics', { count: 0, label: 'none waiting' }));
    expect(statistics.querySelector('[data-sidebar-badge]')).toBeNull();
  });
});
