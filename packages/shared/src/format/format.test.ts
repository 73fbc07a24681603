import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatNumber, formatPrice, formatRelative } from './format';

const now = Date.parse('2026-03-01T12:00:00Z');

describe('formatRelative', () => {
  it('says just now, then seconds, minutes, hours and days', () => {
    expect(formatRelative(now - 2_000, now)).toBe('just now');
    expect(formatRelative(now - 12_000, now, { locale: 'en-US' })).toBe('12 seconds ago');
    expect(formatRelative(new Date(now - 5 * 60_000).toISOString(), now, { locale: 'en-US' })).toBe('5 minutes ago');
    expect(formatRelative(now + 5_000, now, { locale: 'en-US' })).toBe('in 5 seconds');
    expect(formatRelative('not a date', now)).toBe('unknown');
  });

  it('to the minute: just now within 45 seconds (the dashboard\'s "updated" label)', () => {
    const options = { precision: 'minutes', locale: 'en-US' } as const;
    expect(formatRelative(now - 10_000, now, options)).toBe('just now');
    expect(formatRelative(now - 5 * 60_000, now, options)).toBe('5 minutes ago');
    expect(formatRelative(now - 60_000, now, options)).toBe('1 minute ago');
    expect(formatRelative(now - 3 * 3_600_000, now, options)).toBe('3 hours ago');
    expect(formatRelative(now - 2 * 86_400_000, now, options)).toBe('2 days ago');
  });
});

describe('formatPrice', () => {
  it('drops the cents of a whole amount unless asked for them, in the locale given', () => {
    expect(formatPrice(4.99, 'USD', { locale: 'en-US' })).toBe('$4.99');
    expect(formatPrice(5, 'USD', { locale: 'en-US' })).toBe('$5');
    expect(formatPrice(5, 'USD', { locale: 'en-US', cents: 'always' })).toBe('$5.00');
    expect(formatPrice(49.99, 'EUR', { locale: 'de-DE' })).toBe('49,99\u00a0€');
  });
});

describe('dates and numbers', () => {
  it('formats in the locale given', () => {
    expect(formatNumber(12345, 'en-US')).toBe('12,345');
    expect(formatDate('2026-01-15', 'en-US')).toBe('January 15, 2026');
    expect(formatDate('nope', 'en-US')).toBe('nope');
    expect(formatDateTime(now, { locale: 'en-US', seconds: true })).toMatch(/^Mar 1, 2026, \d{1,2}:00:00\s?[AP]M$/);
    expect(formatDateTime('x')).toBe('unknown');
  });
});
