import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { THEME_STORAGE_KEY } from '../theme/theme';
import { boot, SIGNED_IN_HINT_KEY } from './boot';

const OPTIONS = { scripts: ['/assets/main.1.js'], preload: ['/assets/react.2.js', '/assets/router.3.js'] };

const appScripts = () => [...document.head.querySelectorAll('script[src]')].map((s) => s.getAttribute('src'));
const preloads = () => [...document.head.querySelectorAll('link[rel="preload"]')].map((l) => l.getAttribute('href'));

function systemPrefersDark(dark: boolean) {
  window.matchMedia = vi.fn().mockImplementation((query: string) => ({ matches: dark && query.includes('dark'), addEventListener: () => undefined })) as typeof window.matchMedia;
}

beforeEach(() => {
  localStorage.clear();
  systemPrefersDark(false);
});

afterEach(() => {
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
