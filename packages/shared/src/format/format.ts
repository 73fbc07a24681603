/**
 * The one set of formatters every front end uses: prices, numbers, dates and relative times, on
 * `Intl`, in the reader's locale (the language the pages are shown in).
 */
import { sharedCatalog } from '../i18n/catalog-shared';
import { activeLocale } from '../i18n/i18n';

/**
 * The locale to format in: the language the pages are shown in, with the browser's region when the
 * browser speaks that language ("en-GB" dates for a British reader of the English pages).
 */
export function userLocale(): string {
  const language = activeLocale();
  const browser = typeof navigator !== 'undefined' ? navigator.language : '';
  return browser && browser.toLowerCase().split('-')[0] === language ? browser : language;
}

/**
 * Intl formatters are costly to build (a tenth of a millisecond and more each, per call, in a list of
 * thousands of rows): each one is made once per locale and options and kept.
 */
const formatters = new Map<string, unknown>();
function cached<T>(key: string, make: () => T): T {
  let formatter = formatters.get(key) as T | undefined;
  if (formatter === undefined) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}
function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached(`d|${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}
function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return cached(`n|${locale}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));
}

/**
 * A price in its currency: "$4.99", "€49.99"; a whole amount without cents ("$5", "$0") unless
 * `cents: 'always'` (an invoice line: "$5.00").
 */
export function formatPrice(amount: number, currency: string, options: { cents?: 'auto' | 'always'; locale?: string } = {}): string {
  const digits = options.cents === 'always' || !Number.isInteger(amount) ? 2 : 0;
  return numberFormat(options.locale ?? userLocale(), { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(amount);
}

export function formatNumber(value: number, locale = userLocale()): string {
  return numberFormat(locale).format(value);
}

/** A point in time: a Date, epoch milliseconds or an ISO string. */
export type Instant = Date | number | string;

function timeOf(at: Instant): number {
  return at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at);
}

/** A date and time for a label or tooltip ("Mar 1, 2026, 12:00 PM"); with `seconds`, to the second. */
export function formatDateTime(at: Instant, options: { seconds?: boolean; locale?: string } = {}): string {
  const time = timeOf(at);
  if (Number.isNaN(time)) return sharedCatalog.t('format.unknown');
  return dateTimeFormat(options.locale ?? userLocale(), { dateStyle: 'medium', timeStyle: options.seconds ? 'medium' : 'short' }).format(time);
}

/** A calendar date ("January 15, 2026") from "2026-01-15", read as a date without a time zone. */
export function formatDate(isoDate: string, locale = userLocale()): string {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate.trim());
  if (!parts) return isoDate;
  const at = Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]));
  return dateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(at);
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/**
 * How long ago (or, for a clock slightly ahead, in how long) `at` was: "12 seconds ago", "5 minutes
 * ago", "2 days ago". "just now" within 5 seconds, or within 45 seconds with `precision: 'minutes'`
 * (a label that ticks every half minute, not every second).
 */
export function formatRelative(at: Instant, now: number = Date.now(), options: { precision?: 'seconds' | 'minutes'; locale?: string } = {}): string {
  const time = timeOf(at);
  if (Number.isNaN(time)) return sharedCatalog.t('format.unknown');
  const seconds = Math.round((time - now) / 1000);
  if (Math.abs(seconds) < (options.precision === 'minutes' ? 45 : 5)) return sharedCatalog.t('format.justNow');
  const locale = options.locale ?? userLocale();
  const rtf = cached(`r|${locale}`, () => new Intl.RelativeTimeFormat(locale, { numeric: 'always' }));
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return rtf.format(Math.round(seconds / size), unit);
  }
  return rtf.format(seconds, 'second');
}
