import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StaffAuditAnswer, StaffAuditEntry, StaffPermission, StaffTeamMember } from '@tickety/api-contract';
import { apiError, json, mockApi, renderPage, resetShared, signedInMe } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import TeamManagerPage from './team-manager';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => {
  cleanup();
  resetShared(store);
});

const ALL: StaffPermission[] = ['DASHBOARD_SUPPORT_SYSTEM_READ', 'DASHBOARD_SUPPORT_SYSTEM_WRITE', 'DASHBOARD_SUPPORT_SEARCH_READ', 'SPECIAL_TEAM_MANAGER_READ', 'SPECIAL_TEAM_MANAGER_WRITE'];
const SAM = '1000000000000000004';
const NICO = '1000000000000000005';
const BEN = '1000000000000000002';
const ZOE = '1000000000000000777';
const cdn = (id: string) => `https://cdn.test/avatars/${id}/a.png`;
const person = (id: string, name: string) => ({ id, name, username: name.toLowerCase(), avatarUrl: cdn(id) });

const owner = signedInMe({ user: { id: SAM, username: 'sam', globalName: 'Sam', avatar: null, avatarUrl: cdn(SAM) }, team: { owner: true, permissions: [] } });
/** Ben: reads and writes the team, and holds support search; not the system flags. */
const manager = signedInMe({
  user: { id: BEN, username: 'ben', globalName: 'Ben', avatar: null, avatarUrl: cdn(BEN) },
  team: { owner: false, permissions: ['DASHBOARD_SUPPORT_SEARCH_READ', 'SPECIAL_TEAM_MANAGER_READ', 'SPECIAL_TEAM_MANAGER_WRITE'] },
});
const reader = signedInMe({ user: { id: BEN, username: 'ben', globalName: 'Ben', avatar: null, avatarUrl: cdn(BEN) }, team: { owner: false, permissions: ['SPECIAL_TEAM_MANAGER_READ'] } });

function member(id: string, name: string, permissions: StaffPermission[], over: Partial<StaffTeamMember> = {}): StaffTeamMember {
  return {
    ...person(id, name),
    owner: false,
    permissions,
    grants: permissions.map((permission) => ({ permission, grantedBy: person(SAM, 'Sam'), grantedAt: '2026-02-18T10:00:00.000Z' })),
    addedBy: person(SAM, 'Sam'),
    addedAt: '2026-02-18T10:00:00.000Z',
    ...over,
  };
}
const samOwner = member(SAM, 'Sam', ALL, { owner: true, grants: ALL.map((permission) => ({ permission, grantedBy: null, grantedAt: null })), addedBy: null, addedAt: null });
const team = (...members: StaffTeamMember[]) => ({ members: [samOwner, ...members] });
const nico = member(NICO, 'Nico', ['DASHBOARD_SUPPORT_SYSTEM_READ', 'DASHBOARD_SUPPORT_SEARCH_READ']);
const ben = member(BEN, 'Ben', ['DASHBOARD_SUPPORT_SEARCH_READ', 'SPECIAL_TEAM_MANAGER_READ', 'SPECIAL_TEAM_MANAGER_WRITE']);

function entry(id: string, over: Partial<StaffAuditEntry> = {}): StaffAuditEntry {
  return {
    id,
    at: '2026-02-24T10:00:00.000Z',
    staff: person(SAM, 'Sam'),
    action: 'team.update',
    target: `user ${NICO} (Nico)`,
    before: { permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] },
    after: { permissions: ['DASHBOARD_SUPPORT_SYSTEM_READ', 'DASHBOARD_SUPPORT_SEARCH_READ'] },
    ...over,
  };
}
const audit = (over: Partial<StaffAuditAnswer> = {}): StaffAuditAnswer => ({
  entries: [entry('3'), entry('2', { action: 'billing.view', staff: person(NICO, 'Nico'), target: 'user 1000000000000000001', before: null, after: null }), entry('1', { action: 'team.add', before: null, after: { permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] } })],
  nextCursor: null,
  actions: ['billing.view', 'team.add', 'team.update'],
  ...over,
});

const memberCard = (name: string) => screen.getByRole('heading', { level: 3, name }).closest('li')!;
const auditRows = () =>
  within(screen.getByRole('table', { name: 'Staff audit log, newest first' }))
    .getAllByRole('rowheader')
    .map((c) => c.querySelector('code')!.textContent);
const bodyOf = (init: RequestInit | undefined) => JSON.parse(String(init?.body));

describe('team manager page', () => {
  it('lists every member with their flags, who granted each and when; owners marked and not editable', async () => {
    const { unexpected } = mockApi({ 'GET /api/staff/team': team(ben, nico), 'GET /api/staff/audit': audit() });
    ({ store } = renderPage(<TeamManagerPage />, { url: '/team-manager', me: owner }));
    expect(screen.getByRole('heading', { level: 1, name: 'Team Manager' })).toBeInTheDocument();
    const sam = await screen.findByRole('heading', { level: 3, name: 'Sam' });
    expect(screen.getByRole('heading', { level: 2, name: /Staff members/ })).toHaveTextContent('(3)');

    const samCard = sam.closest('li')!;
    expect(within(samCard).getByText('Owner')).toBeInTheDocument();
    expect(within(samCard).getByText('You')).toBeInTheDocument();
    expect(within(samCard).getAllByText('Every flag, as an owner')).toHaveLength(5);
    expect(within(samCard).getByText(/cannot be edited or removed here/)).toBeInTheDocument();
    expect(within(samCard).queryByRole('button')).not.toBeInTheDocument();
    expect(samCard.querySelector('img')).toHaveAttribute('src', cdn(SAM));

    const nicoCard = memberCard('Nico');
    expect(within(nicoCard).getByText('@nico')).toBeInTheDocument();
    expect(within(nicoCard).getByText(NICO)).toBeInTheDocument();
    const flags = within(nicoCard).getByRole('list', { name: 'Flags of Nico' });
    expect(within(flags).getAllByRole('listitem').map((li) => li.querySelector('code')!.textContent)).toEqual(['DASHBOARD_SUPPORT_SYSTEM_READ', 'DASHBOARD_SUPPORT_SEARCH_READ']);
    expect(within(flags).getByText('System (read)')).toBeInTheDocument();
    expect(within(flags).getAllByText(/Granted by Sam on/)).toHaveLength(2);
    expect(within(flags).getAllByRole('time')[0]).toHaveAttribute('datetime', '2026-02-18T10:00:00.000Z');
    expect(within(nicoCard).getByRole('button', { name: 'Edit flags of Nico' })).toBeInTheDocument();
    expect(within(nicoCard).getByRole('button', { name: 'Remove Nico from the staff' })).toBeInTheDocument();
    expect(screen.queryByText('Read-only')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'Add a member' })).toBeInTheDocument();

    // The audit: newest first, what changed in words.
    await screen.findByRole('table', { name: 'Staff audit log, newest first' });
    expect(auditRows()).toEqual(['team.update', 'billing.view', 'team.add']);
    const update = screen.getByRole('row', { name: /Changed flags/ });
    expect(within(update).getByText('System (read)').closest('li')).toHaveTextContent('Granted: System (read)');
    expect(within(update).getByText('Flags: 1 → 2')).toBeInTheDocument();
    expect(unexpected).toEqual([]);
  });

  it('is read-only without SPECIAL_TEAM_MANAGER_WRITE, and says so', async () => {
    mockApi({ 'GET /api/staff/team': team(ben, nico), 'GET /api/staff/audit': audit() });
    ({ store } = renderPage(<TeamManagerPage />, { url: '/team-manager', me: reader }));
    await screen.findByRole('heading', { level: 3, name: 'Nico' });
    expect(screen.getByText('Read-only')).toBeInTheDocument();
    expect(screen.getByText(/needs the “Team manager \(write\)” flag/)).toHaveTextContent('SPECIAL_TEAM_MANAGER_WRITE');
    expect(screen.queryByRole('button', { name: /Edit the flags/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Add a member' })).not.toBeInTheDocument();
  });

  it('adds a member by id: looked up first, only the viewer’s own flags offered, confirmed, then listed', async () => {
    let added = false;
    const { calls } = mockApi({
      'GET /api/staff/team': () => json(added ? team(ben, nico, member(ZOE, 'Zoë', ['DASHBOARD_SUPPORT_SEARCH_READ'], { addedBy: person(BEN, 'Ben') })) : team(ben, nico)),
      'GET /api/staff/audit': audit(),
      [`GET /api/staff/team/lookup/${ZOE}`]: { ...person(ZOE, 'Zoë'), member: false, owner: false },
      [`PUT /api/staff/team/${ZOE}`]: () => {
        added = true;
        return json({ member: member(ZOE, 'Zoë', ['DASHBOARD_SUPPORT_SEARCH_READ']), added: true, changed: true });
      },
    });
    ({ store } = renderPage(<TeamManagerPage />, { url: '/team-manager', me: manager }));
    const field = await screen.findByRole('textbox', { name: 'Discord user id' });
    await userEvent.type(field, '12345');
    await userEvent.click(screen.getByRole('button', { name: 'Look up' }));
    expect(field).toHaveAccessibleDescription(/Enter a Discord user id: 17 to 20 digits\./);
    expect(calls(`/api/staff/team/lookup/${ZOE}`)).toEqual([]);

    await userEvent.clear(field);
    await userEvent.type(field, ZOE);
    await userEvent.click(screen.getByRole('button', { name: 'Look up' }));
    const found = await screen.findByRole('region', { name: 'The user found' });
    expect(within(found).getByText('Zoë')).toBeInTheDocument();
    expect(within(found).getByText('@zoë')).toBeInTheDocument();
    expect(found.querySelector('img')).toHaveAttribute('src', cdn(ZOE));
    const flags = screen.getByRole('group', { name: 'Flags to grant Zoë' });
    // Ben does not hold the system flags: they cannot be ticked, and say why.
    const systemRead = within(flags).getByRole('checkbox', { name: /System \(read\)/ });
    expect(systemRead).toBeDisabled();
    expect(systemRead).toHaveAccessibleDescription('You do not hold this flag, so you cannot grant or revoke it.');
    expect(within(flags).getByRole('checkbox', { name: /Support search/ })).toBeEnabled();
    const add = screen.getByRole('button', { name: 'Add Zoë…' });
    expect(add).toBeDisabled();
    await userEvent.click(within(flags).getByRole('checkbox', { name: /Support search/ }));

    // Cancel first: nothing sent.
    await userEvent.click(add);
    let dialog = screen.getByRole('alertdialog', { name: 'Add Zoë to the staff?' });
    expect(within(dialog).getByText('Grants')).toBeInTheDocument();
    expect(within(dialog).getByText('DASHBOARD_SUPPORT_SEARCH_READ')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls(`/api/staff/team/${ZOE}`)).toEqual([]);

    await userEvent.click(add);
    dialog = screen.getByRole('alertdialog', { name: 'Add Zoë to the staff?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    const [, init] = calls(`/api/staff/team/${ZOE}`)[0]!;
    expect(init?.method).toBe('PUT');
    expect(bodyOf(init)).toEqual({ permissions: ['DASHBOARD_SUPPORT_SEARCH_READ'] });
    expect(new Headers(init!.headers).get('x-requested-with')).toBe('tickety');
    expect(screen.getByText('Zoë was added with 1 flag.')).toBeInTheDocument();
    // The list is read again and shows her; the form is empty again.
    expect(await screen.findByRole('heading', { level: 3, name: 'Zoë' })).toBeInTheDocument();
    expect(within(memberCard('Zoë')).getByText(/Added by Ben on/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Discord user id' })).toHaveValue('');
  });

  it('says who a looked-up id is when they are staff already, and why a lookup failed, with Retry', async () => {
    let attempts = 0;
    mockApi({
      'GET /api/staff/team': team(ben, nico),
      'GET /api/staff/audit': audit(),
      [`GET /api/staff/team/lookup/${NICO}`]: { ...person(NICO, 'Nico'), member: true, owner: false },
      [`GET /api/staff/team/lookup/${ZOE}`]: () => {
        attempts++;
        return attempts === 1
          ? apiError(404, 1002, `Discord knows no user with the id ${ZOE}: check the id and try again.`)
          : json({ ...person(ZOE, 'Zoë'), member: false, owner: false });
      },
    });
    ({ store } = renderPage(<TeamManagerPage />, { url: '/team-manager', me: owner }));
    const field = await screen.findByRole('textbox', { name: 'Discord user id' });
    await userEvent.type(field, NICO);
    await userEvent.click(screen.getByRole('button', { name: 'Look up' }));
    expect(await screen.findByText('Nico is a staff member already: edit their flags in the list below.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Add Nico/ })).not.toBeInTheDocument();

    await userEvent.clear(field);
    await userEvent.type(field, `${ZOE}{Enter}`);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The user could not be looked up');
    expect(alert).toHaveTextContent('Discord knows no user with the id');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('region', { name: 'The user found' })).toHaveTextContent('Zoë');
  });

  it('edits a member’s flags: only held flags change, the confirmation lists grants and revocations, a refusal stays in the dialog', async () => {
    let refuse = true;
    const { calls } = mockApi({
      'GET /api/staff/team': team(ben, member(NICO, 'Nico', ['DASHBOARD_SUPPORT_SYSTEM_WRITE', 'DASHBOARD_SUPPORT_SEARCH_READ'])),
      'GET /api/staff/audit': audit(),
      [`PUT /api/staff/team/${NICO}`]: () =>
        refuse
          ? apiError(403, 1026, 'You do not hold DASHBOARD_SUPPORT_SYSTEM_WRITE, so you cannot grant or revoke it: nothing was changed.')
          : json({ member: member(NICO, 'Nico', ['DASHBOARD_SUPPORT_SYSTEM_WRITE', 'SPECIAL_TEAM_MANAGER_READ']), added: false, changed: true }),
    });
    ({ store } = renderPage(<TeamManagerPage />, { url: '/team-manager', me: manager }));
    await screen.findByRole('heading', { level: 3, name: 'Nico' });
    // Ben's own card offers no edit.
    expect(within(memberCard('Ben')).queryByRole('button')).not.toBeInTheDocument();
    expect(within(memberCard('Ben')).getByText(/nobody changes their own flags/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Edit flags of Nico' }));
    const flags = screen.getByRole('group', { name: 'Flags of Nico' });
    // Nico's system write flag: Ben does not hold it, so it stays as it is.
    expect(within(flags).getByRole('checkbox', { name: /System \(write\)/ })).toBeChecked();
    expect(within(flags).getByRole('checkbox', { name: /System \(write\)/ })).toBeDisabled();
    const save = screen.getByRole('button', { name: 'Save changes…' });
    expect(save).toBeDisabled();
    await userEvent.click(within(flags).getByRole('checkbox', { name: /Support search/ }));
    await userEvent.click(within(flags).getByRole('checkbox', { name: /Team manager \(read\)/ }));
    await userEvent.click(save);
    const dialog = screen.getByRole('alertdialog', { name: 'Change the flags of Nico?' });
    expect(within(dialog).getByText('Grants').nextElementSibling).toHaveTextContent('SPECIAL_TEAM_MANAGER_READ');
    expect(within(dialog).getByText('Revokes').nextElementSibling).toHaveTextContent('DASHBOARD_SUPPORT_SEARCH_READ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('The change was not made');
    expect(alert).toHaveTextContent('You do not hold DASHBOARD_SUPPORT_SYSTEM_WRITE');
    refuse = false;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(calls(`/api/staff/team/${NICO}`).map(([, init]) => bodyOf(init))).toEqual([
      { permissions: ['DASHBOARD_SUPPORT_SYSTEM_WRITE', 'SPECIAL_TEAM_MANAGER_READ'] },
      { permissions: ['DASHBOARD_SUPPORT_SYSTEM_WRITE', 'SPECIAL_TEAM_MANAGER_READ'] },
    ]);
    expect(screen.getByText('The flags of Nico were changed.')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Flags of Nico' })).not.toBeInTheDocument();
  });

  it('leaves who manages the team to owners: a manager who is not an owner cannot grant, revoke or remove the write flag, and is told why', async () => {
    const otherManager = member(NICO, 'Nico', ['DASHBOARD_SUPPORT_SEARCH_READ', 'SPECIAL_TEAM_MANAGER_WRITE']);
    mockApi({ 'GET /api/staff/team': team(ben, otherManager), 'GET /api/staff/audit': audit() });
    ({ store } = renderPage(<TeamManagerPage />, { url: '/team-manager', me: manager }));
    await screen.findByRole('heading', { level: 3, name: 'Nico' });
    const card = memberCard('Nico');
    expect(within(card).queryByRole('button', { name: 'Remove Nico from the staff' })).not.toBeInTheDocument();
    expect(within(card).getByText(/Only an owner removes a team manager/)).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Edit flags of Nico' }));
    const flags = screen.getByRole('group', { name: 'Flags of Nico' });
    const write = within(flags).getByRole('checkbox', { name: /Team manager \(write\)/ });
    // Ben holds the flag, but only an owner changes it.
    expect(write).toBeChecked();
    expect(write).toBeDisabled();
    expect(write).toHaveAccessibleDescription(/Only an owner grants or revokes this flag/);
    expect(within(flags).getByRole('checkbox', { name: /Support search/ })).toBeEnabled();
  });

  it('lets an owner grant, revoke and remove the write flag', async () => {
    const otherManager = member(NICO, 'Nico', ['DASHBOARD_SUPPORT_SEARCH_READ', 'SPECIAL_TEAM_MANAGER_WRITE']);
    mockApi({ 'GET /api/staff/team': team(ben, otherManager), 'GET /api/staff/audit': audit() });
    ({ store } = renderPage(<TeamManagerPage />, { url: '/team-manager', me: owner }));
    await screen.findByRole('heading', { level: 3, name: 'Nico' });
    expect(within(memberCard('Nico')).getByRole('button', { name: 'Remove Nico from the staff' })).toBeEnabled();
    await userEvent.click(within(memberCard('Nico')).getByRole('button', { name: 'Edit flags of Nico' }));
    expect(within(screen.getByRole('group', { name: 'Flags of Nico' })).getByRole('checkbox', { name: /Team manager \(write\)/ })).toBeEnabled();
  });

  it('removes a member after a confirmation', async () => {
    let removed = false;
    const { calls } = mockApi({
      'GET /api/staff/team': () => json(removed ? team(ben) : team(ben, nico)),
      'GET /api/staff/audit': audit(),
      [`DELETE /api/staff/team/${NICO}`]: () => {
        removed = true;
        return json({ removed: true });
      },
    });
    ({ store } = renderPage(<TeamManagerPage />, { url: '/team-manager', me: owner }));
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Nico from the staff' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove Nico from the staff?' });
    expect(dialog).toHaveAccessibleDescription(/Nico loses every staff flag from their very next request/);
    expect(within(dialog).getByText('Revokes').nextElementSibling).toHaveTextContent('DASHBOARD_SUPPORT_SYSTEM_READ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('heading', { level: 3, name: 'Nico' })).not.toBeInTheDocument());
    expect(calls(`/api/staff/team/${NICO}`).map(([, init]) => init?.method)).toEqual(['DELETE']);
    expect(screen.getByText('Nico was removed from the staff.')).toBeInTheDocument();
    // Its card is gone: focus on the list's heading.
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: /Staff members/ })).toHaveFocus());
  });

  it('shows loading, then a failure with Retry, for the members and the audit', async () => {
    let fail = true;
    mockApi({
      'GET /api/staff/team': () => (fail ? apiError(503, 1009, 'The service is temporarily unavailable (database). Try again shortly.') : json(team(nico))),
      'GET /api/staff/audit': () => (fail ? apiError(503, 1009, 'The service is temporarily unavailable (database). Try again shortly.') : json(audit({ entries: [], actions: [] }))),
    });
    ({ store } = renderPage(<TeamManagerPage />, { url: '/team-manager', me: owner }));
    expect(screen.getByText('Loading the staff members…')).toBeInTheDocument();
    expect(screen.getByText('Loading the audit log…')).toBeInTheDocument();
    const membersAlert = (await screen.findByText('The staff members could not be loaded')).closest('[role="alert"]') as HTMLElement;
    expect(membersAlert).toHaveTextContent('temporarily unavailable');
    const auditAlert = (await screen.findByText('The audit log could not be loaded')).closest('[role="alert"]') as HTMLElement;
    fail = false;
    await userEvent.click(within(membersAlert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { level: 3, name: 'Nico' })).toBeInTheDocument();
    await userEvent.click(within(auditAlert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Nothing in the audit log yet')).toBeInTheDocument();
  });

  it('filters the audit by staff member, action and target text, and loads older entries', async () => {
    const { calls } = mockApi({
      'GET /api/staff/team': team(ben, nico),
      'GET /api/staff/audit': (url: URL) => {
        const params = url.searchParams;
        if (params.get('cursor') === 'c1') return json(audit({ entries: [entry('0', { action: 'webhook.replay', target: 'paddle event evt_1 (#1)', before: null, after: null })], nextCursor: null }));
        if (params.get('target') === 'nobody') return json(audit({ entries: [] }));
        if (params.get('action') === 'team') return json(audit({ entries: [entry('3'), entry('1', { action: 'team.add' })] }));
        return json(audit({ nextCursor: 'c1' }));
      },
    });
    ({ store } = renderPage(<TeamManagerPage />, { url: '/team-manager', me: owner }));
    await screen.findByRole('table', { name: 'Staff audit log, newest first' });
    expect(calls('/api/staff/audit')[0]![0].toString()).toMatch(/limit=25/);

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(auditRows()).toEqual(['team.update', 'billing.view', 'team.add', 'webhook.replay']));
    expect(screen.getByRole('row', { name: /Replayed a webhook/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();

    const filters = screen.getByRole('group', { name: 'Filter the audit log' });
    await userEvent.selectOptions(within(filters).getByRole('combobox', { name: 'Action' }), 'All team changes');
    await waitFor(() => expect(auditRows()).toEqual(['team.update', 'team.add']));
    const staff = within(filters).getByRole('combobox', { name: 'Staff member' });
    expect(within(staff).getAllByRole('option').map((o) => o.textContent)).toEqual(['Anyone', `Sam (${SAM})`, `Ben (${BEN})`, `Nico (${NICO})`]);
    await userEvent.selectOptions(staff, `Nico (${NICO})`);
    await userEvent.type(within(filters).getByRole('searchbox', { name: 'Target contains' }), 'nobody');
    expect(await screen.findByText('No entry matches these filters')).toBeInTheDocument();
    const last = new URL(calls('/api/staff/audit').at(-1)![0].toString()).searchParams;
    expect(Object.fromEntries(last)).toEqual({ staff: NICO, action: 'team', target: 'nobody', limit: '25' });
    // Typing waits for a pause: not one request per key.
    expect(calls('/api/staff/audit').filter(([u]) => new URL(u.toString()).searchParams.has('target'))).toHaveLength(1);
  });
});
