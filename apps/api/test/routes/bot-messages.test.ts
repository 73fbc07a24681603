import { gzipSync } from 'node:zlib';
import { ApiError, ERROR_CODES, type TicketMessageEvent, TicketMessageBatchResult, type TranscriptMessage, type TranscriptV2 } from '@tickety/api-contract';
import { DEMO_APP, DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app';
import { databases } from '../helpers/db';

const KEY = `tk_bot_testkey1_${'k'.repeat(43)}`;
const OTHER_KEY = `tk_bot_otherbot1_${'o'.repeat(43)}`;
const BOT = DEMO_APP.clientId;
const ARCADE = DEMO_GUILDS.avasArcade.id;
const { cleo, ava } = DEMO_USERS;
const CLEO = { id: cleo.id, username: 'cleo', displayName: 'Cleo', avatarUrl: null, bot: false, staff: false, colour: null };
const at = (seconds: number) => new Date(Date.UTC(2026, 2, 1, 9, 0, seconds)).toISOString();
const messageId = (index: number) => `13000000000000${String(index).padStart(5, '0')}`;

function message(index: number, content: string): TranscriptMessage {
  return { id: messageId(index), authorId: cleo.id, content, createdAt: at(index), editedAt: null, system: null, replyTo: null, embeds: [], attachments: [], reactions: [], stickers: [] };
}
const created = (id: string, index: number, content: string, ticketId = 't1'): TicketMessageEvent => ({ id, serverId: ARCADE, ticketId, at: at(index), type: 'message_created', message: message(index, content), author: CLEO });
const edited = (id: string, index: number, seconds: number, content: string): TicketMessageEvent => ({
  id,
  serverId: ARCADE,
  ticketId: 't1',
  at: at(seconds),
  type: 'message_edited',
  messageId: messageId(index),
  content,
  embeds: [],
  attachments: [],
});
const deleted = (id: string, index: number, seconds: number): TicketMessageEvent => ({ id, serverId: ARCADE, ticketId: 't1', at: at(seconds), type: 'message_deleted', messageId: messageId(index) });

describe.each(databases())('live ticket messages (POST /api/bot/v1/messages) on $name', (database) => {
  const t = useTestApp(database, { env: { BOT_API_KEY: KEY } });

  beforeEach(async () => {
    await t.db.query('DELETE FROM ticket_messages');
    await t.db.query('DELETE FROM tickets');
    await t.db.query('DELETE FROM ticket_events');
  });

  const send = async (messages: unknown[], options: { key?: string; gzip?: boolean } = {}) => {
    const json = JSON.stringify({ messages });
    return t.app.inject({
      method: 'POST',
      url: '/api/bot/v1/messages',
      headers: { authorization: `Bearer ${options.key ?? KEY}`, 'content-type': 'application/json', ...(options.gzip ? { 'content-encoding': 'gzip' } : {}) },
      payload: options.gzip ? gzipSync(json) : json,
    });
  };
  const ok = async (messages: TicketMessageEvent[]) => {
    const res = await send(messages);
    expect(res.statusCode, res.body).toBe(200);
    return TicketMessageBatchResult.parse(res.json());
  };
  const stored = async () =>
    (
      await t.db.query<{ message_id: string; content: string | null; edited: string | null; deleted: boolean; seq: string }>(
        `SELECT message_id, message->>'content' AS content, edit->>'content' AS edited, deleted_at IS NOT NULL AS deleted, seq::text FROM ticket_messages WHERE bot_id = $1 ORDER BY message_id`,
        [BOT],
      )
    ).rows;

  it('stores posted messages once, however often a batch is sent', async () => {
    expect(await ok([created('m1', 1, 'Hello'), created('m2', 2, 'Anyone?')])).toEqual({ changed: 2, unchanged: 0 });
    expect(await ok([created('m1', 1, 'Hello'), created('m2', 2, 'Anyone?')])).toEqual({ changed: 0, unchanged: 2 });
    expect((await stored()).map((row) => [row.message_id, row.content])).toEqual([
      [messageId(1), 'Hello'],
      [messageId(2), 'Anyone?'],
    ]);
  });

  it('gives the same message whatever order its events arrive in, and a deleted one stays deleted', async () => {
    // In order, in one database...
    await ok([created('a1', 1, 'v1')]);
    await ok([edited('a2', 1, 10, 'v2')]);
    await ok([edited('a3', 1, 20, 'v3')]);
    const inOrder = await stored();
    await t.db.query('DELETE FROM ticket_messages');
    // ...and backwards: the newest edit first, then an older one, then the creation.
    expect(await ok([edited('b3', 1, 20, 'v3')])).toEqual({ changed: 1, unchanged: 0 });
    expect(await ok([edited('b2', 1, 10, 'v2')])).toEqual({ changed: 0, unchanged: 1 });
    expect(await ok([created('b1', 1, 'v1')])).toEqual({ changed: 1, unchanged: 0 });
    expect((await stored()).map(({ seq: _seq, ...row }) => row)).toEqual(inOrder.map(({ seq: _seq, ...row }) => row));
    expect((await stored())[0]).toMatchObject({ content: 'v1', edited: 'v3', deleted: false });

    // A delete, then edits arriving after it (one sent before it, one after): still deleted, unchanged.
    expect(await ok([deleted('c1', 1, 30)])).toEqual({ changed: 1, unchanged: 0 });
    expect(await ok([edited('c2', 1, 25, 'late')])).toEqual({ changed: 0, unchanged: 1 });
    expect(await ok([edited('c3', 1, 40, 'after the delete')])).toEqual({ changed: 0, unchanged: 1 });
    expect(await ok([deleted('c4', 1, 45)])).toEqual({ changed: 0, unchanged: 1 });
    expect((await stored())[0]).toMatchObject({ edited: 'v3', deleted: true });
    // A delete before its creation: created, deleted.
    expect(await ok([deleted('d1', 2, 5), created('d2', 2, 'gone')])).toEqual({ changed: 1, unchanged: 0 });
    expect((await stored())[1]).toMatchObject({ content: 'gone', deleted: true });
  });

  it('takes a new seq on every change, so a reader asks for what changed after the last it saw', async () => {
    await ok([created('s1', 1, 'one'), created('s2', 2, 'two')]);
    const before = await stored();
    await ok([edited('s3', 1, 50, 'one, edited')]);
    const after = await stored();
    expect(BigInt(after[0]!.seq)).toBeGreaterThan(BigInt(before[1]!.seq));
    expect(after[1]!.seq).toBe(before[1]!.seq);
  });

  it('stores nothing for a closed ticket, and forgets a ticket once its transcript is stored', async () => {
    const events = (list: unknown[]) => t.app.inject({ method: 'POST', url: '/api/bot/v1/events', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, payload: JSON.stringify({ events: list }) });
    expect((await events([{ id: 'o1', serverId: ARCADE, ticketId: 't1', at: at(0), type: 'opened', panelId: 'support', openerId: cleo.id, number: 1, answers: [] }])).statusCode).toBe(200);
    await ok([created('x1', 1, 'while open')]);
    expect((await events([{ id: 'c1', serverId: ARCADE, ticketId: 't1', at: at(100), type: 'closed', closedBy: ava.id, reason: null }])).statusCode).toBe(200);
    expect(await ok([created('x2', 2, 'after the close')])).toEqual({ changed: 0, unchanged: 1 });
    expect((await stored()).map((row) => row.content)).toEqual(['while open']);

    const transcript: TranscriptV2 = {
      version: 2,
      server: { id: ARCADE, name: 'Ava’s Arcade', iconUrl: null },
      channel: { id: '1200000000000009001', name: 'ticket-0001' },
      ticket: { id: 't1', number: 1, panelId: 'support', openerId: cleo.id, openedAt: at(0), closedAt: at(100), closedBy: ava.id, reason: null },
      users: [CLEO],
      roles: [],
      channels: [],
      messages: [message(1, 'while open')],
    };
    const put = await t.app.inject({ method: 'PUT', url: `/api/bot/v1/servers/${ARCADE}/transcripts/t1-file`, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, payload: JSON.stringify(transcript) });
    expect(put.statusCode, put.body).toBe(200);
    expect(await stored()).toEqual([]);
  });

  it('refuses a bad batch whole, with the catalogue, storing nothing', async () => {
    const bad: unknown[][] = [
      [],
      [{ ...created('v1', 1, 'x'), type: 'message_pinned' }],
      [{ ...created('v1', 1, 'x'), at: 'yesterday' }],
      [created('v1', 1, 'x'), created('v1', 2, 'y')],
      [{ ...edited('v1', 1, 1, 'x'), extra: true }],
      [created('v1', 1, 'x'), { ...deleted('v2', 1, 2), messageId: 'not-an-id' }],
      [created('v1', 1, 'x'.repeat(4001))],
    ];
    for (const batch of bad) {
      const res = await send(batch);
      expect(res.statusCode, JSON.stringify(batch).slice(0, 80)).toBe(400);
      expect(ApiError.parse(res.json()).code).toBe(ERROR_CODES.VALIDATION_FAILED.code);
    }
    expect(await stored()).toEqual([]);
    // Gzipped bodies are read like plain ones.
    const gz = await send([created('g1', 1, 'zipped')], { gzip: true });
    expect(gz.statusCode, gz.body).toBe(200);
  });

  it("refuses a key that is not the server's bot, and no key at all", async () => {
    const foreign = await send([created('f1', 1, 'x')], { key: OTHER_KEY });
    expect([401, 403]).toContain(foreign.statusCode);
    const none = await t.app.inject({ method: 'POST', url: '/api/bot/v1/messages', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ messages: [created('f2', 1, 'x')] }) });
    expect(none.statusCode).toBe(401);
    expect(await stored()).toEqual([]);
  });
});
