import type { StaffDeadLetter, StaffSystemAnswer, StaffWebhookQueue, StaffWebhooksAnswer } from '@tickety/api-contract';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ApiAnswer, apiError, json, mockApi, renderPage, resetShared, signedInMe, TEST_CONFIG } from '@tickety/shared/testing';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';

import SystemPage from './system';
import { SYSTEM_REFRESH_MS } from './system-refresh';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => {
  vi.useRealTimers();
  cleanup();
  resetShared(store);
});

const owner = signedInMe({ team: { owner: true, permissions: [] } });
const reader = signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ'] } });
const writer = signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ', 'DASHBOARD_SUPPORT_SYSTEM_WRITE'] } });

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

function queues(over: Partial<Record<StaffWebhookQueue['provider'], Partial<StaffWebhookQueue>>> = {}): StaffWebhookQueue[] {
  return (['paddle', 'fastspring', 'discord', 'chargebee'] as const).map((provider) => ({ provider, pending: 0, failing: 0, dead: 0, oldestPendingAt: null, ...over[provider] }));
}

function letter(id: string, over: Partial<StaffDeadLetter> = {}): StaffDeadLetter {
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

/** A healthy answer of /api/staff/system with no shard and no error (the webhooks tests' backdrop). */
function quietHealth(): StaffSystemAnswer {
  return {
    database: { kind: 'postgres', reachable: true, latencyMs: 3, sizeBytes: 8_200_000, pool: { total: 2, idle: 2, waiting: 0, max: 10 } },
    redis: null,
    shards: [],
    errors: [],
    api: { version: '0.1.0', node: 'v20.20.2', startedAt: '2026-03-01T08:00:00.000Z', uptimeSeconds: 60 },
  };
}

/** The page's API: the webhooks' answers given, the service health answered quietly unless given too. */
function mockPage(answers: Record<string, ApiAnswer>) {
  return mockApi({ 'GET /api/staff/system': quietHealth(), ...answers });
}

/** Paddle: two dead; FastSpring: 3 pending (one retrying), the oldest 30 minutes old; Discord: one pending just now. */
function page(over: Partial<StaffWebhooksAnswer> = {}): StaffWebhooksAnswer {
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
    const { calls, unexpected } = mockPage({ 'GET /api/staff/webhooks': page() });
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
    const table = screen.getByRole('table', { name: 'Dead webhook events, newest first' });
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
    // Nothing is promised for later any more, and the public status page is linked.
    expect(screen.queryByText(/come next/)).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'What visitors see' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Status page' })).toHaveAttribute('href', '/status');
  });

  it('offers no Replay without DASHBOARD_SUPPORT_SYSTEM_WRITE, and says why', async () => {
    mockPage({ 'GET /api/staff/webhooks': page() });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader }));
    await screen.findByRole('table', { name: 'Dead webhook events, newest first' });
    expect(screen.queryByRole('button', { name: /^Replay/ })).not.toBeInTheDocument();
    expect(screen.getByText(/Replaying a dead letter needs the “System \(write\)” flag/)).toHaveTextContent('DASHBOARD_SUPPORT_SYSTEM_WRITE');
  });

  it('replays a dead letter after the confirmation: posted, the row gone, the figures read again, focus kept', async () => {
    let replayed = false;
    const { calls } = mockPage({
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
    mockPage({
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
    const { calls } = mockPage({
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
    const { calls } = mockPage({
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
    mockPage({ 'GET /api/staff/webhooks': page({ queues: queues(), dead: [] }) });
    ({ store } = renderPage(<SystemPage />, { url: '/system?provider=discord', me: reader }));
    expect(await screen.findByRole('heading', { name: 'No dead letters from Discord: every event was applied' })).toBeInTheDocument();
  });

  it('says when the queues cannot be read, with Retry; Refresh reads them again and says so', async () => {
    let fail = true;
    const { calls } = mockPage({
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

// ---------------------------------------------------------------------------------------------
// Service health: database, API, deployed versions, bot shards, recent server errors

const QUIET_WEBHOOKS: StaffWebhooksAnswer = { queues: queues(), dead: [], nextCursor: null };
const secondsAgo = (s: number) => new Date(Date.now() - s * 1000).toISOString();

/** PostgreSQL, 12 ms, 12.3 MB, 3 of 10 connections busy and 2 waiting; Redis reachable; three shards (one silent for 5 minutes); two errors. */
function health(over: Partial<StaffSystemAnswer> = {}): StaffSystemAnswer {
  return {
    database: { kind: 'postgres', reachable: true, latencyMs: 12, sizeBytes: 12_345_678, pool: { total: 5, idle: 2, waiting: 2, max: 10 } },
    redis: { reachable: true, latencyMs: 0.4, since: '2026-03-01T08:00:01.000Z', error: null },
    shards: [
      { id: 1, state: 'connecting', latencyMs: null, guilds: 0, lastHeartbeat: secondsAgo(10) },
      { id: 0, state: 'ready', latencyMs: 42, guilds: 1520, lastHeartbeat: secondsAgo(20) },
      { id: 2, state: 'ready', latencyMs: 61, guilds: 1398, lastHeartbeat: minutesAgo(5) },
    ],
    errors: [
      {
        at: '2026-03-01T12:05:00.000Z',
        requestId: 'req-2b9f',
        method: 'POST',
        route: '/api/guilds/:guildId/panels',
        status: 500,
        code: 1500,
        message: 'Something went wrong on our side. Try again shortly.',
      },
      { at: '2026-03-01T12:00:00.000Z', requestId: 'req-1a7c', method: 'GET', route: null, status: 503, code: 1000, message: 'Service unavailable' },
    ],
    api: { version: '0.1.0', node: 'v20.20.2', startedAt: '2026-03-01T08:00:00.000Z', uptimeSeconds: 3 * 86_400 + 4 * 3_600 + 5 * 60 },
    ...over,
  };
}

function region(name: string): HTMLElement {
  return screen.getByRole('region', { name });
}

function healthRows(table: string): HTMLElement[] {
  return within(screen.getByRole('table', { name: table })).getAllByRole('row').slice(1);
}

describe('system page: service health', () => {
  it('shows the database, the API, the shards and the recent errors above the webhooks, as a dashboard read', async () => {
    const { calls, unexpected } = mockApi({ 'GET /api/staff/system': health(), 'GET /api/staff/webhooks': QUIET_WEBHOOKS });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader }));
    const sectionHeading = screen.getByRole('heading', { level: 2, name: 'Service health' });
    expect(screen.getByText('Loading the service health…')).toBeInTheDocument();
    expect(sectionHeading.compareDocumentPosition(screen.getByRole('heading', { level: 2, name: 'Payment webhooks' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    const database = await screen.findByRole('region', { name: 'Database' });
    expect(within(database).getByText('Reachable')).toBeInTheDocument();
    expect(figure(database, 'Engine')).toBe('PostgreSQL');
    expect(figure(database, 'Latency')).toBe('12 ms');
    expect(within(database).queryByText(/^Slow/)).not.toBeInTheDocument();
    expect(figure(database, 'Size')).toBe('12.3 MB');
    expect(within(database).getByText('12.3 MB')).toHaveAttribute('title', '12,345,678 bytes');
    expect(figure(database, 'Connections')).toBe('3 of 10 in use2 requests waiting');

    const apiCard = region('API');
    expect(figure(apiCard, 'Version')).toBe('0.1.0');
    expect(figure(apiCard, 'Node.js')).toBe('v20.20.2');
    expect(within(apiCard).getByText(/2026/, { selector: 'time' })).toHaveAttribute('datetime', '2026-03-01T08:00:00.000Z');
    expect(figure(apiCard, 'Uptime')).toBe('3 days 4 hr');

    // Shards by id; the one silent for 5 minutes is stale whatever it said last.
    const shards = healthRows('Bot shards, by id');
    expect(shards.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['#0', '#1', '#2']);
    expect(shards[0]).toHaveTextContent('Ready');
    expect(shards[0]).toHaveTextContent('42 ms');
    expect(shards[0]).toHaveTextContent('1,520');
    expect(shards[0]).toHaveTextContent('20 seconds ago');
    expect(within(shards[0]!).queryByText('Stale')).not.toBeInTheDocument();
    expect(shards[1]).toHaveTextContent('Connecting');
    expect(shards[1]).toHaveTextContent('Not measured yet');
    expect(within(shards[2]!).getByText('Stale')).toBeInTheDocument();
    expect(within(shards[2]!).getByText('5 minutes ago', { selector: 'time' })).toHaveClass('text-red-700');
    expect(screen.getByText(/^1 of 3 shards ready, serving 2,918 servers\./)).toHaveTextContent('1 shard has not reported for over 2 minutes.');

    // Errors newest first: the request id in monospace with a copy button, method and route, status, code, message.
    const errors = healthRows('Recent server errors, newest first');
    expect(errors.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['req-2b9f', 'req-1a7c']);
    expect(within(errors[0]!).getByText('req-2b9f', { selector: 'code' })).toHaveClass('font-mono');
    expect(within(errors[0]!).getByRole('button', { name: 'Copy the request id req-2b9f' })).toBeInTheDocument();
    expect(errors[0]).toHaveTextContent('POST /api/guilds/:guildId/panels');
    expect(errors[0]).toHaveTextContent('500');
    expect(errors[0]).toHaveTextContent('1500');
    expect(errors[0]).toHaveTextContent('Something went wrong on our side. Try again shortly.');
    expect(errors[1]).toHaveTextContent('GET no route matched');
    expect(errors[1]).toHaveTextContent('503');
    expect(screen.getByText(/This API instance's last server errors .* the list empties when the instance restarts/)).toBeInTheDocument();

    const [, init] = calls('/api/staff/system')[0]!;
    expect(new Headers(init!.headers).get('x-requested-with')).toBe('tickety');
    expect(unexpected).toEqual([]);
  });

  it('copies a request id and says so', async () => {
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    const original = Object.getOwnPropertyDescriptor(window.navigator, 'clipboard');
    Object.defineProperty(window.navigator, 'clipboard', { configurable: true, value: { writeText } });
    onTestFinished(() => {
      if (original) Object.defineProperty(window.navigator, 'clipboard', original);
      else Reflect.deleteProperty(window.navigator, 'clipboard');
    });
    mockApi({ 'GET /api/staff/system': health(), 'GET /api/staff/webhooks': QUIET_WEBHOOKS });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader }));
    await userEvent.click(await screen.findByRole('button', { name: 'Copy the request id req-1a7c' }));
    expect(writeText).toHaveBeenCalledWith('req-1a7c');
    const row = screen.getByRole('row', { name: /req-1a7c/ });
    expect(within(row).getByRole('status')).toHaveTextContent('Copied');

    writeText.mockRejectedValueOnce(new DOMException('Document is not focused.', 'NotAllowedError'));
    await userEvent.click(screen.getByRole('button', { name: 'Copy the request id req-2b9f' }));
    expect(within(screen.getByRole('row', { name: /req-2b9f/ })).getByRole('status')).toHaveTextContent('Could not copy: select the id and copy it by hand');
  });

  it('describes PGlite as the embedded database with one connection', async () => {
    mockApi({
      'GET /api/staff/system': health({ database: { kind: 'pglite', reachable: true, latencyMs: 1, sizeBytes: 512, pool: null } }),
      'GET /api/staff/webhooks': QUIET_WEBHOOKS,
    });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader }));
    const database = await screen.findByRole('region', { name: 'Database' });
    expect(figure(database, 'Engine')).toBe('PGlite (embedded)');
    expect(figure(database, 'Connections')).toBe('Embedded database (one connection)');
    expect(figure(database, 'Size')).toBe('512 bytes');
    expect(within(database).queryByText(/in use/)).not.toBeInTheDocument();
  });

  it('warns of a slow database, and of an unreachable one', async () => {
    let answer = health({ database: { kind: 'postgres', reachable: true, latencyMs: 350, sizeBytes: 2_500_000_000, pool: { total: 10, idle: 0, waiting: 0, max: 10 } } });
    mockApi({ 'GET /api/staff/system': () => json(answer), 'GET /api/staff/webhooks': QUIET_WEBHOOKS });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader }));
    let database = await screen.findByRole('region', { name: 'Database' });
    expect(within(database).getByText('Slow', { selector: 'span' })).toBeInTheDocument();
    expect(figure(database, 'Latency')).toBe('350 msSlow: over 200 ms');
    expect(figure(database, 'Size')).toBe('2.5 GB');
    expect(figure(database, 'Connections')).toBe('10 of 10 in usenone waiting');

    answer = health({ database: { kind: 'postgres', reachable: false, latencyMs: null, sizeBytes: null, pool: { total: 10, idle: 0, waiting: 4, max: 10 } }, shards: [] });
    await userEvent.click(screen.getByRole('button', { name: 'Refresh service health' }));
    await waitFor(() => expect(within(region('Database')).getByText('Unreachable')).toBeInTheDocument());
    database = region('Database');
    expect(database).toHaveTextContent("The database did not answer the API's check");
    expect(figure(database, 'Latency')).toBe('No answer');
    expect(figure(database, 'Size')).toBe('Unknown');
    expect(figure(database, 'Connections')).toBe('10 of 10 in use4 requests waiting');
  });

  it('shows the deployed version of every front end from the runtime config the shell loaded', async () => {
    mockApi({ 'GET /api/staff/system': health(), 'GET /api/staff/webhooks': QUIET_WEBHOOKS });
    const remote = (id: string, version: string | null) => ({ manifest: `https://cdn.test/${id}/mf-manifest.json`, version, routes: null });
    ({ store } = renderPage(<SystemPage />, {
      url: '/system',
      me: reader,
      config: {
        shell: { version: 'shell-7f3a9c' },
        remotes: { marketing: remote('marketing', 'mkt-11aa22'), billing: remote('billing', null), dashboard: remote('dashboard', 'dash-33bb44') },
      },
    }));
    const versions = await screen.findByRole('region', { name: 'Deployed front ends' });
    expect(figure(versions, 'Shell')).toBe('shell-7f3a9c');
    expect(figure(versions, 'Marketing pages')).toBe('mkt-11aa22');
    expect(figure(versions, 'Billing')).toBe('Unversioned build');
    expect(figure(versions, 'Dashboard')).toBe('dash-33bb44');
    expect(figure(versions, 'Staff tools')).toBe('Not deployed');
  });

  it('calls a shell and remotes without versions unversioned builds', async () => {
    mockApi({ 'GET /api/staff/system': health(), 'GET /api/staff/webhooks': QUIET_WEBHOOKS });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader, config: { remotes: TEST_CONFIG.remotes } }));
    const versions = await screen.findByRole('region', { name: 'Deployed front ends' });
    for (const app of ['Shell', 'Marketing pages', 'Billing', 'Dashboard', 'Staff tools']) expect(figure(versions, app)).toBe('Unversioned build');
  });

  it('says when no shard has reported and when the instance had no server error', async () => {
    mockApi({ 'GET /api/staff/system': health({ shards: [], errors: [] }), 'GET /api/staff/webhooks': QUIET_WEBHOOKS });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader }));
    expect(await screen.findByRole('heading', { name: 'No shard has reported yet' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'No server errors since this instance started' })).toBeInTheDocument();
    expect(screen.getByText(/^This instance started on /)).toHaveTextContent('2026');
    expect(screen.queryByRole('table', { name: 'Bot shards, by id' })).not.toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Recent server errors, newest first' })).not.toBeInTheDocument();
    expect(screen.queryByText(/shards ready/)).not.toBeInTheDocument();
  });

  it('shows whether the rate limits are shared through Redis: reachable, unreachable since when and why, not configured', async () => {
    let answer = health();
    let fail = false;
    mockApi({ 'GET /api/staff/system': () => (fail ? apiError(503, 1000, 'Service unavailable') : json(answer)), 'GET /api/staff/webhooks': QUIET_WEBHOOKS });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader }));
    // Loading: no card yet, the skeleton says so.
    expect(screen.getByText('Loading the service health…')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Redis' })).not.toBeInTheDocument();

    let redis = await screen.findByRole('region', { name: 'Redis' });
    expect(within(redis).getByText('Reachable')).toBeInTheDocument();
    expect(figure(redis, 'Rate limits')).toBe('Shared by every API instance');
    expect(figure(redis, 'Latency')).toBe('0 ms');
    expect(within(redis).getByText(/2026/, { selector: 'time' })).toHaveAttribute('datetime', '2026-03-01T08:00:01.000Z');
    expect(within(redis).getByText('Reachable since', { selector: 'dt' })).toBeInTheDocument();
    expect(within(redis).queryByText('Last error')).not.toBeInTheDocument();
    expect(redis.className).not.toMatch(/ring-red/);

    answer = health({ redis: { reachable: false, latencyMs: null, since: '2026-03-01T12:30:00.000Z', error: 'connect ECONNREFUSED 10.0.0.5:6379' } });
    await userEvent.click(screen.getByRole('button', { name: 'Refresh service health' }));
    await waitFor(() => expect(within(region('Redis')).getByText('Unreachable')).toBeInTheDocument());
    redis = region('Redis');
    expect(redis).toHaveTextContent('This API instance cannot reach Redis: until Redis answers, it counts the rate limits on its own, so a client may get each limit once per instance.');
    expect(redis.className).toMatch(/ring-red/);
    expect(figure(redis, 'Rate limits')).toBe('Counted per instance');
    expect(figure(redis, 'Latency')).toBe('No answer');
    expect(within(redis).getByText('Unreachable since', { selector: 'dt' })).toBeInTheDocument();
    expect(within(redis).getByText(/2026/, { selector: 'time' })).toHaveAttribute('datetime', '2026-03-01T12:30:00.000Z');
    expect(figure(redis, 'Last error')).toBe('connect ECONNREFUSED 10.0.0.5:6379');

    // A failed refresh keeps the last answer (with the page's warning, shown and announced).
    fail = true;
    await userEvent.click(screen.getByRole('button', { name: 'Refresh service health' }));
    expect(await screen.findAllByText('The service health could not be refreshed; the figures below may be out of date')).not.toHaveLength(0);
    expect(within(region('Redis')).getByText('Unreachable')).toBeInTheDocument();

    fail = false;
    answer = health({ redis: null });
    await userEvent.click(screen.getByRole('button', { name: 'Refresh service health' }));
    await waitFor(() => expect(within(region('Redis')).getByText('Not configured')).toBeInTheDocument());
    redis = region('Redis');
    expect(redis).toHaveTextContent('REDIS_URL is not set: each API instance counts the rate limits on its own');
    expect(figure(redis, 'Rate limits')).toBe('Counted per instance');
    expect(within(redis).queryByText('Latency')).not.toBeInTheDocument();

    // An API older than the page says nothing of Redis: no card rather than a wrong one.
    const { redis: _omitted, ...older } = health();
    answer = older as StaffSystemAnswer;
    await userEvent.click(screen.getByRole('button', { name: 'Refresh service health' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Redis' })).not.toBeInTheDocument());
    expect(region('Database')).toBeInTheDocument();
  });

  it('says when the health cannot be read, with Retry, in place (no overlay)', async () => {
    let fail = true;
    const { calls } = mockApi({
      'GET /api/staff/system': () => (fail ? apiError(500, 1500, 'Something went wrong on our side. Try again shortly.') : json(health())),
      'GET /api/staff/webhooks': QUIET_WEBHOOKS,
    });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The service health could not be loaded');
    expect(alert).toHaveTextContent('Something went wrong on our side. Try again shortly.');
    expect(screen.queryByRole('region', { name: 'Database' })).not.toBeInTheDocument();
    // The webhooks below are unaffected.
    expect(await screen.findByRole('heading', { name: 'No dead letters: every event was applied' })).toBeInTheDocument();

    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('region', { name: 'Database' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(calls('/api/staff/system')).toHaveLength(2);
  });

  it(`reads itself again every ${SYSTEM_REFRESH_MS / 1000} s, keeping the last answer when a read fails; Refresh reads at once and says so`, async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer: () => Response = () => json(health());
    const { calls } = mockApi({ 'GET /api/staff/system': () => answer(), 'GET /api/staff/webhooks': QUIET_WEBHOOKS });
    ({ store } = renderPage(<SystemPage />, { url: '/system', me: reader }));
    await screen.findByRole('region', { name: 'Database' });
    expect(calls('/api/staff/system')).toHaveLength(1);
    expect(screen.getByText(/^The database, Redis, the API, .* Refreshes itself every 15 seconds\./)).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(SYSTEM_REFRESH_MS - 1_000));
    expect(calls('/api/staff/system')).toHaveLength(1);
    answer = () => json(health({ errors: [] }));
    await act(() => vi.advanceTimersByTimeAsync(1_100));
    expect(calls('/api/staff/system')).toHaveLength(2);
    expect(await screen.findByRole('heading', { name: 'No server errors since this instance started' })).toBeInTheDocument();

    answer = () => apiError(503, 1000, 'Service unavailable');
    await act(() => vi.advanceTimersByTimeAsync(SYSTEM_REFRESH_MS));
    expect(calls('/api/staff/system')).toHaveLength(3);
    expect(await screen.findByText('The service health could not be refreshed; the figures below may be out of date')).toBeInTheDocument();
    expect(region('Database')).toBeInTheDocument();

    answer = () => json(health());
    await userEvent.click(screen.getByRole('button', { name: 'Refresh service health' }));
    await waitFor(() => expect(screen.getByText(/^Service health refreshed at/)).toBeInTheDocument());
    expect(calls('/api/staff/system')).toHaveLength(4);
    expect(screen.queryByText(/could not be refreshed/)).not.toBeInTheDocument();
    expect(healthRows('Recent server errors, newest first')).toHaveLength(2);
  });
});
