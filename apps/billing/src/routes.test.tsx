import { cleanup, screen } from '@testing-library/react';
import { mockApi, renderPage, resetShared, routesModuleProblems, signedInMe } from '@tickety/shared/testing';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import routes, { remoteRoutes } from './routes';
import { PLANS } from './test/fixtures';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => {
  cleanup();
  resetShared(store);
});

describe('billing routes module', () => {
  it('declares its pages in its route table (the routes.json its build emits), a component for each', () => {
    expect(routesModuleProblems(routes)).toEqual([]);
  });

  it('is the billing remote and needs no staff permission', () => {
    expect(routes).toBe(remoteRoutes);
    expect(routes.id).toBe('billing');
    expect(routes.requiredPermission).toBeUndefined();
  });

  it('loads a page lazily inside the Suspense boundary the shell provides', async () => {
    mockApi({ 'GET /api/plans': PLANS });
    const Page = routes.routes.premiumPurchase.Component;
    ({ store } = renderPage(
      <Suspense fallback={<p>Loading page</p>}>
        <Page />
      </Suspense>,
      { url: '/premium-purchase', me: signedInMe() },
    ));
    // The page's chunk is imported for the first time here: generous on a loaded machine.
    expect(await screen.findByRole('heading', { level: 1, name: 'Premium Purchase' }, { timeout: 10_000 })).toBeInTheDocument();
  });
});
