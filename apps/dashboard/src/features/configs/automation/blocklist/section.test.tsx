import type { BlockEntry, ServerAccess } from '@tickety/api-contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { changeLocale } from '@tickety/shared';
import { type ApiAnswer, apiError, mockApi, renderPage, resetShared, useServedServer } from '@tickety/shared/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { config, live, resources, ROLE_MODS } from '../../../../test/config-fixtures';
import { showAutomation } from '../../../../test/automation';
import { ARCADE, avaMe } from '../../../../test/fixtures';
import type { LiveConfig } from '../../api';
import { ResourcesContext } from '../../pickers';
import { catalog } from './i18n';
import Section from './section';

const SERVER = ARCADE.id;
const BASE = `/api/guilds/${SERVER}`;
const AVA = '1000000000000000001';
const BEN = '1000000000000000002';
const CLEO = '1000000000000000003';
const HOUR = 3_600_000;

function entry(over: Partial<BlockEntry> = {}): BlockEntry {
  return { kind: 'user', id: CLEO, reason: 'Spam in tickets', addedBy: BEN, addedAt: '2026-03-01T09:00:00.000Z', expiresAt: null, ...over };
}

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => resetShared(store));
beforeAll(async () => {
  await catalog.ready('en');
  await catalog.ready('de');
});

function Page({ base, onSaved, access }: { base: LiveConfig; onSaved(live: LiveConfig): void; access?: ServerAccess }) {
  useServedServer(SERVER, access);
  return (
    <ResourcesContext.Provider value={{ data: resources(), loading: false, error: null, retry: () => {} }}>
      <Section server={SERVER} live={base} onSaved={onSaved} onRefetch={async () => base} retryResources={() => {}} />
    </ResourcesContext.Provider>
  );
}

function show(blocklist: BlockEntry[], answers: Record<string, ApiAnswer> = {}, over: Partial<LiveConfig> = {}, access?: ServerAccess) {
  const base = live({ config: config({ blocklist }), ...over });
  const api = mockApi({ [`GET ${BASE}/logs/actors`]: { actors: [{ id: BEN, name: 'Ben', avatarUrl: null }] }, ...answers });
  const onSaved = vi.fn();
  const page = renderPage(<Page base={base} onSaved={onSaved} access={access} />, { url: `/dashboard/${SERVER}/configs/automation?tab=blocklist`, path: '/dashboard/:server/configs/automation', me: avaMe() });
  store = page.store;
  return { ...page, ...api, onSaved, base };
}

const list = () => screen.getByRole('list', { name: 'Blocked members and roles' });
const saveButton = () => screen.getByRole('button', { name: 'Save' });

describe('the Blocklist tab', () => {
  it('lists entries with reason, end, who added them and when; expired ones marked; counts against the plan', async () => {
    const past = new Date(Date.now() - HOUR).toISOString();
    const future = new Date(Date.now() + 48 * HOUR).toISOString();
    show([entry({ expiresAt: future }), entry({ kind: 'role', id: ROLE_MODS, reason: 'Raid', addedBy: AVA }), entry({ id: '1000000000000000009', reason: 'Old', expiresAt: past })]);
    expect(screen.getByText('3 of 100 entries')).toBeInTheDocument();
    const rows = within(list()).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('User 1000000000000000003');
    expect(rows[0]).toHaveTextContent('Reason: Spam in tickets');
    expect(rows[0]).toHaveTextContent(/Until /);
    expect(await within(rows[0]!).findByText(/Added by Ben on/)).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('@Moderators');
    expect(rows[1]).toHaveTextContent('Until removed');
    expect(rows[1]).toHaveTextContent('Added by Ava on');
    expect(within(rows[2]!).getByText('Expired')).toBeInTheDocument();
    expect(rows[2]).toHaveTextContent(/Expired .*: no longer blocks/);
    expect(within(rows[0]!).queryByText('Expired')).toBeNull();
  });

  it('searches by name, id and reason', async () => {
    const user = userEvent.setup();
    show([entry(), entry({ kind: 'role', id: ROLE_MODS, reason: 'Raid' })]);
    const search = screen.getByRole('searchbox', { name: 'Search the blocklist' });
    await user.type(search, 'moder');
    expect(within(list()).getAllByRole('listitem')).toHaveLength(1);
    await user.clear(search);
    await user.type(search, CLEO);
    expect(within(list()).getAllByRole('listitem')[0]).toHaveTextContent('Spam in tickets');
    await user.clear(search);
    await user.type(search, 'raid');
    expect(within(list()).getAllByRole('listitem')[0]).toHaveTextContent('@Moderators');
    await user.clear(search);
    await user.type(search, 'nobody');
    expect(screen.getByText('No entry matches “nobody”.')).toBeInTheDocument();
  });

  it('adds a member by id with a reason and an end, refuses bad input at the field, and saves the whole configuration', async () => {
    const user = userEvent.setup();
    const saved = live({ version: 5, config: config({ blocklist: [entry({ id: BEN, reason: 'Rude', addedBy: AVA, addedAt: '2026-03-02T10:00:00.000Z', expiresAt: '2099-01-01T10:00:00.000Z' })] }) });
    const page = show([], { [`PUT ${BASE}/config`]: saved });
    expect(screen.getByText('No one is blocked. Members and roles you add appear here.')).toBeInTheDocument();
    const add = screen.getByRole('button', { name: 'Add to the blocklist' });
    await user.type(screen.getByRole('textbox', { name: "Member's user ID" }), 'ben');
    await user.click(add);
    expect(screen.getByRole('textbox', { name: "Member's user ID" })).toHaveAccessibleDescription(/Enter a Discord user ID: 17 to 20 digits\./);
    expect(screen.getByRole('textbox', { name: /Reason/ })).toHaveAccessibleDescription(/Give a reason: the member is told it\./);
    await user.clear(screen.getByRole('textbox', { name: "Member's user ID" }));
    await user.type(screen.getByRole('textbox', { name: "Member's user ID" }), BEN);
    // Ben is known (Web Logs names him).
    expect(await screen.findByText('This is Ben.')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /Reason/ }), 'Rude');
    await user.type(screen.getByLabelText('Blocked until (optional)'), '2099-01-01T11:00');
    await user.click(add);
    expect(within(list()).getAllByRole('listitem')[0]).toHaveTextContent('New: not saved yet');
    expect(screen.getByText('Added Ben. Save to make it count.')).toBeInTheDocument();
    expect(screen.getByText('1 of 100 entries')).toBeInTheDocument();

    await user.click(saveButton());
    await waitFor(() => expect(page.onSaved).toHaveBeenCalledWith(saved));
    const put = page.fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    const body = JSON.parse(String(put?.[1]?.body)) as { expectedVersion: number; config: { blocklist: BlockEntry[] } };
    expect(body.expectedVersion).toBe(4);
    expect(body.config.blocklist).toEqual([{ kind: 'user', id: BEN, reason: 'Rude', addedBy: AVA, addedAt: expect.any(String), expiresAt: new Date(2099, 0, 1, 11, 0).toISOString() }]);
    expect(await within(list()).findByText(/Added by Ava on/)).toBeInTheDocument();
  });

  it('adds a role from the role picker, refuses one already listed, removes an entry', async () => {
    const user = userEvent.setup();
    show([entry({ kind: 'role', id: ROLE_MODS })]);
    await user.click(screen.getByRole('radio', { name: 'A role' }));
    const picker = screen.getByRole('combobox', { name: 'Role' });
    await user.click(picker);
    // Moderators is listed already: the picker leaves it out.
    expect(screen.queryByRole('option', { name: /Moderators/ })).toBeNull();
    await user.click(screen.getByRole('option', { name: /Support Team/ }));
    expect(screen.getByText('Picked: @Support Team')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /Reason/ }), 'Testing');
    await user.click(screen.getByRole('button', { name: 'Add to the blocklist' }));
    expect(within(list()).getAllByRole('listitem')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Remove @Moderators from the blocklist' }));
    expect(within(list()).getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByText('Removed @Moderators. Save to make it count.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(within(list()).getAllByRole('listitem')).toHaveLength(1);
    expect(list()).toHaveTextContent('@Moderators');
  });

  it('at the plan’s limit the form says it is full; over it, saving is off', () => {
    show([entry()], {}, { blocklistLimit: 1 });
    expect(screen.getByText('The blocklist is full: this server can have 1 entry. Remove an entry to add another.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add to the blocklist' })).toBeNull();
  });

  it('shows the API’s refusal of a save and a conflict with Reload', async () => {
    const user = userEvent.setup();
    show([entry()], { [`PUT ${BASE}/config`]: () => apiError(409, 1013, 'Ben saved version 5 while you were editing.') });
    await user.click(screen.getByRole('button', { name: /Remove/ }));
    await user.click(saveButton());
    expect(await screen.findByText('Ben saved version 5 while you were editing.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });

  it('is read-only for a member with read access to the Panel Menu', () => {
    show([entry()], {}, {}, { via: 'roles', areas: { panels: 'read' }, grantedBy: ['Helpers'] } as ServerAccess);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(screen.getByRole('textbox', { name: "Member's user ID" })).toBeDisabled();
  });

  it('is the Automation page’s Blocklist tab, saving through the page (which says the version)', async () => {
    const user = userEvent.setup();
    const saved = live({ version: 5, config: config({ blocklist: [] }) });
    const page = await showAutomation('?tab=blocklist', { [`GET ${BASE}/config`]: live({ config: config({ blocklist: [entry()] }) }), [`GET ${BASE}/logs/actors`]: { actors: [] }, [`PUT ${BASE}/config`]: saved });
    store = page.store;
    expect(await screen.findByRole('heading', { level: 2, name: 'Blocklist' }, { timeout: 10_000 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove User 1000000000000000003 from the blocklist' }));
    await user.click(saveButton());
    expect(await screen.findByText('Saved: this is version 5 of the configuration.')).toBeInTheDocument();
    expect(screen.getByText('No one is blocked. Members and roles you add appear here.')).toBeInTheDocument();
  });

  it('asks before leaving with unsaved changes (another tab of the page)', async () => {
    const user = userEvent.setup();
    const page = await showAutomation('?tab=blocklist', { [`GET ${BASE}/config`]: live({ config: config({ blocklist: [entry()] }) }), [`GET ${BASE}/logs/actors`]: { actors: [] } });
    store = page.store;
    await screen.findByRole('heading', { level: 2, name: 'Blocklist' }, { timeout: 10_000 });
    await user.click(screen.getByRole('button', { name: 'Remove User 1000000000000000003 from the blocklist' }));
    await user.click(screen.getByRole('link', { name: 'Overview' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay and keep editing' }));
    expect(screen.getByText('No one is blocked. Members and roles you add appear here.')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Overview' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', { name: 'Leave without saving' }));
    await waitFor(() => expect(page.router.state.location.search).toBe(''));
  });

  it('speaks German', async () => {
    await changeLocale('de');
    show([entry({ expiresAt: new Date(Date.now() - HOUR).toISOString() })]);
    expect(screen.getByRole('heading', { name: 'Sperrliste' })).toBeInTheDocument();
    expect(screen.getByText('1 von 100 Einträgen')).toBeInTheDocument();
    expect(screen.getByText('Abgelaufen')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Zur Sperrliste hinzufügen' })).toBeInTheDocument();
    await changeLocale('en');
  });
});
