import { screen } from '@testing-library/react';
import { REMOTE_IDS, type RouteHandle } from '@tickety/shared';
import { mockApi, renderPage, routesModuleProblems } from '@tickety/shared/testing';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import routes from './routes';
import { PLANS, statusFixture } from './test/fixtures';

const PAGES: Array<{ page: keyof typeof routes.routes; url: string; handle?: RouteHandle; h1: RegExp }> = [
  { page: 'home', url: '/', h1: /support tickets your members/i },
  { page: 'premium', url: '/premium', h1: /tickety premium/i },
  { page: 'termsOfService', url: '/terms-of-service', handle: { data: { policy: 'terms-of-service' } }, h1: /terms of service/i },
  { page: 'privacyPolicy', url: '/privacy-policy', handle: { data: { policy: 'privacy-policy' } }, h1: /privacy policy/i },
  { page: 'legal', url: '/legal', handle: { data: { policy: 'legal' } }, h1: /legal/i },
  { page: 'refundPolicy', url: '/refund-policy', handle: { data: { policy: 'refund-policy' } }, h1: /refund policy/i },
  { page: 'aupPolicy', url: '/aup-policy', handle: { data: { policy: 'aup-policy' } }, h1: /acceptable use policy/i },
  { page: 'support', url: '/support', h1: /support/i },
  { page: 'invite', url: '/invite', h1: /add tickety/i },
  { page: 'status', url: '/status', h1: /status/i },
  { page: 'homeDisplay', url: '/home-display', h1: /support tickets for your discord server/i },
  { page: 'premiumDisplay', url: '/premium-display', h1: /tickety premium/i },
  { page: 'clipboard', url: '/clipboard?text=42', h1: /cop/i },
];

describe('marketing routes', () => {
  it('declares its pages in its route table (the routes.json its build emits), a component for each', () => {
    expect(routesModuleProblems(routes)).toEqual([]);
  });

  it('provides every page of the contract', () => {
    expect(REMOTE_IDS).toContain(routes.id);
    expect(Object.keys(routes.routes).sort()).toEqual(PAGES.map((p) => p.page).sort());
  });

  it.each(PAGES)('lazy-loads $page with one h1 and none of the layout landmarks', async ({ page, url, handle, h1 }) => {
    mockApi({ 'GET /api/plans': PLANS, 'GET /api/status': statusFixture() });
    const { Component } = routes.routes[page];
    const { container } = renderPage(
      <Suspense fallback={<p>loading page</p>}>
        <Component />
      </Suspense>,
      { url, handle },
    );
    // A page's chunk can take a while to load on a busy machine: wait longer than the default second.
    expect(await screen.findByRole('heading', { level: 1, name: h1 }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(container.querySelector('main, header, footer, [role="main"], [role="banner"], [role="contentinfo"]')).toBeNull();
  });
});
