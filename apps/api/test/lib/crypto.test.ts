import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveKey, pkceChallenge, randomToken, SecretBox, SecretUndecryptableError, Signer, sha256Hex, tokenKeyId } from '../../src/lib/crypto';

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

  it('computes the PKCE S256 challenge of the published test verifier (docs/api.md#pkce-test-vector)', () => {
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
  const flip = (s: string) => `${s.slice(0, -2)}${s.at(-2) === 'A' ? 'B' : 'A'}${s.at(-1)}`;

  it('round-trips, with a fresh IV every time', () => {
    const first = box.encrypt('discord-access-token', 'session-1');
    const second = box.encrypt('discord-access-token', 'session-1');
    expect(first).not.toBe(second);
    expect(first).toMatch(/^v2\.[\w-]{8}\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(first).not.toContain('discord-access-token');
    expect(box.decrypt(first, 'session-1')).toBe('discord-access-token');
    expect(box.open(first, 'session-1')).toEqual({ plaintext: 'discord-access-token', stale: false });
    expect(box.decrypt(box.encrypt('', 'x'), 'x')).toBe('');
    expect(box.decrypt(box.encrypt('ünïcødé ✓', 'x'), 'x')).toBe('ünïcødé ✓');
  });

  it("prefixes the key's public id: 8 characters derived by HKDF, not the key or a sub-key", () => {
    const id = box.encrypt('token', 'row').split('.')[1]!;
    expect(id).toBe(box.keyId);
    expect(id).toBe(tokenKeyId(key));
    expect(id).toBe(deriveKey(key, 'token-encryption-key-id', 6).toString('base64url'));
    expect(id).toMatch(/^[\w-]{8}$/);
    for (const material of [key, deriveKey(key, 'token-encryption'), deriveKey(key, 'cookie-signing')]) {
      for (const encoding of ['base64', 'base64url', 'hex'] as const) expect(material.toString(encoding)).not.toContain(id);
    }
    expect(new SecretBox(randomBytes(32)).keyId).not.toBe(id);
    expect(new SecretBox(key).keyId).toBe(id); // stable: a restart or another instance names it the same
  });

  it('binds a ciphertext to its row (associated data): copied to another row it does not open', () => {
    const boxed = box.encrypt('token', 'session-1');
    expect(() => box.decrypt(boxed, 'session-2')).toThrow(SecretUndecryptableError);
  });

  it('refuses a tampered ciphertext, tag, IV or key id, and another key, with SecretUndecryptableError', () => {
    const boxed = box.encrypt('token', 'row');
    const [v, id, iv, tag, data] = boxed.split('.') as [string, string, string, string, string];
    const reason = (value: string) => {
      try {
        box.decrypt(value, 'row');
      } catch (error) {
        expect(error).toBeInstanceOf(SecretUndecryptableError);
        if (value) expect((error as Error).message).not.toContain(value);
        return (error as SecretUndecryptableError).reason;
      }
      return 'opened';
    };
    expect(reason(boxed)).toBe('opened');
    expect(reason([v, id, iv, tag, flip(data)].join('.'))).toBe('authentication');
    expect(reason([v, id, iv, flip(tag), data].join('.'))).toBe('authentication');
    expect(reason([v, id, flip(iv), tag, data].join('.'))).toBe('authentication');
    expect(reason([v, id, iv, tag.slice(0, 16), data].join('.'))).toBe('authentication'); // truncated tag
    expect(reason([v, flip(id), iv, tag, data].join('.'))).toBe('unknown-key');
    expect(reason(['v3', id, iv, tag, data].join('.'))).toBe('format');
    expect(reason(['v2', iv, tag, data].join('.'))).toBe('format');
    expect(reason('garbage')).toBe('format');
    expect(reason('')).toBe('format');
    expect(() => box.decrypt(['v3', id, iv, tag, data].join('.'), 'row')).toThrow(/Unknown secret format/);

    const other = new SecretBox(randomBytes(32));
    expect(() => other.decrypt(boxed, 'row')).toThrow(SecretUndecryptableError);
    try {
      other.decrypt(boxed, 'row');
    } catch (error) {
      expect(error).toMatchObject({ name: 'SecretUndecryptableError', reason: 'unknown-key', keyId: box.keyId });
    }
  });

  it('rotates: seals with the current key, opens values of the previous keys (marked stale), refuses dropped keys', () => {
    const [k1, k2, k3] = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const first = new SecretBox(k1);
    const sealedWith1 = first.encrypt('token-1', 'row');

    const rotated = new SecretBox(k2, [k1]);
    expect(rotated.keyId).toBe(tokenKeyId(k2));
    expect(rotated.previousKeyIds).toEqual([tokenKeyId(k1)]);
    expect(rotated.open(sealedWith1, 'row')).toEqual({ plaintext: 'token-1', stale: true });
    const resealed = rotated.encrypt('token-1', 'row');
    expect(resealed.split('.')[1]).toBe(tokenKeyId(k2));
    expect(rotated.open(resealed, 'row')).toEqual({ plaintext: 'token-1', stale: false });
    // Instances still on the old key (previous: the new one) read what rotated instances write.
    expect(new SecretBox(k1, [k2]).open(resealed, 'row')).toEqual({ plaintext: 'token-1', stale: true });
    expect(() => rotated.decrypt(sealedWith1, 'another-row')).toThrow(SecretUndecryptableError);

    // Twice rotated, k1 dropped: its values no longer open; k2's still do.
    const again = new SecretBox(k3, [k2]);
    expect(() => again.decrypt(sealedWith1, 'row')).toThrow(expect.objectContaining({ reason: 'unknown-key', keyId: tokenKeyId(k1) }));
    expect(again.decrypt(resealed, 'row')).toBe('token-1');
    // The same key listed as current and previous is harmless.
    expect(new SecretBox(k1, [k1]).previousKeyIds).toEqual([]);
  });

  it('still opens v1 values (before key ids): current key first, then previous keys; always stale', () => {
    // Written by the v1 SecretBox (key: 32 bytes of 7), before key ids existed.
    const legacyKey = Buffer.alloc(32, 7);
    const v1 = 'v1.Z_PLwJGGtJ4O4uG6.8cQ67CUphRJvpaXgyX81yg.yt_BRP9ihOn5KsNMYgCtf3Kyq6s';
    expect(new SecretBox(legacyKey).open(v1, 'session-v1')).toEqual({ plaintext: 'legacy-discord-token', stale: true });
    expect(new SecretBox(randomBytes(32), [randomBytes(32), legacyKey]).decrypt(v1, 'session-v1')).toBe('legacy-discord-token');
    expect(() => new SecretBox(legacyKey).decrypt(v1, 'session-v2')).toThrow(SecretUndecryptableError);
    expect(() => new SecretBox(randomBytes(32)).decrypt(v1, 'session-v1')).toThrow(expect.objectContaining({ reason: 'authentication' }));
    const [v, iv, tag, data] = v1.split('.') as [string, string, string, string];
    expect(() => new SecretBox(legacyKey).decrypt([v, iv, tag, flip(data)].join('.'), 'session-v1')).toThrow(SecretUndecryptableError);
  });

  it('needs 32-byte keys', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32 bytes/);
    expect(() => new SecretBox(randomBytes(32), [randomBytes(16)])).toThrow(/32 bytes/);
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

  it('verifies with previous keys too (cookies issued just before a key rotation), and signs with the current one', () => {
    const previous = randomBytes(32);
    const rotated = new Signer(randomBytes(32), [previous]);
    expect(rotated.unsign(new Signer(previous).sign('state-value'))).toBe('state-value');
    expect(rotated.sign('v')).not.toBe(new Signer(previous).sign('v'));
    expect(new Signer(previous).unsign(rotated.sign('v'))).toBeNull();
    expect(rotated.unsign(signer.sign('state-value'))).toBeNull();
  });

  it('uses a key of its own, not the encryption key', () => {
    // Same master key: signing and encryption derive different sub-keys.
    const signature = signer.sign('v').split('.')[1]!;
    expect(Buffer.from(signature, 'base64url')).toHaveLength(32);
    expect(deriveKey(key, 'cookie-signing').equals(deriveKey(key, 'token-encryption'))).toBe(false);
  });
});
