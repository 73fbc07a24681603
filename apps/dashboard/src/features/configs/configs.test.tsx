import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, overlayStore, resetShared } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { CHANNEL_LOCKED, CHANNEL_PANELS, config, live, panel } from '../../test/config-fixtures';
import { BASE, bodies, missing, showMenu } from '../../test/panel-menu';

let store: ReturnType<typeof showMenu>['store'] | undefined;
afterEach(() => resetShared(store));

function show(...args: Parameters<typeof showMenu>) {
  const page = showMenu(...args);
  store = page.store;
  return page;
}

describe('Panel Menu: the list', () => {
  it('shows each panel with its preview, where it is posted and named actions', async () => {
    const page = show('', {
      [`GET ${BASE}/posts`]: { posts: [{ kind: 'panel', id: 'support', channelId: CHANNEL_PANELS, messageId: '1200000000000000001', postedVersion: 3, postedAt: '2026-03-01T12:00:00.000Z', state: 'outdated' }] },
    });
    const row = (await screen.findByRole('rowheader', { name: /Support/ })).closest('tr')!;
    expect(within(row).getByText('Form with 1 question')).toBeInTheDocument();
    expect(await within(row).findByText('#open-a-ticket')).toBeInTheDocument();
    expect(within(row).getByText('Update needed')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Edit “Support”' })).toHaveAttribute('href', `/dashboard/${page.router.state.location.pathname.split('/')[2]}/configs?edit=panel&id=support`);
    expect(within(row).getByRole('link', { name: 'Duplicate “Support”' })).toHaveAttribute('href', expect.stringContaining('edit=panel&copy=support'));
    expect(within(row).getByRole('button', { name: 'Delete “Support”' })).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Update “Support”' })).toBeEnabled();
    expect(within(row).getByRole('button', { name: 'Send again “Support”' })).toBeEnabled();
    expect(screen.getByText('1 of 3 panels used.')).toBeInTheDocument();
    expect(page.unexpected).toEqual([]);
  });

  it('reads the configuration, where panels are posted and the channels once each, all three as the page is entered', async () => {
    const page = show('');
    const reads = () => [`${BASE}/config`, `${BASE}/posts`, `${BASE}/resources`].map((path) => page.calls(path).length);
    // The route starts them together: none waits for the page's code or for the configuration.
    await waitFor(() => expect(reads()).toEqual([1, 1, 1]));
    expect(await screen.findByRole('rowheader', { name: /Support/ })).toBeInTheDocument();
    // Where it is posted is known: Send is on.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send “Support”' })).not.toHaveAttribute('aria-disabled'));
    // The list, appearing after the reads, asks for nothing again.
    expect(reads()).toEqual([1, 1, 1]);
    expect(page.unexpected).toEqual([]);
  });

  it('offers "Create your first panel" when there is none', async () => {
    show('', { [`GET ${BASE}/config`]: live({ version: 0, savedAt: null, savedBy: null, config: config({ panels: [] }) }) });
    expect(await screen.findByRole('heading', { name: 'No panels yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create your first panel' })).toHaveAttribute('href', expect.stringContaining('/configs?edit=panel'));
    expect(screen.getByText('A multi-panel offers panels: create a panel first.')).toBeInTheDocument();
  });

  it('at the free limit: creating and duplicating are off, saying why, with the way to premium', async () => {
    show('', { [`GET ${BASE}/config`]: live({ config: config({ panels: [panel('a', 'A'), panel('b', 'B'), panel('c', 'C')] }) }) });
    expect(await screen.findByText('3 of 3 panels used.')).toBeInTheDocument();
    const create = screen.getByRole('button', { name: 'Create panel' });
    expect(create).toHaveAttribute('aria-disabled', 'true');
    expect(create).toHaveAccessibleDescription(/Free servers have 3; premium raises the limit/);
    expect(screen.getByRole('button', { name: 'Duplicate “A”' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('link', { name: 'See premium' })).toHaveAttribute('href', '/premium');
  });

  it('a long list renders the rows on screen, counts every panel, and shows the others as they are scrolled to', async () => {
    const many = Array.from({ length: 45 }, (_, index) => panel(`p-${index + 1}`, `Panel ${index + 1}`));
    show('', { [`GET ${BASE}/config`]: live({ premium: true, panelLimit: 100, config: config({ panels: many }) }) });
    const edits = () => [...document.querySelectorAll('a[href*="edit=panel&id="]')];
    await waitFor(() => expect(edits().length).toBeGreaterThan(0));
    const table = screen.getByRole('table', { name: 'Panels' });
    // A screen reader hears "row 2 of 46" (the header is row 1), though only some rows are rendered.
    expect(table).toHaveAttribute('aria-rowcount', '46');
    expect(edits().length).toBeLessThan(20);
    expect(screen.getByRole('link', { name: 'Edit “Panel 1”' }).closest('tr')).toHaveAttribute('aria-rowindex', '2');
    // Scrolled to the end of the table (its body far above the top of the screen): the last panels.
    const body = within(table).getAllByRole('rowgroup')[1]!;
    body.getBoundingClientRect = () => ({ top: -5000, bottom: 0, left: 0, right: 400, width: 400, height: 5000, x: 0, y: -5000, toJSON: () => ({}) });
    act(() => {
      window.dispatchEvent(new Event('scroll'));
    });
    const last = await screen.findByRole('link', { name: 'Edit “Panel 45”' });
    expect(last).toHaveAttribute('href', expect.stringContaining('id=p-45'));
    expect(last.closest('tr')).toHaveAttribute('aria-rowindex', '46');
    expect(screen.queryByRole('link', { name: 'Edit “Panel 1”' })).toBeNull();
  });

  it('says where panels are posted cannot be known while the route is missing', async () => {
    const page = show('', { [`GET ${BASE}/posts`]: missing(`${BASE}/posts`) });
    expect(await screen.findByText('Not known')).toBeInTheDocument();
    // Sending needs the route: the action says why, and stays reachable by keyboard.
    const send = screen.getByRole('button', { name: 'Send “Support”' });
    expect(send).toHaveAttribute('aria-disabled', 'true');
    expect(send).toHaveAccessibleDescription(/not available yet. Where each panel is posted shows here once the dashboard can ask Discord/);
    expect(page.unexpected).toEqual([]);
  });

  it('while the configuration cannot be loaded: a skeleton, and the error overlay with Retry', async () => {
    show('', { [`GET ${BASE}/config`]: () => apiError(503, 1009, 'The service is temporarily unavailable (database). Try again shortly.') });
    expect(screen.getByText('Loading the panels…')).toBeInTheDocument();
    await waitFor(() => expect(overlayStore.getSnapshot().error?.kind).toBe('failed'));
    expect(overlayStore.getSnapshot().error?.buttons.retry).toBe(true);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('deletes after a confirmation, saving the configuration without the panel against the version shown', async () => {
    const user = userEvent.setup();
    const two = config({ panels: [panel('support', 'Support'), panel('billing', 'Billing')] });
    const page = show('', {
      [`GET ${BASE}/config`]: live({ config: two }),
      [`PUT ${BASE}/config`]: live({ version: 5, config: config({ panels: [panel('billing', 'Billing')] }) }),
    });
    await user.click(await screen.findByRole('button', { name: 'Delete “Support”' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete the panel “Support”?' });
    // The safe answer has the focus.
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted “Support”: this is version 5 of the configuration.')).toBeInTheDocument();
    expect(bodies(page.fetchMock, 'PUT', `${BASE}/config`)).toEqual([{ expectedVersion: 4, config: { ...two, panels: [two.panels[1]] } }]);
    expect(screen.queryByRole('rowheader', { name: /Support/ })).not.toBeInTheDocument();
  });

  it('a delete that meets a newer version says so and offers Reload', async () => {
    const user = userEvent.setup();
    const page = show('', { [`PUT ${BASE}/config`]: () => apiError(409, 1013, 'Cleo saved version 5 while you were editing. Your changes were not saved: reload to see theirs, then make yours again.') });
    await user.click(await screen.findByRole('button', { name: 'Delete “Support”' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Someone else saved meanwhile');
    expect(alert).toHaveTextContent('Cleo saved version 5');
    await user.click(within(alert).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(page.calls(`${BASE}/config`).filter(([, init]) => (init?.method ?? 'GET') === 'GET')).toHaveLength(2));
    // No overlay for a save: it is answered in the page.
    expect(overlayStore.getSnapshot().error).toBeNull();
  });

  it('does not delete a panel a select menu needs, and says why', async () => {
    const user = userEvent.setup();
    show('', {
      [`GET ${BASE}/config`]: live({
        config: config({
          panels: [panel('a', 'A'), panel('b', 'B')],
          multiPanels: [{ id: 'all', name: 'Everything', embed: panel('x', 'X').embed, mode: 'select', panelIds: ['a', 'b'], selectPlaceholder: null }],
        }),
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Delete “A”' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('Everything would be left with too few panels');
    expect(within(dialog).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('sends a panel to a channel the bot can post in, from a searchable picker', { timeout: 20_000 }, async () => {
    const user = userEvent.setup();
    const page = show('', {
      [`POST ${BASE}/posts`]: { kind: 'panel', id: 'support', channelId: CHANNEL_PANELS, messageId: '1200000000000000009', postedVersion: 4, postedAt: '2026-03-01T12:00:00.000Z', state: 'posted' },
    });
    // Once it is known where the panel is posted (nowhere yet), it can be sent.
    expect(await screen.findByText('Not sent')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send “Support”' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send “Support” to a channel' }, { timeout: 10_000 });
    expect(dialog).toHaveTextContent('The bot posts the saved version (version 4)');
    const send = within(dialog).getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    const picker = await within(dialog).findByRole('combobox', { name: 'Channel' });
    await user.click(picker);
    // The bot lacks permissions there: the channel says which, and cannot be chosen.
    const locked = within(dialog).getByRole('option', { name: /#announcements/ });
    expect(locked).toHaveAttribute('aria-disabled', 'true');
    expect(locked).toHaveTextContent('it lacks Send Messages, Embed Links');
    await user.type(picker, 'open{enter}');
    await user.click(send);
    expect(await screen.findByText('Sent “Support” to #open-a-ticket.')).toBeInTheDocument();
    expect(bodies(page.fetchMock, 'POST', `${BASE}/posts`)).toEqual([{ kind: 'panel', id: 'support', channelId: CHANNEL_PANELS }]);
    const row = screen.getByRole('rowheader', { name: /Support/ }).closest('tr')!;
    expect(within(row).getByText('#open-a-ticket')).toBeInTheDocument();
    expect(CHANNEL_LOCKED).toBeTruthy();
  });

  it('updates a posted message in place, and says what Discord refused', async () => {
    const user = userEvent.setup();
    const post = { kind: 'panel', id: 'support', channelId: CHANNEL_PANELS, messageId: '1200000000000000001', postedVersion: 3, postedAt: '2026-03-01T12:00:00.000Z', state: 'outdated' };
    const page = show('', {
      [`GET ${BASE}/posts`]: { posts: [post] },
      [`POST ${BASE}/posts/panel/support/update`]: () => apiError(422, 1014, 'The message was deleted in Discord: send the panel again.'),
    });
    await user.click(await screen.findByRole('button', { name: 'Update “Support”' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('“Support” was not updated in Discord');
    expect(alert).toHaveTextContent('The message was deleted in Discord: send the panel again.');
    await waitFor(() => expect(page.calls(`${BASE}/posts`).filter(([, init]) => (init?.method ?? 'GET') === 'GET')).toHaveLength(2));
  });

  it('with read access only (a role’s grant): View instead of Edit, every change off, saying why and who can grant more', async () => {
    const readOnly = {
      via: 'roles' as const,
      areas: { panels: 'read' as const, tickets: null, statistics: null, logs: 'read' as const, configs: null, premium: null },
      grantedBy: ['Dashboard Readers'],
    };
    show('', {}, readOnly);
    const note = await screen.findByText(/^You can look at the Panel Menu but not change anything: your roles \(Dashboard Readers\) give read access only\./);
    const row = (await screen.findByRole('rowheader', { name: /Support/ })).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'View “Support”' })).toBeInTheDocument();
    expect(within(row).queryByRole('link', { name: /Edit/ })).toBeNull();
    for (const name of ['Duplicate “Support”', 'Delete “Support”', 'Send “Support”']) {
      const action = within(row).getByRole('button', { name });
      expect(action, name).toHaveAttribute('aria-disabled', 'true');
      expect(action.getAttribute('aria-describedby'), name).toBe(note.id);
    }
    expect(screen.getByRole('button', { name: 'Create panel' })).toHaveAttribute('aria-disabled', 'true');
    // Pressing a disabled action does nothing: no dialog, no request.
    await userEvent.setup().click(within(row).getByRole('button', { name: 'Delete “Support”' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("a staff member's read-only view: every change off, the note says staff, names no roles", async () => {
    show('', {}, { via: 'staff', areas: { panels: 'read', tickets: 'read', statistics: 'read', logs: 'read', configs: 'read', premium: 'read' }, grantedBy: [] });
    const note = await screen.findByText('You are viewing as staff: read-only.');
    const row = (await screen.findByRole('rowheader', { name: /Support/ })).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'View “Support”' })).toBeInTheDocument();
    for (const name of ['Duplicate “Support”', 'Delete “Support”', 'Send “Support”']) {
      const action = within(row).getByRole('button', { name });
      expect(action, name).toHaveAttribute('aria-disabled', 'true');
      expect(action.getAttribute('aria-describedby'), name).toBe(note.id);
    }
    expect(screen.getByRole('button', { name: 'Create panel' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('in the editor, read access shows every field disabled and no Save', async () => {
    show('?edit=panel&id=support', {}, { via: 'roles', areas: { panels: 'read', tickets: null, statistics: null, logs: null, configs: null, premium: null }, grantedBy: ['Dashboard Readers'] });
    const title = await screen.findByRole('textbox', { name: 'Title' }, { timeout: 10_000 });
    expect(title).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.getAllByText(/You can look at the Panel Menu but not change anything/).length).toBeGreaterThan(0);
  });
});
