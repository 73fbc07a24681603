import { createHash } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Browser } from './browser';

export interface LoginStart {
  res: LightMyRequestResponse;
  /** Where /api/auth/login sent the browser (the sandbox's authorize page). */
  authorize: URL;
  state: string;
}

/** GET /api/auth/login: expects the redirect to Discord's authorize page. */
export async function startLogin(browser: Browser, headers: Record<string, string> = {}): Promise<LoginStart> {
  const res = await browser.get('/api/auth/login', { headers });
  expect(res.statusCode, res.body).toBe(302);
  const authorize = new URL(String(res.headers.location));
  return { res, authorize, state: authorize.searchParams.get('state') ?? '' };
}

/** The sandbox approves at once for `login_hint=<user id>`: returns the callback URL it redirects to. */
export async function approveAs(browser: Browser, authorize: URL, userId: string): Promise<URL> {
  const url = new URL(authorize);
  url.searchParams.set('login_hint', userId);
  const res = await browser.get(url.toString());
  expect(res.statusCode, res.body).toBe(302);
  return new URL(String(res.headers.location));
}

/** Presses Cancel on the sandbox's consent screen: returns the callback URL (error=access_denied). */
export async function cancelAt(browser: Browser, authorize: URL): Promise<URL> {
  const form = new URLSearchParams(authorize.searchParams);
  form.set('decision', 'cancel');
  const res = await browser.request('POST', `${authorize.origin}${authorize.pathname}`, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form.toString(),
  });
  expect(res.statusCode, res.body).toBe(302);
  return new URL(String(res.headers.location));
}

/** The whole sign-in: login, approve as `userId` at the sandbox, callback. Returns the callback answer. */
export async function signIn(browser: Browser, userId: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const { authorize } = await startLogin(browser, headers);
  const callback = await approveAs(browser, authorize, userId);
  const res = await browser.get(callback.toString());
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

export interface PopupRun {
  posted: Array<{ message: unknown; targetOrigin: unknown }>;
  closed: boolean;
  replacedWith: string | null;
  script: string;
}

/** The inline script of a popup page. */
export function popupScript(html: string): string {
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  expect(scripts).toHaveLength(1);
  return scripts[0]!;
}

export function scriptHash(script: string): string {
  return `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
}

/**
 * Runs the popup page's script as a browser would, with a fake `window.opener`, and reports what it
 * posted and where (setTimeout callbacks run at once).
 */
export function runPopup(html: string, opener: 'present' | 'absent' = 'present'): PopupRun {
  const script = popupScript(html);
  const run: PopupRun = { posted: [], closed: false, replacedWith: null, script };
  const window = {
    opener:
      opener === 'present'
        ? {
            closed: false,
            postMessage: (message: unknown, targetOrigin: unknown) => run.posted.push({ message, targetOrigin }),
          }
        : null,
    close: () => {
      run.closed = true;
    },
  };
  const location = {
    replace: (url: string) => {
      run.replacedWith = url;
    },
  };
  runInNewContext(script, { window, location, setTimeout: (fn: () => void) => fn() });
  // Copy across the realm boundary so toEqual compares plain values.
  run.posted = JSON.parse(JSON.stringify(run.posted)) as PopupRun['posted'];
  return run;
}
