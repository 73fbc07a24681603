import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { RouteHandle } from '../contracts/remotes';
import { botInviteUrl } from './invite';
import { useRouteData } from './route-data';

function Show() {
  const data = useRouteData();
  return <p>{JSON.stringify(data)}</p>;
}

describe('useRouteData', () => {
  it("reads the innermost handle's data, and is empty without one", () => {
    const outer: RouteHandle = { data: { from: 'outer' } };
    const inner: RouteHandle = { data: { policy: 'legal' } };
    const router = createMemoryRouter(
      [
        {
          path: '/',
          handle: outer,
          children: [
            { path: 'legal', handle: inner, Component: Show },
            { path: 'plain', Component: Show },
          ],
        },
        { path: '/bare', Component: Show },
      ],
      { initialEntries: ['/legal'] },
    );
    const { unmount } = render(<RouterProvider router={router} />);
    expect(screen.getByText('{"policy":"legal"}')).toBeInTheDocument();
    unmount();
    const again = createMemoryRouter([{ path: '/plain', handle: outer, Component: Show }, { path: '/bare', Component: Show }], { initialEntries: ['/bare'] });
    render(<RouterProvider router={again} />);
    expect(screen.getByText('{}')).toBeInTheDocument();
  });
});

describe('botInviteUrl', () => {
  const config = { inviteUrl: 'https://discord.com/oauth2/authorize?client_id=1&scope=bot%20applications.commands&permissions=8' };
  it('is the configured URL without a server', () => {
    expect(botInviteUrl(config)).toBe(new URL(config.inviteUrl).toString());
  });
  it('preselects a server', () => {
    const url = new URL(botInviteUrl(config, '1100000000000000005'));
    expect(url.searchParams.get('guild_id')).toBe('1100000000000000005');
    expect(url.searchParams.get('disable_guild_select')).toBe('true');
    expect(url.searchParams.get('client_id')).toBe('1');
    expect(url.searchParams.get('scope')).toBe('bot applications.commands');
  });
});
