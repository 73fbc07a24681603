import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { changeLocale } from '@tickety/shared';
import { mockApi, renderPage } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { PLANS } from '../../test/fixtures';
import PremiumPage from './premium';

function planCard(name: string) {
  return screen.getByRole('group', { name });
}

describe('PremiumPage', () => {
  it('renders the plans from the API with limits, features and a highlighted plan', async () => {
    const { calls } = mockApi({ 'GET /api/plans': PLANS });
    renderPage(<PremiumPage />, { url: '/premium' });
    expect(screen.getByRole('heading', { level: 1, name: 'Tickety Premium' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading plans' })).toBeInTheDocument();

    const premium = await screen.findByRole('group', { name: 'Premium' });
    expect(within(premium).getByText('Most popular')).toBeInTheDocument();
    expect(within(premium).getByText('$4.99')).toBeInTheDocument();
    expect(within(premium).getByText('Ticket panels').nextElementSibling).toHaveTextContent('50');
    expect(within(premium).getByText('Server').nextElementSibling).toHaveTextContent('1');
    expect(within(premium).getByText('Support hours with time zones')).toBeInTheDocument();
    expect(within(premium).getByRole('link', { name: /get premium/i })).toHaveAttribute('href', '/premium-purchase?plan=premium&period=monthly');

    const free = planCard('Free');
    expect(within(free).getByText('$0')).toBeInTheDocument();
    expect(within(free).queryByText('Most popular')).not.toBeInTheDocument();
    expect(within(free).getByRole('link', { name: /add to discord/i }).getAttribute('href')).toContain('client_id=1300000000000000001');
    expect(calls('/api/plans')).toHaveLength(1);
  });

  it('switches between monthly and yearly prices', async () => {
    mockApi({ 'GET /api/plans': PLANS });
    const user = userEvent.setup();
    renderPage(<PremiumPage />, { url: '/premium' });
    await screen.findByRole('group', { name: 'Premium' });

    const yearly = screen.getByRole('radio', { name: /yearly/i });
    expect(screen.getByRole('radio', { name: /monthly/i })).toBeChecked();
    expect(screen.getByText('Save 16%')).toBeInTheDocument();

    await user.click(yearly);
    expect(yearly).toBeChecked();
    const premium = planCard('Premium');
    expect(within(premium).getByText('$49.99')).toBeInTheDocument();
    expect(within(premium).getByText('/year')).toBeInTheDocument();
    expect(within(premium).getByText('$4.17 a month, billed yearly')).toBeInTheDocument();
    expect(within(premium).queryByText('$4.99')).not.toBeInTheDocument();
    expect(within(premium).getByRole('link', { name: /get premium/i })).toHaveAttribute('href', '/premium-purchase?plan=premium&period=yearly');

    await user.click(screen.getByRole('radio', { name: /monthly/i }));
    expect(within(planCard('Premium')).getByText('$4.99')).toBeInTheDocument();
  });

  it('formats prices in the plan currency', async () => {
    mockApi({ 'GET /api/plans': [{ ...PLANS[1]!, id: 'pro', name: 'Pro', currency: 'EUR', priceMonthly: 6, priceYearly: null }] });
    const user = userEvent.setup();
    renderPage(<PremiumPage />, { url: '/premium' });
    const pro = await screen.findByRole('group', { name: 'Pro' });
    expect(within(pro).getByText('€6')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /yearly/i }));
    expect(within(planCard('Pro')).getByText('Only sold monthly')).toBeInTheDocument();
  });

  it('opens and closes an FAQ answer from the keyboard', async () => {
    mockApi({ 'GET /api/plans': PLANS });
    const user = userEvent.setup();
    renderPage(<PremiumPage />, { url: '/premium' });
    const question = screen.getByRole('button', { name: 'Can I cancel at any time?' });
    expect(question).toHaveAttribute('aria-expanded', 'false');
    const panel = document.getElementById(question.getAttribute('aria-controls')!)!;
    expect(panel).not.toBeVisible();

    question.focus();
    await user.keyboard('{Enter}');
    expect(question).toHaveAttribute('aria-expanded', 'true');
    expect(panel).toBeVisible();
    expect(within(panel).getByRole('link', { name: 'billing page' })).toHaveAttribute('href', '/billing');

    await user.keyboard(' ');
    expect(question).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(panel).not.toBeVisible());
  });
});

describe('PremiumPage in German', () => {
  afterEach(async () => {
    await changeLocale('en');
  });

  it('shows German headings, labels and answers, and prices formatted for German', async () => {
    await changeLocale('de');
    mockApi({ 'GET /api/plans': PLANS });
    const user = userEvent.setup();
    renderPage(<PremiumPage />, { url: '/premium' });
    expect(screen.getByRole('heading', { level: 1, name: 'Tickety Premium' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Tarife werden geladen' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Häufig gestellte Fragen' })).toBeInTheDocument();
    expect(screen.getByText('Jederzeit kündbar')).toBeInTheDocument();

    const premium = await screen.findByRole('group', { name: 'Premium' });
    expect(within(premium).getByText('Am beliebtesten')).toBeInTheDocument();
    expect(within(premium).getByText('4,99 $')).toBeInTheDocument();
    expect(within(premium).getByText('/Monat')).toBeInTheDocument();
    expect(within(premium).getByText('Monatliche Abrechnung, jederzeit kündbar')).toBeInTheDocument();
    expect(within(premium).getByText('Ticket-Panels').nextElementSibling).toHaveTextContent('50');
    expect(within(premium).getByRole('list', { name: 'Im Tarif Premium enthalten' })).toBeInTheDocument();
    expect(within(premium).getByRole('link', { name: /premium wählen/i })).toHaveAttribute('href', '/premium-purchase?plan=premium&period=monthly');
    expect(within(planCard('Free')).getByRole('link', { name: 'Zu Discord hinzufügen' })).toBeInTheDocument();
    expect(within(planCard('Free')).getByText('für immer kostenlos')).toBeInTheDocument();

    expect(screen.getByText('Spare 16 %')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /jährlich/i }));
    expect(within(planCard('Premium')).getByText('49,99 $')).toBeInTheDocument();
    expect(within(planCard('Premium')).getByText('4,17 $ pro Monat bei jährlicher Abrechnung')).toBeInTheDocument();

    const question = screen.getByRole('button', { name: 'Kann ich jederzeit kündigen?' });
    await user.click(question);
    const panel = document.getElementById(question.getAttribute('aria-controls')!)!;
    expect(within(panel).getByRole('link', { name: 'Abrechnungsseite' })).toHaveAttribute('href', '/billing');
  });

  it('follows a change of language while it is open', async () => {
    mockApi({ 'GET /api/plans': PLANS });
    renderPage(<PremiumPage />, { url: '/premium' });
    expect(within(await screen.findByRole('group', { name: 'Premium' })).getByText('$4.99')).toBeInTheDocument();
    await act(() => changeLocale('de'));
    expect(within(planCard('Premium')).getByText('4,99 $')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Häufig gestellte Fragen' })).toBeInTheDocument();
  });
});
