import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, json, mockApi, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeadLetter, WebhookQueue, WebhooksPage } from '../lib/webhooks-api';
import SystemPage from './system';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => {
  cleanup();
  resetShared(store);
});

const owner = signedInMe({ team: { owner: true, permissions: [] } });
const reader = signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ'] } });
const writer = signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ', 'DASHBOARD_SUPPORT_SYSTEM_WRITE'] } });

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

function queues(over: Partial<Record<WebhookQueue['provider'], Partial<WebhookQueue>>> = {}): WebhookQueue[] {
  return (['paddle', 'fastspring', 'discord', 'chargebee'] as const).map((provider) => ({ provider, pending: 0, failing: 0, dead: 0, oldestPendingAt: null, ...over[provider] }));
}

function letter(id: string, over: Partial<DeadLetter> = {}): DeadLetter {
  return {
    id,
    provider: 'paddle',
    type: 'subscription.updated',
    key: `evt_${id}`,
    subject: `sub_${id}`,
    attempts: 8,
    lastError: 'boom',
    receivedAt: '2026-03-01T12:00:00.000Z',
    ...over,
  };
}

const LONG_ERROR = `Paddle answered 500: ${'the upstream service failed to apply the subscription change; '.repeat(3)}end of trace`;

/** Paddle: two dead; FastSpring: 3 pending (one retrying), the oldest 30 minutes old; Discord: one pending just now. */
function page(over: Partial<WebhooksPage> = {}): WebhooksPage {
  return {
    queues: queues({
      paddle: { dead: 2 },
      fastspring: { pending: 3, failing: 1, oldestPendingAt: minutesAgo(30) },
      discord: { pending: 1, oldestPendingAt: minutesAgo(2) },
    }),
    dead: [letter('12', { lastError: LONG_ERROR }), letter('11', { subject: null, lastError: null })],
    nextCursor: null,
    ...over,
  };
}

function card(name: string): HTMLElement {
  return screen.getByRole('heading', { level: 3, name }).closest('li')!;
}

function figure(container: HTMLElement, label: string): string {
  return within(container).getByText(label, { selector: 'dt' }).nextElementSibling!.textContent!;
}

function deadRows(): string[] {
  const table = screen.getByRole('table', { name: 'Dead webhook events, newest first' });
  return within(table)
    .getAllByRole('rowheader')
    .map((cell) => cell.textContent!);
}

describe('system page: payment webhooks', () => {
  it('shows each provider’s queue and the dead letters, as a dashboard read', async () => {
    const { calls, unexpected } = mockApi({ 'GET /api/staff/webhooks': page() });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader }));
    expect(screen.getByRole('heading', { level: 2, name: 'Payment webhooks' })).toBeInTheDocument();
    await screen.findByRole('table', { name: 'Dead webhook events, newest first' });

    const paddle = card('Paddle');
    expect(within(paddle).getByText('Needs attention')).toBeInTheDocument();
    expect(figure(paddle, 'Dead')).toBe('2');
    expect(figure(paddle, 'Oldest pending')).toBe('None waiting');
    const fastspring = card('FastSpring');
    expect(within(fastspring).getByText('Backlog over 10 min')).toBeInTheDocument();
    expect(figure(fastspring, 'Pending')).toBe('3');
    expect(figure(fastspring, 'Retrying')).toBe('1');
    expect(figure(fastspring, 'Oldest pending')).toBe('30 minutes ago');
    const discord = card('Discord');
    expect(within(discord).getByText('Flowing')).toBeInTheDocument();
    expect(figure(discord, 'Oldest pending')).toBe('2 minutes ago');
    expect(within(card('Chargebee')).getByText('Flowing')).toBeInTheDocument();

    expect(deadRows()).toEqual(['evt_12', 'evt_11']);
    const table = screen.getByRole('table');
    for (const header of ['Provider', 'Event type', 'Event key', 'Subject', 'Attempts', 'Last error', 'Received']) {
      expect(within(table).getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    const first = within(table).getByRole('row', { name: /evt_12/ });
    expect(within(first).getByText('sub_12')).toBeInTheDocument();
    // The long error is cut, its whole text behind a disclosure.
    expect(within(first).getByText(/Show all/).closest('summary')).toBeInTheDocument();
    expect(within(first).getByText(LONG_ERROR, { selector: 'pre' })).toBeInTheDocument();
    const second = within(table).getByRole('row', { name: /evt_11/ });
    expect(within(second).getByText('None')).toBeInTheDocument();
    expect(within(second).getByText('None recorded')).toBeInTheDocument();

    const [url, init] = calls('/api/staff/webhooks')[0]!;
    expect(new URL(String(url)).searchParams.get('limit')).toBe('25');
    expect(new Headers(init!.headers).get('x-requested-with')).toBe('tickety');
    expect(unexpected).toEqual([]);
    // The rest of System still comes next, and the public status page is linked.
    expect(screen.getByText(/database state, the bot's shards, the recent errors and the deployed versions come next/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Status page' })).toHaveAttribute('href', '/status');
  });

  it('offers no Replay without DASHBOARD_SUPPORT_SYSTEM_WRITE, and says why', async () => {
    mockApi({ 'GET /api/staff/webhooks': page() });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader }));
    await screen.findByRole('table', { name: 'Dead webhook events, newest first' });
    expect(screen.queryByRole('button', { name: /^Replay/ })).not.toBeInTheDocument();
    expect(screen.getByText(/Replaying a dead letter needs the “System \(write\)” flag/)).toHaveTextContent('DASHBOARD_SUPPORT_SYSTEM_WRITE');
  });

  it('replays a dead letter after the confirmation: posted, the row gone, the figures read again, focus kept', async () => {
    let replayed = false;
    const { calls } = mockApi({
      'GET /api/staff/webhooks': () =>
        json(replayed ? page({ queues: queues({ paddle: { dead: 1, pending: 1, oldestPendingAt: minutesAgo(0) } }), dead: [letter('11')] }) : page()),
      'POST /api/staff/webhooks/12/replay': () => {
        replayed = true;
        return json({ replayed: true });
      },
    });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: writer }));
    const button = await screen.findByRole('button', { name: 'Replay the Paddle event evt_12' });

    // Cancel first: nothing posted, focus back on the button.
    await userEvent.click(button);
    let dialog = screen.getByRole('alertdialog', { name: 'Replay this Paddle event?' });
    expect(dialog).toHaveAccessibleDescription(/It is applied again by the worker\./);
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await waitFor(() => expect(button).toHaveFocus());
    expect(calls('/api/staff/webhooks/12/replay')).toEqual([]);

    await userEvent.click(button);
    dialog = screen.getByRole('alertdialog', { name: 'Replay this Paddle event?' });
    const readsBefore = calls('/api/staff/webhooks').length;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replay' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(calls('/api/staff/webhooks/12/replay')).toHaveLength(1);
    expect(deadRows()).toEqual(['evt_11']);
    expect(screen.getByText('The Paddle event evt_12 is queued again; the worker applies it shortly.')).toBeInTheDocument();
    await waitFor(() => expect(figure(card('Paddle'), 'Dead')).toBe('1'));
    expect(calls('/api/staff/webhooks').length).toBeGreaterThan(readsBefore);
    // Its row is gone: focus on the dead letters' heading.
    await waitFor(() => expect(screen.getByRole('heading', { level: 3, name: 'Dead letters' })).toHaveFocus());
  });

  it('shows a failed replay in the dialog, in the reader’s words', async () => {
    mockApi({
      'GET /api/staff/webhooks': page(),
      'POST /api/staff/webhooks/12/replay': () => apiError(404, 1002, 'There is no dead webhook event with this id (replayed already?).'),
    });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: owner }));
    await userEvent.click(await screen.findByRole('button', { name: 'Replay the Paddle event evt_12' }));
    const dialog = screen.getByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replay' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('The event could not be replayed');
    expect(alert).toHaveTextContent('There is no dead webhook event with this id (replayed already?).');
    expect(within(dialog).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('appends the next page on Load more', async () => {
    const { calls } = mockApi({
      'GET /api/staff/webhooks': (url: URL) =>
        json(url.searchParams.get('cursor') === '11' ? page({ dead: [letter('10'), letter('9')], nextCursor: null }) : page({ nextCursor: '11' })),
    });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader }));
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(deadRows()).toEqual(['evt_12', 'evt_11', 'evt_10', 'evt_9']));
    expect(calls('/api/staff/webhooks').map(([u]) => new URL(String(u)).searchParams.get('cursor'))).toEqual([null, '11']);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('asks for one provider’s dead letters when filtered', async () => {
    const { calls } = mockApi({
      'GET /api/staff/webhooks': (url: URL) =>
        json(url.searchParams.get('provider') === 'chargebee' ? page({ dead: [letter('7', { provider: 'chargebee', key: 'ev_cb' })] }) : page()),
    });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader }));
    await screen.findByRole('table', { name: 'Dead webhook events, newest first' });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Provider' }), 'Chargebee');
    await waitFor(() => expect(deadRows()).toEqual(['ev_cb']));
    expect(calls('/api/staff/webhooks').map(([u]) => new URL(String(u)).searchParams.get('provider'))).toContain('chargebee');
    expect(screen.getByRole('combobox', { name: 'Provider' })).toHaveValue('chargebee');
  });

  it('says when a provider has no dead letters', async () => {
    mockApi({ 'GET /api/staff/webhooks': page({ queues: queues(), dead: [] }) });
    ({ store } = renderPage(<SystemPage />, { url: '/system?provider=discord', me: reader }));
    expect(await screen.findByRole('heading', { name: 'No dead letters from Discord: every event was applied' })).toBeInTheDocument();
  });

  it('says when the queues cannot be read, with Retry; Refresh reads them again and says so', async () => {
    let fail = true;
    const { calls } = mockApi({
      'GET /api/staff/webhooks': () => (fail ? apiError(500, 1500, 'Something went wrong on our side. Try again shortly.') : json(page({ queues: queues(), dead: [] }))),
    });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The webhook queues could not be loaded');
    expect(alert).toHaveTextContent('Something went wrong on our side. Try again shortly.');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'No dead letters: every event was applied' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    const reads = calls('/api/staff/webhooks').length;
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(screen.getByText(/^Webhook queues refreshed at/)).toBeInTheDocument());
    expect(calls('/api/staff/webhooks').length).toBe(reads + 1);
  });
});
