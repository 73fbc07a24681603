import { gunzipSync, gzipSync } from 'node:zlib';
import { ApiError, type TranscriptV2 } from '@tickety/api-contract';
import { createS3SandboxControl, DEMO_GUILDS, DEMO_LEGACY_TRANSCRIPTS, DEMO_USERS, s3Sandbox, signAttachment } from '@tickety/sandbox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DASHBOARD_ORIGIN, type TestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { MINUTE } from '../helpers/clock';
import { databases, openSuiteDb } from '../helpers/db';
import { signIn } from '../helpers/oauth';

/**
 * Transcripts with BLOB_STORE=s3 against the sandbox's S3 stand-in on a real loopback port: stored,
 * read back, replaced and deleted through the API, and what a store that fails answers (503 code
 * 1031, nothing half-done). docs/operations.md, "Transcript storage".
 */

const { ava, cleo } = DEMO_USERS;
const ARCADE = DEMO_GUILDS.avasArcade.id;
const KEY = `tk_bot_testkey1_${'k'.repeat(43)}`;
const FROM_DASHBOARD = { 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN };
const S3 = { accessKeyId: 'TICKETYSANDBOXKEY', secretAccessKey: 'tickety-sandbox-secret-0123456789', bucket: 'transcripts' };
const at = (minutes: number) => new Date(Date.UTC(2026, 2, 1, 9, 0, 0) + minutes * MINUTE).toISOString();

async function standIn() {
  const control = createS3SandboxControl();
  const server: FastifyInstance = Fastify();
  await server.register(s3Sandbox, { prefix: '/sandbox/s3', accessKeyId: S3.accessKeyId, secretAccessKey: S3.secretAccessKey, buckets: [S3.bucket], control });
  const address = await server.listen({ host: '127.0.0.1', port: 0 });
  return { server, control, endpoint: `${address}/sandbox/s3` };
}

function s3Env(endpoint: string, secret = S3.secretAccessKey): Record<string, string> {
  return { BOT_API_KEY: KEY, BLOB_STORE: 's3', S3_ENDPOINT: endpoint, S3_BUCKET: S3.bucket, S3_ACCESS_KEY_ID: S3.accessKeyId, S3_SECRET_ACCESS_KEY: secret, S3_TIMEOUT_MS: '3000' };
}

/** A transcript whose first message carries two files on the sandbox's CDN. */
function transcript(t: TestApp, number: number): TranscriptV2 {
  const cdn = t.config.discord.cdnBase;
  const attachments = DEMO_LEGACY_TRANSCRIPTS.slice(0, 2).map((file, i) => {
    const signature = signAttachment(file.channelId, file.id, file.filename, t.clock.now);
    const url = `${cdn}/attachments/${file.channelId}/${file.id}/${file.filename}?ex=${signature.ex}&is=${signature.is}&hm=${signature.hm}&`;
    return { id: `19000000000000009${i}${number % 10}`, filename: file.filename, contentType: 'text/html', size: 1, url, width: null, height: null };
  });
  return {
    version: 2,
    server: { id: ARCADE, name: 'Ava’s Arcade', iconUrl: null },
    channel: { id: '1200000000000009001', name: `ticket-${number}` },
    ticket: { id: `t${number}`, number, panelId: 'support', openerId: cleo.id, openedAt: at(0), closedAt: at(90), closedBy: ava.id, reason: 'Solved' },
    users: [
      { id: cleo.id, username: 'cleo', displayName: 'Cleo', avatarUrl: null, bot: false, staff: false, colour: null },
      { id: ava.id, username: 'ava', displayName: 'Ava', avatarUrl: null, bot: false, staff: true, colour: null },
    ],
    roles: [],
    channels: [],
    messages: [{ id: '1300000000000009001', authorId: cleo.id, content: `ticket ${number}: the logs`, createdAt: at(1), editedAt: null, system: null, replyTo: null, embeds: [], attachments, reactions: [], stickers: [] }],
  };
}

describe.each(databases())('transcripts in an S3-compatible store on $name', (database) => {
  let s3: Awaited<ReturnType<typeof standIn>>;
  let t: TestApp;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    s3 = await standIn();
    const opened = await openSuiteDb(database);
    drop = opened.drop;
    t = await createTestApp(opened.db, { env: s3Env(s3.endpoint) });
  });
  afterAll(async () => {
    await t?.close();
    await drop?.();
    await s3?.server.close();
  });

  const upload = (fileId: string, body: TranscriptV2) =>
    t.app.inject({ method: 'PUT', url: `/api/bot/v1/servers/${ARCADE}/transcripts/${fileId}`, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  const keysOf = (fileId: string) => s3.control.objects(S3.bucket).map((o) => o.key).filter((key) => key.startsWith(`transcripts/${ARCADE}/${fileId}/`));
  const rows = async (sql: string) => (await t.db.query(sql)).rows;
  async function as(userId: string) {
    const browser = new Browser(t.app);
    await signIn(browser, userId);
    return browser;
  }

  it('stores the gzip, its head and the copied attachments in the bucket, the row naming them; readers get them back', async () => {
    const put = await upload('s3file1', transcript(t, 1));
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ attachmentsCopied: 2 });
    const [row] = await rows("SELECT blob_prefix, content, head FROM transcripts WHERE file_id = 's3file1'");
    expect(row).toMatchObject({ content: null, head: null });
    const prefix = String(row!.blob_prefix);
    expect(prefix).toMatch(new RegExp(`^transcripts/${ARCADE}/s3file1/[0-9a-f-]{36}$`));
    expect(keysOf('s3file1')).toEqual([`${prefix}/attachments/1900000000000000901`, `${prefix}/attachments/1900000000000000911`, `${prefix}/content.json.gz`, `${prefix}/head.json.gz`]);
    // Nothing of it in the database.
    expect(await rows('SELECT key FROM blobs')).toEqual([]);
    expect(await rows("SELECT 1 FROM transcript_attachments WHERE file_id = 's3file1' AND content IS NOT NULL")).toEqual([]);

    const cleo_ = await as(cleo.id);
    const whole = await cleo_.get(`/api/transcripts/v2/${ARCADE}/s3file1`, { headers: FROM_DASHBOARD });
    expect(whole.statusCode, whole.body).toBe(200);
    const read = whole.json() as TranscriptV2;
    expect(read.messages[0]!.content).toBe('ticket 1: the logs');
    expect(gunzipSync(s3.control.bytes(S3.bucket, `${prefix}/content.json.gz`)!).toString('utf8')).toBe(JSON.stringify(read));
    const head = await cleo_.get(`/api/transcripts/v2/${ARCADE}/s3file1?part=head`, { headers: FROM_DASHBOARD });
    expect(head.json()).toMatchObject({ totalMessages: 1 });
    for (const [i, attachment] of read.messages[0]!.attachments.entries()) {
      const file = await cleo_.get(attachment.url);
      expect(file.statusCode).toBe(200);
      expect(file.body).toBe(DEMO_LEGACY_TRANSCRIPTS[i]!.html);
    }
  });

  it('a transcript stored before the blob store (its bytes in its rows) stays readable, and is removed with nothing to delete in the bucket', async () => {
    const body = transcript(t, 6);
    body.messages[0]!.attachments = [];
    const gzip = gzipSync(Buffer.from(JSON.stringify(body)));
    const closed = at(90);
    await t.db.query(
      `INSERT INTO transcripts (guild_id, file_id, bot_id, ticket_id, number, panel_id, opener_id, opener_name, opened_at, closed_at, message_count, search_text, json_bytes, content, created_at)
       VALUES ($1, 'legacy6', $2, 't6', 6, 'support', $3, 'Cleo', $4, $4, 1, '', 10, $5, $4)`,
      [ARCADE, t.config.discord.clientId, cleo.id, closed, gzip],
    );
    await t.db.query(
      `INSERT INTO transcript_attachments (guild_id, file_id, attachment_id, filename, content_type, size, content) VALUES ($1, 'legacy6', '1900000000000000606', 'old.txt', 'text/plain', 9, $2)`,
      [ARCADE, Buffer.from('old bytes')],
    );
    const objects = s3.control.objects().length;
    const cleo_ = await as(cleo.id);
    const whole = await cleo_.get(`/api/transcripts/v2/${ARCADE}/legacy6`, { headers: FROM_DASHBOARD });
    expect(whole.statusCode, whole.body).toBe(200);
    expect((whole.json() as TranscriptV2).messages[0]!.content).toBe('ticket 6: the logs');
    // Its head is made from the whole one and kept in its row, as before.
    expect((await cleo_.get(`/api/transcripts/v2/${ARCADE}/legacy6?part=head`, { headers: FROM_DASHBOARD })).json()).toMatchObject({ totalMessages: 1 });
    expect(await rows("SELECT 1 FROM transcripts WHERE file_id = 'legacy6' AND head IS NOT NULL")).toHaveLength(1);
    expect((await cleo_.get(`/api/transcripts/v2/${ARCADE}/legacy6/attachments/1900000000000000606`)).body).toBe('old bytes');
    expect(s3.control.objects()).toHaveLength(objects);
    expect(await t.app.transcripts.remove(ARCADE, 'legacy6')).toBe(true);
    expect(await rows('SELECT key FROM blob_deletions')).toEqual([]);
  });

  it('a second upload replaces the first and its blobs; removing the transcript removes its blobs', async () => {
    const before = keysOf('s3file1');
    expect((await upload('s3file1', transcript(t, 1))).statusCode).toBe(200);
    const after = keysOf('s3file1');
    expect(after).toHaveLength(4);
    expect(after.some((key) => before.includes(key))).toBe(false);
    expect(await rows('SELECT key FROM blob_deletions')).toEqual([]);

    expect(await t.app.transcripts.remove(ARCADE, 's3file1')).toBe(true);
    expect(keysOf('s3file1')).toEqual([]);
    expect(await rows("SELECT 1 FROM transcripts WHERE file_id = 's3file1'")).toEqual([]);
    expect(await rows("SELECT 1 FROM transcript_attachments WHERE file_id = 's3file1'")).toEqual([]);
    expect((await (await as(cleo.id)).get(`/api/transcripts/v2/${ARCADE}/s3file1`, { headers: FROM_DASHBOARD })).statusCode).toBe(404);
    expect(await t.app.transcripts.remove(ARCADE, 's3file1')).toBe(false);
  });

  it('a store that is down: the upload is 503 code 1031 and stores nothing; reads say so too', async () => {
    expect((await upload('s3file2', transcript(t, 2))).statusCode).toBe(200);
    s3.control.outage(true);
    try {
      const refused = await upload('s3file3', transcript(t, 3));
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(ApiError.parse(refused.json())).toMatchObject({ code: 1031, message: expect.stringContaining('the transcript was not stored') });
      expect(await rows("SELECT 1 FROM transcripts WHERE file_id = 's3file3'")).toEqual([]);
      const read = await (await as(cleo.id)).get(`/api/transcripts/v2/${ARCADE}/s3file2`, { headers: FROM_DASHBOARD });
      expect(read.statusCode).toBe(503);
      expect(ApiError.parse(read.json())).toMatchObject({ code: 1031, message: expect.stringContaining('could not be read') });
    } finally {
      s3.control.outage(false);
    }
    expect(keysOf('s3file3')).toEqual([]);
  });

  it('a store failing halfway: what the upload wrote is removed again, and the transcript it would replace stays whole', async () => {
    const kept = keysOf('s3file2');
    s3.control.failPutsAfter(3);
    try {
      const refused = await upload('s3file2', transcript(t, 2));
      expect(refused.statusCode).toBe(503);
      expect(ApiError.parse(refused.json()).code).toBe(1031);
    } finally {
      s3.control.failPutsAfter(null);
    }
    expect(keysOf('s3file2')).toEqual(kept);
    const read = await (await as(cleo.id)).get(`/api/transcripts/v2/${ARCADE}/s3file2`, { headers: FROM_DASHBOARD });
    expect((read.json() as TranscriptV2).messages[0]!.content).toBe('ticket 2: the logs');
  });

  it('a removal while the store is down deletes the rows and queues the blobs, deleted after the next change', async () => {
    const queued = keysOf('s3file2');
    s3.control.outage(true);
    try {
      expect(await t.app.transcripts.remove(ARCADE, 's3file2')).toBe(true);
    } finally {
      s3.control.outage(false);
    }
    expect(keysOf('s3file2')).toEqual(queued);
    expect((await rows('SELECT key FROM blob_deletions ORDER BY key')).map((r) => r.key)).toEqual(queued);
    expect((await upload('s3file4', transcript(t, 4))).statusCode).toBe(200);
    expect(keysOf('s3file2')).toEqual([]);
    expect(await rows('SELECT key FROM blob_deletions')).toEqual([]);
  });
});

describe.each(databases())('transcripts with a wrong S3 secret, or the store stopped, on $name', (database) => {
  let s3: Awaited<ReturnType<typeof standIn>>;
  const apps: TestApp[] = [];
  const drops: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    s3 = await standIn();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const drop of drops) await drop();
    await s3?.server.close();
  });
  async function appWith(env: Record<string, string>): Promise<TestApp> {
    const opened = await openSuiteDb(database);
    drops.push(opened.drop);
    const app = await createTestApp(opened.db, { env });
    apps.push(app);
    return app;
  }
  const upload = (t: TestApp, fileId: string) =>
    t.app.inject({ method: 'PUT', url: `/api/bot/v1/servers/${ARCADE}/transcripts/${fileId}`, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, payload: JSON.stringify(transcript(t, 5)) });

  it('a wrong secret: 503 code 1031, nothing stored anywhere, the cause (SignatureDoesNotMatch) logged without the secret', async () => {
    const t = await appWith(s3Env(s3.endpoint, 'a-wrong-secret-for-the-stand-in'));
    const refused = await upload(t, 'wrong1');
    expect(refused.statusCode).toBe(503);
    expect(ApiError.parse(refused.json()).code).toBe(1031);
    expect((await t.db.query('SELECT 1 FROM transcripts')).rows).toEqual([]);
    expect(s3.control.objects()).toEqual([]);
    const logged = t.logs.text();
    expect(logged).toContain('SignatureDoesNotMatch');
    expect(logged).not.toContain('a-wrong-secret-for-the-stand-in');
  });

  it('the store stopped: 503 code 1031, nothing stored', async () => {
    const stopped = await standIn();
    await stopped.server.close();
    const t = await appWith(s3Env(stopped.endpoint));
    const refused = await upload(t, 'stopped1');
    expect(refused.statusCode).toBe(503);
    expect(ApiError.parse(refused.json()).code).toBe(1031);
    expect((await t.db.query('SELECT 1 FROM transcripts')).rows).toEqual([]);
  });
});
