import { inLocale, mockApi, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { PLANS } from '../test/fixtures';
import BillingPage from './billing';
import BillingProviderPage from './billing-provider';
import PremiumPurchasePage from './premium-purchase';

let store: ReturnType<typeof renderPage>['store'] | undefined;
inLocale('de');
afterEach(() => {
  cleanup();
  resetShared(store);
});


describe('billing in German', () => {
  it('shows the plans with German texts and German-formatted prices', async () => {
    mockApi({ 'GET /api/plans': PLANS });
    ({ store } = renderPage(<PremiumPurchasePage />, { url: '/premium-purchase', me: signedInMe(), config: { paddleToken: null } }));

    expect(screen.getByRole('heading', { level: 1, name: 'Premium kaufen' })).toBeInTheDocument();
    const card = await screen.findByRole('group', { name: 'Premium' });
    expect(within(card).getByText('4,99 $')).toBeInTheDocument();
    expect(within(card).getByText('pro Monat')).toBeInTheDocument();
    expect(within(card).getByText('Am beliebtesten')).toBeInTheDocument();
    expect(within(card).getByText('Bis zu 50 Ticket-Panels · für 1 Server')).toBeInTheDocument();
    expect(screen.getByText(/Free muss nicht gekauft werden/)).toHaveTextContent('bis zu 3 Ticket-Panels');
    expect(screen.getByRole('region', { name: 'Tarife' })).toBeInTheDocument();
    expect(screen.getByText('Die Bezahlung ist in dieser Installation nicht eingerichtet')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'Jährlich' }));
    expect(within(card).getByText('49,99 $')).toBeInTheDocument();
    expect(within(card).getByText('pro Jahr')).toBeInTheDocument();
    expect(within(card).getByText('Spare 16 %')).toBeInTheDocument();
  });

  it('shows the own billing page in German, links unchanged', () => {
    const me = signedInMe({ sub: { premium: true, servers: ['1100000000000000001', '1199999999999999999'] } });
    ({ store } = renderPage(<BillingPage />, { url: '/billing', me }));
    expect(screen.getByRole('heading', { level: 1, name: 'Abrechnung' })).toBeInTheDocument();
    expect(screen.getByText('Premium aktiv')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Abgedeckte Server (2)' })).toBeInTheDocument();
    expect(screen.getByText('Server nicht in deiner Liste')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Server-Premium von Ava's Arcade" })).toHaveAttribute('href', '/dashboard/1100000000000000001/premium');
    expect(screen.getByRole('link', { name: 'Tarife ansehen' })).toHaveAttribute('href', '/premium-purchase');
  });

  it("names a provider's subscription in German for staff, with the way back to that user", () => {
    ({ store } = renderPage(<BillingProviderPage />, {
      url: '/billing/1000000000000000777/discord/sku_1',
      path: '/billing/:user/discord/:id',
      handle: { data: { provider: 'discord' } },
      me: signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ'] } }),
    }));
    expect(screen.getByRole('heading', { level: 1, name: 'Discord-Abonnement' })).toBeInTheDocument();
    expect(screen.getByText("Discord (ein Discord-App-Abonnement, gekauft in Discords eigenem Store)")).toBeInTheDocument();
    expect(screen.getByText('1000000000000000777').parentElement).toHaveTextContent('Discord-Nutzer 1000000000000000777 (Teamansicht)');
    expect(screen.getByText('Details von Discord folgen mit der nächsten Version')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zurück zur Abrechnung' })).toHaveAttribute('href', '/billing/1000000000000000777');
  });
});
