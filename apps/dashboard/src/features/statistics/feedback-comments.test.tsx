import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FeedbackComment, StatisticsAnswer } from '@tickety/api-contract';
import { changeLocale, useOpenServer } from '@tickety/shared';
import { apiError, json, mockApi, renderPage, resetShared } from '@tickety/shared/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { config, live, panel } from '../../test/config-fixtures';
import { ARCADE, avaMe } from '../../test/fixtures';
import ServerStatistics from './statistics';

vi.mock('./daily-chart', () => ({ default: () => <div data-testid="chart" /> }));

const SERVER = ARCADE.id;
const FEEDBACK = `/api/guilds/${SERVER}/statistics/feedback`;

const totals: StatisticsAnswer['totals'] = { opened: 4, closed: 3, backlog: 1, firstResponseMedian: 60, firstResponseP90: 90, resolutionMedian: 600, resolutionP90: 900, ratingAverage: 4, rated: 3 };
const answer: StatisticsAnswer = {
  range: '7d',
  tz: 'UTC',
  serverTz: null,
  from: '2026-02-24',
  to: '2026-03-02',
  previousFrom: '2026-02-17',
  previousTo: '2026-02-23',
  totals,
  previous: totals,
  daily: [],
  panels: [],
  staff: [],
  ratings: [0, 0, 1, 1, 1],
  tags: [],
  hours: Array.from({ length: 24 }, () => 0),
  limits: { premium: false, days: 7, export: false },
};

const comment = (index: number, over: Partial<FeedbackComment> = {}): FeedbackComment => ({
  ticketId: `t${index}`,
  number: 2400 + index,
  panelId: 'support',
  opener: { id: '1000000000000100003', name: `Player ${index}` },
  handledBy: { id: '1000000000000000001', name: 'Ava' },
  rating: 1 + (index % 5),
  comment: `Comment number ${index}`,
  closedAt: '2026-03-01T10:00:00.000Z',
  transcriptFileId: null,
  ...over,
});

function Page() {
  useOpenServer(SERVER);
  return <ServerStatistics />;
}

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(async () => {
  resetShared(store);
  await changeLocale('en');
});

function show(feedback: (url: URL) => Response, query = '') {
  const asked: URLSearchParams[] = [];
  mockApi({
    [`GET /api/guilds/${SERVER}/statistics`]: () => json(answer),
    [`GET /api/guilds/${SERVER}/config`]: live({ config: config({ panels: [panel('support', 'Support')] }) }),
    [`GET ${FEEDBACK}`]: (url: URL) => {
      asked.push(url.searchParams);
      return feedback(url);
    },
  });
  const page = renderPage(<Page />, { url: `/dashboard/${SERVER}/statistics${query}`, path: '/dashboard/:server/statistics', me: avaMe(), routes: [{ path: '/transcript/v2/:server/:fileid', element: <p>The transcript</p> }] });
  store = page.store;
  return { ...page, asked };
}

const card = async () => (await screen.findByRole('heading', { name: 'Comments' })).closest('section')!;

describe('Statistics: the comments given with ratings', () => {
  it('lists them newest first with the stars, the ticket, who handled it and the transcript; pages on with Show more', async () => {
    const user = userEvent.setup();
    const first = Array.from({ length: 20 }, (_, i) => comment(25 - i, i === 0 ? { transcriptFileId: 't-t25', panelId: 'support' } : {}));
    const { asked } = show((url) =>
      url.searchParams.get('cursor') === 'next' ? json({ total: 22, items: [comment(5, { opener: null, handledBy: null }), comment(4, { opener: { id: '1300000000000000009', name: null } })], nextCursor: null }) : json({ total: 22, items: first, nextCursor: 'next' }),
    );
    const section = await card();
    await within(section).findByText('Comment number 25');
    expect(within(section).getByText('20 of 22')).toBeInTheDocument();
    const items = within(section).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Ticket #2425');
    expect(items[0]).toHaveTextContent('From Player 25, handled by Ava');
    expect(within(items[0]!).getByText('1 of 5 stars')).toBeInTheDocument();
    expect(within(items[0]!).getByText('Support')).toBeInTheDocument();
    expect(within(items[0]!).getByRole('link', { name: 'Transcript of #2425' })).toHaveAttribute('href', `/transcript/v2/${SERVER}/t-t25`);
    expect(within(items[1]!).queryByRole('link')).toBeNull();
    // The same range as the page's.
    expect(asked[0]!.get('range')).toBe('7d');

    await user.click(within(section).getByRole('button', { name: 'Show more' }));
    await within(section).findByText('Comment number 5');
    expect(within(section).getByText('22 of 22')).toBeInTheDocument();
    expect(within(section).getByText('From someone the bot did not name')).toBeInTheDocument();
    expect(within(section).getByText('From Member 1300000000000000009, handled by Ava')).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(asked.at(-1)!.get('cursor')).toBe('next');
  });

  it('says when there are none, and when they cannot be loaded (with Retry)', async () => {
    const user = userEvent.setup();
    let fail = true;
    show(() => (fail ? apiError(503, 1030, 'The database is not answering.') : json({ total: 0, items: [], nextCursor: null })));
    const section = await card();
    expect(await within(section).findByText('The comments could not be loaded.')).toBeInTheDocument();
    fail = false;
    await user.click(within(section).getByRole('button', { name: /Retry|Try again/ }));
    expect(await within(section).findByText(/No comments in this period/)).toBeInTheDocument();
  });

  it('in German', async () => {
    await changeLocale('de');
    show(() => json({ total: 1, items: [comment(1)], nextCursor: null }));
    const section = (await screen.findByRole('heading', { name: 'Kommentare' })).closest('section')!;
    expect(await within(section).findByText('Von Player 1, bearbeitet von Ava')).toBeInTheDocument();
    expect(within(section).getByText('2 von 5 Sternen')).toBeInTheDocument();
  });
});
