import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { runInNewContext } from 'node:vm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnalyticsSandboxControl, type AnalyticsSandboxOptions, analyticsSandbox, createAnalyticsSandboxControl } from '.';

const PREFIX = '/sandbox/analytics';
const TOKEN = 'demo_analytics';
const AT = Date.UTC(2026, 0, 15, 12, 0, 0);
const USER_ID = '1000000000000000001';

let app: FastifyInstance | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

async function harness(options: Partial<AnalyticsSandboxOptions> = {}): Promise<{ app: FastifyInstance; control: AnalyticsSandboxControl }> {
  const control = options.control ?? createAnalyticsSandboxControl();
  app = Fastify();
  await app.register(analyticsSandbox, { prefix: PREFIX, token: TOKEN, clock: () => AT, control, ...options });
  await app.ready();
  return { app, control };
}

const post = (app: FastifyInstance, body: unknown, contentType = 'text/plain') =>
  app.inject({ method: 'POST', url: `${PREFIX}/starts`, headers: { 'content-type': contentType }, payload: typeof body === 'string' ? body : JSON.stringify(body) });

/** The served script run against a page: its queue stub, its script tag, fetch recorded. */
function runScript(code: string, options: { queue?: unknown[][]; pwAuth?: string | null } = {}) {
  const logs: Array<{ level: string; text: string }> = [];
  const fetched: Array<{ url: string; init: RequestInit }> = [];
  const stub = Object.assign(() => undefined, { q: options.queue ?? [] });
  const window: Record<string, unknown> = { location: { pathname: '/billing', origin: 'http://localhost:3000' }, profitwell: stub };
  const tag = { getAttribute: (name: string) => (name === 'data-pw-auth' ? (options.pwAuth === undefined ? TOKEN : options.pwAuth) : null) };
  const log = (level: string) => (...args: unknown[]) => logs.push({ level, text: args.map(String).join(' ') });
  runInNewContext(code, {
    window,
    document: { currentScript: { src: `http://localhost:3000${PREFIX}/profitwell.js?auth=${TOKEN}` }, getElementById: (id: string) => (id === 'profitwell-js' ? tag : null) },
    fetch: (url: string, init: RequestInit) => {
      fetched.push({ url, init });
      return Promise.resolve({ ok: true });
    },
    console: { log: log('log'), info: log('info'), warn: log('warn'), error: log('error') },
    JSON,
    Array,
  });
  return { window, logs, fetched, profitwell: window.profitwell as (...args: unknown[]) => void };
}

describe('analyticsSandbox', () => {
  it('serves profitwell.js only with its token', async () => {
    const { app } = await harness();
    const ok = await app.inject({ method: 'GET', url: `${PREFIX}/profitwell.js?auth=${TOKEN}` });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toContain('application/javascript');
    expect(ok.body).toContain("profitwell('start'");
    for (const url of [`${PREFIX}/profitwell.js`, `${PREFIX}/profitwell.js?auth=other`, `${PREFIX}/profitwell.js?auth=${TOKEN}x`]) {
      const refused = await app.inject({ method: 'GET', url });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.headers['content-type']).toContain('text/plain');
    }
  });

  it('the script replays the queued calls, then reports each start beside itself, as a simple request without credentials', async () => {
    const { app, control } = await harness();
    const code = (await app.inject({ method: 'GET', url: `${PREFIX}/profitwell.js?auth=${TOKEN}` })).body;
    const page = runScript(code, { queue: [['start', { user_id: USER_ID }], ['cq_dismiss']] });
    expect(page.fetched).toHaveLength(1);
    const [first] = page.fetched;
    expect(first?.url).toBe(`http://localhost:3000${PREFIX}/starts`);
    expect(first?.init).toMatchObject({ method: 'POST', mode: 'no-cors', credentials: 'omit', headers: { 'content-type': 'text/plain' } });
    expect(JSON.parse(String(first?.init.body))).toEqual({ token: TOKEN, user_id: USER_ID, user_email: null, page: '/billing' });
    expect(page.logs.filter((l) => l.level === 'info').map((l) => l.text)).toEqual([expect.stringContaining('"cq_dismiss" is not part of this stand-in')]);
    // Calls after the load go straight through; user_email works too; a start with neither is refused.
    page.profitwell('start', { user_email: 'ava@example.com' });
    page.profitwell('start', {});
    expect(page.fetched).toHaveLength(2);
    expect(page.logs.filter((l) => l.level === 'error').map((l) => l.text)).toEqual([expect.stringContaining('needs { user_id } or { user_email }')]);
    // What it sends, the stand-in records.
    for (const file of page.fetched) expect((await post(app, String(file.init.body))).statusCode).toBe(204);
    expect(control.starts()).toEqual([
      { token: TOKEN, user_id: USER_ID, user_email: null, at: new Date(AT).toISOString(), page: '/billing' },
      { token: TOKEN, user_id: null, user_email: 'ava@example.com', at: new Date(AT).toISOString(), page: '/billing' },
    ]);
  });

  it('the script warns when the tag lacks data-pw-auth, and when loaded twice', async () => {
    const { app } = await harness();
    const code = (await app.inject({ method: 'GET', url: `${PREFIX}/profitwell.js?auth=${TOKEN}` })).body;
    const page = runScript(code, { pwAuth: null });
    expect(page.logs.filter((l) => l.level === 'warn').map((l) => l.text)).toEqual([expect.stringContaining('no data-pw-auth')]);
    const again = runScript(code);
    const first = again.profitwell;
    runInNewContext(code, { window: again.window, document: {}, console: { warn: (t: string) => again.logs.push({ level: 'warn', text: t }) } });
    expect(again.window.profitwell).toBe(first);
    expect(again.logs.at(-1)?.text).toContain('loaded twice');
  });

  it('POST /starts validates what it records', async () => {
    const { app, control } = await harness();
    const cases: Array<[unknown, number, RegExp]> = [
      [{ token: 'nope', user_id: USER_ID }, 403, /Unknown token/],
      [{ user_id: USER_ID }, 403, /Unknown token/],
      [{ token: TOKEN }, 400, /user_id or user_email/],
      [{ token: TOKEN, user_id: 42 }, 400, /user_id must be a string/],
      [{ token: TOKEN, user_id: 'x'.repeat(201) }, 400, /at most 200/],
      [{ token: TOKEN, user_id: 'a\nb' }, 400, /control characters/],
      [{ token: TOKEN, user_email: 'not an email' }, 400, /email address/],
      [{ token: TOKEN, user_id: USER_ID, page: 'https://elsewhere.test/' }, 400, /path/],
      [[1, 2], 400, /JSON object/],
      ['{ nope', 400, /./],
    ];
    for (const [body, status, message] of cases) {
      const res = await post(app, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error).toMatch(message);
    }
    expect((await post(app, 'x'.repeat(5000))).statusCode).toBe(413);
    expect((await post(app, { token: TOKEN, user_id: USER_ID }, 'application/x-www-form-urlencoded')).statusCode).toBe(415);
    expect(control.starts()).toEqual([]);
    // JSON is taken as well as text/plain.
    expect((await post(app, { token: TOKEN, user_id: USER_ID }, 'application/json')).statusCode).toBe(204);
    expect(control.starts()).toEqual([{ token: TOKEN, user_id: USER_ID, user_email: null, at: new Date(AT).toISOString(), page: null }]);
  });

  it('takes a client hanging up mid-request in its stride: no answer, no error logged, nothing recorded, the next start served', async () => {
    // A real server and a real connection: the request's headers and part of its body, then the
    // client is gone (a tab closed while the script's start was on its way).
    const logs: Array<{ level: number; msg: string }> = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
        done();
      },
    });
    const control = createAnalyticsSandboxControl();
    app = Fastify({ logger: { level: 'debug', stream } });
    const answered: number[] = [];
    app.addHook('onSend', async (_req, reply, payload) => {
      answered.push(reply.statusCode);
      return payload;
    });
    await app.register(analyticsSandbox, { prefix: PREFIX, token: TOKEN, clock: () => AT, control });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };

    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((ok) => socket.once('connect', ok));
    const body = JSON.stringify({ token: TOKEN, user_id: USER_ID });
    socket.write(`POST ${PREFIX}/starts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
    await expect.poll(() => logs.some((l) => l.msg === 'incoming request')).toBe(true);
    socket.destroy();
    // The stand-in has dealt with it: answered (what it must not do), or noted the hang-up.
    await expect.poll(() => answered.length > 0 || logs.some((l) => /hung up/.test(l.msg))).toBe(true);

    expect(answered).toEqual([]);
    expect(logs.filter((l) => l.level >= 40)).toEqual([]);
    expect(control.starts()).toEqual([]);
    const next = await fetch(`http://127.0.0.1:${port}${PREFIX}/starts`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
    expect(next.status).toBe(204);
    expect(control.starts().map((s) => s.user_id)).toEqual([USER_ID]);
  });

  it('keeps the last maxStarts; reset() forgets them', async () => {
    const { app, control } = await harness({ maxStarts: 3 });
    for (let i = 1; i <= 5; i++) expect((await post(app, { token: TOKEN, user_id: `${i}` })).statusCode).toBe(204);
    expect(control.starts().map((s) => s.user_id)).toEqual(['3', '4', '5']);
    // A copy: changing it changes nothing.
    control.starts()[0]!.user_id = 'changed';
    expect(control.starts()[0]?.user_id).toBe('3');
    control.reset();
    expect(control.starts()).toEqual([]);
  });

  it('GET / lists the recent starts, newest first, escaped, on a page with no script', async () => {
    const { app } = await harness();
    const empty = await app.inject({ method: 'GET', url: `${PREFIX}/` });
    expect(empty.statusCode).toBe(200);
    expect(empty.headers['content-type']).toContain('text/html');
    expect(empty.body).toContain('No start yet');
    const csp = String(empty.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('script-src');
    await post(app, { token: TOKEN, user_id: USER_ID, page: '/billing' });
    await post(app, { token: TOKEN, user_email: '<b>x</b>@example.com', page: '/"><script>alert(1)</script>' });
    const body = (await app.inject({ method: 'GET', url: `${PREFIX}/` })).body;
    expect(body).toContain('<html lang="en">');
    expect(body).toContain('name="viewport" content="width=device-width, initial-scale=1"');
    expect(body).toContain('prefers-color-scheme:dark');
    expect(body).toContain('Recent starts (2)');
    expect(body).not.toContain('<script>alert(1)');
    expect(body).not.toContain('<b>x</b>');
    expect(body.indexOf('&#60;b&#62;x')).toBeLessThan(body.indexOf(USER_ID));
    expect(body).toContain(`<time datetime="${new Date(AT).toISOString()}">2026-01-15 12:00:00 UTC</time>`);
  });

  it('needs a token and a whole maxStarts', async () => {
    await expect(harness({ token: ' ' })).rejects.toThrow(/token is required/);
    await app?.close();
    await expect(harness({ maxStarts: 0 })).rejects.toThrow(/maxStarts/);
  });
});
