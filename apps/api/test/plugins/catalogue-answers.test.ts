import { ApiError } from '@tickety/api-contract';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_ORIGIN, useTestApp } from '../helpers/app';
import { databases } from '../helpers/db';
import { bodyOf, listen, rawExchange } from '../helpers/raw-http';

/** The same whatever the database: one run, on PGlite. */
const [pglite] = databases();

/** What the server answers `raw` on a real connection (until it closes or 2 s pass). */
const exchange = async (port: number, raw: string) => (await rawExchange(port, (socket) => socket.write(raw), 2_000)).text;

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
    const port = await listen(t.app);
    const text = await exchange(port, 'GET /api/plans HTTP/1.1\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    const body = ApiError.parse(bodyOf(text));
    expect(body).toMatchObject({ code: 1001, message: 'The request has no Host header.' });
    // HTTP/1.0 needs none.
    expect(await exchange(port, 'GET /api/plans HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
  });
});
