import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageShown, prepareRoot } from './takeover';

afterEach(() => {
  document.body.innerHTML = '';
  vi.useRealTimers();
});

describe('taking over a prerendered page', () => {
  it('renders a plain page into #root itself', () => {
    document.body.innerHTML = '<div id="root"><div class="outline"></div></div>';
    const root = document.getElementById('root')!;
    expect(prepareRoot()).toBe(root);
    pageShown(); // nothing to swap
    expect(document.getElementById('root')).toBe(root);
  });

  it('keeps the prerendered page on screen until the app shows its page, then swaps the two at once', () => {
    document.body.innerHTML = '<div id="root" data-prerendered=""><h1>Home</h1></div><noscript>JS</noscript>';
    const prerendered = document.getElementById('root')!;
    const app = prepareRoot();
    expect(app).not.toBe(prerendered);
    expect(app.hidden).toBe(true);
    expect(prerendered.nextElementSibling).toBe(app);
    app.innerHTML = '<h1>Home</h1>';
    pageShown();
    expect(prerendered.isConnected).toBe(false);
    expect(app.hidden).toBe(false);
    expect(app.id).toBe('root');
    expect(document.querySelectorAll('#root')).toHaveLength(1);
    // Once only.
    pageShown();
    expect(document.getElementById('root')).toBe(app);
  });

  it('presses again, on the app, a button pressed on the prerendered copy (never one that differs)', () => {
    document.body.innerHTML = '<div id="root" data-prerendered=""><header><a href="/x">X</a><button>Login</button><button>Menu</button></header></div>';
    const prerendered = document.getElementById('root')!;
    const app = prepareRoot();
    const login = vi.fn();
    const menu = vi.fn();
    app.innerHTML = '<header><a href="/x">X</a><button>Login</button><button>Open</button></header>';
    const [appLogin, appMenu] = app.querySelectorAll('button');
    appLogin!.addEventListener('click', login);
    appMenu!.addEventListener('click', menu);
    const [preLogin, preMenu] = prerendered.querySelectorAll('button');
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    preLogin!.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    preMenu!.click();
    expect(login).not.toHaveBeenCalled();
    pageShown();
    expect(login).toHaveBeenCalledTimes(1);
    // "Menu" became "Open": not the same control, not pressed.
    expect(menu).not.toHaveBeenCalled();
  });

  it('replays the presses the boot script kept before the app was in', () => {
    document.body.innerHTML = '<div id="root" data-prerendered=""><header><button>Login</button></header></div>';
    const preLogin = document.querySelector('button')!;
    window.__tickety = { started: true, pressed: [preLogin] };
    try {
      const app = prepareRoot();
      app.innerHTML = '<header><button>Login</button></header>';
      const login = vi.fn();
      app.querySelector('button')!.addEventListener('click', login);
      pageShown();
      expect(login).toHaveBeenCalledTimes(1);
    } finally {
      delete window.__tickety;
    }
  });

  it('renders straight over a page prerendered for another address (a stand-in)', () => {
    document.body.innerHTML = '<div id="root" data-prerendered="*"><h1>Page not found</h1></div>';
    const root = document.getElementById('root')!;
    expect(prepareRoot()).toBe(root);
    expect(root.hasAttribute('data-prerendered')).toBe(false);
  });

  it('gives up waiting (a remote that never arrives) and shows the app anyway', () => {
    vi.useFakeTimers();
    document.body.innerHTML = '<div id="root" data-prerendered=""><h1>Home</h1></div>';
    const app = prepareRoot(document, 1_000);
    vi.advanceTimersByTime(999);
    expect(app.hidden).toBe(true);
    vi.advanceTimersByTime(1);
    expect(app.hidden).toBe(false);
    expect(document.querySelectorAll('#root')).toHaveLength(1);
  });
});
