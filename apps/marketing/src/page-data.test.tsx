// The app's takeover of a page that arrived with its data (routes.tsx): shown at once, not fetched
// again. A file of its own: each page's chunk (and so its seeding) loads once per module instance.
import { screen } from '@testing-library/react';
import { PAGE_DATA_ID } from '@tickety/api-contract';
import { resetPageData } from '@tickety/shared';
import { mockApi, renderPage } from '@tickety/shared/testing';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import routes from './routes';
import { PLANS, statusFixture } from './test/fixtures';

function arriveWith(data: unknown) {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = PAGE_DATA_ID;
  script.textContent = JSON.stringify(data);
  document.body.appendChild(script);
  resetPageData();
}

afterEach(() => {
  document.getElementById(PAGE_DATA_ID)?.remove();
  resetPageData();
});

describe('a page that arrived with its data', () => {
  it('shows the status the page carried at the takeover, without asking the API for it', async () => {
    arriveWith({ status: statusFixture(Date.now(), { status: 'operational' }) });
    const { calls } = mockApi({ 'GET /api/status': statusFixture() });
    const { Component } = routes.routes.status;
    renderPage(
      <Suspense fallback={<p>loading page</p>}>
        <Component />
      </Suspense>,
      { url: '/status' },
    );
    expect(await screen.findByText('All systems operational', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading the status' })).toBeNull();
    expect(calls('/api/status')).toHaveLength(0);
  });

  it('shows the plans the page carried, without asking the API for them', async () => {
    arriveWith({ plans: PLANS });
    const { calls } = mockApi({ 'GET /api/plans': PLANS });
    const { Component } = routes.routes.premium;
    renderPage(
      <Suspense fallback={<p>loading page</p>}>
        <Component />
      </Suspense>,
      { url: '/premium' },
    );
    expect(await screen.findByRole('heading', { name: PLANS[1]!.name }, { timeout: 10_000 })).toBeInTheDocument();
    expect(calls('/api/plans')).toHaveLength(0);
  });
});
