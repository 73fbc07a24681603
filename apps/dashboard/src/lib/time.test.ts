import { describe, expect, it } from 'vitest';
import { timeAgo } from './time';
import { decodeHexSeconds } from './transcript';

describe('timeAgo', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  it('says just now, then minutes, hours and days', () => {
    expect(timeAgo(now - 10_000, now)).toBe('just now');
    expect(timeAgo(now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(timeAgo(now - 60_000, now)).toBe('1 minute ago');
    expect(timeAgo(now - 3 * 3_600_000, now)).toBe('3 hours ago');
    expect(timeAgo(now - 2 * 86_400_000, now)).toBe('2 days ago');
  });
});

describe('decodeHexSeconds', () => {
  it('decodes hex Unix seconds', () => {
    expect(decodeHexSeconds('6790f0a0')?.toISOString()).toBe(new Date(0x6790f0a0 * 1000).toISOString());
    expect(decodeHexSeconds('6790F0A0')?.getTime()).toBe(0x6790f0a0 * 1000);
  });
  it('refuses what is not hex', () => {
    expect(decodeHexSeconds('zz12')).toBeNull();
    expect(decodeHexSeconds('')).toBeNull();
    expect(decodeHexSeconds(undefined)).toBeNull();
    expect(decodeHexSeconds('12.5')).toBeNull();
  });
});
