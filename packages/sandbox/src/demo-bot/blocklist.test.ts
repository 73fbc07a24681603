import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import { createSandboxControl } from '../discord/control';
import { DEMO_APP, DEMO_CHANNELS, DEMO_GUILDS, DEMO_PEOPLE, DEMO_ROLES, DEMO_USERS } from '../discord/demo-data';
import { discordSandbox } from '../discord/plugin';
import { type BotBlockEntry, blockingEntry, refusalMessage } from './blocklist';
import { DEMO_OPENERS, demoServer, prng } from './history';
import { type LiveDesk, startLiveDesk } from './live';

const ARCADE = DEMO_GUILDS.avasArcade.id;
const KEY = 'tk_bot_testbot01_test-key-of-the-fake-bot-api-000000001';
const NOW = Date.UTC(2026, 10, 29, 10, 0, 0);
const HOUR = 3_600_000;
const { ben, cleo } = DEMO_USERS;
const PLAYER = DEMO_OPENERS[0]!.id;
const at = (ms: number) => new Date(ms).toISOString();

function block(overrides: Partial<BotBlockEntry>): BotBlockEntry {
  return { kind: 'user', id: cleo.id, reason: 'Spam', addedBy: DEMO_USERS.ava.id, addedAt: at(NOW - HOUR), expiresAt: null, ...overrides };
}

describe('which entry blocks a member', () => {
  test('the member’s own entry first, else the role entry that lasts longest; an expired entry blocks no one', () => {
    const role = DEMO_ROLES.avasArcade.member;
    const list = [
      block({ kind: 'role', id: role, reason: 'short', expiresAt: at(NOW + HOUR) }),
      block({ kind: 'role', id: role, reason: 'forever' }),
      block({ id: ben.id, reason: 'own', expiresAt: at(NOW + 2 * HOUR) }),
      block({ id: cleo.id, reason: 'over', expiresAt: at(NOW - 1) }),
    ];
    expect(blockingEntry(list, ben.id, [role], NOW)?.reason).toBe('own');
    expect(blockingEntry(list, DEMO_PEOPLE.mika.id, [role], NOW)?.reason).toBe('forever');
    expect(blockingEntry(list, cleo.id, [], NOW)).toBeNull();
    expect(blockingEntry(list, ben.id, [role], NOW + 3 * HOUR)?.reason).toBe('forever');
    // An entry ends at its expiry (not a moment later).
    expect(blockingEntry([block({ expiresAt: at(NOW) })], cleo.id, [], NOW)).toBeNull();
  });

  test('the member is told the reason and until when, in the server’s language (a Discord timestamp: their own zone)', () => {
    const seconds = Math.floor((NOW + HOUR) / 1000);
    expect(refusalMessage('en', block({ expiresAt: at(NOW + HOUR) }), null)).toBe(
      `🚫 You can't open tickets on this server.\n**Reason:** Spam\nThis block ends <t:${seconds}:f> (<t:${seconds}:R>).`,
    );
    expect(refusalMessage('de', block({ kind: 'role', id: DEMO_ROLES.avasArcade.member }), 'Member')).toBe(
      '🚫 Mitglieder mit der Rolle **Member** können auf diesem Server keine Tickets eröffnen.\n**Grund:** Spam\nDie Sperre gilt, bis ein Moderator sie aufhebt.',
    );
  });
});

describe('the desk honours the blocklist', () => {
  let app: FastifyInstance | null = null;
  let desk: LiveDesk | null = null;
  afterEach(async () => {
    await desk?.stop();
    await app?.close();
    desk = null;
    app = null;
  });

  async function start(config: Record<string, unknown>) {
    app = Fastify({ logger: false, forceCloseConnections: true });
    await app.register(discordSandbox, { prefix: '/sandbox/discord', control: createSandboxControl(), controlRoutes: true, baseUrl: 'http://127.0.0.1/sandbox/discord' });
    const events: Array<Record<string, unknown>> = [];
    await app.register(async (api) => {
      api.get('/api/bot/v1/servers/:server/config', async () => ({ version: 3, config }));
      api.post('/api/bot/v1/events', async (req) => {
        events.push(...(req.body as { events: Array<Record<string, unknown>> }).events);
        return { accepted: 1, duplicates: 0, tickets: 1 };
      });
      api.post('/api/bot/v1/messages', async () => ({ changed: 1, unchanged: 0 }));
    });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const botApi = (method: string, path: string, body?: unknown) =>
      fetch(`${base}/api/bot/v1${path}`, { method, headers: { authorization: `Bearer ${KEY}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const server = demoServer(ARCADE, "Ava's Arcade", [
      { id: 'support', name: 'General support', supportRoleIds: [DEMO_ROLES.avasArcade.supportTeam], question: 'What?', categoryId: DEMO_CHANNELS.avasArcade.supportCategory, namingScheme: 'ticket-{count}', questions: ['What?'] },
    ]);
    desk = startLiveDesk(
      { apiBase: base, key: KEY, sandboxBase: `${base}/sandbox/discord`, discordApiBase: `${base}/sandbox/discord/api/v10`, botToken: DEMO_APP.botToken, cdnBase: `${base}/sandbox/discord/cdn`, servers: [server], startTickets: 0, every: null, random: prng(3), commands: false, clock: () => NOW },
      botApi,
    );
    await desk.started;
    const control = async (name: string, body: Record<string, unknown>) => {
      const res = await fetch(`${base}/sandbox/discord/_control/demo-bot/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      // biome-ignore lint/suspicious/noExplicitAny: the control's answers are read freely
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    return { control, events, desk, base };
  }

  test('a blocked member (by id, or by a role they have) is refused with the reason; nothing opens; others open as before', async () => {
    const { control, events, base } = await start({
      general: { language: 'de' },
      blocklist: [block({ reason: 'Spam in Tickets', expiresAt: at(NOW + HOUR) }), block({ kind: 'role', id: DEMO_ROLES.avasArcade.member, reason: 'Raid' }), block({ id: PLAYER, reason: 'old', expiresAt: at(NOW - HOUR) })],
    });
    const byId = await control('open-ticket', { serverId: ARCADE, userId: cleo.id });
    expect(byId.status).toBe(200);
    const seconds = Math.floor((NOW + HOUR) / 1000);
    expect(byId.body).toMatchObject({
      ticket: null,
      refused: { serverId: ARCADE, userId: cleo.id, language: 'de', entry: { kind: 'user', reason: 'Spam in Tickets' }, message: `🚫 Du kannst auf diesem Server keine Tickets eröffnen.\n**Grund:** Spam in Tickets\nDie Sperre endet <t:${seconds}:f> (<t:${seconds}:R>).` },
    });
    // Ben has the Member role in Ava's Arcade.
    const byRole = await control('open-ticket', { serverId: ARCADE, userId: ben.id });
    expect(byRole.body).toMatchObject({ ticket: null, refused: { roleName: 'Member', entry: { kind: 'role', reason: 'Raid' } } });
    expect(events).toEqual([]);
    expect((await control('tickets', {})).body.tickets).toEqual([]);
    expect((await control('refusals', {})).body.refusals.map((r: { userId: string }) => r.userId)).toEqual([cleo.id, ben.id]);
    // The server's sandbox page shows the bot's ephemeral replies (newest first).
    const guildPage = await (await fetch(`${base}/sandbox/discord/guilds/${ARCADE}`)).text();
    expect(guildPage).toContain("The bot's ephemeral replies (only the member saw them)");
    expect(guildPage.indexOf('Raid')).toBeLessThan(guildPage.indexOf('Spam in Tickets'));
    expect(guildPage).toContain('Die Sperre gilt, bis ein Moderator sie aufhebt.');

    // The player's entry has expired; Ava has none (her Admin role is not listed).
    for (const userId of [PLAYER, DEMO_USERS.ava.id]) {
      const opened = await control('open-ticket', { serverId: ARCADE, userId });
      expect(opened.body.ticket).toMatchObject({ serverId: ARCADE, openerId: userId });
    }
    expect(events.filter((e) => e.type === 'opened').map((e) => e.openerId)).toEqual([PLAYER, DEMO_USERS.ava.id]);
    expect((await control('open-ticket', { userId: 'ben' })).status).toBe(400);
  });

  test('a configuration without a blocklist (an older API) blocks no one', async () => {
    const { desk: live } = await start({ general: { language: 'en' } });
    expect((await live.openTicket(ARCADE, cleo.id)).openerId).toBe(cleo.id);
  });
});
