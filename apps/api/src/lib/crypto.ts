import { createCipheriv, createDecipheriv, createHash, createHmac, hash, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new opaque token: 32 random bytes, base64url (256 bits). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** sha256 of a token, hex: what the database stores instead of the token itself. */
export function sha256Hex(value: string): string {
  // The one-shot hash (Node 20.12+) skips the Hash object createHash builds: a sixth of a warm @me's own work.
  return hash('sha256', value, 'hex');
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
 * The public id of a token-encryption master key: 8 base64url characters (48 bits) derived by HKDF
 * under a purpose of its own, so it says which key sealed a value without revealing anything about
 * the key (or the sub-keys derived from it). Shown in the logs at start, so operators can check
 * which key is current.
 */
export function tokenKeyId(master: Buffer): string {
  return deriveKey(master, 'token-encryption-key-id', 6).toString('base64url');
}

type SecretUndecryptableReason = 'format' | 'unknown-key' | 'authentication';

/**
 * A stored secret that cannot be opened: sealed with a key that is not configured any more (changed
 * or lost: `unknown-key`), failing authentication (tampered, copied to another row, or a `v1` value
 * none of the keys opens: `authentication`), or not something SecretBox writes (`format`). The
 * message and fields never hold the value or a key: `keyId` is the public id of the missing key.
 */
export class SecretUndecryptableError extends Error {
  constructor(
    readonly reason: SecretUndecryptableReason,
    message: string,
    readonly keyId: string | null = null,
  ) {
    super(message);
    this.name = 'SecretUndecryptableError';
  }
}

interface OpenedSecret {
  plaintext: string;
  /** Sealed with a previous key or in the `v1` format: seal it again with the current key. */
  stale: boolean;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for secrets at rest (Discord tokens, PKCE verifiers). Output:
 * `v2.<key id>.<iv>.<tag>.<ciphertext>`, base64url parts, with a random 96-bit IV per value; the key
 * id (tokenKeyId) names the master key that sealed it, so keys can be rotated: values are sealed with
 * the current key and opened with whichever configured key (current or previous) their id names.
 * `v1.<iv>.<tag>.<ciphertext>` values (before key ids) are still opened, trying the current key, then
 * the previous ones. `aad` binds a value to its row (e.g. the session id), so a ciphertext copied to
 * another row does not decrypt. A value no configured key opens throws SecretUndecryptableError.
 */
export class SecretBox {
  /** The public id of the current key (the one that seals). */
  readonly keyId: string;
  /** The public ids of the previous keys (open only), in the configured order. */
  readonly previousKeyIds: readonly string[];
  readonly #current: Buffer;
  readonly #byId = new Map<string, Buffer>();
  /** Current key first, then the previous ones: the order `v1` values are tried in. */
  readonly #all: Buffer[] = [];

  /** `key`: the current master key (32 bytes); `previous`: earlier master keys, accepted to open only. */
  constructor(key: Buffer, previous: readonly Buffer[] = []) {
    const masters = [key, ...previous];
    if (masters.some((k) => k.length !== 32)) throw new Error('The token encryption key must be 32 bytes.');
    const seen: Buffer[] = [];
    const ids: string[] = [];
    for (const master of masters) {
      if (seen.some((s) => s.equals(master))) continue; // the same key listed twice
      const id = tokenKeyId(master);
      if (this.#byId.has(id)) throw new Error('Two different token encryption keys share a key id: generate a new key.');
      const derived = deriveKey(master, 'token-encryption');
      seen.push(master);
      ids.push(id);
      this.#byId.set(id, derived);
      this.#all.push(derived);
    }
    this.keyId = ids[0]!;
    this.previousKeyIds = ids.slice(1);
    this.#current = this.#all[0]!;
  }

  encrypt(plaintext: string, aad = ''): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#current, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(aad));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v2', this.keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
  }

  /** The plaintext. Throws SecretUndecryptableError when no configured key opens the value. */
  decrypt(boxed: string, aad = ''): string {
    return this.open(boxed, aad).plaintext;
  }

  /** The plaintext, and whether the value should be sealed again with the current key. */
  open(boxed: string, aad = ''): OpenedSecret {
    const parts = boxed.split('.');
    if (parts[0] === 'v2' && parts.length === 5) {
      const [, id, iv, tag, data] = parts as [string, string, string, string, string];
      const key = this.#byId.get(id);
      if (!key) {
        throw new SecretUndecryptableError(
          'unknown-key',
          `The secret was sealed with key ${id.slice(0, 8)}, which is neither TOKEN_ENCRYPTION_KEY nor in TOKEN_ENCRYPTION_PREVIOUS_KEYS.`,
          id.slice(0, 8),
        );
      }
      const plaintext = openWith(key, iv, tag, data, aad);
      if (plaintext === null) throw new SecretUndecryptableError('authentication', 'The secret does not authenticate (tampered or bound to another row).', id);
      return { plaintext, stale: key !== this.#current };
    }
    if (parts[0] === 'v1' && parts.length === 4) {
      const [, iv, tag, data] = parts as [string, string, string, string];
      for (const key of this.#all) {
        const plaintext = openWith(key, iv, tag, data, aad);
        if (plaintext !== null) return { plaintext, stale: true };
      }
      throw new SecretUndecryptableError('authentication', 'No configured token encryption key opens this v1 secret (key changed, tampered or bound to another row).');
    }
    throw new SecretUndecryptableError('format', 'Unknown secret format.');
  }
}

/** AES-256-GCM open; null when the value does not authenticate under this key (or is malformed). */
function openWith(key: Buffer, iv64: string, tag64: string, data64: string, aad: string): string | null {
  const iv = Buffer.from(iv64, 'base64url');
  const tag = Buffer.from(tag64, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(data64, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/**
 * HMAC signer for short-lived cookies (`value.signature`). Signs with the current master key;
 * verifies with it or a previous one, so cookies issued just before a key rotation still work.
 */
export class Signer {
  readonly #keys: Buffer[];

  constructor(master: Buffer, previous: readonly Buffer[] = []) {
    this.#keys = [master, ...previous].map((k) => deriveKey(k, 'cookie-signing'));
  }

  sign(value: string): string {
    return `${value}.${createHmac('sha256', this.#keys[0]!).update(value).digest('base64url')}`;
  }

  /** The signed value, or null when the signature does not match. */
  unsign(signed: string): string | null {
    const dot = signed.lastIndexOf('.');
    if (dot <= 0) return null;
    const value = signed.slice(0, dot);
    const given = Buffer.from(signed.slice(dot + 1));
    for (const key of this.#keys) {
      const expected = Buffer.from(createHmac('sha256', key).update(value).digest('base64url'));
      if (given.length === expected.length && timingSafeEqual(given, expected)) return value;
    }
    return null;
  }
}
