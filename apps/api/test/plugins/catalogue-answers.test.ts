import { connect } from 'node:net';
import { ApiError } from '@tickety/api-contract';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_ORIGIN, useTestApp } from '../helpers/app';
import { databases } from '../helpers/db';

/** The same whatever the database: one run, on PGlite. */
const [pglite] = databases();

/** What the server answers `raw` on a real connection (until it closes or 2 s pass). */
function exchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(text);
    };
    const timer = setTimeout(done, 2_000);
    socket.on('connect', () => socket.write(raw));
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
    });
    socket.on('close', done);
    socket.on('error', done);
  });
}

describe.each([pglite!])('every error answer is the catalogue’s, whatever the method ($name)', (database) => {
  const t = useTestApp(database);

  it.each([
    ['OPTIONS with a body of an unsupported type', { method: 'OPTIONS', url: '/api/plans', headers: { 'content-type': 'text/xml' }, payload: '<a/>' }, 415, 1010],
    ['OPTIONS with broken JSON', { method: 'OPTIONS', url: '/api/plans', headers: { 'content-type': 'application/json' }, payload: '{"a":' }, 400, 1001],
    ['a preflight of a public asset without Origin', { method: 'OPTIONS', url: '/remotes/x' }, 400, 1001],
    ['a preflight from a foreign origin', { method: 'OPTIONS', url: '/api/plans', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } }, 404, 1002],
    ['DELETE with broken JSON', { method: 'DELETE', url: '/api/plans', headers: { 'content-type': 'application/json' }, payload: '{"a":' }, 400, 1001],
  ] as const)('%s', async (_name, request, status, code) => {
    const res = await t.app.inject(request as never);
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = ApiError.parse(res.json());
    expect(body.code).toBe(code);
    expect(typeof res.json().code).toBe('number');
  });

  it('a valid preflight still gets its CORS answer', async () => {
    const res = await t.app.inject({ method: 'OPTIONS', url: '/api/plans', headers: { origin: DASHBOARD_ORIGIN, 'access-control-request-method': 'GET' } });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(DASHBOARD_ORIGIN);
  });

  it('an HTTP/1.1 request without a Host header gets the catalogue’s 400 (not an empty one)', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    const text = await exchange(port, 'GET /api/plans HTTP/1.1\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    const body = ApiError.parse(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)));
    expect(body).toMatchObject({ code: 1001, message: 'The request has no Host header.' });
    // HTTP/1.0 needs none.
    expect(await exchange(port, 'GET /api/plans HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
  });
});
