// @ts-check
/**
 * What a row costs on disk, for the capacity model (docs/operations.md, "Capacity model"): the built
 * all-in-one server on a fresh PostgreSQL database with the demo bot on (90 days of ticket events,
 * transcripts with attachments, the 5,000- and 50,000-message ones), then SIGN_INS sign-ins (a session
 * each) and CONFIG_SAVES saves of Ava's Arcade's configuration. Once the database stops growing, prints
 * per table: live rows, total size (heap, TOAST and indexes: pg_total_relation_size) and bytes per
 * row; and what one configuration save adds.
 *   node bench/storage.mjs           (SIGN_INS=200, CONFIG_SAVES=200)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase, kb, signIn, startServer, table } from './lib.mjs';

const CONFIG_SAVES = Number(process.env.CONFIG_SAVES ?? 200);
const SIGN_INS = Number(process.env.SIGN_INS ?? 200);
const AVAS_ARCADE = '1100000000000000001';
const TABLES = ['ticket_events', 'tickets', 'transcripts', 'transcript_attachments', 'server_config_versions', 'web_logs', 'sessions', 'users', 'user_guilds', 'guilds', 'webhook_events', 'staff_audit'];

/** @param {number} ms */
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

const database = freshDatabase('storage');
const psql = (/** @type {string} */ sql) => execFileSync('psql', [database.url, '-Atc', sql]).toString().trim();
const site = mkdtempSync(join(tmpdir(), 'tickety-bench-site-'));
const server = await startServer({ staticRoot: site, env: { DATABASE_URL: database.url, DEMO_BOT: 'on' } });
try {
  // The demo bot's history and transcripts: done once the database has not grown for 5 s.
  let last = 0;
  let steady = 0;
  const deadline = Date.now() + 180_000;
  while (steady < 5 && Date.now() < deadline) {
    await sleep(1000);
    const size = database.size();
    steady = size === last ? steady + 1 : 0;
    last = size;
  }
  let cookie = '';
  for (let i = 0; i < SIGN_INS; i++) {
    try {
      cookie = (await signIn(server.url, 'ava')).header();
    } catch (error) {
      const res = await fetch(`${server.url}/api/auth/login`, { redirect: 'manual', headers: { accept: 'application/json' } });
      throw new Error(`sign-in ${i + 1}: ${/** @type {Error} */ (error).message}; the login route now: ${res.status} ${(await res.text()).slice(0, 300)}`);
    }
  }
  const count = (/** @type {string} */ name) => Number(psql(`SELECT count(*) FROM ${name}`));
  const before = { versions: count('server_config_versions'), logs: count('web_logs'), bytes: database.size() };
  const headers = { cookie, 'content-type': 'application/json', 'x-requested-with': 'tickety', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' };
  for (let i = 0; i < CONFIG_SAVES; i++) {
    const current = await (await fetch(`${server.url}/api/guilds/${AVAS_ARCADE}/config`, { headers: { cookie } })).json();
    const answer = await fetch(`${server.url}/api/guilds/${AVAS_ARCADE}/config`, { method: 'PUT', headers, body: JSON.stringify({ expectedVersion: current.version, config: current.config }) });
    if (!answer.ok) throw new Error(`config save ${i + 1} answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`);
  }
  const saved = { versions: count('server_config_versions') - before.versions, logs: count('web_logs') - before.logs, bytes: database.size() - before.bytes };
  psql('ANALYZE');
  /** @type {(string|number)[][]} */
  const rows = [];
  for (const name of TABLES) {
    const [count = '0', bytes = '0'] = psql(`SELECT count(*), pg_total_relation_size('${name}') FROM ${name}`).split('|');
    rows.push([name, Number(count), kb(Number(bytes)), Number(count) ? Math.round(Number(bytes) / Number(count)) : '']);
  }
  const payload = psql("SELECT coalesce(sum(size), 0), count(*) FROM transcript_attachments").split('|');
  console.log(`PostgreSQL, the demo bot's data, ${SIGN_INS} sign-ins and ${CONFIG_SAVES} configuration saves; database ${kb(database.size())} in all\n`);
  table(['table', 'rows', 'total size', 'bytes/row'], rows);
  console.log(`\ntranscript attachments: ${payload[1]} files, ${kb(Number(payload[0]))} of content (stored in the table's bytea, TOAST)`);
  const stored = 'pg_column_size(content) + pg_column_size(search_text) + coalesce(pg_column_size(head), 0)';
  for (const [label, where] of [['under 1,000 messages', 'message_count < 1000'], ['1,000 messages or more', 'message_count >= 1000']]) {
    const [count = '0', messages = '0', bytes = '0'] = psql(`SELECT count(*), coalesce(round(avg(message_count)), 0), coalesce(round(avg(${stored})), 0) FROM transcripts WHERE ${where}`).split('|');
    console.log(`transcripts ${label}: ${count}, ${messages} messages and ${kb(Number(bytes))} stored (gzip JSON, head, search text) on average`);
  }
  const [typical = '0', allIn = '0'] = psql(
    `SELECT count(*) FILTER (WHERE message_count < 1000), round((pg_total_relation_size('transcripts') - coalesce(sum(${stored}) FILTER (WHERE message_count >= 1000), 0)) / greatest(count(*) FILTER (WHERE message_count < 1000), 1)) FROM transcripts`,
  ).split('|');
  console.log(`a transcript under 1,000 messages, all in (row, indexes, TOAST; the long ones' stored bytes taken out): ${allIn} bytes (${typical} of them)`);
  console.log(`one configuration save: +${(saved.versions / CONFIG_SAVES).toFixed(2)} versions, +${(saved.logs / CONFIG_SAVES).toFixed(2)} web log entries, +${Math.round(saved.bytes / CONFIG_SAVES)} bytes of database`);
  console.log('bytes/row includes each table\'s indexes and its share of empty page space: small tables read high.');
} finally {
  await server.stop();
  rmSync(site, { recursive: true, force: true });
  database.drop();
}
