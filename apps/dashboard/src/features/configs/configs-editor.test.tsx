import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { changeLocale } from '@tickety/shared';
import { apiError, overlayStore, resetShared } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { config, live, panel, ROLE_MODS } from '../../test/config-fixtures';
import { BASE, bodies, missing, showMenu } from '../../test/panel-menu';

let store: ReturnType<typeof showMenu>['store'] | undefined;
afterEach(() => resetShared(store));

function show(...args: Parameters<typeof showMenu>) {
  const page = showMenu(...args);
  store = page.store;
  return page;
}

const LAZY = { timeout: 10_000 };

/** Opens the editor of the "Support" panel and waits for its chunk. */
async function openSupport(answers: Parameters<typeof showMenu>[1] = {}) {
  const page = show('?edit=panel&id=support', answers);
  await screen.findByRole('heading', { level: 2, name: 'Edit panel “Support”' }, LAZY);
  return page;
}

const preview = () => screen.getByRole('complementary', { name: 'Live preview' });
const titleInput = () => screen.getByRole('textbox', { name: 'Title' });

describe('Panel Menu: the panel editor', () => {
  it('the preview follows every keystroke', async () => {
    const user = userEvent.setup();
    await openSupport();
    await user.clear(titleInput());
    await user.type(titleInput(), 'a **b**');
    expect(within(preview()).getByText('b').tagName).toBe('STRONG');
    const description = screen.getByRole('textbox', { name: 'Description' });
    await user.clear(description);
    await user.type(description, '- a{enter}- b');
    expect(within(preview()).getAllByRole('listitem')).toHaveLength(2);
    await user.clear(screen.getByRole('textbox', { name: 'Label' }));
    await user.type(screen.getByRole('textbox', { name: 'Label' }), 'Go');
    expect(within(preview()).getByText('Go')).toBeInTheDocument();
  });

  it('shows HTML in the description as text, never as markup', async () => {
    await openSupport();
    fireEvent.change(screen.getByRole('textbox', { name: 'Description' }), { target: { value: '<img src=x onerror="alert(1)">' } });
    expect(within(preview()).getByText('<img src=x onerror="alert(1)">')).toBeInTheDocument();
    expect(preview().querySelector('img[src="x"]')).toBeNull();
  });

  it('a title past 256 characters: the counter turns red and the schema says so at the field', async () => {
    await openSupport();
    fireEvent.change(titleInput(), { target: { value: '😀'.repeat(257) } });
    // Discord counts code points: 257 emoji are 257 characters (514 UTF-16 units).
    const counter = await screen.findByText('257/256');
    expect(counter.className).toMatch(/text-red/);
    const error = await screen.findByText('Too long: 257 of at most 256 characters.');
    expect(titleInput()).toHaveAttribute('aria-invalid', 'true');
    expect(titleInput().getAttribute('aria-describedby')).toContain(error.closest('ul')!.id);
    expect(titleInput()).toHaveAccessibleDescription(/Too long: 257 of at most 256 characters/);
  });

  it('typing keeps the issues exact: its own as they come and go, and those elsewhere all along', async () => {
    const user = userEvent.setup();
    // Another panel's title is too long: an issue elsewhere in the configuration.
    const billing = panel('billing', 'Billing');
    await openSupport({ [`GET ${BASE}/config`]: live({ premium: true, config: config({ panels: [panel('support', 'Support'), { ...billing, embed: { ...billing.embed, title: 'b'.repeat(257) } }] }) }) });
    const elsewhere = await screen.findByText('Other parts of the configuration need fixing before anything can be saved');
    await user.type(titleInput(), ' desk');
    expect(screen.getByText('Other parts of the configuration need fixing before anything can be saved')).toBe(elsewhere);
    expect(titleInput()).not.toHaveAttribute('aria-invalid');
    fireEvent.change(titleInput(), { target: { value: 's'.repeat(258) } });
    expect(await screen.findByText('Too long: 258 of at most 256 characters.')).toBeInTheDocument();
    expect(titleInput()).toHaveAttribute('aria-invalid', 'true');
    fireEvent.change(titleInput(), { target: { value: 's'.repeat(256) } });
    await waitFor(() => expect(titleInput()).not.toHaveAttribute('aria-invalid'));
    expect(screen.queryByText(/Too long: 258/)).toBeNull();
    expect(screen.getByText('Other parts of the configuration need fixing before anything can be saved')).toBeInTheDocument();
  });

  it('at exactly 256 characters there is no error', async () => {
    await openSupport();
    fireEvent.change(titleInput(), { target: { value: '漢'.repeat(256) } });
    expect(await screen.findByText('256/256')).toBeInTheDocument();
    expect(titleInput()).not.toHaveAttribute('aria-invalid');
  });

  it('saves the whole configuration with the version it started from', async () => {
    const user = userEvent.setup();
    const page = await openSupport({ [`PUT ${BASE}/config`]: (_url: URL, init?: RequestInit) => new Response(JSON.stringify(live({ version: 5, config: JSON.parse(String(init?.body)).config })), { status: 200, headers: { 'content-type': 'application/json' } }) });
    await user.clear(titleInput());
    await user.type(titleInput(), 'Help desk');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved: this is version 5 of the configuration.')).toBeInTheDocument();
    const expected = config();
    expected.panels[0]!.embed.title = 'Help desk';
    expect(bodies(page.fetchMock, 'PUT', `${BASE}/config`)).toEqual([{ expectedVersion: 4, config: expected }]);
    expect(screen.getByText('No unsaved changes')).toBeInTheDocument();
    expect(overlayStore.getSnapshot().error).toBeNull();
  });

  it('a save that meets a newer version (1013): a clear conflict, the draft kept until Reload', async () => {
    const user = userEvent.setup();
    let reads = 0;
    const newer = live({ version: 5, savedBy: { id: '1000000000000000003', name: 'Cleo', avatarUrl: null }, config: config({ general: { ...config().general, claiming: false } }) });
    await openSupport({
      [`GET ${BASE}/config`]: () => new Response(JSON.stringify(reads++ === 0 ? live() : newer), { headers: { 'content-type': 'application/json' } }),
      [`PUT ${BASE}/config`]: () => apiError(409, 1013, 'Cleo saved version 5 while you were editing. Your changes were not saved: reload to see theirs, then make yours again.'),
    });
    await user.clear(titleInput());
    await user.type(titleInput(), 'Mine');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Cleo saved version 5 while you were editing/)).toBeInTheDocument();
    expect(screen.getByText('Someone else saved meanwhile')).toBeInTheDocument();
    // The draft is still there.
    expect(titleInput()).toHaveValue('Mine');
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    // Cleo changed the general settings, not this panel: the draft stays, now on version 5.
    expect(await screen.findByText(/Reloaded version 5. This part was not changed there, so your changes are kept/)).toBeInTheDocument();
    expect(titleInput()).toHaveValue('Mine');
    expect(screen.getByText(/Editing version 5, saved by Cleo/)).toBeInTheDocument();
  });

  it('a field the server refuses (1001) shows the reason at that field and moves focus there', async () => {
    const user = userEvent.setup();
    await openSupport({ [`PUT ${BASE}/config`]: () => apiError(400, 1001, 'panels.0.button.label: Discord refused this label.') });
    const label = screen.getByRole('textbox', { name: 'Label' });
    await user.type(label, '!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Discord refused this label.')).toBeInTheDocument();
    expect(label).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(label).toHaveFocus());
  });

  it('a save with problems sends nothing, lists them and focuses the first', async () => {
    const user = userEvent.setup();
    const page = await openSupport();
    const name = screen.getByRole('textbox', { name: /Panel name/ });
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('1 problem to fix before saving')).toBeInTheDocument();
    await waitFor(() => expect(name).toHaveFocus());
    expect(name).toHaveAccessibleDescription(/This can't be empty/);
    expect(bodies(page.fetchMock, 'PUT', `${BASE}/config`)).toEqual([]);
  });

  it('warns before leaving with unsaved changes (links and closing the tab)', async () => {
    const user = userEvent.setup();
    const page = await openSupport();
    // Nothing changed: leaving is free.
    const clean = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(clean);
    expect(clean.defaultPrevented).toBe(false);

    await user.type(titleInput(), ' now');
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    const dialog = screen.getByRole('dialog', { name: 'Leave without saving?' });
    expect(dialog).toHaveTextContent('Your changes to “Support” are not saved and will be lost.');
    await user.click(within(dialog).getByRole('button', { name: 'Stay and keep editing' }));
    expect(page.router.state.location.pathname).toMatch(/\/configs$/);
    expect(titleInput()).toHaveValue('Support now');

    await user.click(screen.getByRole('link', { name: 'Back to the panels' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Leave without saving' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Panels' })).toBeInTheDocument();
    expect(page.router.state.location.search).toBe('');
  });

  it('keeps a draft left with the browser Back button and offers to return to it', async () => {
    const user = userEvent.setup();
    const page = await openSupport();
    await user.type(titleInput(), ' later');
    // Back: the router moves without a click the page could hold.
    await page.router.navigate(-1);
    await page.router.navigate(`/dashboard/${page.router.state.location.pathname.split('/')[2]}/configs`);
    expect(await screen.findByText('Your changes to “Support” are not saved', {}, LAZY)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to my changes' }));
    expect(await screen.findByDisplayValue('Support later', {}, LAZY)).toBeInTheDocument();
    expect(screen.getByText('These are your unsaved changes to “Support” from earlier.')).toBeInTheDocument();
  });

  it('pickers list the server’s real roles and channels, and say where the bot cannot post', async () => {
    const user = userEvent.setup();
    await openSupport();
    const roles = await screen.findByRole('combobox', { name: 'Additional roles' });
    await user.click(roles);
    const options = within(screen.getByRole('listbox', { name: 'Search roles' })).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(expect.arrayContaining([expect.stringContaining('@Moderators'), expect.stringContaining('@Support Team')]));
    expect(options.find((o) => o.textContent?.includes('@Tickety'))).toHaveAttribute('aria-disabled', 'true');
    await user.type(roles, 'mod{enter}');
    expect(screen.getByRole('button', { name: 'Remove @Moderators' })).toBeInTheDocument();

    const transcripts = screen.getByRole('combobox', { name: 'Transcript channel' });
    await user.click(transcripts);
    expect(screen.getByRole('option', { name: /#announcements/ })).toHaveTextContent("The bot can't post here: it lacks Send Messages, Embed Links.");
  });

  it('when the server’s channels cannot be loaded, the pickers say so and retry; no list is made up', async () => {
    const user = userEvent.setup();
    const page = await openSupport({ [`GET ${BASE}/resources`]: missing(`${BASE}/resources`) });
    expect((await screen.findAllByText("This server's channels could not be loaded, so none can be chosen right now.")).length).toBeGreaterThan(0);
    expect(screen.queryByRole('combobox', { name: 'Ticket category' })).not.toBeInTheDocument();
    // The role already set stays, by id.
    expect(screen.getByText('Role 112233445566778899')).toBeInTheDocument();
    await user.click(screen.getAllByRole('button', { name: 'Try again' })[0]!);
    await waitFor(() => expect(page.calls(`${BASE}/resources`)).toHaveLength(2));
    expect(page.unexpected).toEqual([]);
  });

  it('support hours are locked on a free server, with why and the way to premium', async () => {
    await openSupport();
    expect(screen.getByText('Support hours are a premium feature')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See premium' })).toHaveAttribute('href', '/premium');
    expect(screen.queryByRole('checkbox', { name: 'Take tickets only during support hours' })).not.toBeInTheDocument();
  });

  it('a form has at most 5 questions: adding, moving and the limit', async () => {
    const user = userEvent.setup();
    await openSupport({ [`GET ${BASE}/config`]: live({ premium: true }) });
    for (let i = 0; i < 4; i++) await user.click(screen.getByRole('button', { name: 'Add a question' }));
    expect(screen.getByText('5 of 5 questions (Discord\'s limit for a form).')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add a question' })).toHaveAttribute('aria-disabled', 'true');
    await user.type(screen.getAllByRole('textbox', { name: /^Question/ })[4]!, 'Last');
    await user.click(screen.getByRole('button', { name: 'Move question 5 up' }));
    expect(screen.getAllByRole('textbox', { name: /^Question/ })[3]).toHaveValue('Last');
    expect(screen.getByRole('checkbox', { name: 'Take tickets only during support hours' })).toBeInTheDocument();
  });

  it('duplicating opens an unsaved copy under a new id', async () => {
    show('?edit=panel&copy=support');
    expect(await screen.findByRole('heading', { level: 2, name: 'New panel' }, LAZY)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Panel name/ })).toHaveValue('Support (copy)');
  });
});

describe('Panel Menu: multi-panels and settings', () => {
  it('a multi-panel as a select menu previews its placeholder and options', async () => {
    const user = userEvent.setup();
    show('?edit=multi', { [`GET ${BASE}/config`]: live({ config: config({ panels: [panel('support', 'Support'), panel('billing', 'Billing', { button: { label: 'Billing', emoji: null, style: 'success' } })] }) }) });
    expect(await screen.findByRole('heading', { level: 2, name: 'New multi-panel' }, LAZY)).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'A select menu' }));
    await user.type(screen.getByRole('textbox', { name: 'Menu placeholder' }), 'Pick a topic');
    const menu = within(preview()).getByRole('button', { name: 'Pick a topic' });
    await user.click(menu);
    expect(within(preview()).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['🎫Open a ticket', 'Billing']);
  });

  it('general settings and dashboard access save with the rest of the configuration', async () => {
    const user = userEvent.setup();
    const page = show('?tab=settings', { [`PUT ${BASE}/config`]: (_u: URL, init?: RequestInit) => new Response(JSON.stringify(live({ version: 5, config: JSON.parse(String(init?.body)).config })), { headers: { 'content-type': 'application/json' } }) });
    expect(await screen.findByRole('heading', { level: 2, name: 'General settings and dashboard access' }, LAZY)).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Ask before closing a ticket' }));
    await user.type(screen.getByRole('combobox', { name: 'Give a role access' }), 'Moder{enter}');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Statistics (@Moderators)' }), 'write');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved: this is version 5 of the configuration.')).toBeInTheDocument();
    const [sent] = bodies(page.fetchMock, 'PUT', `${BASE}/config`) as [{ config: ReturnType<typeof config> }];
    expect(sent.config.general.twoStepClose).toBe(true);
    expect(sent.config.access).toEqual([{ roleId: ROLE_MODS, areas: { panels: 'read', statistics: 'write' } }]);
  });
});

describe('Panel Menu in German', () => {
  afterEach(() => changeLocale('en'));

  it('speaks German, with the schema’s problems in German', async () => {
    await changeLocale('de');
    show('?edit=panel&id=support');
    expect(await screen.findByRole('heading', { level: 2, name: 'Panel „Support“ bearbeiten' }, LAZY)).toBeInTheDocument();
    const title = screen.getByRole('textbox', { name: 'Titel' });
    fireEvent.change(title, { target: { value: 'x'.repeat(300) } });
    expect(await screen.findByText('Zu lang: 300 von höchstens 256 Zeichen.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Speichern' })).toBeInTheDocument();
    expect(screen.getByText('Supportzeiten sind eine Premium-Funktion')).toBeInTheDocument();
  });
});
