import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** What every sealed value starts with: values without it are random tokens (the per-process kind). */
const PREFIX = 'sx1.';

/**
 * Sealed values: a JSON payload encrypted and authenticated with AES-256-GCM, as an opaque
 * base64url string. Every holder of the secret can open what another sealed; nobody else can read or
 * change it. `purpose` (the additional data) keeps a value sealed for one use from opening as another.
 */
export class Sealer {
  readonly #key: Buffer;

  constructor(secret: string) {
    if (secret.length < 16) throw new RangeError('Sealer: the secret must be at least 16 characters');
    this.#key = createHash('sha256').update(`tickety sandbox seal\0${secret}`).digest();
  }

  seal(purpose: string, payload: unknown): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(purpose));
    const body = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
    return `${PREFIX}${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** The payload, or null: not sealed, sealed with another secret or for another purpose, or altered. */
  open(purpose: string, value: string): unknown {
    if (!value.startsWith(PREFIX) || value.length > 8192) return null;
    const raw = Buffer.from(value.slice(PREFIX.length), 'base64url');
    if (raw.length < 29) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(raw.subarray(12, 28));
      return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8'));
    } catch {
      return null;
    }
  }
}
