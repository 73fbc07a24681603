import { mockApi, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import BillingPage from './billing';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => {
  cleanup();
  resetShared(store);
});

describe('billing page', () => {
  it('lists the servers the premium covers by their names from the guild list', () => {
    const { unexpected } = mockApi({});
    const me = signedInMe({ sub: { premium: true, servers: ['1100000000000000001', '1100000000000000004', '1199999999999999999'] } });
    ({ store } = renderPage(<BillingPage />, { url: '/billing', me }));

    expect(screen.getByRole('heading', { level: 1, name: 'Billing' })).toBeInTheDocument();
    expect(screen.getByText('Premium active')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Covered servers (3)' })).toBeInTheDocument();
    const items = screen.getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('p')?.textContent)).toEqual(["Ava's Arcade", 'Cozy Corner', 'Server not in your list']);
    // Only a server the user manages links to its dashboard premium page.
    expect(within(items[0]!).getByRole('link', { name: "Server premium of Ava's Arcade" })).toHaveAttribute('href', '/dashboard/1100000000000000001/premium');
    expect(within(items[1]!).queryByRole('link')).not.toBeInTheDocument();
    expect(within(items[2]!).getByText('1199999999999999999')).toBeInTheDocument();
    expect(screen.getByText('Subscription details arrive in the next version')).toBeInTheDocument();
    expect(unexpected).toEqual([]);
  });

  it('says so when the subscription records carry no active premium', () => {
    ({ store } = renderPage(<BillingPage />, { url: '/billing', me: signedInMe({ sub: { premium: false, servers: [] } }) }));
    expect(screen.getByText('No active premium')).toBeInTheDocument();
    expect(screen.getByText(/No server is covered/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See premium plans' })).toHaveAttribute('href', '/premium-purchase');
  });

  it('shows the empty state with a way to the plans when the user has no subscription', () => {
    ({ store } = renderPage(<BillingPage />, { url: '/billing', me: signedInMe({ sub: null }) }));
    expect(screen.getByRole('heading', { name: 'No subscriptions yet' })).toBeInTheDocument();
    expect(screen.getByText(/has no Tickety subscription/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See premium plans' })).toHaveAttribute('href', '/premium-purchase');
    expect(screen.queryByText('Premium active')).not.toBeInTheDocument();
  });

  it("shows staff whose billing they are viewing, without the viewer's own premium", () => {
    const me = signedInMe({ team: { owner: true, permissions: [] }, sub: { premium: true, servers: ['1100000000000000001'] } });
    ({ store } = renderPage(<BillingPage />, { url: '/billing/1000000000000000777', path: '/billing/:user', me }));
    expect(screen.getByRole('heading', { name: "Viewing another user's billing" })).toBeInTheDocument();
    expect(screen.getByText('1000000000000000777')).toBeInTheDocument();
    expect(screen.getByText("Looking up another user's subscriptions comes with the staff tools")).toBeInTheDocument();
    expect(screen.queryByText('Premium active')).not.toBeInTheDocument();
    expect(screen.queryByText("Ava's Arcade")).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Your own billing' })).toHaveAttribute('href', '/billing');
  });

  it('treats /billing/<own id> as the own billing page', () => {
    const me = signedInMe({ sub: { premium: true, servers: ['1100000000000000001'] } });
    ({ store } = renderPage(<BillingPage />, { url: `/billing/${me.user.id}`, path: '/billing/:user', me }));
    expect(screen.getByText('Premium active')).toBeInTheDocument();
    expect(screen.getByText("Ava's Arcade")).toBeInTheDocument();
  });
});
