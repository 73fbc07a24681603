/** The reader's locale (the pages are English, numbers and dates follow the browser). */
export function userLocale(): string {
  return (typeof navigator !== 'undefined' && navigator.language) || 'en-US';
}

/** A price in its currency: "$4.99", "$5", "€49.99". Whole amounts drop the cents. */
export function formatPrice(amount: number, currency: string, locale = userLocale()): string {
  const whole = Number.isInteger(amount);
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(amount);
}

export function formatNumber(n: number, locale = userLocale()): string {
  return new Intl.NumberFormat(locale).format(n);
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

/** "12 seconds ago", "3 minutes ago", "just now", or "in 5 seconds" for a clock slightly ahead. */
export function formatRelative(iso: string | number, now: number = Date.now(), locale = userLocale()): string {
  const at = typeof iso === 'number' ? iso : Date.parse(iso);
  if (Number.isNaN(at)) return 'unknown';
  const seconds = Math.round((at - now) / 1000);
  if (Math.abs(seconds) < 5) return 'just now';
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return rtf.format(Math.trunc(seconds / size), unit);
  }
  return rtf.format(seconds, 'second');
}

/** A full date and time for a tooltip or `title`. */
export function formatDateTime(iso: string | number, locale = userLocale()): string {
  const at = typeof iso === 'number' ? iso : Date.parse(iso);
  if (Number.isNaN(at)) return 'unknown';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(at);
}

/** A calendar date ("January 15, 2026") from "2026-01-15", read as a date without a time zone. */
export function formatDate(isoDate: string, locale = userLocale()): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate.trim());
  if (!m) return isoDate;
  const at = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(at);
}
