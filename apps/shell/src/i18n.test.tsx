import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { changeLocale, i18n, LOCALE_STORAGE_KEY } from '@tickety/shared';
import { mockApi, resetShared, signedInMe, TEST_CONFIG } from '@tickety/shared/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigLoadError } from './app/config';
import { CONFIG_FAILED_KEYS, ConfigFailed, englishFallback } from './app/config-failed';
import { t } from './lib/i18n';
import { renderFrame, renderNotFound } from './prerender';
import { registry } from './test/registry-mock';
import { renderApp } from './test/render-app';

vi.mock('./remotes/registry', () => import('./test/registry-mock'));

const ARCADE = '1100000000000000001';
let current: ReturnType<typeof renderApp> | undefined;

beforeEach(() => {
  registry.calls.length = 0;
  registry.failing.clear();
  registry.registered.clear();
  for (const id of ['marketing', 'billing', 'dashboard']) registry.registered.add(id);
});
afterEach(async () => {
  cleanup();
  resetShared(current?.store);
  current = undefined;
  await act(() => changeLocale('en'));
  localStorage.clear();
  // biome-ignore lint/suspicious/noDocumentCookie: forgets the pick a test made (the app writes it through rememberLocale)
  document.cookie = `${LOCALE_STORAGE_KEY}=; path=/; max-age=0`;
  document.title = '';
});

describe('the language picker', () => {
  it('lets a visitor pick Deutsch in the footer: the shell switches, <html lang> follows, the pick is remembered', async () => {
    const user = userEvent.setup();
    current = renderApp('/nope');
    await screen.findByRole('heading', { name: 'Page not found' });
    const footer = screen.getByRole('contentinfo');
    const picker = within(footer).getByRole('combobox', { name: 'Language' });
    expect(picker).toHaveValue('en');
    expect(within(picker).getAllByRole('option').map((o) => o.textContent)).toEqual(['English', 'Deutsch']);

    await user.selectOptions(picker, 'Deutsch');

    expect(await screen.findByRole('heading', { name: 'Seite nicht gefunden' })).toBeInTheDocument();
    expect(within(footer).getByRole('combobox', { name: 'Sprache' })).toHaveValue('de');
    expect(within(footer).getByRole('heading', { name: 'Rechtliches' })).toBeInTheDocument();
    expect(within(footer).getByRole('link', { name: 'Impressum' })).toHaveAttribute('href', '/legal');
    expect(screen.getByRole('link', { name: 'Zur Startseite' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('button', { name: 'Anmelden' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Zum (dunklen|hellen) Design wechseln$/ })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('de');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('de');
    expect(document.cookie).toContain(`${LOCALE_STORAGE_KEY}=de`);
    await waitFor(() => expect(document.title).toBe('Tickety - Nicht gefunden'));
  });

  it('is in the signed-in account menu, marking the current language', async () => {
    current = renderApp('/', signedInMe());
    fireEvent.click(await screen.findByRole('button', { name: /Ava/ }));
    const picker = screen.getByRole('banner').querySelector('select')!;
    expect(picker).toHaveAccessibleName('Language');
    expect(picker).toHaveValue('en');
    fireEvent.change(picker, { target: { value: 'de' } });
    expect(await screen.findByRole('link', { name: /Abmelden/ })).toHaveAttribute('href', '/logout');
    expect(screen.getByRole('link', { name: 'Server verwalten' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('banner')).toHaveTextContent('Angemeldet als @ava');
    expect(within(screen.getByRole('banner')).getByRole('combobox', { name: 'Sprache' })).toHaveValue('de');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('de');
    expect(document.documentElement.lang).toBe('de');
  });
});

describe('the shell in German', () => {
  it('titles its own pages and labels the sidebar from the remote\'s catalogue', async () => {
    mockApi({ [`GET /api/guilds/${ARCADE}`]: signedInMe().guilds[0]! });
    current = renderApp(`/dashboard/${ARCADE}/configs`, signedInMe());
    expect(await screen.findByRole('heading', { name: 'dashboard:serverConfigs' })).toBeInTheDocument();
    const sidebar = screen.getByRole('navigation', { name: 'Server' });
    expect([...sidebar.querySelectorAll('a')].map((a) => a.textContent)).toEqual(['Panel Menu', 'Statistics']);

    await act(() => changeLocale('de'));

    expect([...sidebar.querySelectorAll('a')].map((a) => a.textContent)).toEqual(['Panel-Menü', 'Statistiken']);
    expect(within(sidebar).getByRole('link', { name: 'Statistiken' })).toHaveAttribute('href', `/dashboard/${ARCADE}/statistics`);
    expect(screen.getByRole('link', { name: /Server wechseln/ })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('navigation', { name: 'Hauptnavigation' })).toHaveTextContent('Abrechnung');
    await waitFor(() => expect(document.title).toBe('Tickety - Panel-Menü'));
  });

  it('a remote\'s page opened in German: its messages arrive with it', async () => {
    await act(() => changeLocale('de'));
    current = renderApp('/premium-purchase');
    expect(await screen.findByRole('heading', { name: 'billing:premiumPurchase' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Tickety - Premium kaufen'));
    expect(screen.getByRole('navigation', { name: 'Abrechnung' })).toHaveTextContent('AbonnementsPremium kaufen');
  });

  it('the guard and the remote error panel speak German', async () => {
    await act(() => changeLocale('de'));
    current = renderApp('/dashboard');
    expect(await screen.findByText('Anmeldung erforderlich')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mit Discord anmelden' })).toBeInTheDocument();
    cleanup();
    registry.failing.add('billing');
    current = renderApp('/premium-purchase');
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Anfrage fehlgeschlagen');
    expect(dialog).toHaveTextContent('Dieser Teil der Website (billing) konnte nicht geladen werden.');
    expect(within(dialog).getAllByRole('button').map((b) => b.textContent)).toEqual(['Erneut versuchen', 'Startseite']);
  });
});

describe('the start screen when config.json fails', () => {
  it('says why in the reader\'s language', async () => {
    await act(() => changeLocale('de'));
    render(<ConfigFailed error={new ConfigLoadError('HTTP 503', { kind: 'http', status: 503 })} />);
    expect(screen.getByRole('heading', { name: 'Das Dashboard konnte nicht starten' })).toBeInTheDocument();
    expect(screen.getByText('Die Konfiguration des Servers konnte nicht gelesen werden (HTTP 503).')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Erneut versuchen' })).toBeInTheDocument();
  });

  it('falls back to English when the catalogue itself could not be loaded', async () => {
    // A language whose catalogues never arrived: every message is missing.
    i18n.load('fr', {});
    await act(async () => i18n.activate('fr'));
    expect(t('configFailed.title')).not.toBe('The dashboard could not start');
    render(<ConfigFailed error={new ConfigLoadError('bad', { kind: 'unreachable' })} />);
    expect(screen.getByRole('heading', { name: 'The dashboard could not start' })).toBeInTheDocument();
    expect(screen.getByText('Could not reach the server to read its configuration. Check your connection.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('keeps its English constants the same as the English catalogue', () => {
    for (const key of CONFIG_FAILED_KEYS) expect(englishFallback(key, { status: 404 })).toBe(t(key, { status: 404 }));
  });
});

describe('prerendering in a language', () => {
  it('renders the frame and the 404 page in the given locale (English without one)', () => {
    const config = TEST_CONFIG;
    const english = renderNotFound(config);
    expect(english).toContain('Page not found');
    expect(english).toContain('Skip to content');
    const german = renderNotFound(config, 'de');
    expect(german).toContain('Seite nicht gefunden');
    expect(german).toContain('Sprache');
    expect(german).toContain('Zum Inhalt springen');
    const frame = renderFrame('public', '/', config, 'de')!;
    expect(frame).toContain('Funktionen');
    expect(frame).toContain('Nicht mit Discord Inc. verbunden.');
    expect(frame).toContain('data-tk-page');
    expect(renderFrame('public', '/', config)).toContain('Not affiliated with Discord Inc.');
  });
});
