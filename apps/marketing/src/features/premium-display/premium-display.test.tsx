import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderPage } from '@tickety/shared/testing';
import { describe, expect, it } from 'vitest';
import { PLANS } from '../../test/fixtures';
import PremiumDisplayPage from './premium-display';

describe('PremiumDisplayPage', () => {
  it('shows the plans compactly with links that leave the frame in a new tab', async () => {
    mockApi({ 'GET /api/plans': PLANS });
    const user = userEvent.setup();
    renderPage(<PremiumDisplayPage />, { url: '/premium-display' });
    const premium = await screen.findByRole('group', { name: 'Premium' });
    expect(screen.getByRole('heading', { level: 1, name: 'Tickety Premium' })).toBeInTheDocument();
    expect(within(premium).getByText('$4.99')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: /yearly/i }));
    const buy = within(screen.getByRole('group', { name: 'Premium' })).getByRole('link', { name: /get premium/i });
    expect(buy).toHaveAttribute('href', '/premium-purchase?plan=premium&period=yearly');
    for (const link of screen.getAllByRole('link')) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener');
    }
  });
});
