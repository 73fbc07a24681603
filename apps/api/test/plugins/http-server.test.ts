import { ApiError, ERROR_CODES } from '@tickety/api-contract';
import { describe, expect, it } from 'vitest';
import { DEMO_USERS } from '@tickety/sandbox';
import { createTestApp, DASHBOARD_ORIGIN, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases, openSuiteDb } from '../helpers/db';
import { signIn } from '../helpers/oauth';
import { bodyOf, listen, rawExchange } from '../helpers/raw-http';

/** The server's limits are the same whatever the database: one run, on PGlite. */
const [pglite] = databases();

describe.each([pglite!])('HTTP server limits ($name)', (database) => {
  const t = useTestApp(database, {
    env: { REQUEST_TIMEOUT_MS: '800', HEADERS_TIMEOUT_MS: '500', CONNECTION_TIMEOUT_MS: '1500', KEEP_ALIVE_TIMEOUT_MS: '400', MAX_REQUESTS_PER_SOCKET: '2' },
  });
  let port = 0;
  const ready = async () => {
    if (!port) port = await listen(t.app);
    return port;
  };

  it('closes a connection that sends its headers and then trickles its body (408, catalogue body)', async () => {
    // Signed in (an anonymous write is answered 401 before its body is read: test/plugins/request-bodies.test.ts).
    const browser = new Browser(t.app);
    await signIn(browser, DEMO_USERS.cleo.id);
    const answer = await rawExchange(
      await ready(),
      (socket) => {
        // A mutation that passes the CSRF checks, so the server waits for its body.
        socket.write(
          `POST /api/auth/guilds/refresh HTTP/1.1\r\nHost: localhost\r\nCookie: ${browser.cookieHeader()}\r\nOrigin: ${DASHBOARD_ORIGIN}\r\nX-Requested-With: tickety\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
        );
        const drip = setInterval(() => {
          if (!socket.destroyed) socket.write(' ');
        }, 100);
        socket.on('close', () => clearInterval(drip));
      },
      15_000,
    );
    expect(answer.closed).toBe(true);
    expect(answer.ms).toBeLessThan(5_000);
    expect(answer.text).toMatch(/^HTTP\/1\.1 408 /);
    // (isAuthenticated reflects only what the raw socket's error still carries: the headers are parsed by then.)
    expect(ApiError.parse(bodyOf(answer.text))).toMatchObject({ code: ERROR_CODES.REQUEST_TIMEOUT.code, message: ERROR_CODES.REQUEST_TIMEOUT.message });
  });

  it('closes a connection that sends its headers a byte at a time (slowloris)', async () => {
    const request = 'GET /api/plans HTTP/1.1\r\nHost: localhost\r\nX-Padding: ' + 'a'.repeat(200) + '\r\n\r\n';
    const answer = await rawExchange(
      await ready(),
      (socket) => {
        let i = 0;
        const drip = setInterval(() => {
          if (!socket.destroyed && i < request.length) socket.write(request[i++]!);
        }, 50);
        socket.on('close', () => clearInterval(drip));
      },
      15_000,
    );
    expect(answer.closed).toBe(true);
    expect(answer.ms).toBeLessThan(5_000);
    expect(answer.text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes an idle connection that never sends anything', async () => {
    const answer = await rawExchange(await ready(), () => undefined, 15_000);
    expect(answer.closed).toBe(true);
    expect(answer.ms).toBeLessThan(5_000);
  });

  it('keeps an idle keep-alive connection only KEEP_ALIVE_TIMEOUT_MS, and serves at most MAX_REQUESTS_PER_SOCKET on it', async () => {
    const get = 'GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n';
    const one = await rawExchange(await ready(), (socket) => socket.write(get), 15_000);
    expect(one.closed).toBe(true);
    expect(one.ms).toBeLessThan(3_000);
    expect(one.text).toMatch(/^HTTP\/1\.1 200 /);
    expect(one.text.toLowerCase()).toContain('keep-alive: timeout=');
    // Two requests pipelined: the second answer says the connection closes.
    const two = await rawExchange(await ready(), (socket) => socket.write(get + get), 15_000);
    const answers = two.text.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(answers[1]!.toLowerCase()).toContain('connection: close');
  });

  it('answers an unknown method (FOO) with the catalogue body', async () => {
    const answer = await rawExchange(await ready(), (socket) => socket.write('FOO /api/plans HTTP/1.1\r\nHost: localhost\r\n\r\n'), 5_000);
    expect(answer.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer.text.toLowerCase()).toContain('content-type: application/json');
    expect(ApiError.parse(bodyOf(answer.text))).toMatchObject({ code: ERROR_CODES.VALIDATION_FAILED.code, message: 'The request method is not supported.' });
  });

  it('answers a 20 KB cookie with 431 and the catalogue body', async () => {
    const cookie = `tickety_session=${'a'.repeat(43)}; junk=${'x'.repeat(20_000)}`;
    const answer = await rawExchange(await ready(), (socket) => socket.write(`GET /api/auth/@me HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\n\r\n`), 5_000);
    expect(answer.text).toMatch(/^HTTP\/1\.1 431 /);
    const body = ApiError.parse(bodyOf(answer.text));
    expect(body.code).toBe(ERROR_CODES.VALIDATION_FAILED.code);
    expect(body.message).toMatch(/headers are too large/);
    expect(body.isAuthenticated).toBe(true);
  });
});

describe.each([pglite!])('load shedding ($name)', (database) => {
  const t = useTestApp(database, { env: { MAX_EVENT_LOOP_DELAY_MS: '150' } });

  it('answers 503 (1011) with Retry-After while the event loop lags, liveness still answers, and recovers', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/plans' })).statusCode).toBe(200);
    // Block the event loop for real, then let the sampler see it.
    const until = Date.now() + 1_600;
    while (Date.now() < until) {
      // busy
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    const shed = await t.app.inject({ method: 'GET', url: '/api/plans' });
    expect(shed.statusCode).toBe(503);
    expect(shed.headers['retry-after']).toBe('5');
    expect(ApiError.parse(shed.json())).toEqual({ code: ERROR_CODES.OVERLOADED.code, message: ERROR_CODES.OVERLOADED.message, isAuthenticated: false });
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(503);
    await expect.poll(async () => (await t.app.inject({ method: 'GET', url: '/api/plans' })).statusCode, { timeout: 5_000, interval: 250 }).toBe(200);
  });
});

describe.each([pglite!])('answers outside the routes ($name)', (database) => {
  it('answers CONNECT with the catalogue body instead of a silently closed connection', async () => {
    const t = await createTestApp((await openSuiteDb(database)).db);
    try {
      const port = await listen(t.app);
      const answer = await rawExchange(port, (socket) => socket.write('CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n'), 5_000);
      expect(answer.text).toMatch(/^HTTP\/1\.1 400 /);
      expect(ApiError.parse(bodyOf(answer.text))).toMatchObject({ code: ERROR_CODES.VALIDATION_FAILED.code, message: expect.stringMatching(/not a proxy/) });
    } finally {
      await t.close();
    }
  });

  it('a request that arrives while the server shuts down gets the catalogue 503 with Retry-After', async () => {
    const t = await createTestApp((await openSuiteDb(database)).db);
    const port = await listen(t.app);
    let closed: Promise<void> | undefined;
    const answer = await rawExchange(
      port,
      (socket) => {
        // Half a request, then the shutdown starts, then the rest of the request.
        socket.write('GET /api/plans HTTP/1.1\r\nHost: localhost\r\n');
        setTimeout(() => {
          closed = t.app.close();
          setTimeout(() => socket.write('\r\n'), 100);
        }, 100);
      },
      10_000,
    );
    await closed;
    expect(answer.text).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer.text.toLowerCase()).toContain('retry-after: 5');
    expect(ApiError.parse(bodyOf(answer.text))).toMatchObject({ code: ERROR_CODES.OVERLOADED.code, message: 'This server is restarting: try again in a moment.' });
  });
});
