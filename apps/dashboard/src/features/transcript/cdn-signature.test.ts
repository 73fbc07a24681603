import { describe, expect, it } from 'vitest';
import { decodeHexSeconds } from './cdn-signature';

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
