import { screen, waitFor, within } from '@testing-library/react';
import { apiError, overlayStore, resetShared } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { showAutomation } from '../../../test/automation';
import { config, live, panel } from '../../../test/config-fixtures';
import { BASE } from '../../../test/panel-menu';

let store: Awaited<ReturnType<typeof showAutomation>>['store'] | undefined;
afterEach(() => resetShared(store));

async function show(...args: Parameters<typeof showAutomation>) {
  const page = await showAutomation(...args);
  store = page.store;
  return page;
}

const card = async (name: string) => (await screen.findByRole('heading', { level: 2, name })).closest('div.flex-col') as HTMLElement;

describe('Automation: the overview', () => {
  it('says what each setting does now, from the configuration', async () => {
    const busy = config({
      panels: [panel('support', 'Support', { autoClose: { memberSilentHours: 4, staffSilentHours: null, onOpenerLeave: false, warningHours: 1, warningMessage: '' } }), panel('billing', 'Billing', { feedback: false })],
      autoClose: { memberSilentHours: 48, staffSilentHours: 24, onOpenerLeave: true, warningHours: 12, warningMessage: '' },
      tags: [{ id: 'refund', name: 'refund', content: 'Refunds take 3 days.', embed: null, keywords: [] }],
      blocklist: [
        { kind: 'user', id: '1000000000000000009', reason: 'Spam', addedBy: '1000000000000000002', addedAt: '2026-01-01T00:00:00Z', expiresAt: null },
        { kind: 'role', id: '1000000000000000010', reason: 'Muted', addedBy: '1000000000000000002', addedAt: '2026-01-01T00:00:00Z', expiresAt: '2026-02-01T00:00:00Z' },
      ],
      feedback: { enabled: true, question: '' },
    });
    const page = await show('', { [`GET ${BASE}/config`]: live({ config: busy, blocklistLimit: 1000 }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Automation' })).toBeInTheDocument();

    const autoClose = await card('Auto-close');
    expect(within(autoClose).getByText('On')).toBeInTheDocument();
    expect(within(autoClose).getByText('Closes a ticket when the member has not answered a staff reply for 48 hours.')).toBeInTheDocument();
    expect(within(autoClose).getByText('Closes a ticket when no staff member has answered the member for 24 hours.')).toBeInTheDocument();
    expect(within(autoClose).getByText('Closes a ticket when its opener leaves the server.')).toBeInTheDocument();
    expect(within(autoClose).getByText('Warns the member 12 hours before, with a button to keep it open.')).toBeInTheDocument();
    expect(within(autoClose).getByText('1 panel has its own rules.')).toBeInTheDocument();

    const tags = await card('Tags');
    expect(within(tags).getByText('1 tag of 50.')).toBeInTheDocument();
    expect(within(tags).getByText('/refund')).toBeInTheDocument();

    const blocklist = await card('Blocklist');
    expect(within(blocklist).getByText('2 entries of 1,000.')).toBeInTheDocument();
    expect(within(blocklist).getByText('1 of them has expired and no longer blocks.')).toBeInTheDocument();

    // On by default; the billing panel turns it off.
    const feedback = await card('Feedback');
    expect(within(feedback).getByText('Asked after close, unless a panel says otherwise.')).toBeInTheDocument();
    expect(within(feedback).getByText('Asked for 1 of 2 panels.')).toBeInTheDocument();
    expect(page.unexpected).toEqual([]);
  });

  it('a server that set nothing: every setting off, saying what that means', async () => {
    await show();
    expect(within(await card('Auto-close')).getByText('Tickets stay open until someone closes them.')).toBeInTheDocument();
    expect(within(await card('Tags')).getByText('No canned replies yet: staff write every answer themselves.')).toBeInTheDocument();
    expect(within(await card('Blocklist')).getByText('Everyone who can see a panel can open a ticket.')).toBeInTheDocument();
    expect(within(await card('Feedback')).getByText('Not asked, unless a panel turns it on.')).toBeInTheDocument();
    expect(screen.getAllByText('Off')).toHaveLength(4);
  });

  it('while the configuration cannot be loaded: a skeleton, and the error overlay with Retry', async () => {
    await show('', { [`GET ${BASE}/config`]: () => apiError(503, 1009, 'The service is temporarily unavailable (database). Try again shortly.') });
    expect(screen.getByText('Loading the automation settings…')).toBeInTheDocument();
    await waitFor(() => expect(overlayStore.getSnapshot().error?.kind).toBe('failed'));
    expect(overlayStore.getSnapshot().error?.buttons.retry).toBe(true);
    expect(screen.queryByRole('heading', { level: 2 })).not.toBeInTheDocument();
  });
});
