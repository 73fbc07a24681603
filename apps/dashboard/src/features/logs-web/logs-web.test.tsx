import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { WebLogEntry } from '@tickety/api-contract';
import { changeLocale, useOpenServer } from '@tickety/shared';
import { apiError, json, mockApi, renderPage, resetShared } from '@tickety/shared/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { csvCell } from '../../lib/csv';
import { endOfDay, startOfDay } from '../../lib/days';
import { live, panel, ROLE_SUPPORT } from '../../test/config-fixtures';
import { ARCADE, avaMe } from '../../test/fixtures';
import ServerLogsWeb from './logs-web';

const SERVER = ARCADE.id;
const LOGS = `/api/guilds/${SERVER}/logs`;
const AVA = { id: '1000000000000000001', name: 'Ava', avatarUrl: 'https://cdn.test/avatars/ava.png' };
const BEN = { id: '1000000000000000002', name: 'Ben', avatarUrl: null };
/** In the log, but not on its first page. */
const NICO = { id: '1000000000000000005', name: 'Nico', avatarUrl: null };

function entry(id: number, over: Partial<WebLogEntry> = {}): WebLogEntry {
  return {
    id: String(id),
    at: new Date(Date.UTC(2026, 2, 1, 12, 0, 0) + id * 60_000).toISOString(),
    actor: AVA,
    action: 'config.update',
    target: 'Panel “Support”',
    version: id,
    changes: [{ path: 'general.claiming', before: true, after: false }],
    ...over,
  };
}

const SAVE = entry(30, {
  changes: [
    { path: 'panels[support].button.label', before: 'Open', after: 'Open a ticket' },
    { path: 'panels[support].embed.colour', before: 0x5865f2, after: 0xff0000 },
    { path: 'general.claiming', before: true, after: false },
    { path: 'panels[support].supportRoleIds', before: [], after: [ROLE_SUPPORT] },
  ],
});
const SEND = entry(20, { actor: BEN, action: 'panel.send', target: 'Support in #open-a-ticket', version: 30, changes: [{ path: 'channel', after: '#open-a-ticket' }] });
const RESTORE = entry(10, { action: 'config.restore', target: 'Panel “FAQ”', version: 29, changes: [{ path: 'panels[faq]', after: panel('faq', 'FAQ') }] });

/**
 * The API's `GET /logs` over a list of entries (newest first): filters by actor, action and time,
 * pages by id below the cursor, and records every query it was asked.
 */
function fakeLogs(all: WebLogEntry[], options: { fail?: (query: URLSearchParams) => Response | null; delay?: Promise<void> } = {}) {
  const queries: URLSearchParams[] = [];
  const handler = async (url: URL) => {
    const params = url.searchParams;
    queries.push(params);
    const failure = options.fail?.(params);
    if (failure) return failure;
    if (options.delay) await options.delay;
    const limit = Number(params.get('limit') ?? 50);
    const matching = all.filter(
      (entry) =>
        (!params.get('cursor') || Number(entry.id) < Number(params.get('cursor'))) &&
        (!params.get('actor') || entry.actor.id === params.get('actor')) &&
        (!params.get('action') || entry.action === params.get('action')) &&
        (!params.get('from') || entry.at >= params.get('from')!) &&
        (!params.get('to') || entry.at <= params.get('to')!),
    );
    const page = matching.slice(0, limit);
    return json({ entries: page, nextCursor: matching.length > limit ? page.at(-1)!.id : null });
  };
  return { handler, queries };
}

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => resetShared(store));

function Page() {
  useOpenServer(SERVER);
  return <ServerLogsWeb />;
}

function show(logs: ReturnType<typeof fakeLogs>, query = '', answers: Record<string, unknown> = {}) {
  const api = mockApi({ [`GET ${LOGS}`]: logs.handler, [`GET ${LOGS}/actors`]: { actors: [AVA, BEN, NICO] }, [`GET /api/guilds/${SERVER}/config`]: live(), ...answers });
  const page = renderPage(<Page />, {
    url: `/dashboard/${SERVER}/logs-web${query}`,
    path: '/dashboard/:server/logs-web',
    me: avaMe(),
    routes: [{ path: '/dashboard/:server/server-configs', element: <p>Restore Configs page</p> }],
  });
  store = page.store;
  return { ...page, ...api };
}

const search = (router: ReturnType<typeof renderPage>['router']) => Object.fromEntries(new URLSearchParams(router.state.location.search));

describe('Web Logs', () => {
  it('lists who changed what and when, with the version linked to Restore Configs', async () => {
    const logs = fakeLogs([SAVE, SEND, RESTORE]);
    const { unexpected } = show(logs);
    expect(screen.getByRole('heading', { level: 1, name: 'Web Logs' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Changes made on the dashboard, newest first' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);

    const [save, send, restore] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(save).getByText('Ava')).toBeInTheDocument();
    expect(within(save).getByText('Saved the configuration')).toBeInTheDocument();
    expect(within(save).getByRole('heading', { name: 'Panel “Support”' })).toBeInTheDocument();
    expect(within(send).getByText('Ben')).toBeInTheDocument();
    expect(within(send).getByText('Sent a panel')).toBeInTheDocument();
    expect(within(restore).getByText('Restored a version')).toBeInTheDocument();

    // When: relative, with the absolute date and time (viewer's zone and locale) shown and as the title.
    const time = save.querySelector('time')!;
    expect(time).toHaveAttribute('dateTime', SAVE.at);
    expect(time.getAttribute('title')).toMatch(/2026/);
    expect(time).toHaveTextContent(/ago/);

    const version = within(save).getByRole('link', { name: 'v30 (Version 30 in Restore Configs)' });
    expect(version).toHaveAttribute('href', `/dashboard/${SERVER}/server-configs?version=30`);
    expect(version).toHaveTextContent('v30');
    expect(logs.queries[0]!.get('limit')).toBe('50');
    expect(logs.queries[0]!.has('cursor')).toBe(false);
    expect(screen.getByText('That is everything.')).toBeInTheDocument();
    expect(unexpected).toEqual([]);
  });

  it('lists ticket events and transcript reads the bot reported, without versions or changes', async () => {
    const opened = entry(40, { action: 'ticket.opened', actor: BEN, target: 'Ticket #12', version: null, changes: [] });
    const viewed = entry(41, { action: 'transcript.view', target: 'Transcript of ticket #12 (manager)', version: null, changes: [] });
    show(fakeLogs([viewed, opened]));
    const list = await screen.findByRole('list', { name: 'Changes made on the dashboard, newest first' });
    const [view, open] = within(list).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(within(open).getByText('Opened a ticket')).toBeInTheDocument();
    expect(within(open).getByRole('heading', { name: 'Ticket #12' })).toBeInTheDocument();
    expect(within(view).getByText('Read a transcript')).toBeInTheDocument();
    for (const item of [view, open]) {
      expect(within(item).queryByText('No new version')).toBeNull();
      expect(within(item).queryByText('No field changes')).toBeNull();
      expect(within(item).queryByRole('button')).toBeNull();
    }
  });

  it('expands an entry into a readable field-level before and after', async () => {
    const user = userEvent.setup();
    show(fakeLogs([SAVE, SEND, RESTORE]));
    const list = await screen.findByRole('list', { name: /newest first/ });
    const save = within(list).getAllByRole('listitem')[0]!;
    const toggle = within(save).getByRole('button', { name: 'Show 4 changes' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAccessibleName('Hide changes');

    const changes = within(save).getByRole('region', { name: /^Changes: Panel “Support”, by Ava, / });
    const rows = within(changes).getAllByRole('listitem');
    // The panel is named from the live configuration; the fields in words; values quoted, Yes/No, colours as hex.
    expect(rows[0]).toHaveTextContent('Panel “Support”›, Button›, Label');
    expect(within(rows[0]!).getByText('Before').nextSibling).toHaveTextContent('“Open”');
    expect(within(rows[0]!).getByText('After').nextSibling).toHaveTextContent('“Open a ticket”');
    expect(rows[1]).toHaveTextContent('#5865F2');
    expect(rows[1]).toHaveTextContent('#FF0000');
    expect(rows[2]).toHaveTextContent(/General settings.*Claiming/);
    expect(within(rows[2]!).getByText('Yes')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('No')).toBeInTheDocument();
    expect(rows[3]).toHaveTextContent(ROLE_SUPPORT);
    expect(changes.textContent).not.toMatch(/[{}]|"|\[\]/);

    // A whole panel added: the label names it, "Added", what it shows.
    const restore = within(list).getAllByRole('listitem').find((li) => li.textContent?.includes('Restored a version'))!;
    await user.click(within(restore).getByRole('button', { name: 'Show 1 change' }));
    expect(within(restore).getByText('Added')).toBeInTheDocument();
    expect(within(restore).getByRole('region')).toHaveTextContent(/^Panel “FAQ”AddedAfterTitle: “FAQ”Button: “Open a ticket”$/);
    await user.click(within(restore).getByRole('button', { name: 'Hide changes' }));
    expect(within(restore).queryByText('Added')).not.toBeInTheDocument();
  });

  it('keeps the filters in the address and sends them to the API', async () => {
    const user = userEvent.setup();
    const logs = fakeLogs([SAVE, SEND, RESTORE]);
    const { router } = show(logs);
    await screen.findByRole('list', { name: /newest first/ });

    // The member filter offers everyone in the log (the API's list), not only the members on this page.
    const member = screen.getByLabelText('Member');
    await waitFor(() => expect(within(member).getAllByRole('option').map((o) => o.textContent)).toEqual(['Everyone', 'Ava', 'Ben', 'Nico']));
    await user.selectOptions(member, 'Ben');
    expect(search(router)).toEqual({ actor: BEN.id });
    await waitFor(() => expect(logs.queries.at(-1)!.get('actor')).toBe(BEN.id));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
    // Ava is still offered, though no entry of hers is shown now.
    expect(within(screen.getByLabelText('Member')).getAllByRole('option').map((o) => o.textContent)).toEqual(['Everyone', 'Ava', 'Ben', 'Nico']);

    await user.selectOptions(screen.getByLabelText('Action'), 'Sent a panel');
    expect(search(router)).toEqual({ actor: BEN.id, action: 'panel.send' });
    await waitFor(() => expect(logs.queries.at(-1)!.get('action')).toBe('panel.send'));

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-02' } });
    expect(search(router)).toEqual({ actor: BEN.id, action: 'panel.send', from: '2026-03-01', to: '2026-03-02' });
    // Days in the viewer's time zone, sent as instants: the whole of both days.
    await waitFor(() => expect(logs.queries.at(-1)!.get('to')).toBe(endOfDay('2026-03-02')));
    expect(logs.queries.at(-1)!.get('from')).toBe(startOfDay('2026-03-01'));
    expect(startOfDay('2026-03-01')).toBe(new Date(2026, 2, 1).toISOString());
    expect(endOfDay('2026-03-02')).toBe(new Date(new Date(2026, 2, 3).getTime() - 1).toISOString());

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(search(router)).toEqual({});
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(3));
  });

  it('reads the filters from a shared address, and ignores malformed ones', async () => {
    const logs = fakeLogs([SAVE, SEND, RESTORE]);
    show(logs, `?actor=${AVA.id}&action=config.restore&from=2026-02-30&to=2026-03-05`);
    await screen.findByRole('list', { name: /newest first/ });
    const query = logs.queries[0]!;
    expect(query.get('actor')).toBe(AVA.id);
    expect(query.get('action')).toBe('config.restore');
    expect(query.has('from')).toBe(false);
    expect(query.get('to')).toBe(endOfDay('2026-03-05'));
    expect(screen.getByLabelText('Action')).toHaveValue('config.restore');
    expect(screen.getByLabelText('Member')).toHaveValue(AVA.id);
    expect(screen.getByLabelText('To')).toHaveValue('2026-03-05');
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });

  it('pages with "Load more", following the cursor, and moves focus to the first new entry', async () => {
    const user = userEvent.setup();
    const all = Array.from({ length: 60 }, (_, i) => entry(100 - i));
    const logs = fakeLogs(all);
    show(logs);
    await screen.findByRole('list', { name: /newest first/ });
    expect(screen.getAllByRole('listitem')).toHaveLength(50);
    expect(screen.getByText('50 entries shown')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(60));
    expect(logs.queries.at(-1)!.get('cursor')).toBe('51');
    expect(screen.getByText('60 entries shown')).toBeInTheDocument();
    expect(screen.getByText('That is everything.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(document.activeElement).toBe(screen.getAllByRole('listitem')[50]);
  });

  it('says when loading more fails, keeps what it shows, and retries', async () => {
    const user = userEvent.setup();
    let failNext = true;
    const logs = fakeLogs(
      Array.from({ length: 55 }, (_, i) => entry(100 - i)),
      {
        fail: (params) => {
          if (!params.get('cursor') || !failNext) return null;
          failNext = false;
          return apiError(503, 1005, 'The database is busy.');
        },
      },
    );
    show(logs);
    await screen.findByRole('list', { name: /newest first/ });
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('More entries could not be loaded');
    expect(screen.getAllByRole('listitem')).toHaveLength(50);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(55));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows an empty log, and "nothing matches" with a way to clear the filters', async () => {
    const user = userEvent.setup();
    const { router } = show(fakeLogs([]));
    expect(await screen.findByRole('heading', { name: 'No changes yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the Panel Menu' })).toHaveAttribute('href', `/dashboard/${SERVER}/configs`);
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Action'), 'Imported a configuration');
    expect(await screen.findByRole('heading', { name: 'Nothing matches these filters' })).toBeInTheDocument();
    const clear = screen.getAllByRole('button', { name: 'Clear filters' });
    await user.click(clear.at(-1)!);
    expect(search(router)).toEqual({});
    expect(await screen.findByRole('heading', { name: 'No changes yet' })).toBeInTheDocument();
  });

  it('asks for nothing when the "from" day is after the "to" day', async () => {
    const logs = fakeLogs([SAVE]);
    show(logs, '?from=2026-03-05&to=2026-03-01');
    expect(await screen.findByText(/The “from” date is after the “to” date/)).toBeInTheDocument();
    expect(logs.queries).toHaveLength(0);
  });

  it('says why the log could not be loaded, with a retry', async () => {
    const user = userEvent.setup();
    let fail = true;
    const logs = fakeLogs([SAVE], {
      fail: () => (fail ? apiError(403, 1004, 'You cannot see the web logs of this server: your roles (Helpers) give no access to Web Logs.') : null),
    });
    show(logs);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The web log could not be loaded');
    expect(alert).toHaveTextContent('your roles (Helpers) give no access to Web Logs');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: /newest first/ })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('Web Logs CSV export', () => {
  let files: Array<{ name: string; blob: Blob }>;
  beforeEach(() => {
    files = [];
    let url: Blob | null = null;
    Object.assign(URL, {
      createObjectURL: vi.fn((blob: Blob) => {
        url = blob;
        return 'blob:test';
      }),
      revokeObjectURL: vi.fn(),
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      files.push({ name: this.download, blob: url! });
    });
  });

  it('escapes cells and defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+cmd')).toBe("'+cmd");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell(12)).toBe('12');
    expect(csvCell(null)).toBe('');
  });

  it('pages through everything matching the filters (100 at a time) and downloads it', async () => {
    const user = userEvent.setup();
    const evil = { id: '1000000000000000003', name: '=HYPERLINK("http://evil.test","Click")', avatarUrl: null };
    const all = [
      entry(250, { actor: evil, target: '+SUM(1,2)', changes: [{ path: 'panels[support].button.label', before: 'Open', after: '@me, "quoted"' }] }),
      ...Array.from({ length: 149 }, (_, i) => entry(249 - i, { action: 'config.update' })),
      entry(50, { action: 'panel.send', actor: BEN, target: 'Support in #open-a-ticket', version: 3, changes: [{ path: 'channel', after: '#open-a-ticket' }] }),
    ];
    const logs = fakeLogs(all);
    show(logs, '?action=config.update');
    await screen.findByRole('list', { name: /newest first/ });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText(/Exported 150 entries to web-logs-1100000000000000001-\d{4}-\d{2}-\d{2}\.csv/)).toBeInTheDocument();

    const exportQueries = logs.queries.filter((q) => q.get('limit') === '100');
    expect(exportQueries.map((q) => q.get('cursor'))).toEqual([null, '151']);
    expect(exportQueries.every((q) => q.get('action') === 'config.update')).toBe(true);

    expect(files).toHaveLength(1);
    const text = await files[0]!.blob.text();
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text.slice(1).split('\r\n');
    expect(lines[0]).toBe('Time (UTC),Member ID,Member,Action,Target,Version,Changes');
    expect(lines).toHaveLength(1 + 150 + 1); // header, rows, the final CRLF
    // The member name and target would run as formulas: they start with an apostrophe; quotes are doubled.
    expect(lines[1]).toBe(
      `${all[0]!.at},${evil.id},"'=HYPERLINK(""http://evil.test"",""Click"")",Saved the configuration,"'+SUM(1,2)",250,"Panel “Support” › Button › Label: “Open” → “@me, ""quoted""”"`,
    );
    expect(lines[2]).toMatch(/^2026-03-01T16:09:00\.000Z,1000000000000000001,Ava,Saved the configuration,Panel “Support”,249,General settings › Claiming: Yes → No$/);
    expect(text).not.toContain('Sent a panel');
  });

  it('shows progress and can be cancelled; nothing is downloaded', async () => {
    const user = userEvent.setup();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const logs = fakeLogs(Array.from({ length: 120 }, (_, i) => entry(200 - i)));
    // The export's second page waits until the test lets it go.
    const handler = logs.handler;
    const slow = async (url: URL) => {
      if (url.searchParams.get('cursor') && url.searchParams.get('limit') === '100') await gate;
      return handler(url);
    };
    show(logs, '', { [`GET ${LOGS}`]: slow });
    await screen.findByRole('list', { name: /newest first/ });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Exporting… 100 entries so far')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Cancel export' }));
    expect(screen.getByText('The export was cancelled; nothing was downloaded.')).toBeInTheDocument();
    await act(async () => release());
    expect(files).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
  });

  it('says when the export fails, and downloads nothing', async () => {
    const user = userEvent.setup();
    const logs = fakeLogs(
      Array.from({ length: 120 }, (_, i) => entry(200 - i)),
      { fail: (q) => (q.get('cursor') && q.get('limit') === '100' ? apiError(500, 1000, 'Something broke.') : null) },
    );
    show(logs);
    await screen.findByRole('list', { name: /newest first/ });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/The export stopped: .+ Nothing was downloaded\./);
    expect(files).toHaveLength(0);
  });
});

describe('Web Logs in German', () => {
  beforeEach(() => changeLocale('de'));
  afterEach(() => changeLocale('en'));

  it('renders the list, the actions and the changes in German', async () => {
    const user = userEvent.setup();
    show(fakeLogs([SAVE, SEND]));
    expect(screen.getByRole('heading', { level: 1, name: 'Web-Protokoll' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Änderungen über das Dashboard, neueste zuerst' });
    const [save] = within(list).getAllByRole('listitem') as [HTMLElement];
    expect(within(save).getByText('Konfiguration gespeichert')).toBeInTheDocument();
    expect(within(list).getByText('Panel gesendet')).toBeInTheDocument();
    expect(screen.getByLabelText('Mitglied')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'CSV exportieren' })).toBeInTheDocument();
    await user.click(within(save).getByRole('button', { name: '4 Änderungen anzeigen' }));
    expect(within(save).getAllByText('Vorher')).toHaveLength(4);
    expect(within(save).getAllByText('Nachher')).toHaveLength(4);
    expect(save).toHaveTextContent('Allgemeine Einstellungen');
    expect(within(save).getByText('Ja')).toBeInTheDocument();
    expect(within(save).getByText('Nein')).toBeInTheDocument();
    expect(save).toHaveTextContent('Panel „Support“');
    expect(save.querySelector('time')).toHaveTextContent(/vor/);
  });
});
