import { screen } from '@testing-library/react';
import { botInviteUrl } from '@tickety/shared';
import { renderPage, TEST_CONFIG } from '@tickety/shared/testing';
import { describe, expect, it } from 'vitest';
import HomeDisplayPage from './home-display';

describe('HomeDisplayPage', () => {
  it('opens every link in a new tab, since it lives in a frame', () => {
    renderPage(<HomeDisplayPage />, { url: '/home-display', config: { productName: 'Helpdesk' } });
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getAllByText('Helpdesk').length).toBeGreaterThan(0);
    const add = screen.getByRole('link', { name: /add to discord/i });
    expect(add).toHaveAttribute('href', botInviteUrl(TEST_CONFIG));
    const dashboard = screen.getByRole('link', { name: /open dashboard/i });
    expect(dashboard).toHaveAttribute('href', '/dashboard');
    for (const link of screen.getAllByRole('link')) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link.getAttribute('rel')).toContain('noopener');
    }
  });
});
