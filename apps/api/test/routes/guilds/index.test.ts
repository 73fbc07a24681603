import { ApiError, ERROR_CODES, Guild } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../helpers/app';
import { Browser } from '../../helpers/browser';
import { databases } from '../../helpers/db';
import { signIn } from '../../helpers/oauth';

const { ava, cleo } = DEMO_USERS;

describe.each(databases())('GET /api/guilds/:server on $name', (database) => {
  const t = useTestApp(database);

  it('401 without a session', async () => {
    const res = await new Browser(t.app).get(`/api/guilds/${DEMO_GUILDS.avasArcade.id}`);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 401, message: ERROR_CODES.UNAUTHENTICATED.message, isAuthenticated: false });
  });

  it('answers a server the user manages, from the stored list (no Discord call)', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, ava.id);
    const calls = t.discordCalls.length;
    for (const [guild, botInGuild] of [
      [DEMO_GUILDS.avasArcade, true],
      [DEMO_GUILDS.studyHall, false], // administrator of a server without the bot: an answer, not an error
      [DEMO_GUILDS.modGuild, true], // MANAGE_GUILD
    ] as const) {
      const res = await browser.get(`/api/guilds/${guild.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const body = Guild.parse(res.json());
      expect(body).toMatchObject({ id: guild.id, name: guild.name, canManage: true, botInGuild });
    }
    expect(t.discordCalls.length).toBe(calls);
  });

  it('403 (code 403, selector) for a server the user is in but cannot manage', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, ava.id);
    const res = await browser.get(`/api/guilds/${DEMO_GUILDS.cozyCorner.id}`);
    expect(res.statusCode).toBe(403);
    expect(ApiError.parse(res.json())).toEqual({
      code: 403,
      message: expect.stringContaining('You are not the owner of Cozy Corner and have neither the Administrator nor the Manage Server permission there'),
      isAuthenticated: true,
      selector: true,
    });
  });

  it('404 with body code 405 for a server not in the user\'s list', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, ava.id);
    for (const id of [DEMO_GUILDS.bensWorkshop.id, '123456789012345678']) {
      const res = await browser.get(`/api/guilds/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 405, message: ERROR_CODES.SERVER_NOT_FOUND.message, isAuthenticated: true, selector: true });
    }
  });

  it('Cleo manages none of her servers', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, cleo.id);
    for (const g of cleo.memberships) {
      const res = await browser.get(`/api/guilds/${g.guildId}`);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(403);
    }
  });

  it('400 (1001) for a malformed server id', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, ava.id);
    for (const id of ['abc', '12345', 'server', '1'.repeat(22), '-1100000000000000001', '1100000000000000001.5', '%20', encodeURIComponent('1 OR 1=1')]) {
      const res = await browser.get(`/api/guilds/${id}`);
      expect(res.statusCode, id).toBe(400);
      expect(res.json(), id).toMatchObject({ code: 1001, isAuthenticated: true, selector: true });
    }
  });
});
