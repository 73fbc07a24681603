import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ServerAccess } from '@tickety/api-contract';
import { CONFIG_FILE_FORMAT, CONFIG_FILE_MAX_BYTES, type ImportPreview, type ServerConfig } from '@tickety/api-contract';
import { type ApiAnswer, apiError, inLocale, json, mockApi, renderPage, resetShared, useServedServer } from '@tickety/shared/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CATEGORY_SUPPORT, config, live, panel, resources } from '../../test/config-fixtures';
import { ARCADE, avaMe } from '../../test/fixtures';
import { fallbackFileName, filenameOf, idPath } from './api';
import ServerRestoreConfigs, { type RestoreConfigsProps } from './server-configs';

const SERVER = ARCADE.id;
const BASE = `/api/guilds/${SERVER}`;
const AVA = { id: '1000000000000000001', name: 'Ava', avatarUrl: 'https://cdn.test/avatars/ava.png' };
const BEN = { id: '1000000000000000002', name: 'Ben', avatarUrl: null };

/** Version n's configuration: the support panel's button label and claiming change over time; v3 has a FAQ panel too. */
function configOf(version: number): ServerConfig {
  const base = config();
  if (version >= 4) return base;
  const support = { ...base.panels[0]!, button: { label: 'Open', emoji: '🎫', style: 'primary' as const } };
  return config({
    general: { ...base.general, claiming: version !== 3 },
    panels: version === 3 ? [support, panel('faq', 'FAQ')] : [support],
  });
}

function summary(version: number, over: Record<string, unknown> = {}) {
  return {
    version: version,
    savedAt: new Date(Date.UTC(2026, 2, 1, 12, 0, 0) + version * 3_600_000).toISOString(),
    savedBy: version % 2 === 0 ? BEN : AVA,
    summary: `Summary of version ${version}`,
    restoredFrom: null,
    ...over,
  };
}

/**
 * The API's version routes over versions 1…`count` (newest first; `restored` marks restores): the
 * list pages below the cursor; each version answers its configuration. Records the list's queries.
 */
function fakeVersions(count: number, options: { restored?: Record<number, number>; fail?: (params: URLSearchParams) => Response | null } = {}) {
  const queries: URLSearchParams[] = [];
  const all = Array.from({ length: count }, (_, i) => count - i).map((n) => summary(n, { restoredFrom: options.restored?.[n] ?? null }));
  const answers: Record<string, ApiAnswer> = {
    [`GET ${BASE}/config/versions`]: (url: URL) => {
      queries.push(url.searchParams);
      const failure = options.fail?.(url.searchParams);
      if (failure) return failure;
      const cursor = url.searchParams.get('cursor');
      const limit = Number(url.searchParams.get('limit') ?? 25);
      const matching = all.filter((v) => !cursor || v.version < Number(cursor));
      const page = matching.slice(0, limit);
      return json({ versions: page, nextCursor: matching.length > limit ? String(page.at(-1)!.version) : null });
    },
  };
  for (const v of all) answers[`GET ${BASE}/config/versions/${v.version}`] = { ...v, config: configOf(v.version), changes: [] };
  return { answers, queries };
}

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => resetShared(store));

function Page({ access, ...props }: RestoreConfigsProps & { access?: ServerAccess }) {
  useServedServer(SERVER, access);
  return <ServerRestoreConfigs {...props} />;
}

function show(query = '', answers: Record<string, ApiAnswer> = {}, props: RestoreConfigsProps & { access?: ServerAccess } = {}) {
  const versions = fakeVersions(4, { restored: { 2: 1 } });
  const api = mockApi({
    [`GET ${BASE}/config`]: live({ version: 4, config: configOf(4) }),
    [`GET ${BASE}/resources`]: resources(),
    ...versions.answers,
    ...answers,
  });
  const page = renderPage(<Page {...props} />, {
    url: `/dashboard/${SERVER}/server-configs${query}`,
    path: '/dashboard/:server/server-configs',
    me: avaMe(),
    routes: [{ path: '/dashboard/:server/configs', element: <p>Panel Menu page</p> }],
  });
  store = page.store;
  return { ...page, ...api, versionQueries: versions.queries };
}

const search = (router: ReturnType<typeof renderPage>['router']) => Object.fromEntries(new URLSearchParams(router.state.location.search));
const bodiesOf = (fetchMock: ReturnType<typeof mockApi>['fetchMock'], method: string, path: string) =>
  fetchMock.mock.calls.filter(([input, init]) => new URL(String(input)).pathname === path && (init?.method ?? 'GET') === method).map(([, init]) => JSON.parse(String(init?.body)));

describe('Restore Configs: the versions', () => {
  it('lists every version: number, who (with avatar), when, summary, restores and the current one marked', async () => {
    const { unexpected } = show();
    expect(screen.getByRole('heading', { level: 1, name: 'Restore Configs' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Configuration versions, newest first' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(4);
    const [v4, , v2] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(v4).toHaveTextContent('v4');
    expect(within(v4).getByText('Current')).toBeInTheDocument();
    expect(within(v4).getByText('Ben')).toBeInTheDocument();
    expect(within(v4).getByText('Summary of version 4')).toBeInTheDocument();
    const time = v4.querySelector('time')!;
    expect(time).toHaveAttribute('dateTime', summary(4).savedAt);
    expect(time.getAttribute('title')).toMatch(/2026/);
    expect(within(v2).getByText('Restored from v1')).toBeInTheDocument();
    expect(within(v2).queryByText('Current')).not.toBeInTheDocument();
    // Ava's avatar is her image; each version is a link that keeps the choice in the address.
    expect(items[1]!.querySelector('img')).toHaveAttribute('src', AVA.avatarUrl);
    expect(within(v2).getByRole('link')).toHaveAttribute('href', `/dashboard/${SERVER}/server-configs?version=2`);
    expect(within(v2).getByRole('link')).toHaveAccessibleName(/^v2 \(Version 2\) Restored from v1 Ben .*ago.*2026.* Summary of version 2$/);
    // Label in name: each link's name starts with the "vN" it shows, so a voice-control
    // user can say "click v3"; the spelt-out "Version N" follows for screen readers.
    items.forEach((item, i) => {
      const shown = `v${4 - i}`;
      expect(within(item).getByText(shown, { exact: true })).toBeVisible();
      expect(within(item).getByRole('link')).toHaveAccessibleName(new RegExp(`^${shown} \\(Version ${4 - i}\\) `));
    });
    expect(screen.getByText('That is every version.')).toBeInTheDocument();
    expect(screen.getByText(/Choose a version to see what it contains/)).toBeInTheDocument();
    expect(unexpected).toEqual([]);
  });

  it('pages with "Load older versions", following the cursor, and moves focus to the first new one', async () => {
    const user = userEvent.setup();
    const versions = fakeVersions(30);
    show('', { ...versions.answers, [`GET ${BASE}/config`]: live({ version: 30 }) });
    const list = await screen.findByRole('list', { name: /newest first/ });
    expect(within(list).getAllByRole('listitem')).toHaveLength(25);
    expect(versions.queries[0]!.get('limit')).toBe('25');
    expect(versions.queries[0]!.has('cursor')).toBe(false);
    expect(screen.getByText('25 versions shown')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load older versions' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(30));
    expect(versions.queries.at(-1)!.get('cursor')).toBe('6');
    expect(screen.getByText('That is every version.')).toBeInTheDocument();
    expect(document.activeElement).toBe(within(within(list).getAllByRole('listitem')[25]!).getByRole('link'));
  });

  it('explains where versions come from when there is none yet, and still offers the import', async () => {
    const empty = fakeVersions(0);
    show('', { ...empty.answers, [`GET ${BASE}/config`]: live({ version: 0, savedAt: null, savedBy: null }) });
    expect(await screen.findByRole('heading', { name: 'No versions yet' })).toBeInTheDocument();
    expect(screen.getByText(/A version is made each time someone saves in the Panel Menu/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the Panel Menu' })).toHaveAttribute('href', `/dashboard/${SERVER}/configs`);
    expect(screen.getByRole('heading', { name: 'Import a configuration file' })).toBeInTheDocument();
    // Version 0 (the defaults) has no file to export.
    expect(screen.queryByRole('link', { name: /Export current/ })).not.toBeInTheDocument();
  });

  it('says when the versions cannot be loaded, and retries', async () => {
    const user = userEvent.setup();
    let fail = true;
    const versions = fakeVersions(4, { fail: () => (fail ? apiError(503, 1009, 'The service is temporarily unavailable (database). Try again shortly.') : null) });
    show('', versions.answers);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The versions could not be loaded');
    expect(alert).toHaveTextContent('temporarily unavailable');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list', { name: /newest first/ })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('Restore Configs: a version', () => {
  it('shows what restoring it would change (current before, this version after), what it changed, and what it holds', async () => {
    const user = userEvent.setup();
    const { unexpected } = show('?version=3');
    const heading = await screen.findByRole('heading', { level: 2, name: 'Version 3' });
    const view = heading.closest('section')!;
    expect(within(view).getByText('Ava')).toBeInTheDocument();
    expect(within(view).getByText('Summary of version 3')).toBeInTheDocument();

    // Against the current version 4: the button label, claiming, and the FAQ panel it has.
    const compare = within(view).getByRole('tabpanel');
    expect(within(view).getByRole('tab', { name: 'Restoring would change' })).toHaveAttribute('aria-selected', 'true');
    expect(compare).toHaveTextContent('Restoring version 3 would change 3 fields of the current version 4.');
    const rows = within(compare).getAllByRole('listitem').filter((li) => li.parentElement?.getAttribute('aria-label') === 'Changes');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^General settings›, Claiming.*Before.*Yes.*After.*No/),
      expect.stringMatching(/^Panel “Support”›, Button›, Label.*Before.*“Open a ticket”.*After.*“Open”/),
      expect.stringMatching(/^Panel “FAQ”Added/),
    ]);

    // Against the version before it (2): fetched when the tab opens; arrow keys move between tabs.
    within(view).getByRole('tab', { name: 'Restoring would change' }).focus();
    await user.keyboard('{ArrowRight}');
    const previousTab = within(view).getByRole('tab', { name: 'Changes in this version' });
    expect(previousTab).toHaveFocus();
    expect(previousTab).toHaveAttribute('aria-selected', 'true');
    const previous = within(view).getByRole('tabpanel');
    expect(await within(previous).findByText(/What version 3 changed: “Before” is version 2/)).toBeInTheDocument();
    await waitFor(() => expect(within(previous).getAllByRole('listitem').length).toBeGreaterThan(0));
    expect(previous).toHaveTextContent(/Claiming.*Yes.*No/);
    expect(previous).toHaveTextContent(/Panel “FAQ”Added/);
    expect(previous).not.toHaveTextContent('Label'); // the support panel's button changed in version 4, not here

    // What it contains: the panels by name with key settings, channel and role names from the server.
    await user.click(within(view).getByRole('tab', { name: 'Contents' }));
    const contents = within(view).getByRole('tabpanel');
    expect(within(contents).getByRole('heading', { name: '2 panels' })).toBeInTheDocument();
    expect(within(contents).getByRole('heading', { name: 'Support' })).toBeInTheDocument();
    expect(within(contents).getByRole('heading', { name: 'FAQ' })).toBeInTheDocument();
    expect(await within(contents).findByText('@Support Team')).toBeInTheDocument();
    expect(within(contents).getAllByText('Support').length).toBeGreaterThan(1); // the default category by name
    expect(contents).not.toHaveTextContent(CATEGORY_SUPPORT);
    // Its automation settings: none set in this version.
    const automation = within(contents).getByRole('heading', { name: 'Automation' }).closest('section')!;
    expect(automation).toHaveTextContent(/Close when the member is silent\s*Never/);
    expect(automation).toHaveTextContent(/Tags\s*None/);
    expect(automation).toHaveTextContent(/Feedback asked by default\s*No/);
    expect(unexpected).toEqual([]);
  });

  it('choosing a version in the list opens it and moves focus to it', async () => {
    const user = userEvent.setup();
    const { router } = show();
    const list = await screen.findByRole('list', { name: /newest first/ });
    const link = within(list).getAllByRole('link')[1]!;
    await user.click(link);
    expect(search(router)).toEqual({ version: '3' });
    const heading = await screen.findByRole('heading', { level: 2, name: 'Version 3' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(link).toHaveAttribute('aria-current', 'true');
  });

  it('the current version: nothing to restore, and says why', async () => {
    show('?version=4');
    const heading = await screen.findByRole('heading', { level: 2, name: 'Version 4' });
    const view = heading.closest('section')!;
    const restore = within(view).getByRole('button', { name: 'Restore version 4' });
    expect(restore).toHaveAttribute('aria-disabled', 'true');
    expect(restore).toHaveAccessibleDescription('This is the current configuration: there is nothing to restore.');
    expect(within(view).getByRole('tab', { name: 'Changes in this version' })).toHaveAttribute('aria-selected', 'true');
  });

  it('says when a version does not exist', async () => {
    show('?version=99', { [`GET ${BASE}/config/versions/99`]: () => apiError(404, 1002, 'This server has no configuration version 99.') });
    expect(await screen.findByText('There is no version 99')).toBeInTheDocument();
  });
});

describe('Restore Configs: restoring', () => {
  it('restores after a confirmation naming the version and the changes, then shows the new version and the panels to update', async () => {
    const user = userEvent.setup();
    const restored = live({ version: 5, config: configOf(3), savedBy: AVA });
    const page = show('?version=3', {
      [`POST ${BASE}/config/versions/3/restore`]: restored,
      [`GET ${BASE}/posts`]: { posts: [{ kind: 'panel', id: 'support', channelId: '778899001122334455', messageId: '1200000000000000001', postedVersion: 4, postedAt: '2026-03-01T12:00:00.000Z', state: 'outdated' }] },
      [`GET ${BASE}/config/versions/5`]: { ...summary(5, { savedBy: AVA, restoredFrom: 3 }), config: configOf(3), changes: [] },
    });
    await user.click(await screen.findByRole('button', { name: 'Restore version 3' }));
    const dialog = screen.getByRole('dialog', { name: 'Restore version 3?' });
    expect(dialog).toHaveTextContent('saved as a new version, 5. The current version 4 stays in the list');
    expect(dialog).toHaveTextContent('This changes 3 fields:');
    expect(dialog).toHaveTextContent('Panel “Support” › Button › Label: “Open a ticket” → “Open”');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(bodiesOf(page.fetchMock, 'POST', `${BASE}/config/versions/3/restore`)).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Restore version 3' }));
    const notice = await screen.findByText('Version 3 was restored as version 5, now the current configuration.');
    expect(bodiesOf(page.fetchMock, 'POST', `${BASE}/config/versions/3/restore`)).toEqual([{ expectedVersion: 4 }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // The new version is shown, and the list asked again.
    await waitFor(() => expect(search(page.router)).toEqual({ version: '5' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Version 5' })).toBeInTheDocument();
    // Which posted panel needs an update, with the way to the Panel Menu.
    const alert = notice.closest('[role="status"]') as HTMLElement;
    await waitFor(() => expect(alert).toHaveTextContent('This posted panel now needs an update: “Support”.'));
    expect(within(alert).getByRole('link', { name: 'Panel Menu' })).toHaveAttribute('href', `/dashboard/${SERVER}/configs`);
    expect(page.versionQueries.length).toBeGreaterThan(1);
  });

  it('a restore that meets a newer version (1013): a clear conflict, and Reload reads again', async () => {
    const user = userEvent.setup();
    const page = show('?version=3', {
      [`POST ${BASE}/config/versions/3/restore`]: () => apiError(409, 1013, 'Cleo saved version 5 while you were editing. Your changes were not saved: reload to see theirs, then make yours again.'),
    });
    await user.click(await screen.findByRole('button', { name: 'Restore version 3' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restore version 3' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Someone saved a newer version');
    expect(alert).toHaveTextContent('Cleo saved version 5 while you were editing.');
    expect(alert).toHaveTextContent('Nothing was restored. Reload to see the current version');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const configReads = page.calls(`${BASE}/config`).length;
    const listReads = page.versionQueries.length;
    await user.click(within(alert).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(page.calls(`${BASE}/config`).length).toBeGreaterThan(configReads));
    await waitFor(() => expect(page.versionQueries.length).toBeGreaterThan(listReads));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('read-only: restore and import are off with the reason; viewing and export stay', async () => {
    // What the shell read from GET /api/guilds/:server: the role "Helpers" gives Restore Configs read access.
    show('?version=3', {}, { access: { via: 'roles', areas: { panels: null, tickets: null, statistics: null, logs: null, configs: 'read', premium: null }, grantedBy: ['Helpers'] } });
    const restore = await screen.findByRole('button', { name: 'Restore version 3' });
    expect(restore).toHaveAttribute('aria-disabled', 'true');
    expect(restore).toHaveAccessibleDescription(/^You can look at Restore Configs but not change anything: your roles \(Helpers\) give read access only\./);
    expect(screen.getByLabelText(/Choose a file/)).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Export version 3' })).toBeInTheDocument();
  });

  it("a staff member's read-only view: restore, import and export off, saying they are viewing as staff", async () => {
    const staff = { via: 'staff' as const, areas: { panels: 'read' as const, tickets: 'read' as const, statistics: 'read' as const, logs: 'read' as const, configs: 'read' as const, premium: 'read' as const }, grantedBy: [] };
    const page = show('?version=3', {}, { access: staff });
    const restore = await screen.findByRole('button', { name: 'Restore version 3' });
    expect(restore).toHaveAttribute('aria-disabled', 'true');
    expect(restore).toHaveAccessibleDescription('You are viewing as staff: read-only.');
    expect(screen.queryByText(/your roles/)).toBeNull();
    expect(screen.getByLabelText(/Choose a file/)).toBeDisabled();
    // No signed file for staff read (the API refuses it): the export is off, saying why.
    expect(screen.queryByRole('link', { name: 'Export version 3' })).toBeNull();
    const exportButton = screen.getByRole('button', { name: 'Export version 3' });
    expect(exportButton).toBeDisabled();
    expect(exportButton).toHaveAccessibleDescription(/^You are viewing as staff: read-only\. Configuration files are not exported/);
    expect(page.calls(`${BASE}/config/export`)).toEqual([]);
  });

  it('Restore Configs write without the Panel Menu’s: restore is on, import is off saying it needs the Panel Menu too', async () => {
    show('?version=3', {}, { access: { via: 'roles', areas: { panels: 'read', tickets: null, statistics: null, logs: null, configs: 'write', premium: null }, grantedBy: ['Helpers'] } });
    const restore = await screen.findByRole('button', { name: 'Restore version 3' });
    expect(restore).not.toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByLabelText(/Choose a file/)).toBeDisabled();
    expect(screen.getByText(/Importing a file replaces the panels and settings too/)).toBeInTheDocument();
  });
});

describe('Restore Configs: export', () => {
  let saved: Array<{ name: string; blob: Blob }>;
  beforeEach(() => {
    saved = [];
    let url: Blob | null = null;
    Object.assign(URL, {
      createObjectURL: vi.fn((blob: Blob) => {
        url = blob;
        return 'blob:test';
      }),
      revokeObjectURL: vi.fn(),
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      if (this.href.startsWith('blob:')) saved.push({ name: this.download, blob: url! });
    });
  });

  it('links the current version and each version to the API, and downloads the file under the name the API gives', async () => {
    const user = userEvent.setup();
    const file = { format: CONFIG_FILE_FORMAT, version: 3 };
    const page = show('?version=3', {
      [`GET ${BASE}/config/export`]: (url: URL) =>
        json(file, 200, { 'content-disposition': `attachment; filename="avas-arcade-config-v${url.searchParams.get('version') ?? 4}-2026-03-01.json"` }),
    });
    const current = await screen.findByRole('link', { name: 'Export current (v4)' });
    expect(current).toHaveAttribute('href', `http://api.test${BASE}/config/export`);
    const version = await screen.findByRole('link', { name: 'Export version 3' });
    expect(version).toHaveAttribute('href', `http://api.test${BASE}/config/export?version=3`);
    expect(version).toHaveAttribute('download');

    await user.click(version);
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe('avas-arcade-config-v3-2026-03-01.json');
    expect(JSON.parse(await saved[0]!.blob.text())).toEqual(file);
    const [, init] = page.fetchMock.mock.calls.find(([input]) => String(input).includes('/config/export'))!;
    expect(init?.credentials).toBe('include');
    expect(await screen.findByText('Saved as avas-arcade-config-v3-2026-03-01.json.')).toBeInTheDocument();
  });

  it('says in place when the download is refused, and saves nothing', async () => {
    const user = userEvent.setup();
    show('?version=3', { [`GET ${BASE}/config/export`]: () => apiError(403, 1017, 'Your roles do not give you access to Restore Configs.') });
    await user.click(await screen.findByRole('link', { name: 'Export version 3' }));
    expect(await screen.findByText(/The file could not be downloaded: Your roles do not give you access to Restore Configs\./)).toBeInTheDocument();
    expect(saved).toEqual([]);
  });

  it('names the file itself when the API’s name cannot be read (another origin, header not exposed)', async () => {
    const user = userEvent.setup();
    show('', { [`GET ${BASE}/config/export`]: () => json({ format: CONFIG_FILE_FORMAT }) });
    const link = await screen.findByRole('link', { name: 'Export current (v4)' });
    expect(link).toHaveAttribute('download', 'avas-arcade-config-v4.json');
    await user.click(link);
    await waitFor(() => expect(saved.map((f) => f.name)).toEqual(['avas-arcade-config-v4.json']));
    expect(fallbackFileName('1', 3)).toBe('tickety-1-config-v3.json');
  });

  it('reads the name of Content-Disposition safely', () => {
    expect(filenameOf('attachment; filename="a b.json"')).toBe('a b.json');
    expect(filenameOf("attachment; filename*=UTF-8''caf%C3%A9.json; filename=\"cafe.json\"")).toBe('café.json');
    expect(filenameOf('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(filenameOf('attachment')).toBeNull();
    expect(filenameOf(null)).toBeNull();
  });
});

describe('Restore Configs: import', () => {
  const signedFile = { format: CONFIG_FILE_FORMAT, schemaVersion: 1, serverId: '1100000000000000005', serverName: 'Pixel Pals', version: 7, exportedAt: '2026-02-20T10:00:00.000Z', names: { channels: {}, roles: {} }, config: configOf(3), keyId: 'k1', signature: 'sig' };
  const fileOf = (content: string, name = 'config.json') => new File([content], name, { type: 'application/json' });
  const input = () => screen.getByLabelText(/Choose a file/) as HTMLInputElement;

  it('"Import a file" in the header leads to the import', async () => {
    const user = userEvent.setup();
    show();
    await user.click(screen.getByRole('button', { name: 'Import a file' }));
    expect(screen.getByRole('heading', { name: 'Import a configuration file' })).toHaveFocus();
    expect(input()).toHaveAccessibleDescription(/at most 512 KB/);
  });

  it('a file that is not JSON: a clear error, nothing sent', async () => {
    const user = userEvent.setup();
    const page = show();
    await user.upload(input(), fileOf('{ "format": "tickety.server-config", oops', 'oops.json'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('“oops.json” cannot be imported');
    expect(alert).toHaveTextContent('This is not a JSON file, or it is damaged');
    expect(page.calls(`${BASE}/config/import/preview`)).toEqual([]);
  });

  it('a JSON file that is not a configuration file: said before anything is sent', async () => {
    const user = userEvent.setup();
    const page = show();
    await user.upload(input(), fileOf('{"tickets": []}', 'other-bot.json'));
    expect(await screen.findByRole('alert')).toHaveTextContent('This JSON file is not a Tickety configuration file.');
    expect(page.calls(`${BASE}/config/import/preview`)).toEqual([]);
  });

  it('a file over the size limit: refused before it is read or sent', async () => {
    const user = userEvent.setup();
    const page = show();
    const big = fileOf(`{"format":"${CONFIG_FILE_FORMAT}","pad":"${'x'.repeat(CONFIG_FILE_MAX_BYTES)}"}`, 'big.json');
    const text = vi.spyOn(big, 'text');
    await user.upload(input(), big);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('“big.json” cannot be imported');
    expect(alert).toHaveTextContent(/The file is 512(\.\d)? KB; configuration files of at most 512 KB can be imported\./);
    expect(text).not.toHaveBeenCalled();
    expect(page.calls(`${BASE}/config/import/preview`)).toEqual([]);
  });

  it('shows the API’s reason when it rejects the file (1015)', async () => {
    const user = userEvent.setup();
    show('', {
      [`POST ${BASE}/config/import/preview`]: () =>
        apiError(422, 1015, "This file's signature does not match its content: it was changed after it was exported, or damaged. Export the configuration again (and do not edit the file)."),
    });
    await user.upload(input(), fileOf(JSON.stringify(signedFile)));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This file cannot be imported');
    expect(alert).toHaveTextContent("This file's signature does not match its content");
    expect(within(alert).getByRole('button', { name: 'Check the file again' })).toBeInTheDocument();
  });

  it('the API’s size refusal (1016) is shown too', async () => {
    const user = userEvent.setup();
    show('', { [`POST ${BASE}/config/import/preview`]: () => apiError(413, 1016, 'This configuration file is too large: files of at most 512 KB can be imported.') });
    await user.upload(input(), fileOf(JSON.stringify(signedFile)));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This file is too large');
    expect(alert).toHaveTextContent('files of at most 512 KB can be imported');
  });

  const preview: ImportPreview = {
    from: { serverId: '1100000000000000005', serverName: 'Pixel Pals', version: 7, exportedAt: '2026-02-20T10:00:00.000Z' },
    sameServer: false,
    liveVersion: 4,
    config: configOf(3) as unknown as Record<string, unknown>,
    changes: [
      { path: 'general.claiming', before: true, after: false },
      { path: 'panels[faq]', after: panel('faq', 'FAQ') },
    ],
    unmapped: [
      { kind: 'channel', id: '990000000000000001', name: 'old-support', paths: ['panels.1.categoryId'] },
      { kind: 'role', id: '990000000000000002', name: 'Helpers', paths: ['panels.0.supportRoleIds.1', 'panels.1.pingRoleIds.0'] },
    ],
  };

  it('previews a file from another server: where it is from, what has no match, the changes; applies it after a confirmation', async () => {
    const user = userEvent.setup();
    const page = show('', {
      [`POST ${BASE}/config/import/preview`]: preview,
      [`POST ${BASE}/config/import`]: live({ version: 5, config: configOf(3), savedBy: AVA }),
      [`GET ${BASE}/posts`]: { posts: [] },
      [`GET ${BASE}/config/versions/5`]: { ...summary(5, { savedBy: AVA }), config: configOf(3), changes: [] },
    });
    await user.upload(input(), fileOf(JSON.stringify(signedFile), 'pixel-pals.json'));
    expect(await screen.findByText('File “pixel-pals.json”')).toBeInTheDocument();
    expect(bodiesOf(page.fetchMock, 'POST', `${BASE}/config/import/preview`)).toEqual([{ file: signedFile }]);
    expect(screen.getByText('Pixel Pals')).toBeInTheDocument();
    expect(screen.getByText('Another server')).toBeInTheDocument();
    expect(screen.getByText('Version 7')).toBeInTheDocument();
    expect(screen.getByText('This file comes from another server, Pixel Pals')).toBeInTheDocument();

    const unmapped = (await screen.findByText('2 channels and roles have no match here')).closest('[role="status"]') as HTMLElement;
    expect(unmapped).toHaveTextContent('These will be left empty');
    const items = within(unmapped).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Channel #old-support – used in Panel “FAQ” › Ticket category');
    expect(items[1]).toHaveTextContent('Role @Helpers – used in Panel “Support” › Support team; Panel “FAQ” › Ping roles');

    expect(screen.getByRole('heading', { name: 'Importing would change 2 fields' })).toBeInTheDocument();
    const changes = screen.getByRole('list', { name: 'Changes' });
    expect(changes).toHaveTextContent(/Claiming/);
    expect(changes).toHaveTextContent(/Panel “FAQ”Added/);
    expect(bodiesOf(page.fetchMock, 'POST', `${BASE}/config/import`)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Apply' }));
    const dialog = screen.getByRole('dialog', { name: 'Apply the file from Pixel Pals (version 7)?' });
    expect(dialog).toHaveTextContent('2 fields change. The file’s configuration is saved as a new version, 5');
    expect(dialog).toHaveTextContent('2 channels and roles without a match are left empty.');
    await user.click(within(dialog).getByRole('button', { name: 'Apply the file' }));
    expect(await screen.findByText('The file from Pixel Pals (version 7) was imported as version 5, now the current configuration.')).toBeInTheDocument();
    expect(bodiesOf(page.fetchMock, 'POST', `${BASE}/config/import`)).toEqual([{ file: signedFile, expectedVersion: 4 }]);
    await waitFor(() => expect(search(page.router)).toEqual({ version: '5' }));
    expect(await screen.findByText('No posted panel needs an update: their messages in Discord still match.')).toBeInTheDocument();
    // The import is done: the drop zone is back.
    expect(input()).toBeInTheDocument();
  });

  it('takes a dropped file, and a conflict on apply (1013) offers to check the file again', async () => {
    const user = userEvent.setup();
    const page = show('', {
      [`POST ${BASE}/config/import/preview`]: preview,
      [`POST ${BASE}/config/import`]: () => apiError(409, 1013, 'Cleo saved version 5 since you checked this file. Nothing was imported: check the file again, then import it.'),
    });
    const zone = screen.getByText('or drop it here').closest('label')!;
    await act(async () => {
      fireEvent.dragOver(zone, { dataTransfer: { files: [], dropEffect: 'none' } });
      fireEvent.drop(zone, { dataTransfer: { files: [fileOf(JSON.stringify(signedFile), 'dropped.json')] } });
    });
    expect(await screen.findByText('File “dropped.json”')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Apply the file' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Someone saved a newer version');
    expect(alert).toHaveTextContent('Cleo saved version 5 since you checked this file.');
    await user.click(within(alert).getByRole('button', { name: 'Check the file again' }));
    await waitFor(() => expect(bodiesOf(page.fetchMock, 'POST', `${BASE}/config/import/preview`)).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it('names a download as the API does: the server name as letters, digits and dashes, never ending in a dash', () => {
    expect(fallbackFileName('1', 3, 'Ava’s Arcade')).toBe('avas-arcade-config-v3.json');
    expect(fallbackFileName('1', 3, `${'a'.repeat(47)} b`)).toBe(`${'a'.repeat(47)}-config-v3.json`);
    expect(fallbackFileName('1', 3, '✨✨')).toBe('tickety-1-config-v3.json');
  });

  it('maps the API’s field paths to the diff’s', () => {
    const third = configOf(3);
    expect(idPath('panels.1.categoryId', third)).toBe('panels[faq].categoryId');
    expect(idPath('panels.0.supportRoleIds.1', third)).toBe('panels[support].supportRoleIds');
    expect(idPath('panels.0.form.0.label', config())).toBe('panels[support].form[q1].label');
    expect(idPath('general.transcriptChannelId', third)).toBe('general.transcriptChannelId');
  });
});

describe('Restore Configs in German', () => {
  inLocale('de');

  it('renders the page, a version and the import in German', async () => {
    show('?version=3');
    expect(screen.getByRole('heading', { level: 1, name: 'Konfiguration wiederherstellen' })).toBeInTheDocument();
    expect(screen.getByText(/Frühere Versionen der Konfiguration von Ava's Arcade/)).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Konfigurationsversionen, neueste zuerst' });
    expect(within(list).getByText('Aktuell')).toBeInTheDocument();
    expect(within(list).getByText('Wiederhergestellt aus v1')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Version 3' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Wiederherstellen würde ändern' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Version 3 wiederherzustellen würde 3 Felder der aktuellen Version 4 ändern.');
    expect(screen.getByRole('button', { name: 'Version 3 wiederherstellen' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Version 3 exportieren' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Konfigurationsdatei importieren' })).toBeInTheDocument();
    expect(screen.getByText(/höchstens 512 KB/)).toBeInTheDocument();
  });

  it('a rejected file: the catalogue’s reason and the API’s own sentence', async () => {
    const user = userEvent.setup();
    show('', { [`POST ${BASE}/config/import/preview`]: () => apiError(422, 1015, 'This file was signed with the key "old", which this Tickety does not know.') });
    await user.upload(screen.getByLabelText(/Datei auswählen/), new File([JSON.stringify({ format: CONFIG_FILE_FORMAT })], 'x.json'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Diese Datei kann nicht importiert werden');
    expect(alert).toHaveTextContent('This file was signed with the key "old"');
  });
});

describe('Restore Configs: reset to defaults', () => {
  const DEFAULTS = { schemaVersion: 1, general: {}, access: [], panels: [], multiPanels: [], labels: [] };
  const resetAnswer = {
    ...live({ version: 5, config: configOf(4) }),
    version: 5,
    savedAt: '2026-03-02T12:00:00.000Z',
    savedBy: AVA,
    postedPanels: [
      { kind: 'panel', id: 'support', channelId: '1200000000000001003', messageId: '1500000000000000001', postedVersion: 4, postedAt: '2026-03-01T12:00:00.000Z', state: 'outdated', name: 'Support' },
    ],
  };

  it('asks for the server’s name: the button stays off until it matches (trimmed, case-sensitive), then shows the new version and the posted panels', async () => {
    const user = userEvent.setup();
    const { fetchMock, router } = show('', { [`POST ${BASE}/config/reset`]: { ...resetAnswer, config: { ...resetAnswer.config, ...DEFAULTS } } });
    const section = await screen.findByRole('region', { name: 'Reset to defaults' });
    await user.click(await within(section).findByRole('button', { name: 'Reset to defaults…' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reset Ava\'s Arcade’s configuration to the defaults?' });
    expect(dialog).toHaveTextContent('The defaults are saved as a new version, 5. The current version 4 stays in the list: restore it to go back.');
    expect(dialog).toHaveTextContent('listed as needing an update');
    const field = within(dialog).getByLabelText('Type the server’s name to confirm');
    const confirm = within(dialog).getByRole('button', { name: 'Reset to defaults' });
    expect(confirm).toBeDisabled();
    await user.type(field, "ava's arcade");
    expect(confirm).toBeDisabled();
    await user.keyboard('{Enter}');
    expect(bodiesOf(fetchMock, 'POST', `${BASE}/config/reset`)).toEqual([]);
    await user.clear(field);
    await user.type(field, "Ava's Arcade ");
    expect(confirm).toBeEnabled();
    // Keyboard: Enter in the field resets.
    await user.keyboard('{Enter}');
    await waitFor(() => expect(bodiesOf(fetchMock, 'POST', `${BASE}/config/reset`)).toEqual([{ expectedVersion: 4, confirmName: "Ava's Arcade " }]));
    await screen.findByText('The configuration was reset to the defaults as version 5. Restore version 4 to go back.');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Posted panels needing an update' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Panel “Support”']);
    expect(screen.getByRole('link', { name: 'Panel Menu' })).toHaveAttribute('href', `/dashboard/${SERVER}/configs`);
    expect(search(router)).toEqual({ version: '5' });
  });

  it('shows the API’s refusal in the dialog, which stays open', async () => {
    const user = userEvent.setup();
    show('', { [`POST ${BASE}/config/reset`]: () => apiError(409, 1013, 'Ben saved version 5 since you opened this page. Nothing was reset.') });
    await user.click(await screen.findByRole('button', { name: 'Reset to defaults…' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.type(within(dialog).getByLabelText('Type the server’s name to confirm'), "Ava's Arcade");
    await user.click(within(dialog).getByRole('button', { name: 'Reset to defaults' }));
    expect(await within(dialog).findByText(/Ben saved version 5 since you opened this page/)).toBeInTheDocument();
    expect(within(dialog).getByText('The configuration was not reset')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('gives read-only members no button, with the reason', async () => {
    show('', {}, { access: { via: 'roles', areas: { panels: 'read', tickets: null, statistics: null, logs: null, configs: 'write', premium: null }, grantedBy: ['Helpers'] } });
    const section = await screen.findByRole('region', { name: 'Reset to defaults' });
    expect(within(section).queryByRole('button')).not.toBeInTheDocument();
    expect(section).toHaveTextContent('it needs write access to the Panel Menu as well as to Restore Configs');
  });

  describe('in German', () => {
    inLocale('de');

    it('the section and the dialog, the button off until the name matches', async () => {
      const user = userEvent.setup();
      show();
      const section = await screen.findByRole('region', { name: 'Auf Standardwerte zurücksetzen' });
      await user.click(await within(section).findByRole('button', { name: 'Auf Standardwerte zurücksetzen…' }));
      const dialog = await screen.findByRole('alertdialog', { name: 'Konfiguration von Ava\'s Arcade auf die Standardwerte zurücksetzen?' });
      expect(dialog).toHaveTextContent('Die Standardwerte werden als neue Version 5 gespeichert.');
      const confirm = within(dialog).getByRole('button', { name: 'Auf Standardwerte zurücksetzen' });
      expect(confirm).toBeDisabled();
      await user.type(within(dialog).getByLabelText('Gib zur Bestätigung den Namen des Servers ein'), "Ava's Arcade");
      expect(confirm).toBeEnabled();
      await user.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
      expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    });
  });
});
