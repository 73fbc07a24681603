import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StatisticsAnswer } from '@tickety/api-contract';
import { useOpenServer } from '@tickety/shared';
import { apiError, json, mockApi, renderPage, resetShared } from '@tickety/shared/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { live } from '../../test/config-fixtures';
import { ARCADE, avaMe } from '../../test/fixtures';
import { formatDuration } from './api';
import ServerStatistics from './statistics';

vi.mock('./daily-chart', () => ({ default: () => <div data-testid="chart" /> }));

const SERVER = ARCADE.id;
const totals = (over: Partial<StatisticsAnswer['totals']> = {}): StatisticsAnswer['totals'] => ({
  opened: 40,
  closed: 36,
  backlog: 5,
  firstResponseMedian: 1500,
  firstResponseP90: 7200,
  resolutionMedian: 4 * 3600 + 300,
  resolutionP90: 2 * 86400 + 3600,
  ratingAverage: 4.4,
  rated: 20,
  ...over,
});

function answer(over: Partial<StatisticsAnswer> = {}): StatisticsAnswer {
  return {
    range: '7d',
    tz: 'Europe/Berlin',
    serverTz: 'Europe/Berlin',
    from: '2026-02-24',
    to: '2026-03-02',
    previousFrom: '2026-02-17',
    previousTo: '2026-02-23',
    totals: totals(),
    previous: totals({ opened: 32, firstResponseMedian: 3000 }),
    daily: [{ date: '2026-02-24', opened: 5, closed: 4, backlog: 5 }],
    panels: [{ panelId: 'support', opened: 30, closed: 28, firstResponseMedian: 1200, resolutionMedian: 3600, ratingAverage: 4.5 }],
    staff: [
      { userId: '1000000000000000001', name: 'Ava', handled: 20, firstResponseMedian: 900, resolutionMedian: 3000, ratingAverage: 4.8 },
      { userId: '1000000000000000902', name: null, handled: 16, firstResponseMedian: 2000, resolutionMedian: 5000, ratingAverage: null },
    ],
    ratings: [1, 1, 2, 6, 10],
    hours: Array.from({ length: 24 }, (_, h) => (h === 20 ? 9 : 1)),
    tags: [
      { tagId: 'refund', uses: 7 },
      { tagId: 'gone', uses: 2 },
    ],
    limits: { premium: true, days: 366, export: true },
    ...over,
  };
}

function Page() {
  useOpenServer(SERVER);
  return <ServerStatistics />;
}

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => resetShared(store));

function show(query: string, handler: (url: URL) => Response, configAnswer: unknown = live()) {
  const asked: URLSearchParams[] = [];
  mockApi({
    [`GET /api/guilds/${SERVER}/statistics`]: (url: URL) => {
      asked.push(url.searchParams);
      return handler(url);
    },
    [`GET /api/guilds/${SERVER}/config`]: configAnswer,
    [`GET /api/guilds/${SERVER}/statistics/feedback`]: { total: 0, items: [], nextCursor: null },
  });
  const page = renderPage(<Page />, { url: `/dashboard/${SERVER}/statistics${query}`, path: '/dashboard/:server/statistics', me: avaMe() });
  store = page.store;
  return { ...page, asked };
}

describe('Statistics', () => {
  it('shows the totals against the period before, the tables and the distributions', async () => {
    show('', () => json(answer()));
    expect(await screen.findByText('40')).toBeInTheDocument();
    expect(screen.getByText('+25% vs. the period before')).toBeInTheDocument(); // 40 vs 32 opened
    expect(screen.getByText('-50% vs. the period before')).toBeInTheDocument(); // first response 1500 vs 3000: better
    expect(screen.getByText('25 min')).toBeInTheDocument();
    expect(screen.getByText('90th percentile: 2 d 1 h')).toBeInTheDocument();
    const panels = screen.getByRole('table', { name: 'By panel' });
    expect(within(panels).getByRole('rowheader', { name: 'Support' })).toBeInTheDocument();
    const staff = screen.getByRole('table', { name: 'By staff member' });
    expect(within(staff).getByText('Member 1000000000000000902')).toBeInTheDocument();
    expect(screen.getByText('5★: 10')).toBeInTheDocument();
    expect(screen.getByText('20: 9')).toBeInTheDocument();
    expect(await screen.findByTestId('chart')).toBeInTheDocument();
  });

  it('switches the range in the address, in the server’s time zone or, chosen, the viewer’s', async () => {
    const { asked, router } = show('', (url) => json(answer({ range: (url.searchParams.get('range') ?? '7d') as StatisticsAnswer['range'] })));
    await screen.findByText('40');
    expect(asked[0]!.get('range')).toBe('7d');
    expect(asked[0]!.get('tz')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '30 days' }));
    await waitFor(() => expect(asked.at(-1)?.get('range')).toBe('30d'));
    expect(router.state.location.search).toBe('?range=30d');
    expect(screen.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
    const zone = screen.getByRole('combobox', { name: 'Days in' });
    expect(zone).toHaveDisplayValue("the server's time (Europe/Berlin)");
    await userEvent.selectOptions(zone, 'mine');
    await waitFor(() => expect(asked.at(-1)?.get('tz')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone));
    expect(router.state.location.search).toBe('?range=30d&zone=mine');
    expect(asked.at(-1)?.get('range')).toBe('30d');
  });

  it('lists the uses per tag in the range, named from the configuration (a deleted tag by its id)', async () => {
    const base = live();
    const configured = { ...base, config: { ...base.config, tags: [{ id: 'refund', name: 'refund', content: 'Refunds take 5 days.', embed: null, keywords: [] }] } };
    show('', () => json(answer()), configured);
    const tags = await screen.findByRole('table', { name: 'Tags used' });
    await waitFor(() => expect(within(tags).getByRole('rowheader', { name: 'refund' })).toBeInTheDocument());
    expect(within(tags).getByRole('row', { name: /refund 7/ })).toBeInTheDocument();
    expect(within(tags).getByRole('rowheader', { name: 'Deleted tag (gone)' })).toBeInTheDocument();
  });

  it('says when no tag was used', async () => {
    show('', () => json(answer({ tags: [] })));
    await screen.findByText('40');
    expect(screen.getByText('No tag was used in this range.')).toBeInTheDocument();
  });

  it('filters by a ticket label of the configuration (label=), kept in the address with the range', async () => {
    const withLabels = live();
    const configured = { ...withLabels, config: { ...withLabels.config, labels: [{ id: 'bug', name: 'Bug', colour: 0xed4245 }] } };
    const { asked, router } = show('?range=30d', () => json(answer()), configured);
    await screen.findByText('40');
    expect(asked[0]!.get('label')).toBeNull();
    const select = await screen.findByRole('combobox', { name: 'Label' });
    expect(select).toHaveDisplayValue('All labels');
    await userEvent.selectOptions(select, 'bug');
    await waitFor(() => expect(asked.at(-1)?.get('label')).toBe('bug'));
    expect(asked.at(-1)?.get('range')).toBe('30d');
    expect(router.state.location.search).toBe('?range=30d&label=bug');
    await userEvent.click(screen.getByRole('button', { name: '7 days' }));
    await waitFor(() => expect(asked.at(-1)?.get('range')).toBe('7d'));
    expect(asked.at(-1)?.get('label')).toBe('bug');
  });

  it('on a free plan, offers only what the plan allows, and no export', async () => {
    show('', () => json(answer({ limits: { premium: false, days: 7, export: false } })));
    await screen.findByText('40');
    expect(screen.getByRole('button', { name: '30 days' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Custom' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
    expect(screen.getByText("This server's plan shows the last 7 days.")).toBeInTheDocument();
  });

  it('exports a table as formula-safe CSV', async () => {
    const saved: Blob[] = [];
    const create = vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved.push(blob as Blob);
      return 'blob:x';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    show('', () => json(answer({ staff: [{ userId: '1', name: '=HYPERLINK("x")', handled: 1, firstResponseMedian: null, resolutionMedian: null, ratingAverage: null }] })));
    await screen.findByText('40');
    await userEvent.click(within(screen.getByRole('region', { name: 'By staff member' })).getByRole('button', { name: 'Export CSV' }));
    expect(create).toHaveBeenCalled();
    const text = await saved[0]!.text();
    expect(text).toContain('Staff member,Handled');
    expect(text).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it('says when there is nothing yet, and when loading failed', async () => {
    const zero = totals({ opened: 0, closed: 0, backlog: 0, firstResponseMedian: null, firstResponseP90: null, resolutionMedian: null, resolutionP90: null, ratingAverage: null, rated: 0 });
    show('', () => json(answer({ totals: zero })));
    expect(await screen.findByRole('heading', { name: 'No tickets in this period yet' })).toBeInTheDocument();
    resetShared(store);
    show('?range=90d', () => apiError(400, 1001, 'Statistics cover at most 7 days.'));
    expect(await screen.findByText('The statistics could not be loaded.')).toBeInTheDocument();
  });

  it('reads durations as people do', () => {
    const t = (key: string, v: Record<string, unknown>) => `${key}:${JSON.stringify(v)}`;
    expect(formatDuration(t as never, null)).toBe('—');
    expect(formatDuration(t as never, 30)).toBe('statistics.duration.seconds:{"s":30}');
    expect(formatDuration(t as never, 3 * 3600 + 300)).toBe('statistics.duration.hours:{"h":3,"m":5}');
  });
});
