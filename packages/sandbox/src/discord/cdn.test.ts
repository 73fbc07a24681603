import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_GUILDS, DEMO_USERS } from './demo-data';
import { harness, PREFIX } from './test-helpers';

let app: FastifyInstance;

beforeAll(async () => {
  app = (await harness()).app;
});
afterAll(async () => {
  await app.close();
});

const cdn = (path: string) => app.inject({ method: 'GET', url: `${PREFIX}/cdn${path}` });

function expectImage(res: Awaited<ReturnType<typeof cdn>>) {
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('image/svg+xml');
  expect(res.headers['cache-control']).toBe('public, max-age=86400');
  expect(res.body.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
}

describe('guild icons', () => {
  test('a demo guild\'s icon: its initials on a colour derived from its id, as SVG at a .png path', async () => {
    const res = await cdn(`/icons/${DEMO_GUILDS.avasArcade.id}/${DEMO_GUILDS.avasArcade.icon}.png`);
    expectImage(res);
    expect(res.body).toContain('>AA</text>');
    expect(res.body).toContain('width="128" height="128"');
    const again = await cdn(`/icons/${DEMO_GUILDS.avasArcade.id}/${DEMO_GUILDS.avasArcade.icon}.png`);
    expect(again.body).toBe(res.body);
    const other = await cdn(`/icons/${DEMO_GUILDS.pixelPals.id}/${DEMO_GUILDS.pixelPals.icon}.png`);
    expect(other.body).toContain('>PP</text>');
    const fill = (body: string) => /<rect [^>]*fill="([^"]+)"/.exec(body)![1];
    expect(fill(other.body)).not.toBe(fill(res.body));
  });

  test('?size= sets the size (a power of two from 16 to 4096), anything else is refused', async () => {
    const res = await cdn(`/icons/${DEMO_GUILDS.ticketyHq.id}/${DEMO_GUILDS.ticketyHq.icon}.webp?size=64`);
    expectImage(res);
    expect(res.body).toContain('width="64" height="64"');
    expect(res.body).toContain('>TH</text>');
    for (const size of ['100', '8', '8192', 'big']) {
      expect((await cdn(`/icons/${DEMO_GUILDS.ticketyHq.id}/${DEMO_GUILDS.ticketyHq.icon}.png?size=${size}`)).statusCode).toBe(400);
    }
  });

  test('an unknown guild or a stale hash gets a default image', async () => {
    const unknown = await cdn('/icons/1199999999999999999/0123456789abcdef0123456789abcdef.png');
    expectImage(unknown);
    expect(unknown.body).toContain('>#</text>');
    const stale = await cdn(`/icons/${DEMO_GUILDS.avasArcade.id}/ffffffffffffffffffffffffffffffff.png`);
    expectImage(stale);
    expect(stale.body).toContain('fill="#4e5058"');
  });
});

describe('user avatars', () => {
  test('a demo user\'s avatar shows their initial', async () => {
    const res = await cdn(`/avatars/${DEMO_USERS.ava.id}/${DEMO_USERS.ava.avatar}.png`);
    expectImage(res);
    expect(res.body).toContain('>A</text>');
  });

  test('unknown users get Discord\'s default avatar for their id', async () => {
    const res = await cdn(`/avatars/${DEMO_USERS.ben.id}/0123456789abcdef0123456789abcdef.png`);
    expectImage(res);
    const index = Number((BigInt(DEMO_USERS.ben.id) >> 22n) % 6n);
    expect(res.body).toBe((await cdn(`/embed/avatars/${index}.png`)).body);
  });

  test('embed avatars 0-5 differ by colour', async () => {
    const bodies = await Promise.all([0, 1, 2, 3, 4, 5].map(async (i) => (await cdn(`/embed/avatars/${i}.png`)).body));
    expect(new Set(bodies).size).toBe(6);
    expect(bodies[0]).toContain('fill="#5865f2"');
  });
});

describe('malformed paths: 404', () => {
  test.each([
    '/icons/not-an-id/abc.png',
    `/icons/${DEMO_GUILDS.avasArcade.id}/abc.exe`,
    `/icons/${DEMO_GUILDS.avasArcade.id}/abc`,
    `/icons/${DEMO_GUILDS.avasArcade.id}/..%2Fsecret.png`,
    '/avatars/12ab/abc.png',
    '/embed/avatars/6.png',
    '/embed/avatars/x.png',
    '/banners/1/abc.png',
  ])('%s', async (path) => {
    const res = await cdn(path);
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).not.toBe('image/svg+xml');
  });
});
