import { act, render, screen } from '@testing-library/react';
import { ERROR_CODES } from '@tickety/api-contract';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiRequestError, errorText, toOverlayErrorView } from '../client/errors';
import { formatDateTime, formatNumber, formatPrice } from '../format/format';
import en from '../locales/en.json';
import { defineCatalog, defineCatalogPart, formatElements } from './catalog';
import { sharedCatalog } from './catalog-shared';
import { activeLocale, type CatalogModule, changeLocale, i18n, routeText } from './i18n';
import { LOCALE_STORAGE_KEY, localeFromAcceptLanguage, matchLocale, preferredLocale } from './locales';

// A catalogue of its own, loaded from "chunks" that count their loads.
const loads: string[] = [];
const demo = defineCatalog<{ greeting: string; servers: string; note: string }>('demo', {
  en: async () => {
    loads.push('en');
    return { default: { greeting: ['Hello ', ['name']], servers: [['count', 'plural', { one: ['#', ' server'], other: ['#', ' servers'] }]], note: ['Read the <link>policy</link>.'] } };
  },
  de: async () => {
    loads.push('de');
    return { default: { greeting: ['Hallo ', ['name']], servers: [['count', 'plural', { one: ['#', ' Server'], other: ['#', ' Server'] }]], note: ['Lies die <link>Richtlinie</link>.'] } };
  },
});

function Greeting({ count }: { count: number }) {
  const t = demo.useT();
  return (
    <p>
      {t('greeting', { name: 'Ava' })} · {t('servers', { count })} · {formatNumber(1234.5)}
    </p>
  );
}

// Two parts of it, one a page asks for, one never asked for.
const partLoads: string[] = [];
const part = (locale: 'en' | 'de', key: string, text: string) => async (): Promise<CatalogModule> => {
  partLoads.push(locale);
  return { default: { [key]: [text, ['name']] } };
};
const pagePart = defineCatalogPart<{ farewell: string }, 'greeting'>(demo, 'page', { en: part('en', 'farewell', 'Bye '), de: part('de', 'farewell', 'Tschüss ') });
const unusedPart = defineCatalogPart<{ other: string }, 'greeting'>(demo, 'unused', { en: part('en', 'other', 'never '), de: part('de', 'other', 'nie ') });

function Farewell() {
  const t = pagePart.useT();
  return <p>{`${t('greeting', { name: 'Ava' })} / ${t('farewell', { name: 'Ava' })}`}</p>;
}

afterEach(async () => {
  await changeLocale('en');
  localStorage.clear();
  // biome-ignore lint/suspicious/noDocumentCookie: the test removes the cookie the code under test wrote
  document.cookie = `${LOCALE_STORAGE_KEY}=; max-age=0; path=/`;
});

describe('choosing the language', () => {
  it('matches browser languages and Accept-Language headers to a catalogue, English otherwise', () => {
    expect(matchLocale(['fr-FR', 'de-AT', 'en'])).toBe('de');
    expect(matchLocale(['fr'])).toBeNull();
    expect(localeFromAcceptLanguage('fr;q=0.9, de-CH;q=0.8, en;q=0.7')).toBe('de');
    expect(localeFromAcceptLanguage('en-GB,en;q=0.9,de;q=0.8')).toBe('en');
    expect(localeFromAcceptLanguage('de;q=0, en;q=0.5')).toBe('en');
    expect(localeFromAcceptLanguage('fr, *')).toBeNull();
    expect(localeFromAcceptLanguage(undefined)).toBeNull();
  });

  it("prefers the reader's remembered pick over the browser's languages", () => {
    expect(preferredLocale()).toBe('en'); // happy-dom's navigator speaks en-US
    localStorage.setItem(LOCALE_STORAGE_KEY, 'de');
    expect(preferredLocale()).toBe('de');
    localStorage.setItem(LOCALE_STORAGE_KEY, 'xx');
    expect(preferredLocale()).toBe('en');
  });
});

describe('switching the language', () => {
  it('loads every catalogue in the new language before switching, re-renders, sets <html lang> and remembers a pick', async () => {
    render(<Greeting count={3} />);
    await act(() => demo.ready());
    expect(screen.getByText('Hello Ava · 3 servers · 1,234.5')).toBeInTheDocument();

    loads.length = 0;
    await act(() => changeLocale('de', { remember: true }));
    expect(loads).toEqual(['de']);
    expect(activeLocale()).toBe('de');
    expect(screen.getByText('Hallo Ava · 3 Server · 1.234,5')).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('de');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('de');
    expect(document.cookie).toContain(`${LOCALE_STORAGE_KEY}=de`);

    // a second switch to a loaded language fetches nothing
    loads.length = 0;
    await act(() => changeLocale('en'));
    await act(() => changeLocale('de'));
    expect(loads).toEqual([]);
  });

  it("loads a catalogue's part only when a page asks for it, and with every switch from then on", async () => {
    // a switch before any page asked for them leaves both parts alone
    await act(() => changeLocale('de'));
    await act(() => changeLocale('en'));
    expect(partLoads).toEqual([]);

    await act(() => pagePart.ready());
    expect(partLoads).toEqual(['en']);
    render(<Farewell />);
    expect(screen.getByText('Hello Ava / Bye Ava')).toBeInTheDocument();
    // its messages join the base catalogue's namespace
    expect(pagePart.namespace).toBe('demo');
    expect(i18n.messages['demo.farewell']).toBeDefined();

    // switching language brings the part that is in use, in German, before the page re-renders
    await act(() => changeLocale('de'));
    expect(partLoads).toEqual(['en', 'de']);
    expect(screen.getByText('Hallo Ava / Tschüss Ava')).toBeInTheDocument();
    expect(unusedPart.namespace).toBe('demo');
    expect(i18n.messages['demo.other']).toBeUndefined();
  });

  it('brings a part a page asks for during a switch in the new language too', async () => {
    partLoads.length = 0;
    const switching = changeLocale('de');
    const asking = unusedPart.ready();
    await act(() => Promise.all([switching, asking]));
    expect(activeLocale()).toBe('de');
    expect(partLoads).toContain('de');
    expect(i18n._('demo.other', { name: 'Ava' })).toBe('nie Ava');
  });

  it('puts elements into messages with markup', () => {
    // biome-ignore lint/a11y/useAnchorContent: the message gives the link its text
    render(<demo.T k="note" components={{ link: <a href="/refund-policy" /> }} />);
    expect(screen.getByRole('link', { name: 'policy' })).toHaveAttribute('href', '/refund-policy');
    expect(formatElements('a <b>bold <i>x</i></b> and <br/> end', { b: <strong />, br: <br /> })).toHaveLength(5);
  });

  it('keeps an interpolated value text, even when it looks like markup (a server name anyone can choose)', () => {
    // biome-ignore lint/a11y/useAnchorContent: the message gives the link its text
    const { container } = render(<demo.T k="greeting" values={{ name: '<link>evil</link>' }} components={{ link: <a href="/x" /> }} />);
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toBe('Hello <link>evil</link>');
    // the same, written with escapes the formatter decodes
    const escaped = render(<demo.T k="greeting" values={{ name: '\\u003clink\\u003eevil\\u003c/link\\u003e' }} components={{ link: <a href="/y">x</a> }} />);
    expect(escaped.container.querySelector('a')).toBeNull();
  });

  it('formats prices, numbers and dates in the active language', async () => {
    expect(formatPrice(4.99, 'EUR')).toBe('€4.99');
    await changeLocale('de');
    expect(formatPrice(4.99, 'EUR')).toBe('4,99\u00a0€');
    expect(formatNumber(1234567)).toBe('1.234.567');
    expect(formatDateTime('2026-03-01T12:00:00Z')).toMatch(/01\.03\.2026/);
  });

  it("titles a remote's route from its catalogue once loaded, from the table before", () => {
    expect(routeText('nobody', 'title', 'page', 'English title')).toBe('English title');
    i18n.load('en', { 'demo.title.page': ['Catalogue title'] });
    expect(routeText('demo', 'title', 'page', 'English title')).toBe('Catalogue title');
  });
});

describe('the error catalogue', () => {
  it("has every API error code in English exactly as the API's catalogue says it", () => {
    for (const { code, message } of Object.values(ERROR_CODES)) expect(i18n._(`shared.error.${code}`), `error.${code}`).toBe(message);
    const codes = Object.keys(en).filter((k) => k.startsWith('error.'));
    expect(codes).toHaveLength(Object.keys(ERROR_CODES).length);
  });

  it("shows an API error in the reader's language: the API's own words in English, the catalogue's in German", async () => {
    const body = { code: 1003, message: 'Too many requests: wait 30 seconds.', isAuthenticated: true };
    const error = new ApiRequestError('http', body.message, { status: 429, body });
    expect(errorText(error)).toBe('Too many requests: wait 30 seconds.');
    await changeLocale('de');
    expect(errorText(error)).toBe('Zu viele Anfragen: Warte einen Moment und versuche es dann erneut.');
    const view = toOverlayErrorView(error, undefined, 1);
    expect(view.title).toBe('Anfrage fehlgeschlagen');
    expect(view.message).toBe(errorText(error));
    expect(sharedCatalog.t('login.button')).toBe('Mit Discord anmelden');
    // a thunk's rejection ({ code, message }) the same way; anything else as it is
    expect(errorText({ code: 1008, message: 'Discord is not answering right now.' })).toBe(sharedCatalog.t('error.1008'));
    expect(errorText(new Error('plain'))).toBe('plain');
  });
});
