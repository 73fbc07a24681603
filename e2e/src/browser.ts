import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { accessibilityProblems } from './a11y';
import { launchChromium } from './chromium';
import { REPO_DIR } from './server';

export { CHROMIUM_ARGS, CHROMIUM_PATH, launchChromium } from './chromium';

/** Screenshots (taken on failure and at chosen steps) and failure logs; gitignored. */
export const ARTIFACTS_DIR = resolve(REPO_DIR, 'e2e', '.e2e-artifacts');

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 90);
}

/** Saves a full-page screenshot under e2e/.e2e-artifacts/<name>.png and returns its path. */
export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = join(ARTIFACTS_DIR, `${slug(name)}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export interface BrowserState {
  readonly baseURL: string;
  readonly browser: Browser;
  /** A fresh context (own cookies, storage) per test. */
  readonly context: BrowserContext;
  /** The context's first page. */
  readonly page: Page;
  /** Every request URL any page of this test's context made, in order. */
  readonly requests: string[];
  /** Console errors and uncaught page errors of this test's pages. */
  readonly errors: string[];
}

/**
 * Registers the hooks of a test file: one Chromium per file, a fresh context and page per test,
 * every request URL recorded, and on failure a screenshot of every open page plus the page errors
 * in e2e/.e2e-artifacts/.
 */
export function useBrowser(options: { baseURL?: () => string; accessibility?: boolean } = {}): BrowserState {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let requests: string[] = [];
  let errors: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    const baseURL = state.baseURL;
    requests = [];
    errors = [];
    context = await browser!.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
    context.on('request', (request) => requests.push(request.url()));
    context.on('page', (p) => {
      p.on('pageerror', (error) => errors.push(`pageerror ${p.url()}: ${error.message}`));
      p.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(`console ${p.url()}: ${msg.text()}`);
      });
    });
    page = await context.newPage();
  });
  afterEach(async (ctx) => {
    // Every page a test leaves open is checked with axe (WCAG 2.2 A/AA) in both themes: a serious or
    // critical violation fails the test, so every new page inherits the check.
    let a11y: string[] = [];
    const passed = !(ctx.task.result?.state === 'fail' || (ctx.task.result?.errors?.length ?? 0) > 0);
    if (passed && context && options.accessibility !== false) {
      // The product's pages (not the stand-in sites a test serves itself).
      const own = new URL(state.baseURL).origin;
      const pages = context.pages().filter((p) => p.url().startsWith(`${own}/`));
      for (const p of pages) a11y.push(...(await accessibilityProblems(p).catch((error: Error) => [`axe could not run on ${p.url()}: ${error.message}`])));
      a11y = [...new Set(a11y)];
    }
    const failed = !passed || a11y.length > 0;
    if (failed && context) {
      const name = `${ctx.task.file?.name.replace(/^.*\//, '') ?? ''}-${ctx.task.name}`;
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      const pages = context.pages();
      for (const [i, p] of pages.entries()) {
        await shot(p, `FAILED-${name}${pages.length > 1 ? `-${i}` : ''}`).catch(() => undefined);
      }
      writeFileSync(
        join(ARTIFACTS_DIR, `FAILED-${slug(name)}.log`),
        [`pages: ${pages.map((p) => p.url()).join(' ')}`, '', 'errors:', ...errors, ...a11y, '', 'requests:', ...requests].join('\n'),
      );
    }
    await context?.close().catch(() => undefined);
    context = undefined;
    page = undefined;
    if (a11y.length > 0) throw new Error(`accessibility (axe, WCAG 2.2 A/AA), serious or critical:\n${a11y.join('\n')}`);
  });

  const state: BrowserState = {
    get baseURL() {
      return options.baseURL ? options.baseURL() : inject('baseURL');
    },
    get browser() {
      if (!browser) throw new Error('browser not launched');
      return browser;
    },
    get context() {
      if (!context) throw new Error('no context: use it inside a test');
      return context;
    },
    get page() {
      if (!page) throw new Error('no page: use it inside a test');
      return page;
    },
    get requests() {
      return requests;
    },
    get errors() {
      return errors;
    },
  };
  return state;
}

/** Waits until document.title equals `expected`; on time-out returns whatever the title is, for a clear assertion. */
export async function titleOf(page: Page, expected: string, timeout = 15_000): Promise<string> {
  await page.waitForFunction((t) => document.title === t, expected, { timeout }).catch(() => undefined);
  return page.title();
}
