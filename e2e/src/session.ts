import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_USERS, type DemoUserKey } from '../../packages/sandbox/src/discord/demo-data';

export { DEMO_GUILDS } from '../../packages/sandbox/src/discord/demo-data';
export { DEMO_USERS, type DemoUserKey };

export interface JarCookie {
  name: string;
  value: string;
  path: string;
  httpOnly: boolean;
}

/** A minimal cookie jar for one origin (enough for the sign-in redirects on loopback). */
export class CookieJar {
  readonly cookies = new Map<string, JarCookie>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq < 1) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const attr = (key: string) => attrs.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith(key));
      const path = attr('path=')?.slice(5) || '/';
      const maxAge = attr('max-age=');
      const expires = attr('expires=');
      const expired = (maxAge !== undefined && Number(maxAge.slice(8)) <= 0) || (expires !== undefined && Date.parse(expires.slice(8)) < Date.now());
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, { name, value, path, httpOnly: attrs.some((a) => a.trim().toLowerCase() === 'httponly') });
    }
  }

  header(): string {
    return [...this.cookies.values()].map((c) => `${c.name}=${c.value}`).join('; ');
  }
}

/**
 * Signs a demo user in without a browser: `GET /api/auth/login` → the sandbox's authorize URL with
 * `login_hint=<user id>` (the sandbox then skips its chooser) → `/api/auth/callback`, following every
 * redirect by hand and keeping the cookies. Returns the jar holding the session cookie.
 */
export async function signInWithHint(baseURL: string, user: DemoUserKey): Promise<CookieJar> {
  const jar = new CookieJar();
  const userId = DEMO_USERS[user].id;
  let url = new URL('/api/auth/login', baseURL);
  const trail: string[] = [];
  for (let hop = 0; hop < 12; hop++) {
    if (url.pathname.includes('/oauth2/authorize') && !url.searchParams.has('login_hint')) url.searchParams.set('login_hint', userId);
    trail.push(url.pathname);
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header(), accept: 'text/html' } });
    jar.take(res);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url);
      continue;
    }
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`sign-in as ${user}: HTTP ${res.status} at ${url.pathname} (trail ${trail.join(' → ')})`);
    if (url.pathname.startsWith('/api/auth/callback')) return jar;
    throw new Error(`sign-in as ${user}: stopped at ${url.pathname} without reaching /api/auth/callback (trail ${trail.join(' → ')})`);
  }
  throw new Error(`sign-in as ${user}: too many redirects (${trail.join(' → ')})`);
}

/** Puts a demo user's session (signed in through the sandbox with login_hint) into a browser context. */
export async function signInContext(context: BrowserContext, baseURL: string, user: DemoUserKey): Promise<void> {
  const jar = await signInWithHint(baseURL, user);
  const { hostname } = new URL(baseURL);
  await context.addCookies(
    [...jar.cookies.values()].map((c) => ({ name: c.name, value: c.value, domain: hostname, path: c.path, httpOnly: c.httpOnly, secure: false, sameSite: 'Lax' as const })),
  );
}

/** The display name the product shows for a demo user. */
export function displayName(user: DemoUserKey): string {
  return DEMO_USERS[user].globalName;
}

/**
 * Signs in through the UI like a person: click Login, the 500x800 popup opens on the sandbox chooser,
 * click "Sign in as <Name>", the popup closes itself and the header shows the user.
 */
export async function signInViaPopup(context: BrowserContext, page: Page, user: DemoUserKey): Promise<Page> {
  const name = displayName(user);
  const popupPromise = context.waitForEvent('page');
  await loginButton(page).click();
  const popup = await popupPromise;
  const closed = popup.waitForEvent('close', { timeout: 30_000 });
  await popup.getByRole('button', { name: `Sign in as ${name}` }).click();
  await closed;
  await userMenu(page, user).waitFor({ state: 'visible' });
  return popup;
}

/** The header's Login button (signed out). */
export function loginButton(page: Page) {
  return page.getByRole('banner').getByRole('button', { name: /^log ?in/i });
}

/** Where the header shows the signed-in user. */
export function userMenu(page: Page, user: DemoUserKey) {
  return page.getByRole('banner').getByText(displayName(user), { exact: true }).first();
}
