import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DISMISSED_KEY } from '../announcements/dismissals';
import { THEME_STORAGE_KEY } from '../theme/theme';
import { boot, hasUndismissed, SIGNED_IN_HINT_KEY } from './boot';

const OPTIONS = { scripts: ['/assets/main.1.js'], preload: ['/assets/react.2.js', '/assets/router.3.js'] };

const appScripts = () => [...document.head.querySelectorAll('script[src]')].map((s) => s.getAttribute('src'));
const preloads = () => [...document.head.querySelectorAll('link[rel="preload"]')].map((l) => l.getAttribute('href'));

function systemPrefersDark(dark: boolean) {
  window.matchMedia = vi.fn().mockImplementation((query: string) => ({ matches: dark && query.includes('dark'), addEventListener: () => undefined })) as typeof window.matchMedia;
}

/** requestIdleCallback replaced: the test says when the browser is idle. */
let idleTasks: Array<() => void> = [];
const idle = () => {
  for (const task of idleTasks.splice(0)) task();
};

/** What the page's fetch answers: config.json, then the notices (a visitor's, with no cookies here). */
type Answer = { status?: number; body: unknown } | Error;
let answers: Record<string, Answer> = {};
const fetched = vi.fn(async (url: string, _init?: RequestInit) => {
  const answer = answers[url];
  if (!answer) throw new TypeError(`fetch ${url}: not answered by this test`);
  if (answer instanceof Error) throw answer;
  return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
});
const notice = (id: string, revision = 1) => ({ id, revision, severity: 'maintenance', text: `Notice ${id}`, endsAt: null });
function serve(announcements: unknown[] | Answer, apiOrigin = 'http://localhost:3000') {
  answers = {
    '/config.json': { body: { apiOrigin } },
    [`${apiOrigin}/api/announcements`]: Array.isArray(announcements) ? { body: { announcements } } : announcements,
  };
}
/** The answers' promises settled. */
const settled = () => new Promise((ok) => setTimeout(ok, 0));

/** Sets document.readyState until the returned restore is called (happy-dom's is "complete"). */
function loading(readyState: DocumentReadyState) {
  Object.defineProperty(document, 'readyState', { configurable: true, get: () => readyState });
  return () => {
    delete (document as { readyState?: unknown }).readyState;
  };
}

beforeEach(() => {
  localStorage.clear();
  systemPrefersDark(false);
  idleTasks = [];
  vi.stubGlobal('requestIdleCallback', (task: () => void) => idleTasks.push(task));
  vi.stubGlobal('cancelIdleCallback', () => undefined);
  answers = {};
  fetched.mockClear();
  vi.spyOn(window, 'fetch').mockImplementation(fetched as typeof window.fetch);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  document.documentElement.className = '';
  document.documentElement.style.colorScheme = '';
  delete window.__tickety;
});

describe('the boot script', () => {
  it("applies the user's pick, else the system's scheme, before anything else", () => {
    systemPrefersDark(true);
    document.body.innerHTML = '<div id="root"></div>';
    boot(OPTIONS);
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(document.documentElement.style.colorScheme).toBe('dark');

    document.head.innerHTML = '';
    localStorage.setItem(THEME_STORAGE_KEY, 'light');
    boot(OPTIONS);
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    expect(document.documentElement.style.colorScheme).toBe('light');
  });

  it('starts the app at once on a page that was not prerendered, the startup chunks preloaded', () => {
    document.body.innerHTML = '<div id="root"><div class="outline"></div></div>';
    const state = boot(OPTIONS);
    expect(state.started).toBe(true);
    expect(appScripts()).toEqual(['/assets/main.1.js']);
    expect(preloads()).toEqual(['/assets/react.2.js', '/assets/router.3.js']);
    expect((document.head.querySelector('script[src]') as HTMLScriptElement).async).toBe(false);
  });

  it('on a prerendered page, fetches the app only when the visitor reaches for the page, once', () => {
    document.body.innerHTML = '<div id="root" data-prerendered=""><a href="/premium">Premium</a></div>';
    const state = boot(OPTIONS);
    expect(state.started).toBe(false);
    expect(appScripts()).toEqual([]);
    window.dispatchEvent(new Event('scroll'));
    expect(appScripts()).toEqual([]);
    document.querySelector('a')!.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(state.started).toBe(true);
    expect(appScripts()).toEqual(['/assets/main.1.js']);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' }));
    expect(appScripts()).toHaveLength(1);
  });

  it('starts at once on a prerendered page for a browser where a user was signed in', () => {
    localStorage.setItem(SIGNED_IN_HINT_KEY, '1');
    document.body.innerHTML = '<div id="root" data-prerendered=""></div>';
    expect(boot(OPTIONS).started).toBe(true);
  });

  it('starts at once when the prerendered page is a stand-in for another address (a static host\'s 404.html)', () => {
    window.history.replaceState(null, '', '/dashboard/123');
    try {
      for (const at of ['*', '/premium']) {
        document.head.innerHTML = '';
        document.body.innerHTML = `<div id="root" data-prerendered="${at}"><h1>Page not found</h1></div>`;
        expect(boot(OPTIONS).started, at).toBe(true);
      }
      // The same address, however it is written.
      document.body.innerHTML = '<div id="root" data-prerendered="/dashboard/123"></div>';
      window.history.replaceState(null, '', '/dashboard/123/');
      expect(boot(OPTIONS).started).toBe(false);
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it('starts at once on a prerendered page that is still loading data (aria-busy), not on a complete one', () => {
    document.body.innerHTML = '<div id="root" data-prerendered=""><h1>Status</h1><div role="status" aria-busy="true" aria-label="Loading the status"></div></div>';
    expect(boot(OPTIONS).started).toBe(true);
    document.head.innerHTML = '';
    document.body.innerHTML = '<div id="root" data-prerendered=""><h1>Status</h1><button aria-busy="false">Refresh</button></div>';
    expect(boot(OPTIONS).started).toBe(false);
  });

  it("starts at once on a prerendered page in another language than the reader's, not on one in theirs", () => {
    const languages = vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE', 'en']);
    try {
      document.body.innerHTML = '<div id="root" data-prerendered=""><h1>Tickety</h1></div>';
      document.documentElement.lang = 'en';
      expect(boot(OPTIONS).started, 'English page, German browser').toBe(true);
      document.head.innerHTML = '';
      document.documentElement.lang = 'de';
      expect(boot(OPTIONS).started, 'German page, German browser').toBe(false);
      document.head.innerHTML = '';
      localStorage.setItem('tickety-locale', 'en');
      expect(boot(OPTIONS).started, 'German page, English picked').toBe(true);
    } finally {
      languages.mockRestore();
      document.documentElement.lang = '';
    }
  });

  it('starts at once on a prerendered page the server marked (it saw a session)', () => {
    document.body.innerHTML = '<div id="root" data-prerendered="" data-start=""></div>';
    expect(boot(OPTIONS).started).toBe(true);
  });

  it('starts the app after load and idle on a prerendered page whose data refreshes (data-refresh), not before', async () => {
    serve([]);
    document.body.innerHTML = '<div id="root" data-prerendered="" data-refresh=""><main><p>All systems operational</p></main></div>';
    const restore = loading('interactive');
    try {
      const state = boot(OPTIONS);
      expect(state.started).toBe(false);
      restore();
      window.dispatchEvent(new Event('load'));
      await settled();
      expect(state.started).toBe(false);
      idle();
      expect(state.started).toBe(true);
      expect(appScripts()).toEqual(['/assets/main.1.js']);
    } finally {
      restore();
    }
  });

  it('keeps presses on controls for the app, lets links be, and toggles the theme itself', () => {
    document.body.innerHTML =
      '<div id="root" data-prerendered=""><a href="#features">Features</a><button data-theme-toggle=""><svg></svg></button><button><span>Login</span></button></div>';
    const state = boot(OPTIONS);
    const link = new MouseEvent('click', { bubbles: true, cancelable: true });
    document.querySelector('a')!.dispatchEvent(link);
    expect(link.defaultPrevented).toBe(false);

    const heard = vi.fn();
    window.addEventListener('tickety:scheme', heard);
    document.querySelector('[data-theme-toggle] svg')!.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(heard).toHaveBeenCalledTimes(1);
    window.removeEventListener('tickety:scheme', heard);

    const login = new MouseEvent('click', { bubbles: true, cancelable: true });
    document.querySelector('button:not([data-theme-toggle]) span')!.dispatchEvent(login);
    expect(login.defaultPrevented).toBe(true);
    expect(state.pressed.map((el) => el.textContent)).toEqual(['Login']);
  });
});

describe('a notice to show, on a prerendered page', () => {
  const PRERENDERED = '<div id="root" data-prerendered=""><header><a href="/">Tickety</a></header><main><h1>Tickety</h1></main></div>';

  it('starts the app once the page has loaded and the browser is idle, when a notice is not dismissed here', async () => {
    serve([notice('7')]);
    document.body.innerHTML = PRERENDERED;
    const restore = loading('interactive');
    try {
      const state = boot(OPTIONS);
      await settled();
      // Not before the page has loaded (the first paint, the page's images) ...
      expect(idleTasks).toHaveLength(0);
      expect(fetched).not.toHaveBeenCalled();
      restore();
      window.dispatchEvent(new Event('load'));
      await settled();
      // ... nor before the browser is idle.
      expect(fetched).not.toHaveBeenCalled();
      expect(state.started).toBe(false);
      idle();
      await settled();
      expect(fetched.mock.calls.map(([url]) => url)).toEqual(['/config.json', 'http://localhost:3000/api/announcements']);
      expect(fetched.mock.calls[1]?.[1]).toMatchObject({ credentials: 'include' });
      expect(state.started).toBe(true);
      expect(appScripts()).toEqual(['/assets/main.1.js']);
    } finally {
      restore();
    }
  });

  it('reads the notices from the API config.json names (a static host: the API is elsewhere)', async () => {
    serve([notice('7')], 'https://api.example.com');
    document.body.innerHTML = PRERENDERED;
    const state = boot(OPTIONS);
    idle();
    await settled();
    expect(fetched.mock.calls.map(([url]) => url)).toEqual(['/config.json', 'https://api.example.com/api/announcements']);
    expect(state.started).toBe(true);
  });

  it('loads no app when there is no notice', async () => {
    serve([]);
    document.body.innerHTML = PRERENDERED;
    const state = boot(OPTIONS);
    idle();
    await settled();
    expect(fetched).toHaveBeenCalledTimes(2);
    expect(state.started).toBe(false);
    expect(appScripts()).toEqual([]);
    expect(preloads()).toEqual([]);
  });

  it('loads no app when every notice was dismissed in this browser (the banner\'s key, id:revision); a changed one starts it', async () => {
    localStorage.setItem(DISMISSED_KEY, JSON.stringify(['7:2', '8:1']));
    serve([notice('7', 2), notice('8')]);
    document.body.innerHTML = PRERENDERED;
    const state = boot(OPTIONS);
    idle();
    await settled();
    expect(state.started).toBe(false);
    expect(appScripts()).toEqual([]);

    // The same notice with a new text (its revision): shown again.
    document.head.innerHTML = '';
    serve([notice('7', 3), notice('8')]);
    const again = boot(OPTIONS);
    idle();
    await settled();
    expect(again.started).toBe(true);
  });

  it.each([
    ['the API unreachable', () => serve(new TypeError('Failed to fetch'))],
    ['the API answering 503', () => serve({ status: 503, body: { error: 'busy' } })],
    ['an answer of another shape', () => serve({ body: { notices: [notice('7')] } })],
    ['config.json unreachable', () => (answers = { '/config.json': new TypeError('Failed to fetch') })],
    ['config.json answering 404', () => (answers = { '/config.json': { status: 404, body: {} } })],
  ])('does nothing with %s', async (_, arrange) => {
    arrange();
    document.body.innerHTML = PRERENDERED;
    const state = boot(OPTIONS);
    idle();
    await settled();
    expect(fetched).toHaveBeenCalled();
    expect(state.started).toBe(false);
    expect(appScripts()).toEqual([]);
    // The visitor still starts it.
    window.dispatchEvent(new Event('pointerdown'));
    expect(state.started).toBe(true);
  });

  it('reads nothing once the visitor has started the app, nor on a page that starts it at once', async () => {
    serve([notice('7')]);
    document.body.innerHTML = PRERENDERED;
    const state = boot(OPTIONS);
    window.dispatchEvent(new Event('pointerdown'));
    idle();
    await settled();
    expect(state.started).toBe(true);
    expect(fetched).not.toHaveBeenCalled();
    expect(appScripts()).toHaveLength(1);

    document.head.innerHTML = '';
    document.body.innerHTML = '<div id="root"></div>';
    boot(OPTIONS);
    idle();
    await settled();
    expect(idleTasks).toHaveLength(0);
    expect(fetched).not.toHaveBeenCalled();
  });

  it('reads nothing when the server marked the notices on the page; none undismissed: nothing scheduled at all', async () => {
    localStorage.setItem(DISMISSED_KEY, JSON.stringify(['7:2']));
    for (const marked of ['', '7:2']) {
      document.body.innerHTML = PRERENDERED.replace('data-prerendered=""', `data-prerendered="" data-notices="${marked}"`);
      const state = boot(OPTIONS);
      expect(idleTasks).toHaveLength(0);
      await settled();
      expect(fetched).not.toHaveBeenCalled();
      expect(state.started).toBe(false);
    }
  });

  it('starts the app once loaded and idle for a marked notice not dismissed here, without a request', async () => {
    localStorage.setItem(DISMISSED_KEY, JSON.stringify(['7:1']));
    document.body.innerHTML = PRERENDERED.replace('data-prerendered=""', 'data-prerendered="" data-notices="7:2 8:1"');
    const restore = loading('interactive');
    try {
      const state = boot(OPTIONS);
      expect(idleTasks).toHaveLength(0);
      restore();
      window.dispatchEvent(new Event('load'));
      expect(state.started).toBe(false);
      idle();
      expect(state.started).toBe(true);
      expect(fetched).not.toHaveBeenCalled();
      expect(appScripts()).toEqual(['/assets/main.1.js']);
    } finally {
      restore();
    }
    expect(hasUndismissed('7:2 8:1', ['7:2', '8:1'])).toBe(false);
    expect(hasUndismissed('7:2 8:1', ['7:2'])).toBe(true);
    expect(hasUndismissed('', [])).toBe(false);
  });

  it('reads nothing on a display page (no header: embedded in other sites, where the banner is not shown)', async () => {
    serve([notice('7')]);
    document.body.innerHTML = '<div id="root" data-prerendered=""><main id="content"><p>Tickety</p></main></div>';
    const state = boot(OPTIONS);
    idle();
    await settled();
    expect(fetched).not.toHaveBeenCalled();
    expect(state.started).toBe(false);
  });

  it('waits for the browser to be idle with a timeout, or a timer where there is no requestIdleCallback', async () => {
    const asked = vi.fn((_task: () => void, _options?: IdleRequestOptions) => 1);
    vi.stubGlobal('requestIdleCallback', asked);
    document.body.innerHTML = PRERENDERED;
    boot(OPTIONS);
    expect(asked).toHaveBeenCalledWith(expect.any(Function), { timeout: 4_000 });

    vi.stubGlobal('requestIdleCallback', undefined);
    vi.useFakeTimers();
    try {
      serve([notice('7')]);
      document.head.innerHTML = '';
      const state = boot(OPTIONS);
      vi.advanceTimersByTime(1_900);
      expect(fetched).not.toHaveBeenCalled();
      vi.advanceTimersByTime(100);
      expect(fetched).toHaveBeenCalledWith('/config.json', expect.anything());
      vi.useRealTimers();
      await settled();
      expect(state.started).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
