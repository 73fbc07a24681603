import { createHmac } from 'node:crypto';
import { safeEqual } from '../../kit/crypto';

/** What an invoice link names: the transaction, or why it does not work. */
export type InvoiceLinkResult = { ok: true; transactionId: string } | { ok: false; reason: 'expired' | 'invalid' };

const TOKEN = /^(txn_[0-9a-z]{26})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * The short-lived links GET /transactions/{id}/invoice answers with, like Paddle's (which expire after
 * an hour): `<txn id>.<expiry, epoch ms in base 36>.<HMAC-SHA256 of both, base64url>`. Signed, not
 * stored: a link works until its expiry by the stand-in's clock, also after a restart with the same
 * apiKey and webhookSecret (the key is derived from both), and nothing has to be snapshotted.
 */
export class InvoiceLinks {
  readonly #key: Buffer;

  constructor(
    apiKey: string,
    webhookSecret: string,
    readonly ttlMs: number,
    readonly clock: () => number,
  ) {
    this.#key = createHmac('sha256', apiKey).update(`paddle-sandbox invoice links\0${webhookSecret}`).digest();
  }

  #sign(transactionId: string, expires: string): string {
    return createHmac('sha256', this.#key).update(`${transactionId}.${expires}`).digest('base64url');
  }

  /** A token for the transaction's invoice document, valid for `ttlMs` from now. */
  mint(transactionId: string): { token: string; expiresAt: number } {
    const expiresAt = Math.floor(this.clock()) + this.ttlMs;
    const expires = expiresAt.toString(36);
    return { token: `${transactionId}.${expires}.${this.#sign(transactionId, expires)}`, expiresAt };
  }

  read(token: string): InvoiceLinkResult {
    const match = TOKEN.exec(token);
    if (!match) return { ok: false, reason: 'invalid' };
    const [, transactionId, expires, signature] = match as unknown as [string, string, string, string];
    if (!safeEqual(signature, this.#sign(transactionId, expires))) return { ok: false, reason: 'invalid' };
    if (Number.parseInt(expires, 36) <= this.clock()) return { ok: false, reason: 'expired' };
    return { ok: true, transactionId };
  }
}
