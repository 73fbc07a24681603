import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { inLocale, mockApi, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import BillingPage from './features/billing/billing';
import BillingProviderPage from './features/billing-provider/billing-provider';
import PremiumPurchasePage from './features/premium-purchase/premium-purchase';
import { ALL_PROVIDER_PLANS, PLANS, subscription } from './test/fixtures';

let store: ReturnType<typeof renderPage>['store'] | undefined;
inLocale('de');
afterEach(() => {
  cleanup();
  resetShared(store);
});


describe('billing in German', () => {
  it('shows the plans with German texts and German-formatted prices', async () => {
    mockApi({ 'GET /api/plans': PLANS, 'GET /api/billing/providers': { available: ['paddle'] } });
    ({ store } = renderPage(<PremiumPurchasePage />, { url: '/premium-purchase', me: signedInMe(), config: { paddleToken: null } }));

    expect(screen.getByRole('heading', { level: 1, name: 'Premium kaufen' })).toBeInTheDocument();
    const card = await screen.findByRole('group', { name: 'Premium' });
    expect(within(card).getByText('4,99 $')).toBeInTheDocument();
    expect(within(card).getByText('pro Monat')).toBeInTheDocument();
    expect(within(card).getByText('Am beliebtesten')).toBeInTheDocument();
    expect(within(card).getByText('Bis zu 50 Ticket-Panels · für 1 Server')).toBeInTheDocument();
    expect(screen.getByText(/Free muss nicht gekauft werden/)).toHaveTextContent('bis zu 3 Ticket-Panels');
    expect(screen.getByRole('region', { name: 'Tarife' })).toBeInTheDocument();
    expect(await screen.findByText('Die Bezahlung ist in dieser Installation nicht eingerichtet')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'Jährlich' }));
    expect(within(card).getByText('49,99 $')).toBeInTheDocument();
    expect(within(card).getByText('pro Jahr')).toBeInTheDocument();
    expect(within(card).getByText('Spare 16 %')).toBeInTheDocument();
  });

  it('shows the own billing page in German', async () => {
    mockApi({ 'GET /api/billing/subscriptions': { subscriptions: [subscription()] } });
    ({ store } = renderPage(<BillingPage />, { url: '/billing', me: signedInMe() }));
    expect(screen.getByRole('heading', { level: 1, name: 'Abrechnung' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Premium über Paddle' })).toBeInTheDocument();
    expect(screen.getByText('Aktiv')).toBeInTheDocument();
    expect(screen.getByText(/Verlängert sich am/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Tarife ansehen' })).toHaveAttribute('href', '/premium-purchase');
  });

  it("names a provider's subscription in German for staff, with the way back to that user", async () => {
    mockApi({
      'GET /api/billing/users/1000000000000000777/subscriptions/discord/sku_1': subscription({ provider: 'discord', id: 'sku_1', actions: [] }),
      'GET /api/billing/users/1000000000000000777/subscriptions/discord/sku_1/invoices': { available: false, invoices: [] },
    });
    ({ store } = renderPage(<BillingProviderPage />, {
      url: '/billing/1000000000000000777/discord/sku_1',
      path: '/billing/:user/discord/:id',
      handle: { data: { provider: 'discord' } },
      me: signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ'] } }),
    }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Premium über Discord' })).toBeInTheDocument();
    expect(screen.getByText('Zahlungsart')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zurück zur Abrechnung' })).toHaveAttribute('href', '/billing/1000000000000000777');
  });

  it('labels the buy buttons and says what each provider is in German', async () => {
    mockApi({ 'GET /api/plans': ALL_PROVIDER_PLANS, 'GET /api/billing/providers': { available: ['fastspring', 'chargebee', 'discord'] } });
    ({ store } = renderPage(<PremiumPurchasePage />, { url: '/premium-purchase', me: signedInMe() }));
    const card = await screen.findByRole('group', { name: 'Premium' });
    expect(await within(card).findByRole('link', { name: 'Mit FastSpring bezahlen' })).toHaveAccessibleDescription('FastSpring: Zahlungen über FastSpring');
    expect(within(card).getByRole('link', { name: 'Mit Chargebee bezahlen' })).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'In Discord abonnieren' })).toBeInTheDocument();
  });
});
