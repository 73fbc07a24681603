import { gzipSync } from 'node:zlib';
import { ApiError, ERROR_CODES } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { describe, expect, it } from 'vitest';
import { JSON_MAX_CONTAINERS, JSON_MAX_DEPTH } from '../../src/lib/json-body';
import { DASHBOARD_ORIGIN, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';
import { bodyOf, listen, rawExchange } from '../helpers/raw-http';

/** How bodies are read is the same whatever the database: one run, on PGlite. */
const [pglite] = databases();
const ARCADE = DEMO_GUILDS.avasArcade.id;
const KEY = `tk_bot_testkey1_${'k'.repeat(43)}`;

/** Sends `head` on a real connection; what the server answered within `deadlineMs` ('' if nothing). */
const firstAnswer = async (port: number, head: string, deadlineMs: number) =>
  (await rawExchange(port, (socket) => socket.write(head), deadlineMs, (text) => /\r\n\r\n[\s\S]*\}/.test(text))).text;

describe.each([pglite!])('request bodies ($name)', (database) => {
  const t = useTestApp(database, { env: { BOT_API_KEY: KEY } });

  it('answers an anonymous write 401 before its body arrives (the body is never read)', async () => {
    const port = await listen(t.app);
    // Headers announcing 400 KB (within the route's limit), and no body at all.
    const head = [
      `PUT /api/guilds/${ARCADE}/config HTTP/1.1`,
      'Host: localhost',
      `Origin: ${DASHBOARD_ORIGIN}`,
      'X-Requested-With: tickety',
      'Content-Type: application/json',
      'Content-Length: 400000',
      '',
      '',
    ].join('\r\n');
    const answer = await firstAnswer(port, head, 3_000);
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    const body = ApiError.parse(bodyOf(answer));
    expect(body.code).toBe(ERROR_CODES.UNAUTHENTICATED.code);
  });

  it('refuses a signed-in body nested deeper than JSON_MAX_DEPTH with 400 code 1001, and takes one that is not', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, DEMO_USERS.ava.id);
    const deep = `{"expectedVersion":1,"config":${'['.repeat(JSON_MAX_DEPTH + 1)}${']'.repeat(JSON_MAX_DEPTH + 1)}}`;
    const refused = await browser.request('PUT', `/api/guilds/${ARCADE}/config`, {
      headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN },
      payload: deep,
    });
    expect(refused.statusCode).toBe(400);
    expect(ApiError.parse(refused.json())).toMatchObject({ code: 1001, message: expect.stringMatching(/more than 32 levels deep/) });
    // Brackets inside strings are text, not nesting.
    const text = await browser.request('PUT', `/api/guilds/${ARCADE}/config`, {
      headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN },
      payload: JSON.stringify({ expectedVersion: 1, config: { name: '['.repeat(200) } }),
    });
    expect(text.statusCode).toBe(400);
    expect(text.json().message).not.toMatch(/levels deep/);
  });

  it('refuses a signed-in body of more arrays and objects than any schema needs (JSON.parse is slow on them) with 1001', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, DEMO_USERS.ava.id);
    const res = await browser.request('PUT', `/api/guilds/${ARCADE}/config`, {
      headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN },
      payload: `{"expectedVersion":1,"config":[${'[],'.repeat(JSON_MAX_CONTAINERS)}[]]}`,
    });
    expect(res.statusCode).toBe(400);
    expect(ApiError.parse(res.json())).toMatchObject({ code: 1001, message: expect.stringMatching(/more than 32,768 arrays and objects/) });
  });

  it('sizes bodies per route: 64 KB where a route sets nothing, the configuration up to its file limit', async () => {
    const browser = new Browser(t.app);
    await signIn(browser, DEMO_USERS.ava.id);
    const big = JSON.stringify({ pad: 'x'.repeat(100 * 1024) });
    const small = await browser.request('PUT', `/api/guilds/${ARCADE}/premium`, { headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN }, payload: big });
    expect(small.statusCode).toBe(413);
    expect(ApiError.parse(small.json())).toMatchObject({ code: ERROR_CODES.PAYLOAD_TOO_LARGE.code, message: expect.stringMatching(/at most 64 KB/) });
    // The configuration takes 100 KB (its schema then says what is wrong with it).
    const config = await browser.request('PUT', `/api/guilds/${ARCADE}/config`, {
      headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN },
      payload: big,
    });
    expect(config.statusCode).toBe(400);
    expect(config.json().code).toBe(1001);
  });

  it('refuses a gzipped bot body that inflates to deep nesting with 400 code 1001, before parsing it', async () => {
    const bomb = gzipSync(Buffer.from(`{"events":${'['.repeat(1024 * 1024 - 16)}`));
    expect(bomb.length).toBeLessThan(4 * 1024);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bot/v1/events',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: bomb,
    });
    expect(res.statusCode).toBe(400);
    expect(ApiError.parse(res.json())).toMatchObject({ code: 1001, message: expect.stringMatching(/levels deep/) });
  });
});
