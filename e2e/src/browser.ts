import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { accessibilityProblems } from './a11y';
import { launchChromium } from './chromium';
import { REPO_DIR } from './server';

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

/** The binding the pages' init script reports `securitypolicyviolation` events through. */
const CSP_BINDING = '__tkCspViolation';

/** What the init script passes on of a `SecurityPolicyViolationEvent`. */
interface ReportedViolation {
  documentURI: string;
  effectiveDirective: string;
  blockedURI: string;
  sourceFile: string;
  lineNumber: number;
  columnNumber: number;
  sample: string;
  disposition: string;
}

/**
 * Runs in every frame of every page before its own scripts: reports each Content-Security-Policy
 * violation (blocked or, under a report-only policy, reported) to the test. The listener is on the
 * window, capturing, so a violation of an element's (an inline script or style) is seen too.
 */
function reportViolations(binding: string): void {
  addEventListener(
    'securitypolicyviolation',
    (event) => {
      const report = (window as unknown as Record<string, ((violation: ReportedViolation) => void) | undefined>)[binding];
      report?.({
        documentURI: event.documentURI,
        effectiveDirective: event.effectiveDirective,
        blockedURI: event.blockedURI,
        sourceFile: event.sourceFile,
        lineNumber: event.lineNumber,
        columnNumber: event.columnNumber,
        sample: event.sample,
        disposition: event.disposition,
      });
    },
    true,
  );
}

/** One line per violation: where, which directive, what it blocked, from which script line. */
export function describeViolation(violation: ReportedViolation): string {
  const source = violation.sourceFile ? ` at ${violation.sourceFile}:${violation.lineNumber}:${violation.columnNumber}` : '';
  const sample = violation.sample ? ` (sample: ${JSON.stringify(violation.sample.slice(0, 80))})` : '';
  return `${violation.disposition === 'report' ? '[report-only] ' : ''}${violation.documentURI}: ${violation.effectiveDirective} blocked ${violation.blockedURI || 'an inline resource'}${source}${sample}`;
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
  /**
   * Content-Security-Policy violations in this test's pages so far: each `securitypolicyviolation`
   * event and each console message of Chromium's "Refused to …". Any the test has not allowed fails it.
   */
  readonly cspViolations: string[];
  /** Lets this test cause violations matching `pattern` (a test of the policy itself, e.g. framing refused). */
  allowCspViolations(pattern: RegExp): void;
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
  let cspViolations: string[] = [];
  let cspAllowed: RegExp[] = [];

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
    cspViolations = [];
    cspAllowed = [];
    context = await browser!.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
    context.on('request', (request) => requests.push(request.url()));
    // Content-Security-Policy violations fail the test (afterEach), named: the events of every frame,
    // and Chromium's "Refused to …" console lines (in case one reaches no listener).
    await context.exposeBinding(CSP_BINDING, (_source, violation: ReportedViolation) => {
      cspViolations.push(describeViolation(violation));
    });
    await context.addInitScript(`(${reportViolations.toString()})(${JSON.stringify(CSP_BINDING)})`);
    context.on('page', (opened) => {
      opened.on('pageerror', (error) => errors.push(`pageerror ${opened.url()}: ${error.message}`));
      opened.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(`console ${opened.url()}: ${msg.text()}`);
        if (/^(\[Report Only\] )?Refused to /.test(msg.text())) cspViolations.push(`console ${opened.url()}: ${msg.text()}`);
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
    // Reports still on their way from the pages arrive before a round trip to each of them returns.
    for (const p of context?.pages() ?? []) await p.evaluate(() => 0).catch(() => undefined);
    const csp = [...new Set(cspViolations)].filter((line) => !cspAllowed.some((pattern) => pattern.test(line)));
    const failed = !passed || a11y.length > 0 || csp.length > 0;
    if (failed && context) {
      const name = `${ctx.task.file?.name.replace(/^.*\//, '') ?? ''}-${ctx.task.name}`;
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      const pages = context.pages();
      for (const [i, p] of pages.entries()) {
        await shot(p, `FAILED-${name}${pages.length > 1 ? `-${i}` : ''}`).catch(() => undefined);
      }
      writeFileSync(
        join(ARTIFACTS_DIR, `FAILED-${slug(name)}.log`),
        [`pages: ${pages.map((p) => p.url()).join(' ')}`, '', 'errors:', ...errors, ...a11y, '', 'content security policy:', ...csp, '', 'requests:', ...requests].join('\n'),
      );
    }
    await context?.close().catch(() => undefined);
    context = undefined;
    page = undefined;
    if (passed && csp.length > 0) throw new Error(`Content-Security-Policy violations (none is expected; allow one with allowCspViolations):\n${csp.join('\n')}`);
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
    get cspViolations() {
      return cspViolations;
    },
    allowCspViolations(pattern: RegExp) {
      cspAllowed.push(pattern);
    },
  };
  return state;
}

/** Waits until document.title equals `expected`; on time-out returns whatever the title is, for a clear assertion. */
export async function titleOf(page: Page, expected: string, timeout = 15_000): Promise<string> {
  await page.waitForFunction((title) => document.title === title, expected, { timeout }).catch(() => undefined);
  return page.title();
}
