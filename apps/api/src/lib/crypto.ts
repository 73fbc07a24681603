import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new opaque token: 32 random bytes, base64url (256 bits). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** sha256 of a token, hex: what the database stores instead of the token itself. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** PKCE S256 challenge of a verifier. */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** Derives a purpose-bound sub-key from the master key (HKDF-SHA256). */
export function deriveKey(master: Buffer, purpose: string, length = 32): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `tickety:${purpose}`, length));
}

/**
 * AES-256-GCM for secrets at rest (Discord tokens). Output: `v1.<iv>.<tag>.<ciphertext>`, base64url
 * parts, with a random 96-bit IV per value. `aad` binds a value to its row (e.g. the session id), so a
 * ciphertext copied to another row does not decrypt.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('The token encryption key must be 32 bytes.');
    this.#key = deriveKey(key, 'token-encryption');
  }

  encrypt(plaintext: string, aad = ''): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(aad));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
  }

  decrypt(boxed: string, aad = ''): string {
    const [version, iv, tag, data] = boxed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unknown secret format.');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** HMAC signer for short-lived cookies (`value.signature`). */
export class Signer {
  readonly #key: Buffer;

  constructor(master: Buffer) {
    this.#key = deriveKey(master, 'cookie-signing');
  }

  sign(value: string): string {
    return `${value}.${createHmac('sha256', this.#key).update(value).digest('base64url')}`;
  }

  /** The signed value, or null when the signature does not match. */
  unsign(signed: string): string | null {
    const dot = signed.lastIndexOf('.');
    if (dot <= 0) return null;
    const value = signed.slice(0, dot);
    const given = Buffer.from(signed.slice(dot + 1));
    const expected = Buffer.from(createHmac('sha256', this.#key).update(value).digest('base64url'));
    return given.length === expected.length && timingSafeEqual(given, expected) ? value : null;
  }
}
