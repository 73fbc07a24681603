import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, json, mockApi, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { Announcement } from './api';
import SystemUpdatePage from './system-update';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => {
  cleanup();
  resetShared(store);
});

const reader = signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ'] } });
const writer = signedInMe({ team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ', 'DASHBOARD_SUPPORT_SYSTEM_WRITE'] } });

function announcement(id: string, over: Partial<Announcement> = {}): Announcement {
  return {
    id,
    severity: 'maintenance',
    text: `Notice ${id}`,
    audience: 'everyone',
    status: 'active',
    startsAt: '2026-03-02T10:00:00.000Z',
    endsAt: null,
    revision: 1,
    version: 1,
    createdAt: '2026-03-02T09:00:00.000Z',
    createdBy: '1000000000000000004',
    updatedAt: '2026-03-02T09:00:00.000Z',
    updatedBy: '1000000000000000004',
    updatedByName: 'Sam',
    publishedAt: '2026-03-02T10:00:00.000Z',
    withdrawnAt: null,
    ...over,
  };
}

const LIST = [
  announcement('4', { status: 'withdrawn', severity: 'critical', text: 'Logins fail', withdrawnAt: '2026-03-02T11:00:00.000Z' }),
  announcement('3', { status: 'scheduled', text: 'Maintenance on **Sunday**', startsAt: '2099-03-08T02:00:00.000Z', endsAt: '2099-03-08T04:00:00.000Z' }),
  announcement('2', { status: 'active', severity: 'info', text: 'New: dark mode', audience: 'signedIn' }),
  announcement('1', { status: 'draft', text: 'draft text', startsAt: null, publishedAt: null }),
];

function rowOf(id: string): HTMLElement {
  return screen.getByRole('row', { name: new RegExp(`#${id}\\b`) });
}

describe('System Update', () => {
  it('lists every notice with its status, read-only without DASHBOARD_SUPPORT_SYSTEM_WRITE', async () => {
    const { calls, unexpected } = mockApi({ 'GET /api/staff/announcements': { announcements: LIST, nextCursor: null } });
    ({ store } = renderPage(<SystemUpdatePage />, { url: '/systemUpdate', me: reader }));
    expect(screen.getByRole('heading', { level: 1, name: 'System Update' })).toBeInTheDocument();
    expect(screen.getByRole('status', { busy: true })).toHaveTextContent('Loading the announcements…');
    const table = await screen.findByRole('table', { name: 'Announcements, newest first' });
    expect(within(rowOf('4')).getByText('Withdrawn')).toBeInTheDocument();
    expect(within(rowOf('3')).getByText('Scheduled')).toBeInTheDocument();
    expect(within(rowOf('3')).getByText('Sunday').tagName).toBe('STRONG');
    expect(within(rowOf('2')).getByText('Active')).toBeInTheDocument();
    expect(within(rowOf('2')).getByText('Signed-in users')).toBeInTheDocument();
    expect(within(rowOf('1')).getByText('Draft')).toBeInTheDocument();
    expect(within(rowOf('1')).getByText('when published')).toBeInTheDocument();
    expect(within(rowOf('2')).getByText('withdrawn')).toBeInTheDocument();
    expect(within(table).getAllByText('by Sam')).toHaveLength(4);
    // Read only: no form, no actions, and the page says why.
    expect(screen.getByText(/needs the “System \(write\)” flag/)).toHaveTextContent('DASHBOARD_SUPPORT_SYSTEM_WRITE');
    expect(screen.queryByRole('button', { name: 'New announcement' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('button')).not.toBeInTheDocument();
    const [url, init] = calls('/api/staff/announcements')[0]!;
    expect(new URL(String(url)).searchParams.get('limit')).toBe('50');
    expect(new Headers(init!.headers).get('x-requested-with')).toBe('tickety');
    expect(unexpected).toEqual([]);
  });

  it('says when there is none, and shows a failed read with Retry', async () => {
    let fail = true;
    mockApi({
      'GET /api/staff/announcements': () => (fail ? apiError(503, 1009, 'The service is temporarily unavailable (database). Try again shortly.') : json({ announcements: [], nextCursor: null })),
    });
    ({ store } = renderPage(<SystemUpdatePage />, { url: '/systemUpdate', me: writer }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The announcements could not be loaded');
    expect(alert).toHaveTextContent('temporarily unavailable (database)');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'No announcements yet' })).toBeInTheDocument();
  });

  it('writes a notice with a live preview, refuses what the API would refuse, and publishes it', async () => {
    let list: Announcement[] = [];
    const posted: unknown[] = [];
    const { calls } = mockApi({
      'GET /api/staff/announcements': () => json({ announcements: list, nextCursor: null }),
      'POST /api/staff/announcements': (_url: URL, init?: RequestInit) => {
        const body = JSON.parse(String(init!.body));
        posted.push(body);
        const created = announcement('9', { severity: body.severity, text: body.text, audience: body.audience, endsAt: body.endsAt });
        list = [created];
        return json(created);
      },
    });
    ({ store } = renderPage(<SystemUpdatePage />, { url: '/systemUpdate', me: writer }));
    await screen.findByRole('heading', { name: 'No announcements yet' });
    await userEvent.click(screen.getByRole('button', { name: 'New announcement' }));
    const form = screen.getByRole('form', { name: 'New announcement' });
    expect(within(form).getByRole('heading', { name: 'New announcement' })).toHaveFocus();

    // Nothing written: the text is required.
    await userEvent.click(within(form).getByRole('button', { name: 'Publish' }));
    const text = within(form).getByRole('textbox', { name: 'Text' });
    expect(text).toHaveFocus();
    expect(text).toHaveAccessibleDescription(/Write the text of the announcement\./);

    await userEvent.click(within(form).getByRole('radio', { name: /Maintenance/ }));
    await userEvent.type(text, 'Maintenance **tonight** <img src=x onerror=alert(1)>');
    const preview = within(form).getByRole('region', { name: 'Preview, as the banner shows it' });
    expect(within(preview).getByText('tonight').tagName).toBe('STRONG');
    expect(preview.querySelector('img')).toBeNull();
    expect(preview).toHaveTextContent('<img src=x onerror=alert(1)>');
    expect(within(form).getByText('52 / 500 characters')).toBeInTheDocument();

    // An end before the start: refused here, nothing sent.
    const start = within(form).getByLabelText('Start');
    const end = within(form).getByLabelText('End');
    await userEvent.type(start, '2099-03-08T04:00');
    await userEvent.type(end, '2099-03-08T02:00');
    await userEvent.click(within(form).getByRole('button', { name: 'Schedule' }));
    expect(end).toHaveFocus();
    expect(end).toHaveAccessibleDescription(/The end must come after the start\./);
    expect(calls('/api/staff/announcements').filter(([, i]) => i?.method === 'POST')).toHaveLength(0);

    await userEvent.clear(start);
    await userEvent.clear(end);
    await userEvent.type(end, '2099-03-08T02:00');
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: 'Audience' }), 'Signed-in users');
    await userEvent.click(within(form).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(screen.queryByRole('form')).not.toBeInTheDocument());
    expect(posted).toEqual([
      {
        severity: 'maintenance',
        text: 'Maintenance **tonight** <img src=x onerror=alert(1)>',
        audience: 'signedIn',
        startsAt: null,
        endsAt: new Date('2099-03-08T02:00').toISOString(),
        publish: true,
      },
    ]);
    expect(screen.getByText('Announcement #9 published: banners show it within a minute.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'New announcement' })).toHaveFocus());
    expect(await screen.findByRole('row', { name: /#9\b/ })).toBeInTheDocument();
  });

  it('edits from the version it loaded, and shows a conflict in the form without losing the text', async () => {
    const patched: unknown[] = [];
    let conflict = false;
    mockApi({
      'GET /api/staff/announcements': { announcements: LIST, nextCursor: null },
      'PATCH /api/staff/announcements/2': (_url: URL, init?: RequestInit) => {
        patched.push(JSON.parse(String(init!.body)));
        if (conflict) return apiError(409, 1013, 'Someone changed this announcement while you were editing it.');
        return json(announcement('2', { text: 'New: dark mode, everywhere', version: 2, revision: 2 }));
      },
    });
    ({ store } = renderPage(<SystemUpdatePage />, { url: '/systemUpdate', me: writer }));
    await screen.findByRole('table');
    // History has no actions; the others do.
    expect(within(rowOf('4')).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rowOf('1')).getByRole('button', { name: 'Edit announcement #1' })).toBeInTheDocument();
    await userEvent.click(within(rowOf('2')).getByRole('button', { name: 'Edit announcement #2' }));
    const form = screen.getByRole('form', { name: 'Edit announcement #2' });
    const text = within(form).getByRole('textbox', { name: 'Text' });
    expect(text).toHaveValue('New: dark mode');
    expect(within(form).getByRole('radio', { name: /Information/ })).toBeChecked();
    expect(within(form).getByRole('combobox', { name: 'Audience' })).toHaveDisplayValue('Signed-in users');
    await userEvent.type(text, ', everywhere');
    conflict = true;
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('The announcement was not saved');
    expect(alert).toHaveTextContent('Someone changed this announcement');
    expect(text).toHaveValue('New: dark mode, everywhere');
    conflict = false;
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('form')).not.toBeInTheDocument());
    expect(patched[1]).toMatchObject({ version: 1, text: 'New: dark mode, everywhere', severity: 'info', audience: 'signedIn', startsAt: '2026-03-02T10:00:00.000Z', endsAt: null });
    expect(patched[1]).not.toHaveProperty('publish');
    expect(screen.getByText('Announcement #2 saved.')).toBeInTheDocument();
  });

  it('withdraws after a confirmation: cancel keeps it; confirmed, it is marked withdrawn', async () => {
    let withdrawn = false;
    const { calls } = mockApi({
      'GET /api/staff/announcements': () =>
        json({ announcements: withdrawn ? LIST.map((a) => (a.id === '2' ? { ...a, status: 'withdrawn', version: 2 } : a)) : LIST, nextCursor: null }),
      'POST /api/staff/announcements/2/withdraw': () => {
        withdrawn = true;
        return json(announcement('2', { status: 'withdrawn', severity: 'info', text: 'New: dark mode', audience: 'signedIn', version: 2 }));
      },
    });
    ({ store } = renderPage(<SystemUpdatePage />, { url: '/systemUpdate', me: writer }));
    await screen.findByRole('table');
    const button = within(rowOf('2')).getByRole('button', { name: 'Withdraw announcement #2' });
    await userEvent.click(button);
    let dialog = screen.getByRole('alertdialog', { name: 'Withdraw this announcement?' });
    expect(dialog).toHaveAccessibleDescription(/leaves every banner within a minute/);
    expect(within(dialog).getByText('New: dark mode')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(button).toHaveFocus());
    expect(calls('/api/staff/announcements/2/withdraw')).toEqual([]);

    await userEvent.click(button);
    dialog = screen.getByRole('alertdialog', { name: 'Withdraw this announcement?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(JSON.parse(String(calls('/api/staff/announcements/2/withdraw')[0]![1]!.body))).toEqual({ version: 1 });
    expect(within(rowOf('2')).getByText('Withdrawn')).toBeInTheDocument();
    expect(within(rowOf('2')).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByText('Announcement #2 withdrawn: it leaves every banner within a minute.')).toBeInTheDocument();
  });
});
