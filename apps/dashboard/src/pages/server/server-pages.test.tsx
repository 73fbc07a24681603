import { screen, within } from '@testing-library/react';
import { useOpenServer } from '@tickety/shared';
import { mockApi, renderPage, resetShared } from '@tickety/shared/testing';
import type { ComponentType } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ARCADE, avaMe } from '../../test/fixtures';
import ServerPremium from './premium';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => resetShared(store));

const PAGES: Array<[string, string, ComponentType, RegExp]> = [
  ['premium', 'Premium', ServerPremium, /Premium for Ava's Arcade/],
];

/** What the shell's server layout does around these pages: marks the server it checked access to as open. */
function OpenedByLayout({ server, Page }: { server: string; Page: ComponentType }) {
  useOpenServer(server);
  return <Page />;
}

function show(segment: string, Page: ComponentType, server = ARCADE.id) {
  const page = renderPage(<OpenedByLayout server={server} Page={Page} />, { url: `/dashboard/${server}/${segment}`, path: `/dashboard/:server/${segment}`, me: avaMe() });
  store = page.store;
  return page;
}

describe('server dashboard page frames', () => {
  it.each(PAGES)('%s: names the page and the server, and says honestly that the content is not available yet', (segment, name, Page, description) => {
    const { unexpected } = mockApi({});
    show(segment, Page);
    expect(screen.getByRole('heading', { level: 1, name })).toBeInTheDocument();
    expect(screen.getByText(description)).toBeInTheDocument();
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent(/: not available yet/);
    expect(notice).toHaveTextContent(/arrives in a later version/);
    expect(screen.getByRole('heading', { name: 'What this page will hold' })).toBeInTheDocument();
    // No fake controls and no landmarks of its own (the shell's layout owns <main>, header and footer).
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('main')).not.toBeInTheDocument();
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
    expect(unexpected).toEqual([]);
  });

  it('premium links to the real plans and billing pages', () => {
    mockApi({});
    show('premium', ServerPremium);
    const card = screen.getByRole('heading', { name: 'What this page will hold' }).parentElement!;
    expect(within(card).getByRole('link', { name: 'See the premium plans' })).toHaveAttribute('href', '/premium');
    expect(within(card).getByRole('link', { name: 'Your subscriptions' })).toHaveAttribute('href', '/billing');
  });
});
