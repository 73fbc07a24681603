import { screen } from '@testing-library/react';
import { renderPage, signedInMe, TEST_CONFIG } from '@tickety/shared/testing';
import { describe, expect, it } from 'vitest';
import InvitePage from './invite';

/** What the API builds: VIEW_CHANNEL, SEND_MESSAGES, MANAGE_CHANNELS, MANAGE_ROLES, ... (apps/api BOT_PERMISSIONS). */
const API_PERMISSIONS = String((1n << 10n) | (1n << 11n) | (1n << 4n) | (1n << 28n) | (1n << 14n) | (1n << 15n) | (1n << 16n) | (1n << 13n) | (1n << 34n) | (1n << 38n));
const API_INVITE = `https://discord.test/oauth2/authorize?client_id=1300000000000000001&scope=bot%20applications.commands&permissions=${API_PERMISSIONS}`;

function addLink() {
  return new URL(screen.getByRole('link', { name: /add to discord/i }).getAttribute('href')!);
}

describe('InvitePage', () => {
  it('links to the configured invite without a server preselected', () => {
    renderPage(<InvitePage />, { url: '/invite' });
    expect(screen.getByRole('heading', { level: 1, name: 'Add Tickety to your server' })).toBeInTheDocument();
    expect(addLink().toString()).toBe(new URL(TEST_CONFIG.inviteUrl).toString());
    expect(addLink().searchParams.has('guild_id')).toBe(false);
  });

  it('preselects the server given as ?guild_id', () => {
    renderPage(<InvitePage />, { url: '/invite?guild_id=1100000000000000777' });
    const url = addLink();
    expect(url.searchParams.get('guild_id')).toBe('1100000000000000777');
    expect(url.searchParams.get('disable_guild_select')).toBe('true');
    expect(url.searchParams.get('client_id')).toBe('1300000000000000001');
    expect(screen.getByText('1100000000000000777')).toBeInTheDocument();
  });

  it("names the preselected server when the signed-in user is in it, and warns when they can't add bots there", () => {
    renderPage(<InvitePage />, { url: '/invite?guild_id=1100000000000000004', me: signedInMe() });
    expect(screen.getByText('Cozy Corner')).toBeInTheDocument();
    expect(screen.getByText(/needs the Manage Server permission/i)).toBeInTheDocument();
  });

  it('ignores a guild_id that is not a Discord id', () => {
    renderPage(<InvitePage />, { url: '/invite?guild_id=javascript:alert(1)' });
    expect(addLink().searchParams.has('guild_id')).toBe(false);
    expect(screen.getByText(/server ID in this link is not valid/i)).toBeInTheDocument();
  });

  it('explains each permission the invite asks for', () => {
    renderPage(<InvitePage />, { url: '/invite', config: { inviteUrl: API_INVITE } });
    for (const name of ['View Channels', 'Send Messages', 'Manage Channels', 'Manage Roles', 'Read Message History', 'Send Messages in Threads']) {
      expect(screen.getByText(name)).toBeInTheDocument();
    }
    expect(screen.getByText(/only the person who opened it, your support roles and the bot can see it/i)).toBeInTheDocument();
    expect(screen.queryByText('Administrator')).not.toBeInTheDocument();
    expect(screen.getByText('applications.commands')).toBeInTheDocument();
  });

  it('says so when the invite asks for Administrator', () => {
    renderPage(<InvitePage />, { url: '/invite' }); // TEST_CONFIG asks for permissions=8
    expect(screen.getByText('Administrator')).toBeInTheDocument();
    expect(screen.getByText(/This invite asks for Administrator/)).toBeInTheDocument();
  });
});
