import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, onTestFinished, test } from 'vitest';
import { shot, useBrowser } from '../src/browser';
import { loginRequired, loginWithDiscord } from '../src/pages';
import { DEMO_USERS, type DemoUserKey, displayName, loginButton, signInContext, userMenu } from '../src/session';

const b = useBrowser();

async function me(): Promise<{ isAuthenticated: boolean; user: { id: string } | null }> {
  const res = await b.page.request.get('/api/auth/@me');
  expect(res.status()).toBe(200);
  return res.json();
}

describe('sign-in through the popup', () => {
  test.each(Object.keys(DEMO_USERS) as DemoUserKey[])('as %s', async (user) => {
    await b.page.goto('/');
    await loginButton(b.page).waitFor();
    const popupOpened = b.context.waitForEvent('page');
    await loginButton(b.page).click();
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
    await userMenu(b.page, user).waitFor();
    expect(await loginButton(b.page).count()).toBe(0);
    const session = await me();
    expect(session.isAuthenticated).toBe(true);
    expect(session.user?.id).toBe(DEMO_USERS[user].id);
    if (user === 'ava') await shot(b.page, 'home-signed-in-ava');
  });

  test('Cancel in the chooser leaves the visitor signed out, without an error loop', async () => {
    await b.page.goto('/');
    await loginButton(b.page).waitFor();
    const popupOpened = b.context.waitForEvent('page');
    await loginButton(b.page).click();
    const popup = await popupOpened;
    const cancel = popup.getByRole('button', { name: /^cancel$/i });
    await cancel.waitFor();
    const closed = popup.waitForEvent('close');
    await cancel.click();
    await closed;
    await b.page.waitForLoadState('networkidle');
    await loginButton(b.page).waitFor();
    expect(b.context.pages()).toHaveLength(1);
    expect((await me()).isAuthenticated).toBe(false);
    const meCalls = b.requests.filter((u) => u.includes('/api/auth/@me')).length;
    const loginCalls = b.requests.filter((u) => u.includes('/api/auth/login')).length;
    expect(loginCalls).toBe(1);
    // Nothing keeps going after the cancel: no further auth call arrives (a loop would re-fire at once).
    const extra = await b.page
      .waitForRequest((r) => r.url().includes('/api/auth/'), { timeout: 2000 })
      .then((r) => r.url(), () => null);
    expect(extra).toBeNull();
    expect(meCalls).toBeLessThanOrEqual(3);
  });
});

describe('Login Required', () => {
  test("/dashboard asks a visitor to log in; 'Login with discord' signs in through the popup and shows the page", async () => {
    await b.page.goto('/dashboard');
    await loginRequired(b.page).waitFor();
    const popupOpened = b.context.waitForEvent('page');
    await loginWithDiscord(b.page).click();
    const popup = await popupOpened;
    await popup.getByRole('button', { name: 'Sign in as Ava' }).click();
    await b.page.getByRole('heading', { name: 'Manage Servers' }).waitFor();
    expect(await loginRequired(b.page).count()).toBe(0);
    expect(new URL(b.page.url()).pathname).toBe('/dashboard');
  });
});

describe('logout', () => {
  test('clears the user and /dashboard asks to log in again', async () => {
    await signInContext(b.context, b.baseURL, 'ava');
    await b.page.goto('/');
    await userMenu(b.page, 'ava').waitFor();
    await b.page.goto('/logout');
    await loginButton(b.page).waitFor();
    expect(await userMenu(b.page, 'ava').count()).toBe(0);
    expect((await me()).isAuthenticated).toBe(false);
    await b.page.goto('/dashboard');
    await loginRequired(b.page).waitFor();
    await loginWithDiscord(b.page).waitFor();
    await shot(b.page, 'dashboard-after-logout');
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
    await signInContext(b.context, b.baseURL, 'ben');
    const logout = `${b.baseURL}/api/auth/logout`;
    // Another site: a link the user clicks (a top-level navigation carries the Lax session cookie).
    const evil = await foreignPage(
      'localhost',
      `<!doctype html><title>win a prize</title><a id="go" href="${logout}">Claim your prize</a>
       <button id="open" onclick="window.open('${logout}')">Open</button>`,
    );
    await b.page.goto(evil);
    const answered = b.page.waitForResponse((r) => r.url() === logout);
    await b.page.click('#go');
    expect((await answered).status()).toBe(403);
    expect((await me()).isAuthenticated).toBe(true);
    await b.page.goto(evil);
    const popupOpened = b.context.waitForEvent('page');
    await b.page.click('#open');
    const popup = await popupOpened;
    await popup.waitForLoadState('load');
    expect(await popup.textContent('body')).toContain('Nobody was signed out');
    await popup.close();
    expect((await me()).isAuthenticated).toBe(true);
    // The same site on another port: an image request carries the cookie, and is refused too.
    const sameSite = await foreignPage('127.0.0.1', `<!doctype html><title>blog</title><img id="i" src="${logout}">`);
    await b.page.goto(sameSite, { waitUntil: 'load' }); // the image has loaded or failed by then
    expect(b.requests.filter((url) => url === logout)).toHaveLength(3);
    expect((await me()).isAuthenticated).toBe(true);
    // The dashboard's own Logout still works.
    await b.page.goto('/logout');
    await loginButton(b.page).waitFor();
    expect((await me()).isAuthenticated).toBe(false);
  });
});
