import { gzipSync } from 'node:zlib';
import { ApiError, ERROR_CODES, type TicketMessageEvent, TicketMessageBatchResult, type TranscriptMessage, type TranscriptV2 } from '@tickety/api-contract';
import { DEMO_APP, DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
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

  const OTHER_BOT = '999000000000000001';
  beforeAll(async () => {
    await t.app.botKeys.ensure(OTHER_KEY, OTHER_BOT, 'other bot');
  });
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

    // A delete: it drops the edit, later edits change nothing, a later delete neither; an earlier one moves it.
    expect(await ok([deleted('c1', 1, 30)])).toEqual({ changed: 1, unchanged: 0 });
    expect(await ok([edited('c2', 1, 25, 'late')])).toEqual({ changed: 0, unchanged: 1 });
    expect(await ok([edited('c3', 1, 40, 'after the delete')])).toEqual({ changed: 0, unchanged: 1 });
    expect(await ok([deleted('c4', 1, 45)])).toEqual({ changed: 0, unchanged: 1 });
    expect((await stored())[0]).toMatchObject({ content: 'v1', edited: null, deleted: true });
    // A delete before its creation: created, deleted.
    expect(await ok([deleted('d1', 2, 5), created('d2', 2, 'gone')])).toEqual({ changed: 1, unchanged: 0 });
    expect((await stored())[1]).toMatchObject({ content: 'gone', deleted: true });
  });

  it('ends with the same row for any order and split of the same events, repeats included', async () => {
    const events = [
      created('p1', 1, 'first'),
      edited('p2', 1, 10, 'second'),
      edited('p3', 1, 20, 'third'),
      edited('p4', 1, 20, 'third, same time'),
      created('p5', 2, 'other'),
      edited('p6', 2, 15, 'other, edited'),
      deleted('p7', 2, 30),
      edited('p8', 2, 40, 'edited after the delete'),
      deleted('p9', 2, 35),
    ];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    let expected: unknown = null;
    for (let round = 0; round < 12; round++) {
      await t.db.query('DELETE FROM ticket_messages');
      const shuffled = [...events, ...events.filter(() => random() < 0.3)].map((event) => ({ event, key: random() })).sort((a, b) => a.key - b.key).map(({ event }) => event);
      // Split into batches at random points; an event id appears once per batch.
      let batch: TicketMessageEvent[] = [];
      for (const event of shuffled) {
        if (batch.some((other) => other.id === event.id) || random() < 0.35) {
          if (batch.length > 0) await ok(batch);
          batch = [];
        }
        batch.push(event);
      }
      if (batch.length > 0) await ok(batch);
      const rows = (
        await t.db.query(
          `SELECT message_id, author, message, created_at::text, edit, edit_at::text, deleted_at::text FROM ticket_messages WHERE bot_id = $1 ORDER BY message_id`,
          [BOT],
        )
      ).rows;
      if (expected === null) expected = rows;
      expect(rows, `round ${round}`).toEqual(expected);
    }
    expect((await stored()).map(({ seq: _seq, ...row }) => row)).toEqual([
      { message_id: messageId(1), content: 'first', edited: 'third, same time', deleted: false },
      { message_id: messageId(2), content: 'other', edited: null, deleted: true },
    ]);
    expect((expected as Array<{ deleted_at: string | null }>)[1]!.deleted_at).toBe((await t.db.query<{ at: string }>(`SELECT $1::timestamptz::text AS at`, [at(30)])).rows[0]!.at);
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

  it("refuses a batch naming a server the bot does not serve, and no key at all, storing nothing", async () => {
    await t.db.query('INSERT INTO bot_servers (guild_id, bot_id, created_at) VALUES ($1, $2, now())', [ARCADE, OTHER_BOT]);
    try {
      // Ava's Arcade is the other bot's now: the product's bot may not post its messages...
      const mine = await send([created('f1', 1, 'x')]);
      expect(mine.statusCode).toBe(403);
      expect(ApiError.parse(mine.json()).code).toBe(ERROR_CODES.BOT_SERVER_FORBIDDEN.code);
      // ...and the other bot's messages are its own.
      expect((await send([created('f2', 2, 'theirs')], { key: OTHER_KEY })).statusCode).toBe(200);
    } finally {
      await t.db.query('DELETE FROM bot_servers WHERE guild_id = $1', [ARCADE]);
    }
    const none = await t.app.inject({ method: 'POST', url: '/api/bot/v1/messages', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ messages: [created('f3', 1, 'x')] }) });
    expect(none.statusCode).toBe(401);
    const rows = (await t.db.query<{ bot_id: string; message_id: string }>('SELECT bot_id, message_id FROM ticket_messages')).rows;
    expect(rows).toEqual([{ bot_id: OTHER_BOT, message_id: messageId(2) }]);
  });
});
