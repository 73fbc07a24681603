import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, onTestFinished, test } from 'vitest';
import { shot, useBrowser } from '../src/browser';
import { loginRequired, loginWithDiscord } from '../src/pages';
import { DEMO_USERS, type DemoUserKey, displayName, loginButton, signInContext, userMenu } from '../src/session';

const harness = useBrowser();

async function me(): Promise<{ isAuthenticated: boolean; user: { id: string } | null }> {
  const res = await harness.page.request.get('/api/auth/@me');
  expect(res.status()).toBe(200);
  return res.json();
}

describe('sign-in through the popup', () => {
  test.each(Object.keys(DEMO_USERS) as DemoUserKey[])('as %s', async (user) => {
    await harness.page.goto('/');
    await loginButton(harness.page).waitFor();
    const popupOpened = harness.context.waitForEvent('page');
    await loginButton(harness.page).click();
    const popup = await popupOpened;
    // The popup is the 500x800 window on the login endpoint, sent on to the sandbox chooser.
    const size = await popup.evaluate(() => ({ w: window.outerWidth, h: window.outerHeight }));
    expect(size).toEqual({ w: 500, h: 800 });
    const choose = popup.getByRole('button', { name: `Sign in as ${displayName(user)}` });
    await choose.waitFor();
    if (user === 'ava') await shot(popup, 'sandbox-chooser');
    const closed = popup.waitForEvent('close');
    await choose.click();
    await closed;
    await userMenu(harness.page, user).waitFor();
    expect(await loginButton(harness.page).count()).toBe(0);
    const session = await me();
    expect(session.isAuthenticated).toBe(true);
    expect(session.user?.id).toBe(DEMO_USERS[user].id);
    if (user === 'ava') await shot(harness.page, 'home-signed-in-ava');
  });

  test('Cancel in the chooser leaves the visitor signed out, without an error loop', async () => {
    await harness.page.goto('/');
    await loginButton(harness.page).waitFor();
    const popupOpened = harness.context.waitForEvent('page');
    await loginButton(harness.page).click();
    const popup = await popupOpened;
    const cancel = popup.getByRole('button', { name: /^cancel$/i });
    await cancel.waitFor();
    const closed = popup.waitForEvent('close');
    await cancel.click();
    await closed;
    await harness.page.waitForLoadState('networkidle');
    await loginButton(harness.page).waitFor();
    expect(harness.context.pages()).toHaveLength(1);
    expect((await me()).isAuthenticated).toBe(false);
    const meCalls = harness.requests.filter((u) => u.includes('/api/auth/@me')).length;
    const loginCalls = harness.requests.filter((u) => u.includes('/api/auth/login')).length;
    expect(loginCalls).toBe(1);
    // Nothing keeps going after the cancel: no further auth call arrives (a loop would re-fire at once).
    const extra = await harness.page
      .waitForRequest((r) => r.url().includes('/api/auth/'), { timeout: 2000 })
      .then((r) => r.url(), () => null);
    expect(extra).toBeNull();
    expect(meCalls).toBeLessThanOrEqual(3);
  });
});

describe('Login Required', () => {
  test("/dashboard asks a visitor to log in; 'Login with discord' signs in through the popup and shows the page", async () => {
    await harness.page.goto('/dashboard');
    await loginRequired(harness.page).waitFor();
    const popupOpened = harness.context.waitForEvent('page');
    await loginWithDiscord(harness.page).click();
    const popup = await popupOpened;
    await popup.getByRole('button', { name: 'Sign in as Ava' }).click();
    await harness.page.getByRole('heading', { name: 'Manage Servers' }).waitFor();
    expect(await loginRequired(harness.page).count()).toBe(0);
    expect(new URL(harness.page.url()).pathname).toBe('/dashboard');
  });
});

describe('logout', () => {
  test('clears the user and /dashboard asks to log in again', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    await harness.page.goto('/');
    await userMenu(harness.page, 'ava').waitFor();
    await harness.page.goto('/logout');
    await loginButton(harness.page).waitFor();
    expect(await userMenu(harness.page, 'ava').count()).toBe(0);
    expect((await me()).isAuthenticated).toBe(false);
    await harness.page.goto('/dashboard');
    await loginRequired(harness.page).waitFor();
    await loginWithDiscord(harness.page).waitFor();
    await shot(harness.page, 'dashboard-after-logout');
  });
});

/** A page served by its own loopback server: `host` 127.0.0.1 is the same site as the product, localhost another site. */
async function foreignPage(host: '127.0.0.1' | 'localhost', html: string): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  onTestFinished(() => new Promise<void>((ok) => server.close(() => ok())));
  return `http://${host}:${(server.address() as AddressInfo).port}/`;
}

describe('logout from anywhere but the dashboard', () => {
  test('a link or window.open from another site, and an image on a same-site page, sign nobody out', async () => {
    await signInContext(harness.context, harness.baseURL, 'ben');
    const logout = `${harness.baseURL}/api/auth/logout`;
    // Another site: a link the user clicks (a top-level navigation carries the Lax session cookie).
    const evil = await foreignPage(
      'localhost',
      `<!doctype html><title>win a prize</title><a id="go" href="${logout}">Claim your prize</a>
       <button id="open" onclick="window.open('${logout}')">Open</button>`,
    );
    await harness.page.goto(evil);
    const answered = harness.page.waitForResponse((r) => r.url() === logout);
    await harness.page.click('#go');
    expect((await answered).status()).toBe(403);
    expect((await me()).isAuthenticated).toBe(true);
    await harness.page.goto(evil);
    const popupOpened = harness.context.waitForEvent('page');
    await harness.page.click('#open');
    const popup = await popupOpened;
    await popup.waitForLoadState('load');
    expect(await popup.textContent('body')).toContain('Nobody was signed out');
    await popup.close();
    expect((await me()).isAuthenticated).toBe(true);
    // The same site on another port: an image request carries the cookie, and is refused too.
    const sameSite = await foreignPage('127.0.0.1', `<!doctype html><title>blog</title><img id="i" src="${logout}">`);
    await harness.page.goto(sameSite, { waitUntil: 'load' }); // the image has loaded or failed by then
    expect(harness.requests.filter((url) => url === logout)).toHaveLength(3);
    expect((await me()).isAuthenticated).toBe(true);
    // The dashboard's own Logout still works.
    await harness.page.goto('/logout');
    await loginButton(harness.page).waitFor();
    expect((await me()).isAuthenticated).toBe(false);
  });
});
