import type { Page } from 'playwright-core';

/** Locators for what the shell shows everywhere (overlays, guards, 404). */

/** The docs/behaviour.md#request-overlay-and-error-catalogue "Login Required" screen with its "Login with discord" button. */
export function loginRequired(page: Page) {
  return page.getByText('Login Required', { exact: true }).first();
}

export function loginWithDiscord(page: Page) {
  return page.getByRole('button', { name: /login with discord/i });
}

/** The error overlay of a failed request or remote ("Request Failed" + Retry). */
export function retryButton(page: Page) {
  return page.getByRole('button', { name: /^retry$/i });
}

/** The page's main landmark (layouts render their content in <main>). */
export function main(page: Page) {
  return page.getByRole('main');
}

/** Resolves once `path` is the current location (path + search + hash as given). */
export async function waitForPath(page: Page, expected: string | RegExp, timeout = 15_000): Promise<string> {
  const matches = (url: URL) => {
    const here = `${url.pathname}${url.search}${url.hash}`;
    return typeof expected === 'string' ? here === expected : expected.test(here);
  };
  // waitForURL also sees client-side (history API) redirects.
  await page.waitForURL(matches, { timeout, waitUntil: 'commit' }).catch(() => undefined);
  const current = new URL(page.url());
  return `${current.pathname}${current.search}${current.hash}`;
}

/**
 * A public page arrives prerendered and fetches the app at the visitor's first interaction
 * (apps/shell/src/boot): start it (a synthetic pointerdown, no real input) and wait until it has
 * taken the page over.
 */
export async function startApp(page: Page): Promise<void> {
  await page.evaluate(() => window.dispatchEvent(new Event('pointerdown')));
  await page.waitForFunction(() => !document.querySelector('#root[data-prerendered]'));
}
