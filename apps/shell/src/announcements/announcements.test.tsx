import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PublicAnnouncement } from '@tickety/api-contract';
import { json, mockApi, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import AnnouncementBanner from './announcement-banner';
import { ANNOUNCEMENTS_REFRESH_MS, AnnouncementHost } from './announcements';
import { DISMISSED_KEY } from './dismissals';

const notice = (over: Partial<PublicAnnouncement> = {}): PublicAnnouncement => ({
  id: '1',
  revision: 1,
  severity: 'maintenance',
  text: 'Maintenance **tonight** at *22:00 UTC*: see the [status page](/status).',
  endsAt: null,
  ...over,
});

/** requestIdleCallback replaced: the test says when the browser is idle. */
function idleByHand() {
  const waiting: Array<() => void> = [];
  vi.stubGlobal('requestIdleCallback', (cb: () => void) => {
    waiting.push(cb);
    return waiting.length;
  });
  vi.stubGlobal('cancelIdleCallback', () => undefined);
  return {
    idle: async () => {
      await act(async () => {
        for (const cb of waiting.splice(0)) cb();
      });
    },
  };
}

let store: ReturnType<typeof renderPage>['store'] | undefined;
beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  resetShared(store);
  store = undefined;
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the announcement banner', () => {
  it('renders each notice with its severity and its markdown', () => {
    render(
      <MemoryRouter>
        <AnnouncementBanner notices={[notice(), notice({ id: '2', severity: 'critical', text: 'Logins fail\n\n- Discord is down\n- we are on it' })]} onDismiss={() => undefined} />
      </MemoryRouter>,
    );
    const region = screen.getByRole('region', { name: 'Announcements' });
    const [first, second] = within(region).getAllByRole('listitem').filter((li) => li.parentElement?.parentElement === region);
    expect(within(first!).getByText('Maintenance', { selector: 'p' })).toBeInTheDocument();
    expect(within(first!).getByText('tonight').tagName).toBe('STRONG');
    expect(within(first!).getByText('22:00 UTC').tagName).toBe('EM');
    expect(within(first!).getByRole('link', { name: 'status page' })).toHaveAttribute('href', '/status');
    expect(within(second!).getByText('Incident', { selector: 'p' })).toBeInTheDocument();
    expect(within(second!).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Discord is down', 'we are on it']);
    expect(within(first!).getByRole('button', { name: 'Dismiss the announcement: Maintenance tonight at 22:00 UTC: see the status page.' })).toBeInTheDocument();
  });
  // The text's markdown, its XSS handling and its links: packages/shared/src/announcements/announcement-text.test.tsx.
});

describe('the announcement host', () => {
  it('reads nothing until the browser is idle, then shows the notices (a silent read: no overlay)', async () => {
    const { idle } = idleByHand();
    const { calls } = mockApi({ 'GET /api/announcements': { announcements: [notice()] } });
    ({ store } = renderPage(<AnnouncementHost />));
    expect(calls('/api/announcements')).toHaveLength(0);
    expect(screen.queryByRole('region', { name: 'Announcements' })).not.toBeInTheDocument();
    await idle();
    expect(await screen.findByRole('region', { name: 'Announcements' })).toHaveTextContent('Maintenance tonight at 22:00 UTC');
    const [, init] = calls('/api/announcements')[0]!;
    expect(init?.credentials).toBe('include');
    // A simple request: no custom header, so no CORS preflight and a cacheable answer.
    expect(new Headers(init?.headers).get('x-requested-with')).toBeNull();
  });

  it('dismisses a notice, remembers it by id and revision, and shows it again when its text changes', async () => {
    const { idle } = idleByHand();
    let answer = [notice(), notice({ id: '2', severity: 'info', text: 'New: dark mode' })];
    mockApi({ 'GET /api/announcements': () => json({ announcements: answer }) });
    ({ store } = renderPage(<AnnouncementHost />));
    await idle();
    await screen.findByText('New: dark mode');
    await userEvent.click(screen.getByRole('button', { name: /^Dismiss the announcement: Maintenance tonight/ }));
    expect(screen.queryByText('tonight')).not.toBeInTheDocument();
    expect(screen.getByText('New: dark mode')).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem(DISMISSED_KEY)!)).toEqual(['1:1']);
    // Focus moves to the next notice's button.
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Dismiss the announcement: New: dark mode' })).toHaveFocus());

    // Another page load: still dismissed.
    cleanup();
    resetShared(store);
    const again = idleByHand();
    mockApi({ 'GET /api/announcements': () => json({ announcements: answer }) });
    ({ store } = renderPage(<AnnouncementHost />));
    await again.idle();
    await screen.findByText('New: dark mode');
    expect(screen.queryByText('tonight')).not.toBeInTheDocument();

    // Both dismissed: the banner is gone; then the maintenance notice is edited (revision 2): shown again.
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss the announcement: New: dark mode' }));
    expect(screen.queryByRole('region', { name: 'Announcements' })).not.toBeInTheDocument();
    cleanup();
    resetShared(store);
    answer = [notice({ revision: 2, text: 'Maintenance moved to **23:00 UTC**' }), notice({ id: '2', severity: 'info', text: 'New: dark mode' })];
    const third = idleByHand();
    mockApi({ 'GET /api/announcements': () => json({ announcements: answer }) });
    ({ store } = renderPage(<AnnouncementHost />));
    await third.idle();
    expect(await screen.findByText('23:00 UTC')).toBeInTheDocument();
    expect(screen.queryByText('New: dark mode')).not.toBeInTheDocument();
  });

  it('reads again every 30 s: a withdrawn notice goes; a failed read keeps what is shown; a notice leaves at its end', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(Date.parse('2026-03-02T10:00:00Z'));
    const { idle } = idleByHand();
    let answer: Response | (() => Response) = () => json({ announcements: [notice(), notice({ id: '3', severity: 'info', text: 'Until 10:00:40', endsAt: '2026-03-02T10:00:40Z' })] });
    const { calls } = mockApi({ 'GET /api/announcements': () => (typeof answer === 'function' ? answer() : answer) });
    ({ store } = renderPage(<AnnouncementHost />, { me: signedInMe() }));
    await idle();
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByText('Until 10:00:40')).toBeInTheDocument();
    // The API is down for a read: the banner stays.
    answer = () => json({ code: 1009, message: 'down', isAuthenticated: true }, 503);
    await act(() => vi.advanceTimersByTimeAsync(ANNOUNCEMENTS_REFRESH_MS));
    expect(calls('/api/announcements')).toHaveLength(2);
    expect(screen.getByText('tonight')).toBeInTheDocument();
    // Its end passes before the next read: it leaves on time.
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    expect(screen.queryByText('Until 10:00:40')).not.toBeInTheDocument();
    expect(screen.getByText('tonight')).toBeInTheDocument();
    // Withdrawn: the next read has it gone.
    answer = () => json({ announcements: [] });
    await act(() => vi.advanceTimersByTimeAsync(ANNOUNCEMENTS_REFRESH_MS));
    expect(screen.queryByRole('region', { name: 'Announcements' })).not.toBeInTheDocument();
  });

  it('is not shown on the display layout (pages embedded in other sites), which reads nothing', async () => {
    const { idle } = idleByHand();
    const { calls } = mockApi({ 'GET /api/announcements': { announcements: [notice()] } });
    ({ store } = renderPage(<AnnouncementHost />, { url: '/display/x', handle: { layout: 'display' } }));
    await idle();
    expect(calls('/api/announcements')).toHaveLength(0);
    expect(screen.queryByRole('region', { name: 'Announcements' })).not.toBeInTheDocument();
  });
});
