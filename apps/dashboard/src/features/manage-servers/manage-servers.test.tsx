import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { changeLocale } from '@tickety/shared';
import { json, mockApi, overlayStore, renderPage, resetShared, signedInMe, TEST_CONFIG, testGuild } from '@tickety/shared/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ARCADE, avaMe, COZY, PIXEL, STUDY } from '../../test/fixtures';
import ManageServers from './manage-servers';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => resetShared(store));

function show(options: Parameters<typeof renderPage>[1] = {}) {
  const page = renderPage(<ManageServers />, { url: '/dashboard', path: '/dashboard', me: avaMe(), ...options });
  store = page.store;
  return page;
}

const botAdded = () => screen.getByRole('region', { name: /Bot added/ });
const notAdded = () => screen.getByRole('region', { name: /Not added/ });

describe('Manage Servers: grouping', () => {
  it('lists the servers the user can manage in "Bot added" and "Not added", leaving out servers where the user is only a member', () => {
    const { unexpected } = mockApi({});
    show();
    expect(screen.getByRole('heading', { level: 1, name: 'Manage Servers' })).toBeInTheDocument();
    const added = within(botAdded()).getAllByRole('listitem');
    expect(added.map((li) => li.querySelector('.truncate')?.textContent)).toEqual(["Ava's Arcade", 'Pixel Guild']);
    expect(within(notAdded()).getAllByRole('listitem')).toHaveLength(1);
    expect(within(notAdded()).getByText('Study Hall')).toBeInTheDocument();
    expect(screen.queryByText(COZY.name)).not.toBeInTheDocument();
    expect(unexpected).toEqual([]);
  });

  it('labels the role: Owner, Administrator, Manage Server; marks premium servers', () => {
    mockApi({});
    show();
    const arcade = screen.getByRole('link', { name: /Ava's Arcade/ });
    expect(arcade).toHaveTextContent('Owner');
    expect(arcade).toHaveTextContent('Premium');
    const pixel = screen.getByRole('link', { name: /Pixel Guild/ });
    expect(pixel).toHaveTextContent('Manage Server');
    expect(pixel).not.toHaveTextContent('Premium');
    expect(within(notAdded()).getByText('Administrator')).toBeInTheDocument();
  });

  it('lists a server one of the user\'s roles opens (roleAccess) with the bot-added ones, labelled "Dashboard access"', () => {
    mockApi({});
    const mods = testGuild({ id: '1100000000000000007', name: 'Retro Modders', permissions: '3072', canManage: false, roleAccess: true, botInGuild: true });
    show({ me: avaMe({ guilds: [ARCADE, STUDY, PIXEL, COZY, mods] }) });
    const added = within(botAdded()).getAllByRole('listitem');
    expect(added.map((li) => li.querySelector('.truncate')?.textContent)).toEqual(["Ava's Arcade", 'Pixel Guild', 'Retro Modders']);
    const link = screen.getByRole('link', { name: /Retro Modders/ });
    expect(link).toHaveTextContent('Dashboard access');
    expect(link).toHaveAttribute('href', `/dashboard/${mods.id}`);
    // A plain member's server (no role access) is still left out.
    expect(screen.queryByText(COZY.name)).not.toBeInTheDocument();
  });

  it('shows the server icon, and the initials when there is none', () => {
    mockApi({});
    show();
    const arcade = screen.getByRole('link', { name: /Ava's Arcade/ });
    expect(arcade.querySelector('img')).toHaveAttribute('src', ARCADE.iconUrl);
    expect(screen.getByRole('link', { name: /Pixel Guild/ })).toHaveTextContent('PG');
  });
});

describe('Manage Servers: links', () => {
  it('links a server with the bot to its dashboard', () => {
    mockApi({});
    show();
    expect(screen.getByRole('link', { name: /Ava's Arcade/ })).toHaveAttribute('href', `/dashboard/${ARCADE.id}`);
    expect(screen.getByRole('link', { name: /Pixel Guild/ })).toHaveAttribute('href', `/dashboard/${PIXEL.id}`);
  });

  it('leads to the page of ?page= (the placeholder-link redirect) and keeps the hash', () => {
    mockApi({});
    show({ url: '/dashboard?page=statistics#ticket-12' });
    expect(screen.getByRole('link', { name: /Ava's Arcade/ })).toHaveAttribute('href', `/dashboard/${ARCADE.id}/statistics#ticket-12`);
    expect(screen.getByText('Statistics', { selector: 'strong' })).toBeInTheDocument();
  });

  it.each(['configs', 'premium', 'logs-web', 'server-configs'])('supports ?page=%s', (page) => {
    mockApi({});
    show({ url: `/dashboard?page=${page}` });
    expect(screen.getByRole('link', { name: /Pixel Guild/ })).toHaveAttribute('href', `/dashboard/${PIXEL.id}/${page}`);
  });

  it('keeps a sub-path of the page, as the shell encodes it', () => {
    mockApi({});
    show({ url: '/dashboard?page=configs%2Fpanel-3#edit' });
    expect(screen.getByRole('link', { name: /Ava's Arcade/ })).toHaveAttribute('href', `/dashboard/${ARCADE.id}/configs/panel-3#edit`);
    expect(screen.getByText('Panel Menu', { selector: 'strong' })).toBeInTheDocument();
  });

  it('ignores an unknown ?page=', () => {
    mockApi({});
    show({ url: '/dashboard?page=..%2Fbilling' });
    expect(screen.getByRole('link', { name: /Ava's Arcade/ })).toHaveAttribute('href', `/dashboard/${ARCADE.id}`);
  });

  it('invites the bot to a server without it, preselected (guild_id), in a new tab, and says to come back and refresh', async () => {
    mockApi({});
    show();
    const invite = within(notAdded()).getByRole('link', { name: /Invite/ });
    expect(invite).toHaveAccessibleName('Invite Tickety to Study Hall (opens in a new tab)');
    const url = new URL(invite.getAttribute('href')!);
    expect(url.origin + url.pathname).toBe('https://discord.test/oauth2/authorize');
    expect(url.searchParams.get('guild_id')).toBe(STUDY.id);
    expect(url.searchParams.get('disable_guild_select')).toBe('true');
    expect(url.searchParams.get('client_id')).toBe(TEST_CONFIG.discordClientId);
    expect(invite).toHaveAttribute('target', '_blank');
    expect(invite).toHaveAttribute('rel', 'noopener noreferrer');
    expect(notAdded()).toHaveTextContent(/come back here and press Refresh/);

    // Following the link opens Discord in a new tab; the page then reminds the user to refresh.
    const stay = (e: Event) => e.preventDefault();
    document.addEventListener('click', stay);
    await userEvent.click(invite);
    document.removeEventListener('click', stay);
    expect(screen.getByText('Adding Tickety to Study Hall?')).toBeInTheDocument();
  });
});

describe('Manage Servers: search', () => {
  it('filters both groups by name', async () => {
    mockApi({});
    show();
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search servers' }), 'study');
    expect(within(notAdded()).getByText('Study Hall')).toBeInTheDocument();
    expect(within(botAdded()).queryAllByRole('link')).toHaveLength(0);
    expect(botAdded()).toHaveTextContent('No servers with Tickety match “study”.');
  });

  it('filters by id', async () => {
    mockApi({});
    show();
    await userEvent.type(screen.getByRole('searchbox'), PIXEL.id);
    expect(within(botAdded()).getAllByRole('link')).toHaveLength(1);
    expect(screen.getByRole('link', { name: /Pixel Guild/ })).toBeInTheDocument();
    expect(within(notAdded()).queryByRole('link')).not.toBeInTheDocument();
  });

  it('says when nothing matches, and the clear button brings every server back', async () => {
    mockApi({});
    show();
    const search = screen.getByRole('searchbox');
    await userEvent.type(search, 'zzz');
    expect(screen.getByRole('heading', { name: 'No servers match “zzz”' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /Bot added/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(search).toHaveValue('');
    expect(search).toHaveFocus();
    expect(within(botAdded()).getAllByRole('link')).toHaveLength(2);
    expect(within(notAdded()).getAllByRole('link')).toHaveLength(1);
  });

  it('clears the search with Escape', async () => {
    mockApi({});
    show();
    const search = screen.getByRole('searchbox');
    await userEvent.type(search, 'pixel{Escape}');
    expect(search).toHaveValue('');
  });
});

describe('Manage Servers: empty state', () => {
  it('explains to a user who manages no server why and what to do, with links, and no login prompt', () => {
    const { unexpected } = mockApi({});
    show({ me: signedInMe({ user: { id: '1000000000000000003', username: 'cleo', globalName: 'Cleo', avatar: null, avatarUrl: 'https://cdn.test/0.png' }, guilds: [COZY] }) });
    expect(screen.getByRole('heading', { name: "You don't manage any servers yet" })).toBeInTheDocument();
    expect(screen.getByText(/You are in 1 server, but you are not its owner/)).toHaveTextContent(/Administrator or Manage Server/);
    expect(screen.getByText(/Ask one of its admins/)).toBeInTheDocument();
    expect(screen.getByText(/Create your own server/)).toBeInTheDocument();

    const invite = screen.getByRole('link', { name: /Invite the bot/ });
    expect(invite).toHaveAttribute('href', TEST_CONFIG.inviteUrl);
    expect(invite).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: /Support server/ })).toHaveAttribute('href', TEST_CONFIG.supportUrl);
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled();

    expect(document.body).not.toHaveTextContent(/log ?in/i);
    expect(screen.queryByRole('region', { name: /Bot added/ })).not.toBeInTheDocument();
    expect(unexpected).toEqual([]);
  });

  it('counts the servers a member is in when there are several', () => {
    mockApi({});
    show({ me: signedInMe({ guilds: [COZY, { ...COZY, id: '1100000000000000009', name: 'Book Club' }] }) });
    expect(screen.getByText(/You are in 2 servers, but in none of them/)).toBeInTheDocument();
  });

  it('says "no servers" to a user whose Discord account lists none', () => {
    mockApi({});
    show({ me: signedInMe({ guilds: [] }) });
    expect(screen.getByText(/Discord lists no servers for your account/)).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/log ?in/i);
  });
});

describe('Manage Servers: refresh', () => {
  it('says when the list was updated', () => {
    mockApi({});
    show();
    expect(screen.getByText(/^Updated/)).toHaveTextContent('Updated 5 minutes ago');
  });

  it('refreshes the list: a server the bot was just added to moves to "Bot added"', async () => {
    const refreshed = avaMe({ guilds: [ARCADE, { ...STUDY, botInGuild: true }, PIXEL, COZY], guildsRefreshedAt: new Date().toISOString() });
    const { calls, unexpected } = mockApi({ 'POST /api/auth/guilds/refresh': refreshed });
    show();
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('Server list updated: 3 servers you can open.')).toBeInTheDocument();
    expect(within(botAdded()).getByRole('link', { name: /Study Hall/ })).toHaveAttribute('href', `/dashboard/${STUDY.id}`);
    expect(within(notAdded()).queryByRole('listitem')).not.toBeInTheDocument();
    expect(notAdded()).toHaveTextContent('Tickety is in every server you manage.');
    expect(screen.getByText(/^Updated/)).toHaveTextContent('Updated just now');
    expect(calls('/api/auth/guilds/refresh')).toHaveLength(1);
    expect(unexpected).toEqual([]);
  });

  it('on 1003 shows the seconds to wait next to the button and disables it, without an overlay', async () => {
    mockApi({
      'POST /api/auth/guilds/refresh': () =>
        json({ code: 1003, message: 'Your server list was refreshed moments ago: try again in 7 s.', isAuthenticated: true }, 429, { 'retry-after': '7' }),
    });
    show();
    const button = screen.getByRole('button', { name: 'Refresh' });
    await userEvent.click(button);
    expect(await screen.findByText('Your server list was refreshed moments ago. You can refresh again in 7 seconds.')).toBeInTheDocument();
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(/You can refresh again in \d seconds?\./);
    expect(overlayStore.getSnapshot().error).toBeNull();
    // The list is still there: the failure is inline.
    expect(within(botAdded()).getAllByRole('link')).toHaveLength(2);
  });

  it('waits 10 s when a 1003 answer has no Retry-After', async () => {
    mockApi({ 'POST /api/auth/guilds/refresh': () => json({ code: 1003, message: 'Too many requests', isAuthenticated: true }, 429) });
    show();
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText(/You can refresh again in 10 seconds\./)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeDisabled();
  });

  it('enables the button again once the wait is over', async () => {
    mockApi({ 'POST /api/auth/guilds/refresh': () => json({ code: 1003, message: 'Wait', isAuthenticated: true }, 429, { 'retry-after': '1' }) });
    show();
    const button = screen.getByRole('button', { name: 'Refresh' });
    await userEvent.click(button);
    await screen.findByText('Your server list was refreshed moments ago. You can refresh again in 1 second.');
    expect(button).toBeDisabled();
    await waitFor(() => expect(button).toBeEnabled(), { timeout: 3000 });
    expect(screen.queryByText(/You can refresh again/)).not.toBeInTheDocument();
  });

  it('shows another failure inline with its message', async () => {
    mockApi({
      'POST /api/auth/guilds/refresh': () =>
        json({ code: 1008, message: 'Discord is not answering right now; your saved data is unchanged. Try again shortly.', isAuthenticated: true }, 503),
    });
    show();
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText(/Discord is not answering right now/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled();
    expect(overlayStore.getSnapshot().error).toBeNull();
  });
});

describe('Manage Servers in German', () => {
  beforeEach(() => changeLocale('de'));
  afterEach(() => changeLocale('en'));

  it('shows the page, the groups, the roles and a German relative time', () => {
    const { unexpected } = mockApi({});
    show();
    expect(screen.getByRole('heading', { level: 1, name: 'Server verwalten' })).toBeInTheDocument();
    expect(screen.getByText(/^Aktualisiert/)).toHaveTextContent('Aktualisiert vor 5 Minuten');
    const added = screen.getByRole('region', { name: /Bot hinzugefügt/ });
    expect(within(added).getByRole('link', { name: /Ava's Arcade/ })).toHaveTextContent('Eigentümer');
    expect(within(added).getByRole('link', { name: /Pixel Guild/ })).toHaveTextContent('Server verwalten');
    const notYet = screen.getByRole('region', { name: /Noch nicht hinzugefügt/ });
    expect(within(notYet).getByRole('link', { name: 'Tickety zu Study Hall einladen (öffnet sich in einem neuen Tab)' })).toHaveTextContent('Einladen');
    expect(screen.getByRole('searchbox', { name: 'Server durchsuchen' })).toHaveAttribute('placeholder', 'Nach Servername oder ID suchen');
    expect(screen.getByRole('heading', { name: 'Dein Server fehlt?' })).toBeInTheDocument();
    expect(unexpected).toEqual([]);
  });

  it('names the page of ?page= in German', () => {
    mockApi({});
    show({ url: '/dashboard?page=statistics' });
    expect(screen.getByText('Statistiken', { selector: 'strong' }).parentElement).toHaveTextContent('Wähle den Server, für den du Statistiken öffnen möchtest.');
  });

  it('says in German, with plurals, how long to wait after a rate-limited refresh', async () => {
    mockApi({ 'POST /api/auth/guilds/refresh': () => json({ code: 1003, message: 'Too many requests', isAuthenticated: true }, 429, { 'retry-after': '7' }) });
    show();
    const button = screen.getByRole('button', { name: 'Aktualisieren' });
    await userEvent.click(button);
    expect(await screen.findByText('Deine Serverliste wurde gerade erst aktualisiert. Du kannst sie in 7 Sekunden wieder aktualisieren.')).toBeInTheDocument();
    expect(button).toBeDisabled();
  });

  it('explains the empty state in German', () => {
    mockApi({});
    show({ me: signedInMe({ guilds: [COZY, { ...COZY, id: '1100000000000000009', name: 'Book Club' }] }) });
    expect(screen.getByRole('heading', { name: 'Du verwaltest noch keine Server' })).toBeInTheDocument();
    expect(screen.getByText(/Du bist auf 2 Servern, bist aber auf keinem davon Eigentümer/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Bot einladen (öffnet sich in einem neuen Tab)' })).toHaveAttribute('href', TEST_CONFIG.inviteUrl);
  });
});
