import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox, Signer, deriveKey, pkceChallenge, randomToken, sha256Hex } from '../../src/lib/crypto';

const key = randomBytes(32);

describe('randomToken / sha256Hex / pkceChallenge', () => {
  it('makes 256-bit base64url tokens, all different', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => randomToken()));
    expect(tokens.size).toBe(200);
    for (const t of tokens) expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken(16)).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('hashes with sha256 (hex)', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('computes the PKCE S256 challenge (RFC 7636 appendix B vector)', () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('derives distinct sub-keys per purpose', () => {
    expect(deriveKey(key, 'a').equals(deriveKey(key, 'b'))).toBe(false);
    expect(deriveKey(key, 'a').equals(deriveKey(key, 'a'))).toBe(true);
    expect(deriveKey(key, 'a')).toHaveLength(32);
  });
});

describe('SecretBox', () => {
  const box = new SecretBox(key);

  it('round-trips, with a fresh IV every time', () => {
    const a = box.encrypt('discord-access-token', 'session-1');
    const b = box.encrypt('discord-access-token', 'session-1');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(a).not.toContain('discord-access-token');
    expect(box.decrypt(a, 'session-1')).toBe('discord-access-token');
    expect(box.decrypt(box.encrypt('', 'x'), 'x')).toBe('');
    expect(box.decrypt(box.encrypt('ünïcødé ✓', 'x'), 'x')).toBe('ünïcødé ✓');
  });

  it('binds a ciphertext to its row (associated data): copied to another row it does not open', () => {
    const boxed = box.encrypt('token', 'session-1');
    expect(() => box.decrypt(boxed, 'session-2')).toThrow();
  });

  it('refuses a tampered ciphertext, tag or IV, and another key', () => {
    const boxed = box.encrypt('token', 'row');
    const [v, iv, tag, data] = boxed.split('.') as [string, string, string, string];
    const flip = (s: string) => `${s.slice(0, -2)}${s.at(-2) === 'A' ? 'B' : 'A'}${s.at(-1)}`;
    expect(() => box.decrypt([v, iv, tag, flip(data)].join('.'), 'row')).toThrow();
    expect(() => box.decrypt([v, iv, flip(tag), data].join('.'), 'row')).toThrow();
    expect(() => box.decrypt([v, flip(iv), tag, data].join('.'), 'row')).toThrow();
    expect(() => box.decrypt(['v2', iv, tag, data].join('.'), 'row')).toThrow(/Unknown secret format/);
    expect(() => box.decrypt('garbage', 'row')).toThrow();
    expect(() => new SecretBox(randomBytes(32)).decrypt(boxed, 'row')).toThrow();
  });

  it('needs a 32-byte key', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});

describe('Signer', () => {
  const signer = new Signer(key);

  it('signs and verifies', () => {
    const signed = signer.sign('state-value');
    expect(signed.startsWith('state-value.')).toBe(true);
    expect(signer.unsign(signed)).toBe('state-value');
    expect(signer.unsign(signer.sign('a.b.c'))).toBe('a.b.c');
  });

  it('refuses a changed value or signature, a missing signature and another key', () => {
    const signed = signer.sign('state-value');
    expect(signer.unsign(`x${signed}`)).toBeNull();
    expect(signer.unsign(`${signed.slice(0, -1)}${signed.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(signer.unsign('state-value')).toBeNull();
    expect(signer.unsign('state-value.')).toBeNull();
    expect(signer.unsign('.sig')).toBeNull();
    expect(signer.unsign('')).toBeNull();
    expect(new Signer(randomBytes(32)).unsign(signed)).toBeNull();
  });

  it('uses a key of its own, not the encryption key', () => {
    // Same master key: signing and encryption derive different sub-keys.
    const signature = signer.sign('v').split('.')[1]!;
    expect(Buffer.from(signature, 'base64url')).toHaveLength(32);
    expect(deriveKey(key, 'cookie-signing').equals(deriveKey(key, 'token-encryption'))).toBe(false);
  });
});
