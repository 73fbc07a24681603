import { ERROR_CODES, type ServerConfig, TicketDetail, type TicketEvent, type TicketMessageEvent, TicketQueue, type TranscriptUser } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../demo/seed';
import { DASHBOARD_ORIGIN, type TestApp, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';

const KEY = `tk_bot_testkey1_${'k'.repeat(43)}`;
const ARCADE: string = DEMO_GUILDS.avasArcade.id;
const { ava, ben, cleo, nico } = DEMO_USERS;
const MUTATION = { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN };
const HOUR = 3_600_000;

/** The test clock's morning (2026-03-02, before its 10:00). */
const at = (time: string) => `2026-03-02T${time}:00.000Z`;
const later = (time: string, hours: number) => new Date(Date.parse(at(time)) + hours * HOUR).toISOString();
const person = (id: string, name: string): TranscriptUser => ({ id, username: name.toLowerCase(), displayName: name, avatarUrl: null, bot: false, staff: false, colour: null });
let count = 0;

function opened(ticketId: string, number: number, openerId: string, time: string, panelId = 'support'): TicketEvent {
  return { id: `ac${++count}`, serverId: ARCADE, ticketId, at: at(time), type: 'opened', panelId, openerId, number, answers: [] };
}
function said(ticketId: string, author: TranscriptUser, time: string): TicketMessageEvent {
  const id = `14000000000000${String(++count).padStart(5, '0')}`;
  return {
    id: `acm${count}`,
    serverId: ARCADE,
    ticketId,
    at: at(time),
    type: 'message_created',
    message: { id, authorId: author.id, content: 'words', createdAt: at(time), editedAt: null, system: null, replyTo: null, embeds: [], attachments: [], reactions: [], stickers: [] },
    author,
  };
}

async function botPost(app: TestApp['app'], path: string, body: unknown): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: `/api/bot/v1/${path}`, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
}

describe.each(databases())('auto-close: the rules in the configuration and the queue’s due times on $name', (database) => {
  const t = useTestApp(database, { env: { BOT_API_KEY: KEY } });
  let browser: Browser;
  const base = `/api/guilds/${ARCADE}`;
  const queue = async () => {
    const res = await browser.get(`${base}/tickets`);
    expect(res.statusCode, res.body).toBe(200);
    return new Map(TicketQueue.parse(res.json()).tickets.map((ticket) => [ticket.id, ticket.autoClose]));
  };
  const save = async (change: (config: ServerConfig) => ServerConfig) => {
    const live = await t.app.serverConfigs.live(ARCADE);
    return browser.request('PUT', `${base}/config`, { headers: MUTATION, payload: { expectedVersion: live.version, config: change(structuredClone(live.config)) } });
  };

  beforeAll(async () => {
    await seedDemo(t.app, t.sandbox);
    browser = new Browser(t.app);
    await signIn(browser, ava.id);
    const CLEO = person(cleo.id, 'Cleo');
    const BEN = person(ben.id, 'Ben');
    const NICO = person(nico.id, 'Nico');
    // a1: staff answered last (08:10); a2: the member wrote last (09:01); a3: staff last, then Keep open
    // at 09:30; a4: nobody wrote; a5: closed; a6: a panel the configuration no longer has.
    const events = await botPost(t.app, 'events', {
      events: [
        opened('a1', 1, cleo.id, '08:00'),
        opened('a2', 2, ben.id, '09:00'),
        opened('a3', 3, cleo.id, '08:00'),
        { id: 'keep-a3', serverId: ARCADE, ticketId: 'a3', at: at('09:30'), type: 'kept_open', by: cleo.id },
        opened('a4', 4, ben.id, '09:00'),
        opened('a5', 5, ben.id, '07:00'),
        { id: 'close-a5', serverId: ARCADE, ticketId: 'a5', at: at('07:30'), type: 'closed', closedBy: ava.id, reason: null },
        opened('a6', 6, ben.id, '09:10', 'gone'),
      ],
    });
    expect(events.statusCode, events.body).toBe(200);
    const messages = await botPost(t.app, 'messages', {
      messages: [said('a1', CLEO, '08:05'), said('a1', NICO, '08:10'), said('a2', BEN, '09:01'), said('a3', CLEO, '08:05'), said('a3', NICO, '08:10')],
    });
    expect(messages.statusCode, messages.body).toBe(200);
  });

  it('shows no due time while the rules are off (the default)', async () => {
    const dues = await queue();
    expect([...dues.values()]).toEqual([null, null, null, null, null]);
  });

  it('computes each open ticket’s due time from the server’s rules: the member’s silence after staff, staff’s after the member, Keep open', async () => {
    const saved = await save((config) => ({ ...config, autoClose: { memberSilentHours: 24, staffSilentHours: 48, onOpenerLeave: true, warningHours: 2, warningMessage: '{user}, this closes {time}.' } }));
    expect(saved.statusCode, saved.body).toBe(200);
    // Web Logs name what changed.
    const logs = await browser.get(`${base}/logs?limit=1`);
    expect(logs.json().entries[0]).toMatchObject({ action: 'config.update', target: 'Auto-close' });
    expect(logs.json().entries[0].changes).toContainEqual({ path: 'autoClose.memberSilentHours', before: null, after: 24 });
    const dues = await queue();
    expect(dues.get('a1')).toEqual({ rule: 'member_silent', at: later('08:10', 24), warnAt: later('08:10', 22) });
    expect(dues.get('a2')).toEqual({ rule: 'staff_silent', at: later('09:01', 48), warnAt: later('09:01', 46) });
    expect(dues.get('a3')).toEqual({ rule: 'member_silent', at: later('09:30', 24), warnAt: later('09:30', 22) });
    expect(dues.get('a4')).toEqual({ rule: 'staff_silent', at: later('09:00', 48), warnAt: later('09:00', 46) });
    expect(dues.get('a6')).toEqual({ rule: 'staff_silent', at: later('09:10', 48), warnAt: later('09:10', 46) });
    expect(dues.has('a5')).toBe(false);
    const closed = await browser.get(`${base}/tickets/a5`);
    expect(TicketDetail.parse(closed.json()).ticket.autoClose).toBeNull();
    const detail = await browser.get(`${base}/tickets/a1`);
    expect(TicketDetail.parse(detail.json()).ticket.autoClose).toEqual({ rule: 'member_silent', at: later('08:10', 24), warnAt: later('08:10', 22) });
  });

  it('follows a panel’s own rules over the server’s; a rule turned off shows no due time', async () => {
    const saved = await save((config) => ({
      ...config,
      panels: config.panels.map((panel) => (panel.id === 'support' ? { ...panel, autoClose: { memberSilentHours: null, staffSilentHours: 6, onOpenerLeave: false, warningHours: 0, warningMessage: '' } } : panel)),
    }));
    expect(saved.statusCode, saved.body).toBe(200);
    const dues = await queue();
    expect(dues.get('a1')).toBeNull();
    expect(dues.get('a2')).toEqual({ rule: 'staff_silent', at: later('09:01', 6), warnAt: null });
    // a6's panel is gone: the server's rules.
    expect(dues.get('a6')).toEqual({ rule: 'staff_silent', at: later('09:10', 48), warnAt: later('09:10', 46) });
  });

  it('refuses rules that do not pass the schema with the field and a clear message, and writes nothing', async () => {
    const before = await t.app.serverConfigs.live(ARCADE);
    const cases: Array<[ServerConfig['autoClose'], string]> = [
      [{ memberSilentHours: 24, staffSilentHours: null, onOpenerLeave: false, warningHours: 24, warningMessage: '' }, 'autoClose.warningHours: The warning must come before the close: less than 24 hours.'],
      [{ memberSilentHours: 0, staffSilentHours: null, onOpenerLeave: false, warningHours: 0, warningMessage: '' }, 'autoClose.memberSilentHours: The wait for the member must be at least 1 hour.'],
      [{ memberSilentHours: 721, staffSilentHours: null, onOpenerLeave: false, warningHours: 0, warningMessage: '' }, 'autoClose.memberSilentHours: The wait for the member can be at most 720 hours.'],
      [{ memberSilentHours: 1.5, staffSilentHours: null, onOpenerLeave: false, warningHours: 0, warningMessage: '' }, 'autoClose.memberSilentHours: The wait for the member must be a whole number of hours.'],
    ];
    for (const [autoClose, message] of cases) {
      const res = await save((config) => ({ ...config, autoClose }));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION_FAILED.code, message });
    }
    const panelRule = await save((config) => ({ ...config, panels: config.panels.map((panel, index) => (index === 0 ? { ...panel, autoClose: { memberSilentHours: 2, staffSilentHours: 3, onOpenerLeave: false, warningHours: 2, warningMessage: '' } } : panel)) }));
    expect(panelRule.statusCode).toBe(400);
    expect(panelRule.json().message).toMatch(/^panels\.0\.autoClose\.warningHours: The warning must come before the close: less than 2 hours\.$/);
    expect((await t.app.serverConfigs.live(ARCADE)).version).toBe(before.version);
  });

  it('takes the bot’s kept_open event, and refuses a malformed one whole', async () => {
    const bad = await botPost(t.app, 'events', { events: [{ id: 'keep-bad', serverId: ARCADE, ticketId: 'a1', at: at('09:40'), type: 'kept_open', by: 'someone' }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: ERROR_CODES.VALIDATION_FAILED.code });
    expect(bad.json().message).toMatch(/events\.0\.by/);
    const extra = await botPost(t.app, 'events', { events: [{ id: 'keep-extra', serverId: ARCADE, ticketId: 'a2', at: at('09:40'), type: 'kept_open', by: ben.id, hours: 3 }] });
    expect(extra.statusCode).toBe(400);
    const good = await botPost(t.app, 'events', { events: [{ id: 'keep-a2', serverId: ARCADE, ticketId: 'a2', at: at('09:40'), type: 'kept_open', by: ben.id }] });
    expect(good.statusCode, good.body).toBe(200);
    expect((await queue()).get('a2')).toEqual({ rule: 'staff_silent', at: later('09:40', 6), warnAt: null });
  });
});
