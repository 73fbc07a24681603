import { request } from 'node:http';
import {
  ApiError,
  BOT_COMMAND_LEASE_SECONDS,
  BOT_COMMAND_TTL_SECONDS,
  BotCommandBatch,
  type BotCommandPayload,
  BotCommandResultAnswer,
  ERROR_CODES,
} from '@tickety/api-contract';
import { DEMO_APP, DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, useTestApp } from '../helpers/app';
import { SECOND } from '../helpers/clock';
import { databases, openSuiteDb } from '../helpers/db';
import { listen } from '../helpers/raw-http';
import { canRunRedisServer, OwnRedis } from '../helpers/redis-server';

const KEY = `tk_bot_testkey1_${'k'.repeat(43)}`;
const OTHER_KEY = `tk_bot_otherbot1_${'o'.repeat(43)}`;
const BOT = DEMO_APP.clientId;
const ARCADE = DEMO_GUILDS.avasArcade.id;
const { ava } = DEMO_USERS;
const AVA = { id: ava.id, name: 'Ava', avatarUrl: null };

/** Queues a command for the demo bot on `app`. */
function queue(app: TestApp['app'], payload: BotCommandPayload = { kind: 'reply', content: 'On it.' }, ticketId = 't1') {
  return app.botCommands.enqueue({ botId: BOT, guildId: ARCADE, ticketId, payload, requestedBy: AVA });
}

/** `GET /api/bot/v1/commands`, without waiting unless `query` says how long (the route's default waits 25 s). */
function commandsOf(app: TestApp['app'], query = '', key: string | null = KEY) {
  const full = query.includes('wait=') ? query : `${query}${query ? '&' : '?'}wait=0`;
  return app.inject({ method: 'GET', url: `/api/bot/v1/commands${full}`, headers: key ? { authorization: `Bearer ${key}` } : {} });
}

async function poll(app: TestApp['app'], query = '') {
  const res = await commandsOf(app, query);
  expect(res.statusCode, res.body).toBe(200);
  return BotCommandBatch.parse(res.json()).commands;
}

function report(app: TestApp['app'], id: string, body: unknown, key = KEY) {
  return app.inject({ method: 'POST', url: `/api/bot/v1/commands/${id}/result`, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
}

describe.each(databases())('bot commands on $name', (database) => {
  const t = useTestApp(database, { env: { BOT_API_KEY: KEY } });
  // Each test starts with no open command (an earlier test's leases lapse as the clock moves).
  beforeEach(async () => {
    await t.db.query(`UPDATE bot_commands SET state = 'done' WHERE state IN ('queued', 'taken')`);
  });

  it('hands a queued command to one poll, with who asked, and never again once reported', async () => {
    const queued = await queue(t.app, { kind: 'reply', content: 'Hello **there**' });
    expect(queued.state).toBe('queued');
    const [command, ...rest] = await poll(t.app);
    expect(rest).toEqual([]);
    expect(command).toMatchObject({ id: queued.id, kind: 'reply', content: 'Hello **there**', serverId: ARCADE, ticketId: 't1', requestedBy: AVA, attempt: 1 });
    expect(Date.parse(command!.leaseUntil) - t.clock.now).toBe(BOT_COMMAND_LEASE_SECONDS * SECOND);
    expect(await poll(t.app)).toEqual([]);
    expect((await t.app.botCommands.get(ARCADE, queued.id))?.state).toBe('taken');

    const done = await report(t.app, queued.id, { outcome: 'done', attempt: 1, messageId: '1300000000000000042' });
    expect(done.statusCode, done.body).toBe(200);
    expect(BotCommandResultAnswer.parse(done.json())).toEqual({ id: queued.id, state: 'done' });
    const view = await t.app.botCommands.get(ARCADE, queued.id);
    expect(view).toMatchObject({ state: 'done', attempts: 1, outcome: { outcome: 'done', messageId: '1300000000000000042' } });
    // The same report again (a retry after a lost answer) is answered as before; another one is refused.
    const retried = await report(t.app, queued.id, { outcome: 'done', attempt: 1, messageId: '1300000000000000042' });
    expect(retried.statusCode).toBe(200);
    const again = await report(t.app, queued.id, { outcome: 'failed', attempt: 1, reason: 'other' });
    expect(again.statusCode).toBe(409);
    expect(ApiError.parse(again.json()).code).toBe(ERROR_CODES.BOT_COMMAND_CLOSED.code);
    t.clock.advance(BOT_COMMAND_LEASE_SECONDS * SECOND);
    expect(await poll(t.app)).toEqual([]);
  });

  it('gives two pollers asking at once disjoint commands, every one exactly once, oldest first', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      ids.push((await queue(t.app, { kind: 'claim' }, `two-${i}`)).id);
      t.clock.advance(1);
    }
    const [first, second] = await Promise.all([poll(t.app, '?max=20'), poll(t.app, '?max=20')]);
    const taken = [...first!, ...second!].map((c) => c.id);
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.sort()).toEqual([...ids].sort());
    for (const batch of [first!, second!]) expect(batch.map((c) => c.id)).toEqual(ids.filter((id) => batch.some((c) => c.id === id)));
  });

  it('hands a command out again, same id and next attempt, when its taker never reported (a bot that died or reconnected)', async () => {
    const queued = await queue(t.app, { kind: 'close', reason: 'Solved' });
    expect((await poll(t.app)).map((c) => c.id)).toEqual([queued.id]);
    t.clock.advance(BOT_COMMAND_LEASE_SECONDS * SECOND - 1);
    expect(await poll(t.app)).toEqual([]);
    t.clock.advance(1);
    const [retry] = await poll(t.app);
    expect(retry).toMatchObject({ id: queued.id, kind: 'close', reason: 'Solved', attempt: 2 });
    // The first taker's late failure does not count while attempt 2 is under way...
    const stale = await report(t.app, queued.id, { outcome: 'failed', attempt: 1, reason: 'rate_limited' });
    expect(stale.statusCode).toBe(409);
    expect(await t.app.botCommands.get(ARCADE, queued.id)).toMatchObject({ state: 'taken', attempts: 2 });
    // ...an attempt never handed out is refused, and the current attempt's report decides.
    expect((await report(t.app, queued.id, { outcome: 'done', attempt: 3 })).statusCode).toBe(400);
    expect((await report(t.app, queued.id, { outcome: 'failed', attempt: 2, reason: 'missing_permission', message: 'Missing Permissions' })).json()).toEqual({ id: queued.id, state: 'failed' });
    expect((await report(t.app, queued.id, { outcome: 'done', attempt: 1 })).statusCode).toBe(409);
    expect(await t.app.botCommands.get(ARCADE, queued.id)).toMatchObject({ state: 'failed', attempts: 2, outcome: { reason: 'missing_permission' } });

    // An earlier attempt's report that the command was done counts (what happened, happened).
    const other = await queue(t.app, { kind: 'claim' }, 'done-late');
    await poll(t.app);
    t.clock.advance(BOT_COMMAND_LEASE_SECONDS * SECOND);
    expect((await poll(t.app)).map((c) => [c.id, c.attempt])).toEqual([[other.id, 2]]);
    expect((await report(t.app, other.id, { outcome: 'done', attempt: 1 })).json()).toEqual({ id: other.id, state: 'done' });
  });

  it('expires a command no bot took within its time, and ends one taken but never reported as lost', async () => {
    const untaken = await queue(t.app, { kind: 'unclaim' });
    t.clock.advance(BOT_COMMAND_TTL_SECONDS * SECOND);
    expect(await poll(t.app)).toEqual([]);
    expect((await t.app.botCommands.get(ARCADE, untaken.id))?.state).toBe('expired');
    const refused = await report(t.app, untaken.id, { outcome: 'done', attempt: 1 });
    expect(refused.statusCode).toBe(409);

    const silent = await queue(t.app, { kind: 'add_member', userId: DEMO_USERS.ben.id });
    t.clock.advance((BOT_COMMAND_TTL_SECONDS - 5) * SECOND);
    expect((await poll(t.app)).map((c) => c.id)).toEqual([silent.id]);
    t.clock.advance(BOT_COMMAND_LEASE_SECONDS * SECOND);
    expect(await poll(t.app)).toEqual([]);
    expect((await t.app.botCommands.get(ARCADE, silent.id))?.state).toBe('lost');
    // What happened, happened: a late report is recorded.
    expect((await report(t.app, silent.id, { outcome: 'done', attempt: 1 })).json()).toEqual({ id: silent.id, state: 'done' });
  });

  it("deletes a server's commands 30 days after they were queued, as new ones are queued", async () => {
    const old = await queue(t.app);
    t.clock.advance(30 * 24 * 3600 * SECOND - 1);
    await queue(t.app);
    expect(await t.app.botCommands.get(ARCADE, old.id)).not.toBeNull();
    t.clock.advance(1);
    const fresh = await queue(t.app);
    expect(await t.app.botCommands.get(ARCADE, old.id)).toBeNull();
    expect(await t.app.botCommands.get(ARCADE, fresh.id)).not.toBeNull();
  });

  it('answers a waiting poll as soon as a command is queued', async () => {
    expect(await poll(t.app)).toEqual([]);
    const started = performance.now();
    const waiting = poll(t.app, '?wait=10');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const queued = await queue(t.app, { kind: 'set_labels', labels: ['billing'] });
    const commands = await waiting;
    expect(commands.map((c) => c.id)).toEqual([queued.id]);
    // Woken by the signal, not by the re-read every few seconds.
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("hands a ticket's commands out one at a time, in the order they were queued", async () => {
    const first = await queue(t.app, { kind: 'reply', content: 'one' }, 'ordered');
    t.clock.advance(1);
    const second = await queue(t.app, { kind: 'reply', content: 'two' }, 'ordered');
    t.clock.advance(1);
    const elsewhere = await queue(t.app, { kind: 'reply', content: 'other ticket' }, 'another');
    expect((await poll(t.app)).map((c) => c.id)).toEqual([first.id, elsewhere.id]);
    expect(await poll(t.app)).toEqual([]);
    // The first one's lease runs out: it comes again, still before the second.
    t.clock.advance(BOT_COMMAND_LEASE_SECONDS * SECOND);
    expect((await poll(t.app)).map((c) => c.id)).toEqual([first.id, elsewhere.id]);
    // Reported: the second one is next, and a waiting poll hears of it at once.
    const waiting = poll(t.app, '?wait=10');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    expect((await report(t.app, first.id, { outcome: 'done', attempt: 2 })).statusCode).toBe(200);
    expect((await waiting).map((c) => c.id)).toEqual([second.id]);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("keeps each bot's commands its own", async () => {
    await t.app.botKeys.ensure(OTHER_KEY, '999000000000000001', 'other bot');
    const queued = await queue(t.app);
    const theirs = await commandsOf(t.app, '?wait=0', OTHER_KEY);
    expect(theirs.statusCode).toBe(200);
    expect(BotCommandBatch.parse(theirs.json()).commands).toEqual([]);
    const [mine] = await poll(t.app);
    expect(mine?.id).toBe(queued.id);
    const foreign = await report(t.app, queued.id, { outcome: 'failed', attempt: 1, reason: 'other' }, OTHER_KEY);
    expect(foreign.statusCode).toBe(404);
    expect((await t.app.botCommands.get(ARCADE, queued.id))?.state).toBe('taken');
  });

  it('refuses a fifth poll of one bot waiting on one instance, and takes nothing for a bot already gone', async () => {
    const waiting = [1, 2, 3, 4].map(() => poll(t.app, '?wait=3'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const fifth = await commandsOf(t.app, '?wait=3');
    expect(fifth.statusCode).toBe(429);
    expect(ApiError.parse(fifth.json()).code).toBe(ERROR_CODES.RATE_LIMITED.code);
    expect(fifth.headers['retry-after']).toBe('5');
    // A poll without waiting is always answered.
    expect((await commandsOf(t.app, '?wait=0')).statusCode).toBe(200);
    await Promise.all(waiting);
    const queued = await queue(t.app);
    expect(await t.app.botCommands.poll(BOT, 20, 10_000, AbortSignal.abort())).toEqual([]);
    expect((await t.app.botCommands.get(ARCADE, queued.id))?.state).toBe('queued');
  });

  it('takes nothing for a bot that hung up while it waited', async () => {
    const port = await listen(t.app);
    await new Promise<void>((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', path: '/api/bot/v1/commands?wait=20', headers: { authorization: `Bearer ${KEY}` } });
      req.on('error', () => resolve());
      req.end();
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
      req.on('response', () => reject(new Error('the poll answered before the bot hung up')));
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const queued = await queue(t.app);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [command] = await poll(t.app);
    expect(command).toMatchObject({ id: queued.id, attempt: 1 });
  });

  it('refuses bad polls and reports with the catalogue, changing nothing', async () => {
    for (const query of ['?wait=26', '?wait=-1', '?max=0', '?max=21', '?wait=soon']) {
      const res = await commandsOf(t.app, query);
      expect(res.statusCode, query).toBe(400);
      expect(ApiError.parse(res.json()).code).toBe(ERROR_CODES.VALIDATION_FAILED.code);
    }
    expect((await commandsOf(t.app, '', null)).statusCode).toBe(401);
    expect((await commandsOf(t.app, '', `tk_bot_unknown12_${'u'.repeat(43)}`)).statusCode).toBe(401);

    const queued = await queue(t.app);
    await poll(t.app);
    for (const body of [
      {},
      { outcome: 'maybe', attempt: 1 },
      { outcome: 'done' },
      { outcome: 'done', attempt: 0 },
      { outcome: 'failed', attempt: 1 },
      { outcome: 'failed', attempt: 1, reason: 'bored' },
      { outcome: 'done', attempt: 1, messageId: 'x' },
      { outcome: 'done', attempt: 1, extra: 1 },
    ]) {
      const res = await report(t.app, queued.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await t.app.botCommands.get(ARCADE, queued.id))?.state).toBe('taken');
    const unknown = await report(t.app, `cmd_${'a'.repeat(26)}`, { outcome: 'done', attempt: 1 });
    expect(unknown.statusCode).toBe(404);
    expect((await report(t.app, 'not-an-id', { outcome: 'done', attempt: 1 })).statusCode).toBe(400);
  });

  it('ends a waiting poll, empty, when the instance shuts down', async () => {
    const opened = await openSuiteDb(database);
    const own = await createTestApp(opened.db, { env: { BOT_API_KEY: KEY } });
    try {
      const started = performance.now();
      const waiting = commandsOf(own.app, '?wait=20');
      await new Promise((resolve) => setTimeout(resolve, 200));
      await own.close();
      const res = await waiting;
      expect(res.statusCode).toBe(200);
      expect(BotCommandBatch.parse(res.json()).commands).toEqual([]);
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      await opened.drop();
    }
  });
});

/** A balancer sends the bot's poll to one instance and the dashboard's command to another. */
describe.skipIf(!canRunRedisServer).each(databases().filter((database) => database.name === 'postgres'))('bot commands across two instances on $name with Redis', (database) => {
  let redis: OwnRedis;
  let first: TestApp;
  let second: TestApp;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    redis = await OwnRedis.start();
    const opened = await openSuiteDb(database);
    drop = opened.drop;
    const env = { REDIS_URL: redis.url, BOT_API_KEY: KEY };
    first = await createTestApp(opened.db, { env });
    second = await createTestApp(opened.db, { env });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await drop?.();
    await redis?.kill();
  });

  it('wakes a poll waiting on one instance within a second of a command queued on the other', async () => {
    const waiting = poll(first.app, '?wait=20');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    const queued = await queue(second.app);
    const commands = await waiting;
    const took = performance.now() - started;
    expect(commands.map((c) => c.id)).toEqual([queued.id]);
    expect(took).toBeLessThan(1_000);
  });

  it('gives pollers on both instances every command exactly once', async () => {
    const ids = await Promise.all(Array.from({ length: 25 }, (_, i) => queue(second.app, { kind: 'claim' }, `both-${i}`).then((c) => c.id)));
    const batches = await Promise.all([poll(first.app, '?max=10'), poll(second.app, '?max=10'), poll(first.app, '?max=10'), poll(second.app, '?max=10')]);
    const taken = batches.flat().map((c) => c.id);
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.sort()).toEqual([...ids].sort());
  });
});
