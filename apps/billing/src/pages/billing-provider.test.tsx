import { renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import BillingProviderPage from './billing-provider';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => {
  cleanup();
  resetShared(store);
});

describe('billing provider page', () => {
  it.each([
    ['paddle', 'Paddle'],
    ['fastspring', 'FastSpring'],
    ['discord', 'Discord'],
    ['chargebee', 'Chargebee'],
  ])('names the %s provider from the route data and shows the subscription id', (provider, name) => {
    ({ store } = renderPage(<BillingProviderPage />, {
      url: `/billing/${provider}/sub_01hv8x`,
      path: `/billing/${provider}/:id`,
      handle: { data: { provider } },
      me: signedInMe(),
    }));
    expect(screen.getByRole('heading', { level: 1, name: `${name} subscription` })).toBeInTheDocument();
    expect(screen.getByText('sub_01hv8x')).toBeInTheDocument();
    expect(screen.getByText('Yours')).toBeInTheDocument();
    expect(screen.getByText(`Details from ${name} arrive in the next version`)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to billing' })).toHaveAttribute('href', '/billing');
  });

  it('marks the subscription it shows as open while it shows it (the shell names it in the billing tabs)', () => {
    const page = renderPage(<BillingProviderPage />, { url: '/billing/paddle/sub_9', path: '/billing/paddle/:id', handle: { data: { provider: 'paddle' } }, me: signedInMe() });
    store = page.store;
    expect(store.getState().auth.temporaryBilling).toEqual({ provider: 'paddle', id: 'sub_9' });
    page.unmount();
    expect(store.getState().auth.temporaryBilling).toBeNull();
  });

  it('shows staff whose subscription it is and links back to that user', () => {
    ({ store } = renderPage(<BillingProviderPage />, {
      url: '/billing/1000000000000000777/chargebee/AzZlGkU',
      path: '/billing/:user/chargebee/:id',
      handle: { data: { provider: 'chargebee' } },
      me: signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ'] } }),
    }));
    expect(screen.getByRole('heading', { level: 1, name: 'Chargebee subscription' })).toBeInTheDocument();
    expect(screen.getByText('AzZlGkU')).toBeInTheDocument();
    expect(screen.getByText('1000000000000000777')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to billing' })).toHaveAttribute('href', '/billing/1000000000000000777');
  });

  it('says the provider is unknown when the route carries none of the four', () => {
    ({ store } = renderPage(<BillingProviderPage />, { url: '/billing/x/1', path: '/billing/x/:id', me: signedInMe() }));
    expect(screen.getByRole('alert')).toHaveTextContent('Unknown billing provider');
  });
});
