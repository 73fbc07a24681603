import { runInNewContext } from 'node:vm';

/**
 * Just enough of a browser to run the stand-ins' client scripts (paddle.js, the FastSpring builder,
 * the checkout and popup pages' scripts) in a VM: elements, window and document listeners, focus,
 * postMessage to a parent frame, console output, timers and location.assign, all recorded for tests.
 */

type Listener = (event: Record<string, unknown>) => void;

/** An element: style, attributes, children, listeners and focus. */
export class FakeElement {
  style: Record<string, string> = {};
  attributes = new Map<string, string>();
  children: FakeElement[] = [];
  parentNode: FakeElement | null = null;
  listeners = new Map<string, Listener[]>();
  title = '';
  name = '';
  src = '';
  type = '';
  textContent = '';
  tabIndex = -1;
  hidden = false;
  contentWindow: object | null;

  constructor(
    readonly tagName: string,
    private readonly dom: FakeDom,
  ) {
    this.contentWindow = tagName === 'iframe' ? { frame: true } : null;
  }

  setAttribute(key: string, value: unknown) {
    this.attributes.set(key, String(value));
  }
  getAttribute(name: string) {
    return this.attributes.get(name) ?? null;
  }
  appendChild(fakeElement: FakeElement) {
    fakeElement.parentNode = this;
    this.children.push(fakeElement);
    return fakeElement;
  }
  removeChild(child: FakeElement) {
    this.children = this.children.filter((x) => x !== child);
    child.parentNode = null;
    return child;
  }
  addEventListener(type: string, fn: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  fire(type: string, event: Record<string, unknown> = {}) {
    for (const fn of this.listeners.get(type) ?? []) fn(event);
  }
  focus() {
    this.dom.document.activeElement = this;
  }
  all(): FakeElement[] {
    return [this, ...this.children.flatMap((c) => c.all())];
  }
}

export interface FakeDomOptions {
  /** `document.currentScript` (a <script> element, or just its src). */
  currentScript?: FakeElement | { src: string };
  /** `window.location.href` (its origin is http://localhost:5173). Default http://localhost:5173/billing. */
  href?: string;
  /** In a frame: `window.parent` is another window, whose postMessage is recorded in `posted`. */
  framed?: boolean;
  /** What `document.getElementById` finds. */
  byId?: Record<string, FakeElement>;
  /** What `document.querySelectorAll` answers (close buttons). */
  closers?: FakeElement[];
}

/** A window and its document. */
export class FakeDom {
  logs: Array<{ level: string; text: string }> = [];
  /** Callbacks given to setTimeout, not run until the test does. */
  timers: Array<() => void> = [];
  /** URLs given to `window.location.assign`. */
  assigned: string[] = [];
  posted: Array<{ message: unknown; origin: string }> = [];
  windowListeners = new Map<string, Listener[]>();
  documentListeners = new Map<string, Listener[]>();
  /** What `document.getElementById` finds (tests may add to it). */
  byId: Record<string, FakeElement>;
  // biome-ignore lint/suspicious/noExplicitAny: a stand-in for the browser's globals
  document: any;
  // biome-ignore lint/suspicious/noExplicitAny: a stand-in for the browser's globals
  window: any;

  constructor(options: FakeDomOptions = {}) {
    const body = new FakeElement('body', this);
    this.byId = { ...options.byId };
    this.document = {
      currentScript: options.currentScript ?? null,
      body,
      documentElement: { style: { overflow: '' } },
      activeElement: body,
      createElement: (tag: string) => new FakeElement(tag, this),
      addEventListener: (type: string, fn: Listener) => this.documentListeners.set(type, [...(this.documentListeners.get(type) ?? []), fn]),
      removeEventListener: (type: string, fn: Listener) => this.documentListeners.set(type, (this.documentListeners.get(type) ?? []).filter((f) => f !== fn)),
      contains: (el: FakeElement) => el === body || body.all().includes(el),
      getElementById: (id: string) => this.byId[id] ?? null,
      querySelector: () => null,
      querySelectorAll: () => options.closers ?? [],
    };
    const parent = { postMessage: (message: unknown, origin: string) => this.posted.push({ message, origin }) };
    this.window = {
      location: { origin: 'http://localhost:5173', href: options.href ?? 'http://localhost:5173/billing', assign: (url: string) => this.assigned.push(url) },
      addEventListener: (type: string, fn: Listener) => this.windowListeners.set(type, [...(this.windowListeners.get(type) ?? []), fn]),
    };
    this.window.parent = options.framed ? parent : this.window;
  }

  /** Runs a script in this window; returns the window (to read what the script defined on it). */
  // biome-ignore lint/suspicious/noExplicitAny: the script's API as the page sees it
  run(code: string): any {
    const log =
      (level: string) =>
      (...args: unknown[]) =>
        this.logs.push({ level, text: args.map(String).join(' ') });
    runInNewContext(code, {
      window: this.window,
      document: this.document,
      console: { log: log('log'), warn: log('warn'), error: log('error') },
      URL,
      URLSearchParams,
      JSON,
      setTimeout: (fn: () => void) => this.timers.push(fn),
    });
    return this.window;
  }

  /** The overlay or popup the script opened (`role="dialog"` in the body), if any. */
  dialog(): FakeElement | undefined {
    return this.document.body.children.find((c: FakeElement) => c.getAttribute('role') === 'dialog');
  }

  /** Dispatches a `message` event to the window. */
  message(event: Record<string, unknown>) {
    for (const fn of this.windowListeners.get('message') ?? []) fn(event);
  }

  /** A keydown on the document. */
  key(key: string) {
    for (const fn of this.documentListeners.get('keydown') ?? []) fn({ key, preventDefault: () => undefined });
  }

  /** What was logged at this level. */
  errors(level = 'error') {
    return this.logs.filter((l) => l.level === level).map((l) => l.text);
  }
}
