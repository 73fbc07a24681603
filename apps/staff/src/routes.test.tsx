import { cleanup, screen } from '@testing-library/react';
import { renderPage, resetShared, routesModuleProblems, signedInMe } from '@tickety/shared/testing';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import routes, { remoteRoutes } from './routes';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => {
  cleanup();
  resetShared(store);
});

describe('staff routes module', () => {
  it('declares its pages in its route table (the routes.json its build emits), a component for each', () => {
    expect(routesModuleProblems(routes)).toEqual([]);
  });

  it('provides every staff page id of the contract and asks the shell to fetch it only for staff', () => {
    expect(routes).toBe(remoteRoutes);
    expect(routes.id).toBe('staff');
    expect(routes.requiredPermission).toBe('ANY_STAFF');
  });

  it('loads a page lazily inside the Suspense boundary the shell provides', async () => {
    const Page = routes.routes.teamManager.Component;
    ({ store } = renderPage(
      <Suspense fallback={<p>Loading page</p>}>
        <Page />
      </Suspense>,
      { url: '/team-manager', me: signedInMe({ team: { owner: true, permissions: [] } }) },
    ));
    // The page's chunk is imported for the first time here: generous on a loaded machine.
    expect(await screen.findByRole('heading', { level: 1, name: 'Team Manager' }, { timeout: 10_000 })).toBeInTheDocument();
  });
});
