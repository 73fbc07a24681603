import { describe, expect, test } from 'vitest';
import { signFastspring } from './signature';
import { signatureValid } from './test-helpers';

describe('signFastspring', () => {
  test('matches the reference vector (base64 HMAC-SHA256 of the raw body)', () => {
    const body =
      '{"events":[{"id":"evt1","type":"subscription.activated","live":false,"processed":false,"created":1700000000000,"data":{"id":"sub1","state":"active"}}]}';
    expect(signFastspring(body, 'fs_test_secret')).toBe('YegfBU4Z98OzX3W3bb24ZRnimqMo0Q8GZXj0LJcBzpc=');
    expect(signFastspring(Buffer.from(body), 'fs_test_secret')).toBe('YegfBU4Z98OzX3W3bb24ZRnimqMo0Q8GZXj0LJcBzpc=');
    expect(signatureValid(body, 'YegfBU4Z98OzX3W3bb24ZRnimqMo0Q8GZXj0LJcBzpc=', 'fs_test_secret')).toBe(true);
  });

  test('covers the exact bytes: a re-spaced body or another secret does not match', () => {
    const body = '{"events":[]}';
    const sig = signFastspring(body, 'fs_test_secret');
    expect(signFastspring('{"events": []}', 'fs_test_secret')).not.toBe(sig);
    expect(signFastspring(body, 'other')).not.toBe(sig);
    expect(() => signFastspring(body, '')).toThrow(RangeError);
  });
});
