import { act, screen, within } from '@testing-library/react';
import { changeLocale } from '@tickety/shared';
import { apiError, json, mockApi, overlayStore, renderPage } from '@tickety/shared/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { statusFixture } from '../../test/fixtures';
import { STATUS_REFRESH_MS } from './api';
import StatusPage from './status';

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

afterEach(() => {
  vi.useRealTimers();
  setVisibility('visible');
});

describe('StatusPage', () => {
  it('shows the overall state, the services with latency and the shards', async () => {
    // The clock stands still (only Date: the page's timers run), so "12 seconds ago" stays 12 on a busy machine.
    const now = Date.now();
    vi.useFakeTimers({ now, toFake: ['Date'] });
    mockApi({ 'GET /api/status': statusFixture(now) });
    renderPage(<StatusPage />, { url: '/status' });
    expect(screen.getByRole('status', { name: 'Loading the status' })).toBeInTheDocument();

    expect(await screen.findByText('Some systems are degraded')).toBeInTheDocument();
    const services = screen.getByRole('region', { name: 'Services' });
    const database = within(services).getByText('Database').closest('li')!;
    expect(database).toHaveTextContent('The database is answering slowly.');
    expect(database).toHaveTextContent('1,250 ms');
    expect(within(database).getByText('Degraded')).toBeInTheDocument();
    expect(within(services).getByText('API').closest('li')).toHaveTextContent('Operational');

    const table = screen.getByRole('table', { name: 'Bot shards' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('#0');
    expect(rows[1]).toHaveTextContent('ready');
    expect(rows[1]).toHaveTextContent('42 ms');
    expect(rows[1]).toHaveTextContent('1,520');
    expect(rows[1]).toHaveTextContent('12 seconds ago');
    // Silent for 5 minutes: down, whatever it reported last (reconnecting).
    expect(rows[2]).toHaveTextContent('down');
    expect(rows[2]).not.toHaveTextContent('reconnecting');
    expect(rows[2]).toHaveTextContent('—');
    expect(rows[2]).toHaveTextContent('5 minutes ago');
    expect(screen.getByText(/1 of 2 shards ready, serving 2,918 servers/)).toBeInTheDocument();
    expect(screen.getByText(/Last checked/)).toHaveTextContent('Last checked just now');
  });

  it('names Redis by what it does for visitors, in each language', async () => {
    const services = [
      { name: 'api', status: 'operational', latencyMs: 0 },
      { name: 'redis', status: 'operational', latencyMs: 0.4 },
    ] as const;
    mockApi({ 'GET /api/status': statusFixture(Date.now(), { status: 'operational', services: [...services] }) });
    renderPage(<StatusPage />, { url: '/status' });
    expect(await screen.findByText('All systems operational')).toBeInTheDocument();
    const redis = within(screen.getByRole('region', { name: 'Services' })).getByText('Rate limiting').closest('li')!;
    expect(redis).toHaveTextContent("Request limits shared by the API's servers");
    expect(redis).toHaveTextContent('0 ms');
    expect(within(redis).getByText('Operational')).toBeInTheDocument();
    expect(screen.queryByText('Redis')).not.toBeInTheDocument();
  });

  it('says why a service is not operational from its reason, and shows a detail without one as sent', async () => {
    const services = [
      { name: 'api', status: 'operational', latencyMs: 0 },
      { name: 'database', status: 'degraded', latencyMs: null, reason: 'check_timeout', detail: 'English detail for API clients' },
      { name: 'search', status: 'down', latencyMs: null, detail: 'The search index is rebuilding.' },
    ] as const;
    mockApi({ 'GET /api/status': statusFixture(Date.now(), { services: [...services] }) });
    renderPage(<StatusPage />, { url: '/status' });
    const region = await screen.findByRole('region', { name: 'Services' });
    const database = within(region).getByText('Database').closest('li')!;
    expect(database).toHaveTextContent('The status check did not finish in time: the state of the database and the bot is unknown.');
    expect(database).not.toHaveTextContent('English detail for API clients');
    expect(within(region).getByText('Search').closest('li')).toHaveTextContent('The search index is rebuilding.');
  });

  it('shows an empty state when no shard has reported', async () => {
    mockApi({ 'GET /api/status': statusFixture(Date.now(), { status: 'operational', services: [{ name: 'api', status: 'operational', latencyMs: 0 }], shards: [] }) });
    renderPage(<StatusPage />, { url: '/status' });
    expect(await screen.findByText('All systems operational')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'No shard has reported yet' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('reports an unreachable API inline, without the error overlay, and retries on request', async () => {
    let fail = true;
    const { calls } = mockApi({ 'GET /api/status': () => (fail ? apiError(503, 1000, 'Service unavailable') : json(statusFixture())) });
    renderPage(<StatusPage />, { url: '/status' });
    expect(await screen.findByRole('heading', { name: 'We could not reach the status service' })).toBeInTheDocument();
    expect(overlayStore.getSnapshot().error).toBeNull();

    fail = false;
    await act(async () => screen.getByRole('button', { name: 'Try again' }).click());
    expect(await screen.findByText('Some systems are degraded')).toBeInTheDocument();
    expect(calls('/api/status')).toHaveLength(2);
  });

  it('refreshes every 30 seconds while visible, keeps the last result when a refresh fails, and pauses while hidden', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer: () => Response = () => json(statusFixture());
    const { calls } = mockApi({ 'GET /api/status': () => answer() });
    renderPage(<StatusPage />, { url: '/status' });
    await screen.findByText('Some systems are degraded');
    expect(calls('/api/status')).toHaveLength(1);

    answer = () => apiError(500, 1000, 'Internal error');
    await act(() => vi.advanceTimersByTimeAsync(STATUS_REFRESH_MS + 100));
    expect(calls('/api/status')).toHaveLength(2);
    expect(await screen.findByText('The last check failed')).toBeInTheDocument();
    expect(screen.getByText('Some systems are degraded')).toBeInTheDocument();
    expect(overlayStore.getSnapshot().error).toBeNull();

    act(() => setVisibility('hidden'));
    await act(() => vi.advanceTimersByTimeAsync(STATUS_REFRESH_MS * 3));
    expect(calls('/api/status')).toHaveLength(2);

    answer = () => json(statusFixture(Date.now(), { status: 'operational' }));
    act(() => setVisibility('visible'));
    expect(await screen.findByText('All systems operational')).toBeInTheDocument();
    expect(calls('/api/status')).toHaveLength(3);
    expect(screen.queryByText('The last check failed')).not.toBeInTheDocument();
  });
});

describe('StatusPage in German', () => {
  afterEach(async () => {
    await changeLocale('en');
  });

  it('shows the status in German with German numbers and relative times', async () => {
    await changeLocale('de');
    const now = Date.now();
    vi.useFakeTimers({ now, toFake: ['Date'] });
    mockApi({ 'GET /api/status': statusFixture(now) });
    renderPage(<StatusPage />, { url: '/status' });
    expect(screen.getByRole('status', { name: 'Status wird geladen' })).toBeInTheDocument();
    expect(screen.getByText(/prüft sie alle 30 Sekunden erneut/)).toBeInTheDocument();

    expect(await screen.findByText('Einige Systeme sind beeinträchtigt')).toBeInTheDocument();
    const services = screen.getByRole('region', { name: 'Dienste' });
    const database = within(services).getByText('Datenbank').closest('li')!;
    expect(database).toHaveTextContent('1.250 ms');
    // The reason in German, not the API's English detail.
    expect(database).toHaveTextContent('Die Datenbank antwortet langsam.');
    expect(database).not.toHaveTextContent('answering');
    expect(within(services).getByText('Discord-Bot').closest('li')).toHaveTextContent('Einige Shards sind nicht bereit');
    expect(within(database).getByText('Beeinträchtigt')).toBeInTheDocument();
    expect(within(services).getByText('API').closest('li')).toHaveTextContent('In Betrieb');
    expect(within(services).getByText('Ratenlimits').closest('li')).toHaveTextContent('Anfragelimits, die sich die Server der API teilen');

    const table = screen.getByRole('table', { name: 'Bot-Shards' });
    const rows = within(table).getAllByRole('row');
    expect(rows[0]).toHaveTextContent('Letzter Heartbeat');
    expect(rows[1]).toHaveTextContent('bereit');
    expect(rows[1]).toHaveTextContent('1.520');
    expect(rows[1]).toHaveTextContent('vor 12 Sekunden');
    expect(rows[2]).toHaveTextContent('ausgefallen');
    expect(rows[2]).toHaveTextContent('vor 5 Minuten');
    expect(screen.getByText('1 von 2 Shards bereit, zusammen für 2.918 Server zuständig.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Aktualisieren' })).toBeInTheDocument();
  });
});
