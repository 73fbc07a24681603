import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, onTestFinished, test } from 'vitest';
import { useBrowser } from '../src/browser';

const harness = useBrowser();

const DISPLAY_PAGES = ['/home-display', '/premium-display', '/clipboard'];

function frameAncestors(csp: string | null): string | null {
  if (!csp) return null;
  const directive = csp
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.toLowerCase().startsWith('frame-ancestors'));
  return directive ? directive.slice('frame-ancestors'.length).trim() : null;
}

async function headers(path: string) {
  const res = await fetch(`${harness.baseURL}${path}`);
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  return { xfo: res.headers.get('x-frame-options'), ancestors: frameAncestors(res.headers.get('content-security-policy')) };
}

describe('framing', () => {
  test.each(DISPLAY_PAGES)('%s may be framed by another site (headers)', async (path) => {
    const { xfo, ancestors } = await headers(path);
    expect(xfo).toBeNull();
    // Either no frame-ancestors at all, or one that lets any https site embed it.
    if (ancestors !== null) {
      expect(ancestors).not.toMatch(/'none'/);
      expect(ancestors).toMatch(/\*|https:/);
    }
  });

  test('/ may not be framed by another site (headers)', async () => {
    const { xfo, ancestors } = await headers('/');
    const refusesByXfo = xfo !== null && /deny|sameorigin/i.test(xfo);
    const refusesByCsp = ancestors !== null && /^('none'|'self')$/.test(ancestors);
    expect(refusesByXfo || refusesByCsp, `x-frame-options=${xfo} frame-ancestors=${ancestors}`).toBe(true);
  });

  test('in Chromium, a foreign page can frame /home-display but not /', async () => {
    // A real page on another origin (its own loopback server, so Chromium's local-network-access
    // rules treat both as local), embedding both.
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>embedder</title>
          <iframe id="display" src="${harness.baseURL}/home-display" width="600" height="400"></iframe>
          <iframe id="home" src="${harness.baseURL}/" width="600" height="400"></iframe>`);
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    onTestFinished(() => new Promise<void>((ok) => server.close(() => ok())));
    const embedder = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const display = harness.page.waitForResponse((r) => r.url() === `${harness.baseURL}/home-display`);
    const home = harness.page.waitForResponse((r) => r.url() === `${harness.baseURL}/`);
    await harness.page.goto(embedder);
    await Promise.all([display, home]);
    const displayFrame = harness.page.frameLocator('#display');
    // The display page renders inside the frame.
    await displayFrame.locator('#root *').first().waitFor();
    // The home page is refused: Chromium swaps in its error page, the shell never boots there.
    const homeFrame = await (await harness.page.$('#home'))!.contentFrame();
    expect(homeFrame).not.toBeNull();
    await homeFrame!.waitForLoadState('load');
    expect(homeFrame!.url()).toMatch(/^chrome-error:/);
  });
});
